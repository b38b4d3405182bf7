"""The one exception hierarchy of nardy_analysis.

Every error the library raises on bad input derives from :class:`NardyError`, whose
:meth:`~NardyError.to_dict` gives the same JSON-ready fields for every error; bad arguments
and bad text are also ``ValueError`` s (:class:`InvalidArgument`, :class:`NotationError`).
Messages quote the offending text and say where it is.
"""

from __future__ import annotations

import os


def plural(count: int, word: str) -> str:
    """``count`` and ``word`` for messages and pages, the word in the plural unless the
    count is 1: ``1 game``, ``2 games``, ``0 matches``."""
    if count == 1:
        return f"{count} {word}"
    return f"{count} {word}{'es' if word.endswith(('ch', 'sh', 's', 'x')) else 's'}"


def path_text(path: str | os.PathLike[str]) -> str:
    """The text that names ``path`` in messages, records and every output (terminal lines,
    CSV, JSON, Parquet, HTML): the file name as the file system gives it, each byte that is
    not UTF-8 written as ``\\xNN`` (``bad\\xffname.mat``), so that the text can be written
    anywhere. Text without such bytes is returned as it is (the function is idempotent).

    Parameters
    ----------
    path : str or path-like
        A name as Python gives it for the file system: bytes that are not UTF-8 are
        surrogate escapes in ``str`` (``os.fsdecode``).
    """
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def _unpickled(cls: "type[NardyError]", args: tuple[object, ...],
               state: dict[str, object]) -> "NardyError":
    """An error rebuilt from its arguments and attributes (:meth:`NardyError.__reduce__`)."""
    error = cls.__new__(cls, *args)
    vars(error).update(state)
    return error


class NardyError(Exception):
    """Root of every error raised by nardy_analysis on bad input. Errors pickle with all
    their attributes, so worker processes send them back whole.

    Attributes
    ----------
    kind : str
        Short machine-readable name of the error (``syntax``, ``encoding``, a rule broken).
    file : str or None
        Source file name, when the error comes from a file.
    game, move : int or None
        Game number (as written in the file) and move number (the ``N)`` label).
    line, column : int
        1-based position of the offending text (0 when unknown).
    text : str
        The offending text, as written.
    position_id : str or None
        gnubg Position ID of the position the error concerns.
    """

    kind = "error"
    file: str | None = None
    game: int | None = None
    move: int | None = None
    line = 0
    column = 0
    text = ""
    position_id: str | None = None

    def __reduce__(self) -> tuple[object, ...]:
        return _unpickled, (type(self), self.args, self.__dict__)

    def to_dict(self) -> dict[str, object]:
        """The error as a JSON-ready dict (the CLI's ``errors`` objects): ``file``, ``game``,
        ``move``, ``line``, ``column``, ``text``, ``kind``, ``message``, ``position_id``."""
        return {"file": self.file, "game": self.game, "move": self.move, "line": self.line,
                "column": self.column, "text": self.text, "kind": self.kind,
                "message": getattr(self, "message", str(self)),
                "position_id": self.position_id}


class InvalidArgument(NardyError, ValueError):
    """A bad argument to a library function: a value out of range, or text that does not
    say what it should; the message quotes it."""


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

    kind = "syntax"

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

    @property
    def text(self) -> str:  # type: ignore[override]  # a NotationError has its source line
        """The offending source line, stripped."""
        return self.source_line.strip()


class DecodeError(NotationError):
    """Bytes that cannot be decoded as text; ``offset`` is the byte offset."""

    kind = "encoding"

    def __init__(self, message: str, offset: int, file: str | None = None):
        self.offset = offset
        super().__init__(message, file=file)


class PositionIdError(InvalidArgument):
    """A malformed gnubg Position ID, Match ID or XGID; the message quotes it."""


class IllegalPlayError(InvalidArgument):
    """A play or step that the rules do not allow in the given position.

    Parameters
    ----------
    message : str
        What is wrong, naming the points.
    kind : str
        The rule broken: ``illegal_play`` (no checker there, beyond the board, bearing off too
        early, a die not rolled), ``closed_point``, ``head_rule``, ``six_block`` or
        ``forced_play``.
    step : int or None
        Index of the offending step in the play as written; None when the whole play is at
        fault (a six-point block, the forced-play rules).
    """

    def __init__(self, message: str, kind: str = "illegal_play", step: int | None = None):
        self.message = message
        self.kind = kind
        self.step = step
        super().__init__(message)


class RecordProblem(NardyError):
    """Something found in a record while replaying a match: the base of
    :class:`RuleViolation` (an error) and :class:`RecordWarning` (a quirk resolved).

    Attributes
    ----------
    kind : str
        Short machine-readable name of the problem (``illegal_play``, ``forced_play``,
        ``cube``, ``result``, ``score``, ``turn_order``, ``ambiguous_resolved``, ...).
    message : str
        What is wrong, in plain words.
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
        game = f"game {self.game}{move}: " if self.game is not None else ""  # a header's
        return (f"{where}{self.line}:{self.column}: {game}"
                f"{self.message} [{self.kind}] in '{self.text}'"
                + (f" (position {self.position_id})" if self.position_id else ""))


class RuleViolation(RecordProblem):
    """A record that breaks the rules, found while replaying a match: that game is not
    replayed further (fields: :class:`RecordProblem`)."""


class RecordWarning(RecordProblem):
    """A quirk of a record that the reader or the replay resolved (an exporter's convention,
    a result line the board corrects): the game goes on (fields: :class:`RecordProblem`).
    Strict mode raises it as an error, :meth:`as_error`."""

    def as_error(self) -> RuleViolation:
        """The same problem as a :class:`RuleViolation` of the same kind and place."""
        return RuleViolation(self.kind, self.message, file=self.file, game=self.game,
                             move=self.move, line=self.line, column=self.column,
                             text=self.text, position_id=self.position_id)


class EngineError(NardyError):
    """No engine is installed, or a position or roll an engine cannot take."""


class NotAMatch(NotationError):
    """A file that is not a match record at all: text with no ``N point match`` or
    ``Game N`` line (a README), or binary data. The message says what was seen."""

    kind = "not_a_match"


class EmptyFile(NotationError):
    """A file that holds no match: no text, blank lines, or comments and tags without an
    ``N point match`` line or an SGF game tree (at 1:1)."""

    kind = "empty"
