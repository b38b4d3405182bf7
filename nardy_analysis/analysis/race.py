"""Pure races by one-sided databases: each side's distribution of the turns it needs to bear
off, and the chances of a race from the two (the way GNU Backgammon's one-sided bear-off
database serves races beyond its two-sided one).

In a pure race no checker can block another (long nardy: every checker on its owner's points
1..12, :func:`~nardy_analysis.analysis.long_engine.is_race`), so each side's play is its own:
its moves are those of the rules (RULES.md, "Long nardy", "Bearing off": all home first; the
exact number, or a larger one from the highest point) with nothing in the way, and every die
can be played. The database holds, for each side it covers, the distribution of the number
of turns to bear off every checker, each side playing to need the fewest turns on average
(a dynamic programme over the sides in increasing order of pips, the best play of each roll
found die by die), and, for a side with none off, the distribution of the turns to bear off
its first checker, playing to need the fewest on average for that.

The side on roll, ``A``, wins when it needs no more turns than the other, ``B``: ``P(win) =
sum_k P(T_A = k) P(T_B >= k)``. It wins by mars when ``B`` has borne off none by then:
``sum_k P(T_A = k) P(F_B >= k)``, ``F`` the turns to the first checker off; every side
covered with none off is all home, so that is a home mars (RULES.md, "Long nardy",
"Results"). It loses by mars with ``sum_k P(T_B = k) P(F_A > k)``. Each side playing for its
own fewest turns is not always the best against the other side's count, so the chances are
near the exact ones, not equal: docs/LONG_ENGINE.md gives the measured differences.

Covered sides (:func:`covered`): at most :data:`FEW` checkers left on the points 1..12, or any
number all on the home points 1..6. The database is made on first use (about a second).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..game.moves import ALL_ROLLS
from ..game.rules import CHECKERS
from .shots import ROLL_THROWS

__all__ = ["FEW", "covered", "race_chances", "turn_distributions"]

FEW = 6
"""Sides of at most this many checkers left on the points 1..12 are covered."""
POINTS = 12
"""The points a racing side's checkers stand on (its own 1..12)."""
HOME = 6
TURNS = 32
"""Columns of the distributions: no covered side needs as many turns."""

_WEIGHTS = np.array(ROLL_THROWS) / 36.0
_BASE = 16 ** np.arange(POINTS, dtype=np.int64)     # a side's code: its counts in base 16


def _counts(points: int, most: int) -> np.ndarray:
    """Every way of at most ``most`` checkers on ``points`` points: (n, points)."""
    found = np.zeros((1, 0), dtype=np.int64)
    for _ in range(points):
        ways = most + 1 - found.sum(axis=1)              # 0..left checkers on the next point
        first = np.repeat(np.cumsum(ways) - ways, ways)
        found = np.column_stack((np.repeat(found, ways, axis=0), np.arange(ways.sum()) - first))
    return found


def _by_pips(sides: np.ndarray) -> np.ndarray:
    """``sides`` (n, 12) fewest pips first (the empty side first)."""
    return sides[np.lexsort((sides @ _BASE, sides @ np.arange(1, POINTS + 1)))]


def covered(sides: np.ndarray) -> np.ndarray:
    """Which sides the database covers: ``sides`` (n, 25) counts in their owner's numbering
    (0 borne off, 1..24), all on 1..12; a bool array (n,)."""
    sides = np.asarray(sides)
    found: np.ndarray = ~sides[:, POINTS + 1:25].any(axis=1) & (
        (sides[:, 1:POINTS + 1].sum(axis=1) <= FEW) | ~sides[:, HOME + 1:25].any(axis=1))
    return found


def _steps(sides: np.ndarray, codes: np.ndarray, width: int) -> np.ndarray:
    """``steps[d - 1, i, p - 1]``: the side that moving a checker of side ``i`` from point
    ``p`` (1..``width``, the points the sides use) with the die ``d`` leaves (its index), -1
    when that step is not legal."""
    n, order = len(sides), np.argsort(codes)
    steps = np.full((6, n, width), -1, dtype=np.int32)
    home = ~sides[:, HOME:].any(axis=1)
    above = np.cumsum(sides[:, ::-1], axis=1)[:, ::-1]   # above[:, k]: on the points > k
    for die in range(1, 7):
        for point in range(1, width + 1):
            end = point - die
            ok = sides[:, point - 1] > 0
            if end <= 0:                                  # bearing off: all home; with a
                ok &= home                                # larger number, none higher
                if end < 0:
                    ok &= above[:, point] == 0
            code = codes - _BASE[point - 1] + (_BASE[end - 1] if end > 0 else 0)
            steps[die - 1, ok, point - 1] = order[np.searchsorted(codes[order], code[ok])]
    return steps


def _programme(steps: np.ndarray, pips: np.ndarray, done: np.ndarray) -> np.ndarray:
    """The distribution of the turns until a side is ``done`` (bool per side), each side
    playing each roll to need the fewest turns on average: (n, TURNS), float64."""
    n = len(pips)
    expect, turns = np.zeros(n), np.zeros((n, TURNS))
    turns[done, 0] = 1.0
    # value and final side of the best way to play ``k`` more steps of die d (k = 1..3)
    value = np.zeros((3, 6, n))
    final = np.broadcast_to(np.arange(n), (3, 6, n)).copy()
    bounds = np.flatnonzero(np.diff(pips)) + 1
    for level in np.split(np.arange(n), bounds):
        level = level[~done[level]]
        if not len(level):
            continue
        rows = np.arange(len(level))
        total, spread = np.ones(len(level)), np.zeros((len(level), TURNS))
        for roll, weight in zip(ALL_ROLLS, _WEIGHTS):
            high, low = roll.high - 1, roll.low - 1     # a first step, then the rest
            options = [(high, 2, high)] if roll.is_double else [(high, 0, low), (low, 0, high)]
            value_of = np.concatenate([np.where(steps[first, level] >= 0, value[depth, rest][
                steps[first, level]], np.inf) for first, depth, rest in options], axis=1)
            final_of = np.concatenate([final[depth, rest][steps[first, level]]
                                       for first, depth, rest in options], axis=1)
            column = value_of.argmin(axis=1)
            total += weight * value_of[rows, column]
            spread[:, 1:] += weight * turns[final_of[rows, column], :-1]
        expect[level], turns[level] = total, spread
        # the level's own one-, two- and three-step values, from the levels below
        for die in range(6):
            after = steps[die, level]
            legal = after >= 0
            below = expect
            for depth in range(3):
                v = np.where(legal, below[after], np.inf)
                column = v.argmin(axis=1)
                value[depth, die, level] = v[rows, column]
                final[depth, die, level] = (after[rows, column] if depth == 0
                                            else final[depth - 1, die][after[rows, column]])
                below = value[depth, die]
    return turns


@lru_cache(maxsize=1)
def turn_distributions() -> tuple[dict[int, int], np.ndarray, np.ndarray]:
    """The database: ``(index, finish, first)``, ``index`` a side's code (counts on 1..12 in
    base 16, point 1 lowest) -> its row; ``finish[row, k]`` the chance that the side bears
    off its last checker on its k-th turn from now, ``first[row, k]`` that it bears off its
    first on its k-th (0 for a side with one off already)."""
    home = _by_pips(np.pad(_counts(HOME, CHECKERS), ((0, 0), (0, POINTS - HOME))))
    few = _by_pips(_counts(POINTS, FEW))
    parts = []
    for sides, width in ((home, HOME), (few, POINTS)):    # each closed under play; the home
        codes = sides @ _BASE                             # part's steps only on 1..6
        steps = _steps(sides, codes, width)
        pips, left = sides @ np.arange(1, POINTS + 1), sides.sum(axis=1)
        finish = _programme(steps, pips, left == 0)
        # the first checker off: only the sides of 15 matter, every other one is done
        full = np.flatnonzero(left == CHECKERS)
        row = np.zeros(len(sides) + 1, dtype=np.int32)  # row[-1]: an illegal step stays -1
        row[full], row[-1] = np.arange(1, len(full) + 1), -1
        first = np.zeros((len(sides), TURNS))
        first[:, 0] = left < CHECKERS
        if len(full):
            reduced = np.concatenate((np.full((6, 1, width), -1, dtype=np.int32),
                                      row[steps[:, full]]), axis=1)
            first[full] = _programme(reduced, np.concatenate(([0], pips[full])),
                                     np.arange(len(full) + 1) == 0)[1:]
        kept = sides[:, HOME:].any(axis=1) if width > HOME else slice(None)  # once each
        parts.append((codes[kept], finish[kept], first[kept]))
    codes, finish, first = (np.concatenate(arrays) for arrays in zip(*parts))
    return {code: row for row, code in enumerate(codes.tolist())}, finish, first


def _at_least(p: np.ndarray) -> np.ndarray:
    """``P(X >= k)`` of distributions ``p`` (n, TURNS), summed from the far end (exact 0
    where the tail is)."""
    return np.cumsum(p[:, ::-1], axis=1)[:, ::-1]


def race_chances(mover: np.ndarray, other: np.ndarray) -> np.ndarray:
    """The chances of pure races from the database, for the side on roll.

    Parameters
    ----------
    mover, other : array of int, shape (n, 25)
        The side on roll and the other, counts in their owner's numbering (0 borne off,
        1..24), both :func:`covered`, neither with every checker off.

    Returns
    -------
    ndarray, shape (n, 5)
        win, win by mars (home mars included), win by home mars, lose by mars, lose by home
        mars, probabilities 0..1 (the module's formulas).
    """
    index, finish, first = turn_distributions()
    rows = [np.array([index[code] for code in (np.asarray(side)[:, 1:POINTS + 1] @ _BASE)
                      .tolist()], dtype=np.int64) for side in (mover, other)]
    a, b = finish[rows[0]], finish[rows[1]]
    fa, fb = first[rows[0]], first[rows[1]]
    win = np.minimum((a * _at_least(b)).sum(axis=1), 1.0)
    mars = np.minimum((a * _at_least(fb)).sum(axis=1), win)
    lose_mars = np.minimum((b * (_at_least(fa) - fa)).sum(axis=1), 1.0 - win)
    return np.stack((win, mars, mars, lose_mars, lose_mars), axis=1)
