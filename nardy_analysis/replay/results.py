"""The results of a replay: each roll, game and match as replayed against the rules
(:func:`~nardy_analysis.replay.replay_match` makes them), and a match file's records with
its replayed matches and errors (:func:`~nardy_analysis.load.load_file` makes it)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path

from ..errors import NardyError, RecordWarning, RuleViolation, plural
from ..game.moves import Play, Roll
from ..game.position import Position
from ..game.rules import Rules
from ..notation.records import GameRecord, MatchRecord, TurnRecord

__all__ = ["LoadedFile", "ReplayedGame", "ReplayedMatch", "ReplayedTurn"]


@dataclass(frozen=True, slots=True, init=False)
class ReplayedTurn:
    """A roll as replayed.

    Attributes
    ----------
    record : TurnRecord
        What the file says.
    before : Position
        The position before the roll, the roller on roll.
    after : Position or None
        The position after the play (the opponent on roll); None when the play is unknown
        (``???``), when no play followed the roll (the player resigned after rolling, or
        the file ends there) or when it was not replayed because it broke the rules.
    play : Play or None
        The play as the board decides it (hits marked by the board, not by ``*``).
    cube_value : int
        Cube value when the roll was thrown.
    cube_owner : int or None
        Owner of the cube (None: centred).
    """

    record: TurnRecord
    before: Position
    after: Position | None
    play: Play | None
    cube_value: int
    cube_owner: int | None

    def __init__(self, record: TurnRecord, before: Position, after: Position | None,
                 play: Play | None, cube_value: int, cube_owner: int | None):
        # As the frozen dataclass would, without its slower calls (a turn is made per roll).
        _set_record(self, record)
        _set_before(self, before)
        _set_after(self, after)
        _set_play(self, play)
        _set_cube_value(self, cube_value)
        _set_cube_owner(self, cube_owner)

    def __repr__(self) -> str:
        return (f"<ReplayedTurn move {self.record.move} player {self.player + 1} "
                f"{self.roll}: {self.play if self.play is not None else '?'}>")

    @property
    def player(self) -> int:
        return self.record.player

    @property
    def roll(self) -> Roll:
        return self.record.roll


_set_record, _set_before, _set_after, _set_play, _set_cube_value, _set_cube_owner = (
    ReplayedTurn.__dict__[f.name].__set__ for f in fields(ReplayedTurn))


@dataclass
class ReplayedGame:
    """One replayed game: its turns, how it ended, its rule violations and warnings.

    ``winner`` and ``points`` come from the result written in the file (None when the file
    ends before the game does), unless the board contradicts it (then the board's result, and
    a ``result`` warning); ``ending`` is ``single``, ``gammon`` or ``backgammon`` (long
    nardy: ``oin``, ``mars`` or ``home_mars``) for a game borne off to the end, ``drop``
    for a dropped double, ``resign`` for a game given up, ``forfeit`` for a match given up
    (the winner is awarded the points they need: sites do this when a player leaves), None
    for an unfinished game. ``complete`` is True when every play was replayed: False after a
    violation, an unknown play (``???``), a roll that ends the file with no play, or a
    record cut at a line the reader could not read (``GameRecord.cut_line``).
    ``errors`` are the rule violations (the first that stops the game is the last; some,
    such as a wrong score line, do not stop it), ``stopped`` is True when one did,
    ``warnings`` the quirks resolved (module docstring).

    ``scores`` are the points of players 0 and 1 before the game: those the results of the
    games before it make, when the file holds the game before it and that game's result
    (not so after an unfinished game, one cut at a line that cannot be read, or one
    written without its end); else the game's score line. A score line that disagrees is
    a ``score`` error and is not used (the board and the results are trusted, not the
    line); so is a score line at or above the match length (a match is over when a player
    reaches it), which is used only when no game before it gives the score (and the next
    game then takes its own line).

    ``crawford`` is True for the Crawford game of a match (the first game in which one
    player, and only one, is one point from winning, when the rules have the Crawford rule:
    no doubling); ``post_crawford`` for any other game of a match in which a player is one
    point from winning (after the Crawford game, or without the Crawford rule: the cube is
    free). RULES.md, "Doubling cube, matches, house rules". A file may start mid-match (its
    first game not at 0-0); if that game is already at one point from winning, the Crawford
    game may be behind: it counts as the Crawford game unless a player doubles in it (then
    it is post-Crawford).
    """

    record: GameRecord
    scores: tuple[int, int] = (0, 0)
    turns: list[ReplayedTurn] = field(default_factory=list)
    errors: list[RuleViolation] = field(default_factory=list)
    warnings: list[RecordWarning] = field(default_factory=list)
    winner: int | None = None
    points: int | None = None
    ending: str | None = None
    final: Position | None = None
    complete: bool = True
    stopped: bool = False
    crawford: bool = False
    post_crawford: bool = False

    def __repr__(self) -> str:
        name = self.record.names[self.winner] if self.winner is not None else ""
        result = "unfinished" if self.winner is None else (
            f"player {self.winner + 1}{f' ({name})' if name else ''} wins "
            f"{plural(self.points or 0, 'point')} ({self.ending})")
        return f"<ReplayedGame {self.number}: {plural(len(self.turns), 'turn')}, {result}, " \
               f"{_problems(self.errors, self.warnings)}>"

    @property
    def number(self) -> int:
        return self.record.number

    @property
    def score_after(self) -> tuple[int, int]:
        """The score of players 0 and 1 after this game, in points: :attr:`scores` (the
        score before it) plus the points won in it (none while unfinished)."""
        won, (first, second) = self.points or 0, self.scores
        return first + won * (self.winner == 0), second + won * (self.winner == 1)


@dataclass
class ReplayedMatch:
    """A replayed match: its record, the rules used and its games."""

    record: MatchRecord
    rules: Rules
    games: list[ReplayedGame]

    def __repr__(self) -> str:
        return (f"<ReplayedMatch {self.record.file or '?'}: {self.record.length}-point, "
                f"{self.rules.name} rules, {plural(len(self.games), 'game')}, "
                f"{_problems(self.errors, self.warnings)}>")

    @property
    def errors(self) -> list[RuleViolation]:
        """Every rule violation found in the match, in file order."""
        return [e for g in self.games for e in g.errors]

    @property
    def warnings(self) -> list[RecordWarning]:
        """Every warning of the match's games, game by game."""
        return [w for g in self.games for w in g.warnings]

    @property
    def score(self) -> tuple[int, int]:
        """Points of players 0 and 1 after the last game replayed (0-0 without games)."""
        return self.games[-1].score_after if self.games else (0, 0)

    @property
    def finished(self) -> bool:
        """A player reached the match length; in a money session (length 0), the last game
        has a result."""
        if not self.games:
            return False
        length = self.record.length
        return max(self.score) >= length if length else self.games[-1].winner is not None

    @property
    def winner(self) -> int | None:
        """The player (0 or 1) ahead when :attr:`finished`, else None (also when even)."""
        first, second = self.score
        return None if not self.finished or first == second else int(second > first)


@dataclass(frozen=True)
class LoadedFile:
    """One match file, read and replayed (:func:`~nardy_analysis.load.load_file`).

    Attributes
    ----------
    path : Path
    records : tuple of MatchRecord
        Every match read from the file.
    matches : tuple of ReplayedMatch
        The matches replayed, in file order: every record, unless a strict replay stopped
        at a violation. Violations found in lenient mode are in each match's ``errors``.
    errors : tuple of OSError or NardyError
        What kept the file from being read or replayed in full: ``OSError`` (the file
        cannot be read), :class:`~nardy_analysis.errors.DecodeError` and
        :class:`~nardy_analysis.errors.NotationError` (each part of the file skipped; an
        :class:`~nardy_analysis.errors.EmptyFile`, kind ``empty``, for a file that holds
        no match and no other error), and in strict mode the
        :class:`~nardy_analysis.errors.RuleViolation` that stopped it.
    warnings : tuple of RecordWarning
        The quirks resolved in reading the file (the
        :class:`~nardy_analysis.notation.records.ParsedFile`'s ``warnings``), then every
        replayed match's ``warnings``.
    """

    path: Path
    records: tuple[MatchRecord, ...]
    matches: tuple[ReplayedMatch, ...]
    errors: tuple[OSError | NardyError, ...]
    warnings: tuple[RecordWarning, ...] = ()


def _problems(errors: list[RuleViolation], warnings: list[RecordWarning]) -> str:
    """``N errors`` and, if any, ``M warnings``."""
    return plural(len(errors), "error") + (f", {plural(len(warnings), 'warning')}"
                                           if warnings else "")
