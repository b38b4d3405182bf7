"""Exact equities of two-sided bear-offs: both sides with at most six checkers left, all in
their home boards (GNU Backgammon's two-sided bear-off class, its ``gnubg_ts0.bd``: six
points, six checkers).

For such a position GNU Backgammon 1.1.0a16 does not use its nets: its two-sided database
holds, for the player on roll, the cubeless money equity and three cubeful money equities
(per cube value, before the player's cube decision, i.e. *no double*): they own the cube,
it is centred, the opponent owns it. Gammons are impossible (each side has borne off at
least nine checkers), so the cubeless winning chance is ``(equity + 1) / 2``. Money play
takes the cubeful equity of the cube's state from the table. Match play applies the
match-play Janowski formula to that winning chance, with the cube life index that makes the
money formula give the table's money equity for the same cube owner, clipped to
``0..x`` (``x`` the usual bear-off index). This is what gnubg's ``eval.c``
(``EvaluatePositionCubeful4``: classes ``CLASS_BEAROFF2`` and ``CLASS_BEAROFF_TS``) and
``makebearoff.c`` (``BearOff2``, ``CubeEquity``) do, read from their source; the numbers here
are computed from the definition, not read from gnubg's file.

The table is made by dynamic programming over both sides' positions (924 each: up to six
checkers on six points), in increasing order of the two sides' total pips, each side
playing to maximise the equity being computed (each of the four separately, as gnubg's
generator does): with ``V(a, b)`` the value for the side with checkers ``a`` on roll against
``b``, averaged over the 36 rolls of the best play's ``-V'(b, a')``:

* cubeless: ``V' = V``;
* the player on roll owns the cube: ``V'`` the opponent's value when the cube is their
  opponent's (they cannot double);
* opponent owns it: the opponent's cube decision when they own it, ``max(ND, min(2 DT,
  1))`` with ND their owned value and DT their value after doubling (cube then the other's);
* centred: the opponent's cube decision from the centred cube, the same with ND their
  centred value.

A side that has borne off every checker has won: +1 for it, -1 for the other, per cube.

The table of all 924 x 924 pairs of sides ships with the package, as GNU Backgammon ships
its ``gnubg_ts0.bd``: ``data/bearoff.npz`` (about 4 MB), made by ``python
tools/bearoff_table.py`` from :func:`_table`, each equity stored as gnubg stores its own, a
16-bit step of ``2 / 65535`` between -1 and +1 (so within ``1 / 65535`` of the exact value),
read once per process when a two-sided bear-off is first valued (about 0.1 s).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from ..errors import InvalidArgument
from ..game.moves import ALL_ROLLS
from ..game.position import Position
from ..game.rules import CHECKERS, OFF
from .shots import ROLL_THROWS

__all__ = ["BEAROFF_CHECKERS", "BEAROFF_POINTS", "OWNED", "CENTRED", "OPPONENT_OWNS",
           "TABLE_FILE", "bearoff_equities", "is_two_sided_bearoff", "stored_table"]

BEAROFF_POINTS = 6
BEAROFF_CHECKERS = 6
"""The size of the two-sided database: at most six checkers per side on the six home
points (gnubg's ``gnubg_ts0.bd``, ``gnubg-TS-06-06-1``)."""

CUBELESS, OWNED, CENTRED, OPPONENT_OWNS = range(4)
"""The columns of :func:`bearoff_equities`, in gnubg's order."""

_WEIGHTS = np.array(ROLL_THROWS) / 36.0


def _pips(side: Sequence[int]) -> int:
    return sum(point * n for point, n in enumerate(side, 1))


def _board(side: Sequence[int]) -> tuple[int, ...]:
    """A full 26-entry side (the rest borne off) from checkers on points 1..6."""
    return (CHECKERS - sum(side), *side) + (0,) * (25 - BEAROFF_POINTS)


_DUMMY = (CHECKERS - 1, 1) + (0,) * 24  # an opponent who cannot block: one on their 1-point


@lru_cache(maxsize=None)
def _plays(side: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The sides each of :data:`ALL_ROLLS` can reach from ``side`` (not empty)."""
    position = Position((_board(side), _DUMMY), 0)
    return tuple(tuple(play.after.board[0][1:BEAROFF_POINTS + 1]
                       for play in position.legal_plays(roll)) for roll in ALL_ROLLS)


def _reachable(sides: Iterable[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """``sides`` and every side their plays can reach, the empty one included, fewest pips
    first."""
    found, todo = {(0,) * BEAROFF_POINTS}, list(sides)
    while todo:
        side = todo.pop()
        if side not in found:
            found.add(side)
            todo += [after for reached in _plays(side) for after in reached]
    return sorted(found, key=lambda side: (_pips(side), side))


def _table(sides: list[tuple[int, ...]]) -> np.ndarray:
    """The values (n, n, 4) of :func:`bearoff_equities` for every pair of ``sides`` (mover's
    first; ``sides`` closed under play, fewest pips first, the empty side first), by
    dynamic programming (the module docstring)."""
    index = {side: i for i, side in enumerate(sides)}
    n, pips = len(sides), np.array([_pips(side) for side in sides])
    # every side's plays in one row: side i's, roll by roll, from offset[i]; each roll's
    # first place within them at firsts[i]
    reached = [[[index[after] for after in roll] for roll in _plays(side)] if i else [[0]] * 21
               for i, side in enumerate(sides)]
    counts = np.array([[len(roll) for roll in rolls] for rolls in reached])
    flat = np.array([j for rolls in reached for roll in rolls for j in roll])
    lengths = counts.sum(axis=1)
    offset = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    firsts = np.concatenate([np.zeros((n, 1), int), np.cumsum(counts, axis=1)[:, :-1]], axis=1)
    value = np.zeros((n, n, 4))
    value[0, 1:], value[1:, 0] = 1.0, -1.0  # the side with nothing left has won
    seen = value.copy()
    a_all, b_all = (grid.ravel() for grid in np.meshgrid(np.arange(1, n), np.arange(1, n),
                                                          indexing="ij"))
    total = pips[a_all] + pips[b_all]
    order = np.argsort(total, kind="stable")
    a_all, b_all, total = a_all[order], b_all[order], total[order]
    for level in np.split(np.arange(len(total)), np.flatnonzero(np.diff(total)) + 1):
        a, b = a_all[level], b_all[level]
        size = lengths[a]
        base = np.concatenate([[0], np.cumsum(size)[:-1]])
        columns = flat[np.repeat(offset[a] - base, size) + np.arange(size.sum())]
        worst = np.minimum.reduceat(seen[np.repeat(b, size), columns],
                                    (base[:, None] + firsts[a]).ravel(), axis=0)
        found = -np.einsum("prk,r->pk", worst.reshape(len(a), 21, 4), _WEIGHTS)
        value[a, b] = found
        own, opp = found[:, OWNED], found[:, OPPONENT_OWNS]
        seen[a, b] = np.stack([found[:, CUBELESS], opp,  # the next mover cannot double
                               _decision(found[:, CENTRED], opp), _decision(own, opp)], axis=1)
    return value


def _decision(no_double: np.ndarray, doubled: np.ndarray) -> np.ndarray:
    """``max(ND, min(2 * DT, 1))`` per cube, as gnubg's ``CubeEquity`` decides it (doubling
    when ``2 DT >= ND`` and ``DP = 1 >= ND``)."""
    double = np.minimum(2 * doubled, 1.0)
    return np.where((2 * doubled >= no_double) & (1.0 >= no_double), double, no_double)


def is_two_sided_bearoff(position: Position) -> bool:
    """Both sides have at most :data:`BEAROFF_CHECKERS` checkers left, all on their first
    :data:`BEAROFF_POINTS` points, and the game is not over."""
    return not position.is_over and all(
        CHECKERS - side[OFF] <= BEAROFF_CHECKERS and not any(side[BEAROFF_POINTS + 1:])
        for side in position.board)


def bearoff_equities(position: Position) -> np.ndarray:
    """Exact money equities of a two-sided bear-off for the player on roll.

    Parameters
    ----------
    position : Position
        A two-sided bear-off (:func:`is_two_sided_bearoff`).

    Returns
    -------
    ndarray, shape (4,)
        Equity per game per cube value, in gnubg's order: cubeless (``2 * win - 1``, win the
        probability 0..1 of winning, each side playing to win), and cubeful without doubling
        now (each side playing and doubling to maximise its money equity) with the cube
        owned by the player on roll (:data:`OWNED`), centred (:data:`CENTRED`), owned by the
        opponent (:data:`OPPONENT_OWNS`).

    Raises
    ------
    InvalidArgument
        The position is not a two-sided bear-off.
    """
    if not is_two_sided_bearoff(position):
        raise InvalidArgument(f"not a two-sided bear-off (at most {BEAROFF_CHECKERS} checkers "
                              f"a side on their first {BEAROFF_POINTS} points): {position!r}")
    mover, other = (tuple(side[1:BEAROFF_POINTS + 1])
                    for side in (position.on_roll, position.opponent))
    index, steps = _stored()
    return np.asarray(steps[index[mover], index[other]] / _STEPS - 1.0)


TABLE_FILE = Path(__file__).resolve().parent / "data" / "bearoff.npz"
"""The shipped table (:func:`stored_table`): ``sides`` (924, 6), the checkers of each side
on points 1..6, and the equities (924, 924, 4) in steps, ``(equity + 1) * 32767.5``
rounded (gnubg's ``gnubg_ts0.bd`` scale: 0 to 65535 for -1 to +1), each column after the
cubeless one less the cubeless one, then each row less the row before, modulo 65536
(smaller numbers, which compress; undone exactly), as two arrays of bytes, ``high`` and
``low``."""

_STEPS = 32767.5


def stored_table(sides: list[tuple[int, ...]], value: np.ndarray) -> dict[str, np.ndarray]:
    """The arrays of :data:`TABLE_FILE` for the equities ``value`` (n, n, 4) of the pairs of
    ``sides`` (:func:`_table`)."""
    steps = np.rint((value + 1.0) * _STEPS).astype(np.int64)
    steps[..., 1:] -= steps[..., :1]
    steps[1:] -= steps[:-1].copy()
    steps %= 65536
    return {"sides": np.array(sides, dtype=np.int8), "high": (steps >> 8).astype(np.uint8),
            "low": (steps & 255).astype(np.uint8)}


@lru_cache(maxsize=1)
def _stored() -> tuple[dict[tuple[int, ...], int], np.ndarray]:
    """The shipped table as ``(index of each side, steps)``, the equities' steps 0..65535
    of :data:`TABLE_FILE` undone (uint16), read once per process."""
    with np.load(TABLE_FILE) as stored:
        sides = stored["sides"]
        steps = stored["high"].astype(np.uint16) << 8 | stored["low"]
    steps = np.cumsum(steps, axis=0, dtype=np.uint16)  # sums modulo 65536, as stored
    steps[..., 1:] += steps[..., :1]
    return {tuple(side): i for i, side in enumerate(sides.tolist())}, steps
