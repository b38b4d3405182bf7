"""GNU Backgammon's cubeful n-ply evaluation: :class:`CubefulSearch`.

The 0-ply cubeful equities of :mod:`~nardy_analysis.analysis.cubeful` at the leaves, the
roller's best play of each roll among those GNU Backgammon's pruning nets keep
(:mod:`~nardy_analysis.analysis.pruning`), both players' cube decisions at every ply; for the
2-ply ("World class") analysis of :mod:`~nardy_analysis.analysis.skill`.
"""

from __future__ import annotations

from itertools import chain
from typing import NamedTuple

import numpy as np

from ..game.moves import ALL_ROLLS
from ..game.position import Position
from .bearoff import is_two_sided_bearoff
from .cube_life import cube_efficiency, life_indices
from .cubeful import (
    CubeState,
    after_play_equities,
    chances_after_plays,
    cubeful_equities,
    no_double,
    position_chances,
)
from .evaluator import MONEY, Evaluator, Utility
from .gnubg import GnubgNN
from .match_equity import match_utility
from .pruning import pruned

_ROLL_WEIGHTS = np.array([1.0 if roll.is_double else 2.0 for roll in ALL_ROLLS])
"""Throws of 36 of each of ``ALL_ROLLS``."""


def _pad(rows: np.ndarray) -> np.ndarray:
    """Chances (n, 5) or (n, 9) as (n, 9), NaN for missing exact bear-off equities."""
    if rows.shape[1] == 9:
        return rows
    return np.concatenate([rows, np.full((len(rows), 4), np.nan)], axis=1)


def _cubeless(state: CubeState) -> Utility:
    """The cubeless equity of the player on roll with the cube ``state``, as GNU Backgammon's
    ``UtilityME`` has it: normalised match equity (:func:`match_utility`), or money equity
    (gammons counted whatever the Jacoby rule)."""
    if not state.length:
        return MONEY
    return match_utility(state.length, state.length - state.away,
                         state.length - state.opponent_away, state.cube, state.crawford,
                         state.post_crawford)


class Reply(NamedTuple):
    """The best play of one roll in a search: the position after it (the opponent on roll),
    the opponent's chances there (9 columns, :func:`position_chances`) and their cube life
    index."""

    after: Position
    chances: np.ndarray
    life: float


class CubefulSearch:
    """GNU Backgammon's cubeful n-ply evaluation on an engine's 0-ply chances.

    The method of GNU Backgammon 1.1's eval.c (``EvaluatePositionCubeful4``,
    ``FindBestMoveInEval``, ``MakeCubePos``, ``GetECF3``; read, not copied). A position is
    valued for one or more cube states of the player on roll at once. At 0 plies (and for a
    finished game, and in money play for a two-sided bear-off, valued exactly) each state's
    value is :func:`cubeful_equities`: Janowski's formula with the player's cube decision
    made well, ``max(ND, min(DT, DP))``. At ``n`` plies it is the average over the 36 throws
    of the value at ``n - 1`` plies of the position after the roller's best play of each
    roll, for the states seen from the opponent's side, each with its doubled state (cube
    twice as high, the opponent's) where the roller may double; then each state takes the
    roller's cube decision from those two values. The best play of a roll is the one with the
    highest 0-ply cubeful equity (:func:`after_play_equities`) under the actual cube, the
    same for every state valued, among the plays gnubg's pruning nets keep (gnubg-nn:
    :func:`~nardy_analysis.analysis.pruning.pruned`, by the opponent's cubeless equity).

    In an evaluation of two plies or more every cube life index, at the leaves and in the
    choice of plays, is the deeper one
    (:func:`~nardy_analysis.analysis.cube_life.life_index` with ``deep``), as eval.c's
    ``EvalEfficiency`` has it for the evaluation's ply.

    Parameters
    ----------
    evaluator : Evaluator
        The engine of the 0-ply chances (:meth:`Evaluator.plays`).
    plies : int
        The depth of :meth:`after_play` and :meth:`cube_decision`.
    """

    def __init__(self, evaluator: Evaluator, plies: int):
        self.evaluator, self.plies, self.deep = evaluator, plies, plies >= 2
        self._replies: dict[tuple[Position, CubeState], list[Reply]] = {}

    def replies(self, position: Position, state: CubeState) -> list[Reply]:
        """The best play of each of the 21 rolls (``ALL_ROLLS``) in ``position`` for the
        player on roll with the cube ``state`` (theirs), by 0-ply cubeful equity; a dance
        leaves the position with the opponent on roll."""
        found = self._replies.get((position, state))
        if found is not None:
            return found
        evaluator, parts, lives, dances = self.evaluator, [], [], {}
        listed = [evaluator.plays(position, roll) for roll in ALL_ROLLS]
        plays = [(position, roll, keys) for roll, (keys, _) in zip(ALL_ROLLS, listed) if keys]
        found_lives = iter(life_indices(evaluator, plays, deep=self.deep))
        for index, (roll, (keys, chances)) in enumerate(zip(ALL_ROLLS, listed)):
            if keys:
                parts.append(_pad(chances_after_plays(evaluator, position, keys, chances)))
                lives.append(next(found_lives))
            else:
                dances[index] = position.with_turn(1 - position.turn)
                parts.append(position_chances(evaluator, dances[index])[None])
                lives.append(np.array([cube_efficiency(dances[index], self.deep)]))
        rows, life = np.concatenate(parts), np.concatenate(lives)
        equities = after_play_equities(rows, state, life)
        ends = np.cumsum([len(part) for part in parts])
        keeps = (pruned(evaluator, [keys for keys, _ in listed], _cubeless(state.turned()))
                 if isinstance(evaluator, GnubgNN) else [None] * len(listed))
        found = []
        for index, (start, end) in enumerate(zip(np.concatenate([[0], ends[:-1]]), ends)):
            kept = keeps[index]
            if kept is None:
                best = start + int(np.argmax(equities[start:end]))
            else:
                best = start + int(kept[np.argmax(equities[start:end][kept])])
            after = dances.get(index)
            if after is None:
                after = evaluator.position_after(listed[index][0][best - start], position.turn)
            found.append(Reply(after, rows[best], float(life[best])))
        self._replies[(position, state)] = found
        return found

    def _leaf(self, rows: np.ndarray, life: np.ndarray,
              states: tuple[CubeState | None, ...]) -> np.ndarray:
        """0-ply values (n, len(states)) of positions with the chances ``rows`` (n, 9) of the
        player on roll; NaN for a missing state."""
        values = np.full((len(rows), len(states)), np.nan)
        for column, state in enumerate(states):
            if state is not None:
                values[:, column] = cubeful_equities(rows, state, life)
        return values

    def value(self, position: Position, states: tuple[CubeState | None, ...],
              mover: CubeState, plies: int, top: bool = False,
              reply: Reply | None = None) -> np.ndarray:
        """The values of ``position`` at ``plies`` for the player on roll under each of
        ``states`` (None: a state that does not occur), MWC (match play) or money equity per
        cube of the state; ``mover`` is the actual cube, by which plays are chosen. ``top``:
        no cube decision now (each state valued as no double, as for the equities of a cube
        decision). ``reply``: the position's 0-ply chances and life index, when known."""
        leaf = (plies == 0 or position.is_over
                or (not mover.length and is_two_sided_bearoff(position)))
        if leaf:
            if reply is None:
                reply = Reply(position, _pad(position_chances(self.evaluator, position)[None])[0],
                              cube_efficiency(position, self.deep))
            if top:
                return np.array([np.nan if state is None else
                                 float(no_double(reply.chances[None], state, reply.life)[0])
                                 for state in states])
            values: np.ndarray = self._leaf(reply.chances[None], np.array([reply.life]),
                                            states)[0]
            return values
        children = tuple(chain.from_iterable(
            (None, None) if state is None else
            (state.turned(), state.doubled().turned() if not top and state.may_double else None)
            for state in states))
        replies = self.replies(position, mover)
        if plies == 1:
            below = self._leaf(np.array([r.chances for r in replies]),
                               np.array([r.life for r in replies]), children)
        else:
            below = np.array([self.value(r.after, children, mover.turned(), plies - 1,
                                         reply=r) for r in replies])
        mean = _ROLL_WEIGHTS @ below / 36
        mine = 1.0 - mean if mover.length else -mean
        values = np.full(len(states), np.nan)
        for index, state in enumerate(states):
            if state is None:
                continue
            no_double, double_take = mine[2 * index], mine[2 * index + 1]
            values[index] = no_double
            if not np.isnan(double_take):
                double_take *= 1 if state.length else 2
                double_pass = state.mwc(state.cube) if state.length else 1.0
                values[index] = max(no_double, min(double_take, double_pass))
        return values

    def after_play(self, after: Position, state: CubeState) -> float:
        """The mover's normalised cubeful equity (EMG) at :attr:`plies` after a play that
        led to ``after`` (the opponent on roll), ``state`` the mover's cube before it: as
        :func:`after_play_equities`, the opponent's value at :attr:`plies` turned round."""
        opponent = state.turned()
        value = self.value(after, (opponent,), opponent, self.plies)[0]
        return float(state.normalise(1.0 - value if state.length else -value))

    def cube_decision(self, position: Position, state: CubeState) -> tuple[float, float, float]:
        """ND, DT, DP (EMG) of the player on roll in ``position`` at :attr:`plies`, as
        :func:`~nardy_analysis.analysis.cubeful.normalised_cube_decision` has them at 0-ply
        (GNU Backgammon's ``GeneralCubeDecisionE``: the no-double and doubled cube valued
        without a cube decision at the top); ``state.may_double`` must be true."""
        nd, dt = self.value(position, (state, state.doubled()), state, self.plies, top=True)
        if not state.length:
            return float(nd), float(2 * dt), 1.0
        win, lose = state.mwc(state.cube), state.mwc(-state.cube)
        return tuple(float((2 * v - win - lose) / (win - lose))  # type: ignore[return-value]
                     for v in (nd, dt, win))
