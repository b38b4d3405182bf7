"""Plain records of a match file, as written: what the notation says, not yet checked.

A reader returns them in a :class:`ParsedFile`, with what it could not read.

Every record keeps the 1-based ``line`` and ``column`` of its text and the ``text`` itself,
so that later layers can report precisely where a problem is. Players are 0 (the left-hand
column, the first name on the score line) and 1 (the right-hand column).

All are immutable and hashable. The records a reader makes hundreds of thousands of (moves
and actions: :class:`WrittenMove`, :class:`TurnRecord`, :class:`CubeRecord`,
:class:`ResultRecord`) are named tuples, which are made several times faster than frozen
dataclasses (change one with ``record._replace(field=value)``); the others are frozen
dataclasses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple, Sequence

from ..errors import NardyError, RecordWarning
from ..game.moves import Roll, point_str
from ..game.rules import VARIANTS, Rules

LONG_VARIATION = "LongNardy"
"""The ``Variation`` tag of a long nardy record: ``; [Variation "LongNardy"]``."""


CAUCASIAN_VARIATION = "Caucasian"
"""The ``Variation`` tag of a Caucasian short nardy record: ``; [Variation "Caucasian"]``."""


def variation_tag(rules: Rules) -> str:
    """The ``Variation`` tag value that selects ``rules`` when read back
    (:meth:`~nardy_analysis.game.rules.Rules.with_tags`): :data:`LONG_VARIATION` for long
    nardy as the rule page "Игра в длинные нарды" gives it, :data:`CAUCASIAN_VARIATION` for
    Caucasian short nardy, else the variant's name (``long-federation``, ``tavla``)."""
    for tag in (LONG_VARIATION, CAUCASIAN_VARIATION):
        if rules == VARIANTS[tag.lower()]:
            return tag
    return rules.name


class WrittenMove(NamedTuple):
    """One written move token such as ``13/7*/5`` or ``8/4*(2)``.

    Attributes
    ----------
    points : tuple of int
        The points written, from the mover's side: start, any intermediate points, end
        (bar = 25, off = 0).
    hits : tuple of bool
        For each point after the first, whether it was marked ``*``.
    count : int
        The ``(n)`` repeat, 1 when absent.
    line, column : int
        Where the token is.
    text : str
        The token as written.
    """

    points: tuple[int, ...]
    hits: tuple[bool, ...]
    count: int  # type: ignore[assignment]  # the field's name, over tuple.count
    line: int
    column: int
    text: str

    def __str__(self) -> str:
        return self.notation()

    def notation(self, bar_off: bool = True) -> str:
        """The move's text: ``13/7*/5``, ``bar/22(2)``; with ``bar_off`` False the bar and off
        are written ``25`` and ``0``."""
        name = point_str if bar_off else str
        hops = "".join(f"/{name(p)}{'*' if hit else ''}" for p, hit in zip(self.points[1:],
                                                                          self.hits))
        return name(self.points[0]) + hops + (f"({self.count})" if self.count != 1 else "")


# Fields of a Snowie position (SnowiePosition): the player whose checkers are the negative
# numbers, that player's checkers on the bar, the points 1..24, the other player's bar.
_SNOWIE_PLAYER, _SNOWIE_BAR, _SNOWIE_POINTS, _SNOWIE_OTHER_BAR = 4, 12, slice(13, 37), 37


@dataclass(frozen=True, slots=True)
class SnowiePosition:
    """A position in Snowie's text format, as XG and Snowie write it after ``Illegal play``:
    ``11: Illegal play (25;0;1;0;0;alice;bob;0;10;8;2;1;0;3;4;...;-2;2;1;1;)``.

    The fields are read as GNU Backgammon's importer reads them (``ParseSnowieTxt`` in its
    ``import.c``; checked by importing such records with gnubg 1.1.0a16): 0 match length,
    1 Jacoby, 2 and 3 unused, 4 the player (0 first, 1 second) whose checkers are the
    negative numbers, 5 and 6 the names of that player and the other, 7 Crawford game,
    8 and 9 their scores, 10 the cube value, 11 its owner (1 that player, -1 the other,
    0 centred), 12 that player's checkers on the bar, 13..36 the points 1..24 numbered from
    the other player's side (positive numbers the other player's checkers, negative that
    player's), 37 the other player's checkers on the bar, 38 and 39 the dice.

    Attributes
    ----------
    fields : tuple of int and str
        The 40 fields as written: numbers, and the two names (fields 5 and 6) as strings.
    """

    fields: tuple[int | str, ...]

    def __str__(self) -> str:
        return ";".join(map(str, self.fields)) + ";"

    @classmethod
    def from_board(cls, board: Sequence[Sequence[int]], length: int, names: tuple[str, str],
                   scores: tuple[int, int], cube: int, owner: int | None,
                   dice: tuple[int, int]) -> "SnowiePosition":
        """The fields of a position with player 0 in field 4 (its checkers the negative
        numbers), as XG writes them.

        Parameters
        ----------
        board : pair of sequences of 26 int
            Checkers of players 0 and 1, each by its own points (1..24, 25 the bar; 0 is
            not used).
        length : int
            Match length (0: money).
        names, scores : pairs
            Of players 0 and 1.
        cube : int
            Cube value.
        owner : int or None
            The cube's owner, 0 or 1 (None: centred).
        dice : pair of int
        """
        mine, other = board
        return cls((length, 0, 0, 0, 0, *names, 0, *scores, cube,
                    0 if owner is None else 1 - 2 * owner, mine[25],
                    *(other[p] or -mine[25 - p] for p in range(1, 25)), other[25], *dice))

    @property
    def player(self) -> int:
        """The player (0 or 1) of the negative numbers and of the first name and score."""
        return int(self.fields[_SNOWIE_PLAYER])

    @property
    def board(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Checkers of players 0 and 1 (as in a ``.mat`` file: left, right column), each
        indexed by that player's own points: 1..24, 25 the bar; 0 (borne off) is not
        written and is given as 0."""
        sides = [[0] * 26, [0] * 26]
        negative = sides[self.player]
        positive = sides[1 - self.player]
        for point, count in enumerate(map(int, self.fields[_SNOWIE_POINTS]), 1):
            if count > 0:
                positive[point] = count
            elif count < 0:
                negative[25 - point] = -count
        negative[25] = abs(int(self.fields[_SNOWIE_BAR]))
        positive[25] = abs(int(self.fields[_SNOWIE_OTHER_BAR]))
        return tuple(sides[0]), tuple(sides[1])


class TurnRecord(NamedTuple):
    """A roll and its play: ``52: 13/8 13/11``.

    ``moves`` is ``()`` for an empty play or ``Cannot Move`` and ``None`` when the play is
    unknown (``???``) or was illegal (``Illegal play (...)``, XG and Snowie; or, in gnubg's
    SGF, a roll with no play followed by a set-up position, read into the same fields;
    then ``recorded_position`` is the position recorded after it). ``move`` is the ``N)``
    label of the line (None on unlabelled lines).
    """

    player: int
    roll: Roll
    moves: tuple[WrittenMove, ...] | None
    move: int | None
    line: int
    column: int
    text: str
    # The other properties of an SGF node, as (identifier, values) pairs in the order
    # written (gnubg's analysis A, luck LU, ...; for a game, its root node's RU, GS, ...).
    properties: tuple[tuple[str, tuple[str, ...]], ...] = ()
    recorded_position: SnowiePosition | None = None


class CubeRecord(NamedTuple):
    """A cube action: ``action`` is ``double``, ``take``, ``drop``, ``beaver`` or ``raccoon``;
    ``value`` is the cube value written after ``=>`` (None for take and drop)."""

    player: int
    action: str
    value: int | None
    move: int | None
    line: int
    column: int
    text: str
    # The other properties of an SGF node, as (identifier, values) pairs in the order
    # written (gnubg's analysis A, luck LU, ...; for a game, its root node's RU, GS, ...).
    properties: tuple[tuple[str, tuple[str, ...]], ...] = ()


class ResultRecord(NamedTuple):
    """``Wins N point(s) [and the match]`` (``wins`` True) or ``Losses N point(s)``."""

    player: int
    points: int
    wins: bool
    match_won: bool
    move: int | None
    line: int
    column: int
    text: str


Action = TurnRecord | CubeRecord | ResultRecord


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game: its number, the score line (names and scores before the game) and its
    actions in the order written (left column before right column on each line).
    ``line``/``column`` locate the ``Game N`` number, ``score_line``/``score_column`` the
    score line. ``ratings`` are the players' ratings where the score line gives them after
    the name (``alice,1635 : 3``, as FIBS and GridGammon write it; ``names`` hold the bare
    names), else None. ``cut_line`` is the line of a syntax error inside the game, whose
    actions are then those of the lines before it (the rest of the game is not read), else
    None. ``ending`` is how the game ended where a replay found it, in a record written from
    the board (:func:`~nardy_analysis.replay.written_record`; the values of
    :attr:`~nardy_analysis.replay.ReplayedGame.ending`: ``single``, ``drop``, ``resign``,
    ...), else None (a record as read: a ``.mat`` result does not say)."""

    number: int
    names: tuple[str, str]
    scores: tuple[int, int]
    actions: tuple[Action, ...]
    line: int
    column: int
    score_line: int
    score_column: int
    # The other properties of an SGF node, as (identifier, values) pairs in the order
    # written (gnubg's analysis A, luck LU, ...; for a game, its root node's RU, GS, ...).
    properties: tuple[tuple[str, tuple[str, ...]], ...] = ()
    ratings: tuple[float | None, float | None] = (None, None)
    cut_line: int | None = None
    ending: str | None = None

    def __repr__(self) -> str:
        return (f"GameRecord(number={self.number}, names={self.names!r}, scores={self.scores!r}, "
                f"actions={len(self.actions)})")

    @property
    def turns(self) -> tuple[TurnRecord, ...]:
        """The rolls written in this game (dances and unknown plays included)."""
        return tuple(a for a in self.actions if isinstance(a, TurnRecord))


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One match: its length in points (0 = money session), header tags, games."""

    length: int
    tags: dict[str, str] = field(hash=False, compare=True)
    games: tuple[GameRecord, ...]
    line: int
    column: int
    file: str | None = None

    def __repr__(self) -> str:
        return f"MatchRecord(length={self.length}, file={self.file!r}, games={len(self.games)})"

    @property
    def names(self) -> tuple[str, str]:
        """The players' names, left-hand column first: the ``Player 1``/``Player 2`` tags
        (which a reader gives the sides of the score lines: :func:`tags_by_side`), else the
        first score line."""
        first = self.games[0].names if self.games else ("", "")
        return self.tags.get("Player 1") or first[0], self.tags.get("Player 2") or first[1]

    @property
    def players(self) -> tuple[str, str]:
        """The players as every output names them: :attr:`names`, and ``player 1`` or
        ``player 2`` (the left or right column) for a player the file does not name."""
        left, right = self.names
        return left or "player 1", right or "player 2"


# A header tag of one player: "Player 1", "Player 2 Elo", "Player 1 Rank".
_PLAYER_TAG = re.compile(r"^Player ([12])(?= |$)")


def tags_by_side(tags: dict[str, str], names: tuple[str, str]) -> dict[str, str] | None:
    """The header tags with each player's tags moved to the other player, when the
    ``Player 1``/``Player 2`` tags name the players of the score line ``names`` (left-hand
    column first) the other way round; else None.

    Some exporters (XG's ``.mat`` export among them) may name the right-hand player
    ``Player 1``; GNU Backgammon's importer takes the sides from the score lines alone. A
    tag names a player when its value is that player's name on the score line (blanks
    around it and case aside). The tags are the other way round when either tag names the
    other side's player and neither names its own. Every tag of a player moves with the
    name: ``Player 1 Elo`` becomes ``Player 2 Elo`` and so on (each keeps its place in the
    order of the tags where both players have it).

    Parameters
    ----------
    tags : dict of str to str
        The header tags, as written.
    names : (str, str)
        The names on a score line, left then right.

    Returns
    -------
    dict of str to str, or None
    """
    def same(tag: str | None, name: str) -> bool:
        return tag is not None and tag.strip().casefold() == name.strip().casefold() != ""

    tagged = tags.get("Player 1"), tags.get("Player 2")
    if any(map(same, tagged, names)) or not any(map(same, tagged, names[::-1])):
        return None
    moved = {}
    for key, value in tags.items():
        partner = _PLAYER_TAG.sub(lambda found: f"Player {3 - int(found[1])}", key)
        if partner in tags:  # the other player's tag of this kind, or a tag of no player
            moved[key] = tags[partner]
        else:
            moved[partner] = value
    return moved


@dataclass(frozen=True)
class ParsedFile:
    """What a reader kept from a file, and what it could not use.

    Attributes
    ----------
    matches : tuple of MatchRecord
        Every match whose ``N point match`` line was read, each with the games that parsed.
    errors : tuple of NotationError
        One per part of the file skipped, in file order: a game with a syntax error (its
        ``game`` attribute is the number written after ``Game``; the game is kept up to the
        line before the error, :attr:`GameRecord.cut_line`, or skipped when no play or
        other action comes before the error),
        a game before any ``N point match`` line, or stray text outside the games (``game``
        None); or a single DecodeError when the bytes cannot be decoded (then no matches).
    warnings : tuple of RecordWarning
        Text that was read but is doubtful: ``player_tags``, header tags that name the
        players the other way round from the score lines (:func:`tags_by_side`; the tags
        were given the score lines' sides).
    file : str or None
        The file name.
    """

    matches: tuple[MatchRecord, ...]
    errors: tuple[NardyError, ...]
    warnings: tuple[RecordWarning, ...] = ()
    file: str | None = None

    def __repr__(self) -> str:
        return (f"ParsedFile(file={self.file!r}, matches={len(self.matches)}, "
                f"errors={len(self.errors)}, warnings={len(self.warnings)})")
