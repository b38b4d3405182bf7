"""The one exception hierarchy of nardy_analysis.

Every error the library raises on bad input derives from :class:`NardyError`;
messages quote the offending text and say where it is.
"""

from __future__ import annotations


class NardyError(Exception):
    """Root of every error raised by nardy_analysis on bad input."""


class NotationError(NardyError, ValueError):
    """Text that does not follow the notation (a syntax error).

    Parameters
    ----------
    message : str
        What is wrong, in plain words (what was found, what was expected).
    line, column : int
        1-based position of the offending text in its source.
    source_line : str
        The whole source line, shown with a caret under ``column``.
    file : str, optional
        Name of the file the text came from.
    game : int, optional
        Number of the game the text is in (None outside a game).
    """

    def __init__(self, message: str, line: int = 0, column: int = 0,
                 source_line: str = "", file: str | None = None, game: int | None = None):
        self.message = message
        self.line = line
        self.column = column
        self.source_line = source_line
        self.file = file
        self.game = game
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.file}:" if self.file else ""
        text = f"{where}{self.line}:{self.column}: {self.message}"
        if self.source_line:
            text += f"\n    {self.source_line}\n    {' ' * (self.column - 1)}^"
        return text


class DecodeError(NotationError):
    """Bytes that cannot be decoded as text; ``offset`` is the byte offset."""

    def __init__(self, message: str, offset: int, file: str | None = None):
        self.offset = offset
        super().__init__(message, file=file)


class PositionIdError(NardyError, ValueError):
    """A malformed gnubg Position ID, Match ID or XGID; the message quotes it."""


class IllegalPlayError(NardyError, ValueError):
    """A play or step that the rules do not allow in the given position."""


class RuleViolation(NardyError):
    """A record that breaks the rules, found while replaying a match.

    Attributes
    ----------
    kind : str
        Short machine-readable name of the rule broken (``illegal_play``,
        ``forced_play``, ``cube``, ``result``, ``score``, ``turn_order``, ...).
    message : str
        The rule broken, in plain words.
    file : str or None
        Source file name.
    game, move : int or None
        Game number (as written in the file) and move number (the ``N)`` label).
    line, column : int
        1-based position of the recorded text.
    text : str
        The recorded text.
    position_id : str or None
        gnubg Position ID of the position before the record.
    """

    def __init__(self, kind: str, message: str, *, file: str | None = None,
                 game: int | None = None, move: int | None = None, line: int = 0,
                 column: int = 0, text: str = "", position_id: str | None = None):
        self.kind = kind
        self.message = message
        self.file = file
        self.game = game
        self.move = move
        self.line = line
        self.column = column
        self.text = text
        self.position_id = position_id
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.file}:" if self.file else ""
        move = f", move {self.move}" if self.move is not None else ""
        return (f"{where}{self.line}:{self.column}: game {self.game}{move}: "
                f"{self.message} [{self.kind}] in '{self.text}'"
                + (f" (position {self.position_id})" if self.position_id else ""))

    def to_dict(self) -> dict:
        """The violation as a JSON-ready dict (the CLI's ``errors`` objects)."""
        return {"file": self.file, "game": self.game, "move": self.move, "line": self.line,
                "column": self.column, "text": self.text, "kind": self.kind,
                "message": self.message, "position_id": self.position_id}


class EngineError(NardyError):
    """No engine is installed, or a position or roll an engine cannot take."""
