"""The cube life index ``x`` of positions: how live the cube is, for Janowski's cubeful
equity (:mod:`~nardy_analysis.analysis.cubeful`, whose docstring gives the sources).

The cube life index ``x`` (:func:`cube_efficiency`, Janowski's cube efficiency) is 0.76 in
contact, 0.6 in a bear-off (both sides home) and ``0.6 + 0.0025 * pips`` of the player on
roll (at most 0.8) in any other race: values fitted to GNU Backgammon 1.1.0a16's equities,
not read from its source. An evaluation of two plies or more uses GNU Backgammon's deeper
values (:func:`life_index` with ``deep``). :func:`life_indices` finds the index after every
play of many rolls at once, and :func:`sure_life_index` the one index of every play of a
roll when the class of the positions reached is certain.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import chain
from typing import Any, Iterator

import numpy as np

from ..game.moves import Roll
from ..game.position import Position
from ..game.rules import BAR
from .bearoff import BEAROFF_POINTS
from .evaluator import Evaluator, rearmost
from .gnubg import GnubgNN
from .turns import phase


def cube_efficiency(position: Position, deep: bool = False) -> float:
    """The cube life index ``x`` of ``position`` for the player on roll (Janowski's cube
    efficiency; the module docstring).

    Parameters
    ----------
    position : Position
    deep : bool
        The values of an evaluation of two plies or more (:func:`life_index`).

    Returns
    -------
    float
        0.76 in contact; 0.6 in a bear-off (every checker of both sides home or off); in any
        other race ``0.6 + 0.0025 * pips`` of the player on roll, at most 0.8 (values fitted
        to GNU Backgammon 1.1.0a16's equities); ``deep``: :func:`life_index`'s.
    """
    home = not any(position.board[0][7:]) and not any(position.board[1][7:])
    kind = phase(position)
    return float(life_index("bearoff" if kind == "race" and home else kind,
                            position.pip_count(), deep))


def life_index(kind: Any, pips: Any, deep: bool = False) -> np.ndarray:
    """The cube life index of :func:`cube_efficiency` from a position's class and pips.

    Parameters
    ----------
    kind : str or array of str, shape (n,)
        ``contact``, ``race`` or ``bearoff``.
    pips : int or array of int, shape (n,)
        The pip count of the player on roll.
    deep : bool
        The values GNU Backgammon uses in an evaluation of two plies or more (eval.c,
        ``EvalEfficiency``, read, not copied): 0.68 in contact, ``0.55 + 0.00125 * pips``
        between 0.6 and 0.7 in a race, 0.6 in a bear-off.

    Returns
    -------
    ndarray
        ``x``, of the shape of the arguments (0-d for numbers).
    """
    kind, pips = np.asarray(kind), np.asarray(pips)
    contact, race = ((0.68, np.clip(0.55 + 0.00125 * pips, 0.6, 0.7)) if deep else
                     (0.76, np.minimum(0.8, 0.6 + 0.0025 * pips)))
    return np.where(kind == "contact", contact, np.where(kind == "bearoff", 0.6, race))


def life_indices(evaluator: Evaluator, plays: list[tuple[Position, Roll, tuple[Any, ...]]],
                 cubeful: bool = True, deep: bool = False) -> list[np.ndarray]:
    """:func:`cube_efficiency` of the position after each play of many rolls.

    Parameters
    ----------
    evaluator : Evaluator
        The engine whose play keys ``plays`` holds (``evaluator.plays``).
    plays : list of (Position, Roll, tuple)
        Each position before a roll, the roll and the keys of its plays.
    cubeful : bool
        False without the cube (long nardy): zeros, no cube has a life.
    deep : bool
        The values of an evaluation of two plies or more (:func:`life_index`).

    Returns
    -------
    list of ndarray, shape (len(keys),) each
        From :func:`sure_life_index` where the class of the positions reached is certain,
        else from the positions (gnubg-nn: from their keys, all at once, faster).
    """
    if not cubeful:
        return [np.zeros(len(keys)) for _, _, keys in plays]
    sure = [sure_life_index(position, roll, deep) for position, roll, _ in plays]
    unsure = [(keys, position.turn) for (position, _, keys), x in zip(plays, sure) if x is None]
    found: Iterator[np.ndarray]
    if isinstance(evaluator, GnubgNN):
        x: Any = life_index(*evaluator.position_classes(
            tuple(chain.from_iterable(keys for keys, _ in unsure))), deep) if unsure else []
        found = iter(np.split(x, np.cumsum([len(keys) for keys, _ in unsure])[:-1]))
    else:
        found = iter([np.array([cube_efficiency(evaluator.position_after(key, mover), deep)
                                for key in keys]) for keys, mover in unsure])
    return [next(found) if x is None else np.full(len(keys), x)
            for (_, _, keys), x in zip(plays, sure)]


def sure_life_index(position: Position, roll: Roll, deep: bool = False) -> float | None:
    """The cube life index of every position a play of ``roll`` can reach from
    ``position`` (the opponent then on roll), when it is the same for all.

    No checker moves back and no checker moves more than the roll's pips (``high + low``,
    four times a die for doubles), so a contact position stays one when the mover's rearmost
    checker cannot pass the opponent's (a hit only sends the opponent's further back); in a
    race nobody is hit, the opponent's pips stay, and a bear-off follows when both sides
    are home (the rules of movement, RULES.md).

    Parameters
    ----------
    position : Position
        Before the roll, the mover on roll.
    roll : Roll
    deep : bool
        The values of an evaluation of two plies or more (:func:`life_index`).

    Returns
    -------
    float or None
        :func:`cube_efficiency` of each position reached, or None when they may differ.
    """
    mine, theirs = rearmost(position)
    moved = 4 * roll.low if roll.is_double else roll.low + roll.high
    if mine + theirs > BAR - 1:  # contact (cube_efficiency, phase)
        return _one_life_index("contact", 0, deep) if mine - moved + theirs > BAR - 1 else None
    if mine <= BEAROFF_POINTS and theirs <= BEAROFF_POINTS:
        return _one_life_index("bearoff", 0, deep)
    if theirs > BEAROFF_POINTS or mine - moved > BEAROFF_POINTS:
        return _one_life_index("race", position.pip_count(1 - position.turn), deep)
    return None


@lru_cache(maxsize=None)
def _one_life_index(kind: str, pips: int, deep: bool) -> float:
    """:func:`life_index` of one position, as a float."""
    return float(life_index(kind, pips, deep))
