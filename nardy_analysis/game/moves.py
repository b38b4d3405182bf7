"""Rolls, moves and plays: what a turn is made of, and their notation.

Points are numbered from the mover's side, 1..24; the bar is 25 and borne-off checkers are at
0, exactly as the ``.mat`` notation writes them (RULES.md, "Board and numbering").

Value types: :class:`Roll`, :class:`Move` and :class:`Play` are immutable and hashable;
``str()`` is their notation, ``from_str`` reads it back and ``repr()`` evaluates back. The
board they are played on is :mod:`~nardy_analysis.game.position`'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby

from ..errors import InvalidArgument
from .rules import BAR, OFF


@dataclass(frozen=True, slots=True, order=True)
class Roll:
    """A roll of two dice; ``str()`` is the notation (``"52"``, larger die first).

    The order the dice were written in is not kept: a ``.mat`` file does not say which die is
    which, so 2-5 and 5-2 are the same roll (21 distinct rolls).

    Parameters
    ----------
    high, low : int
        The dice, 1..6; they are sorted so that ``high >= low``.

    Raises
    ------
    InvalidArgument
        A die outside 1..6.
    """

    high: int
    low: int

    def __post_init__(self) -> None:
        if not (1 <= self.high <= 6 and 1 <= self.low <= 6):
            raise InvalidArgument(f"dice must be 1..6, got {self.high!r} and {self.low!r}")
        if self.low > self.high:
            high, low = self.low, self.high
            object.__setattr__(self, "high", high)
            object.__setattr__(self, "low", low)

    @classmethod
    def from_str(cls, text: str) -> "Roll":
        """Parse ``"52"``, ``"25"`` or ``"52:"``; raises InvalidArgument for anything else."""
        digits = text.strip().rstrip(":")
        if len(digits) != 2 or not digits.isdigit() or not set(digits) <= set("123456"):
            raise InvalidArgument(f"not a roll: {text!r}")
        return cls(int(digits[0]), int(digits[1]))

    @property
    def is_double(self) -> bool:
        return self.high == self.low

    @property
    def dice(self) -> tuple[int, ...]:
        """The steps to play: two dice, or four for a double."""
        return _DICE[self.high][self.low]

    @property
    def pips(self) -> int:
        """Pips the roll moves when fully played (a double counts four times)."""
        return sum(self.dice)

    def __str__(self) -> str:
        return f"{self.high}{self.low}"

    def __repr__(self) -> str:
        return f"Roll({self.high}, {self.low})"


_DICE = tuple(tuple((high,) * 4 if high == low else (high, low) for low in range(7))
              for high in range(7))  # Roll.dice of each (high, low)

ALL_ROLLS: tuple[Roll, ...] = tuple(Roll(a, b) for a in range(1, 7) for b in range(1, a + 1))
"""The 21 distinct rolls; a double occurs on 1 of 36 throws, any other roll on 2."""


def point_str(point: int) -> str:
    """A point as the notation names it: ``bar`` (25), ``off`` (0) or its number."""
    return "bar" if point == BAR else "off" if point == OFF else str(point)


_POINT_TEXT = tuple(point_str(point) for point in range(BAR + 1))  # point_str of 0..25
_POINT_NAMES = {"bar": BAR, "b": BAR, "off": OFF, "o": OFF}


def point_from_str(name: str, text: str | None = None) -> int:
    """The point ``name`` stands for: its number (the board has 0..25), ``bar``/``b`` (25) or
    ``off``/``o`` (0), in any case, as gnubg accepts them.

    Raises
    ------
    InvalidArgument
        Anything else; the message quotes ``name`` (and ``text``, the move it is in).
    """
    if name.isdigit():
        return int(name)
    if name.lower() in _POINT_NAMES:
        return _POINT_NAMES[name.lower()]
    raise InvalidArgument(f"not a point: {name!r}" + (f" in {text!r}" if text else ""))


@dataclass(frozen=True, slots=True)
class Move:
    """One step of one checker: ``start`` to ``end`` (25 = bar, 0 = off), ``hit`` if it hits.

    Points are numbered from the mover's side. ``str()`` is the notation, ``"13/7*"``,
    ``"bar/22"``, ``"6/off"``; :meth:`from_str` reads it.
    """

    start: int
    end: int
    hit: bool = False

    @classmethod
    def from_str(cls, text: str) -> "Move":
        """Parse ``"13/7*"``, ``"bar/22"`` or ``"6/off"`` (the points as
        :func:`point_from_str` reads them: ``b``/``25`` for the bar, ``o``/``0`` for off).

        Raises
        ------
        InvalidArgument
            Not two points separated by ``/``, a start not 1..25, an end not 0..24, or a move
            that does not go towards home; the message quotes ``text``.
        """
        body = text.strip().lower()
        hit = body.endswith("*")
        parts = body.rstrip("*").split("/")
        if len(parts) != 2:
            raise InvalidArgument(f"not a move: {text!r} (expected start/end, as in 13/7*)")
        start, end = (point_from_str(part, text) for part in parts)
        if max(start, end) > BAR:
            raise InvalidArgument(f"not a move: {text!r} (points are 1..24, the bar 25, off 0)")
        if start == OFF or end == BAR or start <= end:
            raise InvalidArgument(f"not a move: {text!r} (checkers move from a higher point "
                                  "to a lower one)")
        return cls(start, end, hit)

    def __str__(self) -> str:
        return f"{_POINT_TEXT[self.start]}/{_POINT_TEXT[self.end]}{'*' if self.hit else ''}"

    def __repr__(self) -> str:
        return f"Move({self.start}, {self.end}{', hit=True' if self.hit else ''})"


@dataclass(frozen=True, slots=True, init=False)
class Play:
    """The moves of one turn, in the order played; ``str()`` is the notation.

    Equal plays compare equal whatever the order of their moves. ``str()`` lists the moves
    from the highest start point down, one die per move, with ``(n)`` for repeats:
    ``"13/11(2) 6/4*"``; the empty play (a dance) is ``"Cannot Move"``. :meth:`from_str`
    reads it back.
    """

    moves: tuple[Move, ...] = ()

    def __init__(self, moves: tuple[Move, ...] = ()):
        _set_moves(self, moves)  # as the frozen dataclass would, without its slower call

    @classmethod
    def from_str(cls, text: str) -> "Play":
        """Parse what ``str()`` prints: moves separated by spaces, each with an optional
        ``(n)`` repeat count (``"13/11(2) 6/4*"``), or ``"Cannot Move"``.

        Raises
        ------
        InvalidArgument
            A move :meth:`Move.from_str` does not read or a repeat count that is not 1..4; the
            message quotes ``text``.
        """
        if text.strip().lower() == "cannot move":
            return cls()
        moves = []
        for token in text.split():
            move, _, count = token.partition("(")
            if count and not (count.endswith(")") and count[:-1] in ("1", "2", "3", "4")):
                raise InvalidArgument(f"bad repeat count {token!r} in {text!r}")
            moves += [Move.from_str(move)] * (int(count[:-1]) if count else 1)
        if not moves:
            raise InvalidArgument(f"not a play: {text!r}")
        return cls(tuple(moves))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Play) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[Move, ...]:
        return tuple(sorted(self.moves, key=lambda m: (-m.start, -m.end, m.hit)))

    def __len__(self) -> int:
        return len(self.moves)

    def __str__(self) -> str:
        if not self.moves:
            return "Cannot Move"
        parts = []
        for move, group in groupby(self._key()):
            count = len(list(group))
            parts.append(str(move) + (f"({count})" if count > 1 else ""))
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Play.from_str({str(self)!r})"


_set_moves = Play.__dict__["moves"].__set__
