"""GNU Backgammon's cubeful n-ply evaluation: :class:`CubefulSearch`.

The 0-ply cubeful equities of :mod:`~nardy_analysis.analysis.cubeful` at the leaves, the
roller's best play of each roll among those GNU Backgammon's pruning nets keep
(:mod:`~nardy_analysis.analysis.pruning`), both players' cube decisions at every ply; for the
2-ply ("World class") analysis of :mod:`~nardy_analysis.analysis.skill`.
"""

from __future__ import annotations

from itertools import chain
from typing import Any, NamedTuple, Sequence

import numpy as np

from ..game.moves import ALL_ROLLS, Roll
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
from .shots import ROLL_THROWS

_ROLL_WEIGHTS = np.array(ROLL_THROWS, dtype=float)
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


_BATCH = 32
"""Positions whose plays :meth:`CubefulSearch.replies_of` works out together: enough that
array operations outweigh Python's work, few enough to keep memory small."""


def _settled(position: Position, state: CubeState) -> bool:
    """Whether a search values ``position`` as it stands, whatever the plies left: the game
    over, or in money play (``state``, either side's) a two-sided bear-off, valued exactly."""
    return position.is_over or (not state.length and is_two_sided_bearoff(position))


class Reply(NamedTuple):
    """The best play of one roll in a search: the position before it, the play (the
    engine's key; None for a dance), the opponent's chances after it (9 columns,
    :func:`position_chances`) and their cube life index there."""

    before: Position
    play: Any
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
    same for every state valued (of equal ones, that with the highest cubeless equity of the
    mover, as eval.c's ``ScoreMoves`` breaks ties), among the plays gnubg's pruning nets
    keep (gnubg-nn: :func:`~nardy_analysis.analysis.pruning.pruned`, by the opponent's
    cubeless equity); only those are valued by the full nets.

    In an evaluation of two plies or more every cube life index, at the leaves and in the
    choice of plays, is the deeper one
    (:func:`~nardy_analysis.analysis.cube_life.life_index` with ``deep``), as eval.c's
    ``EvalEfficiency`` has it for the evaluation's ply.

    Parameters
    ----------
    evaluator : Evaluator
        The engine of the 0-ply chances (:meth:`Evaluator.plays`).
    plies : int
        The depth of :meth:`after_plays` and :meth:`cube_decision`.
    """

    def __init__(self, evaluator: Evaluator, plies: int):
        self.evaluator, self.plies, self.deep = evaluator, plies, plies >= 2
        self._replies: dict[tuple[Position, CubeState], list[Reply]] = {}

    def replies(self, position: Position, state: CubeState) -> list[Reply]:
        """The best play of each of the 21 rolls (``ALL_ROLLS``) in ``position`` for the
        player on roll with the cube ``state`` (theirs), by 0-ply cubeful equity; a dance
        leaves the position with the opponent on roll."""
        return self.replies_of((position,), state)[0]

    def replies_of(self, positions: Sequence[Position], state: CubeState) -> list[list[Reply]]:
        """:meth:`replies` of each of ``positions`` (games not over, the same cube
        ``state``), those not yet known worked out together: one array operation for all
        their plays instead of one per position."""
        wanted = [position for position in dict.fromkeys(positions)
                  if (position, state) not in self._replies]
        for start in range(0, len(wanted), _BATCH):
            batch = wanted[start:start + _BATCH]
            for position, found in zip(batch, self._best_plays(batch, state)):
                self._replies[(position, state)] = found
        return [self._replies[(position, state)] for position in positions]

    def _best_plays(self, positions: list[Position], state: CubeState) -> list[list[Reply]]:
        """:meth:`replies` of ``positions``, none known yet."""
        evaluator, parts, lives = self.evaluator, [], []
        items = self._kept_plays([(position, roll) for position in positions
                                  for roll in ALL_ROLLS], state)
        found_lives = iter(life_indices(evaluator, [item[:3] for item in items if item[2]],
                                        deep=self.deep))
        for start in range(0, len(items), len(ALL_ROLLS)):
            position, chances = items[start][0], []
            keys: list[Any] = []
            for _, _, play_keys, play_chances in items[start:start + len(ALL_ROLLS)]:
                if play_keys:
                    keys += play_keys
                    chances.append(play_chances)
                    lives.append(next(found_lives))
                else:
                    dance = position.with_turn(1 - position.turn)
                    keys.append(None)
                    chances.append(np.array([evaluator.evaluate(dance)]))
                    lives.append(np.array([cube_efficiency(dance, self.deep)]))
            parts.append(_pad(chances_after_plays(evaluator, position, tuple(keys),
                                                  np.concatenate(chances))))
        rows, life = np.concatenate(parts), np.concatenate(lives)
        equities = after_play_equities(rows, state, life)
        sizes = [max(len(item[2]), 1) for item in items]
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        rolls = np.repeat(np.arange(len(items)), sizes)
        best_equity = np.repeat(np.maximum.reduceat(equities, starts), sizes)
        ties = np.where(equities == best_equity, _cubeless(state).of_opponent(rows[:, :5]),
                        -np.inf)
        bests = np.lexsort((-ties, rolls))[starts]
        found = [Reply(position, listed[best - start] if listed else None, chances, x)
                 for (position, _, listed, _), best, start, chances, x in zip(
                     items, bests.tolist(), starts.tolist(), rows[bests], life[bests].tolist())]
        return [found[start:start + len(ALL_ROLLS)]
                for start in range(0, len(found), len(ALL_ROLLS))]

    def _kept_plays(self, rolls: list[tuple[Position, Roll]], state: CubeState
                    ) -> list[tuple[Position, Roll, tuple[Any, ...], np.ndarray]]:
        """For each ``(position, roll)``: the plays the search looks at, ``(position, roll,
        keys, chances)`` as :meth:`Evaluator.plays` gives them; with gnubg-nn, those its
        pruning nets keep (:func:`pruned`, in their order), and only they are valued."""
        evaluator = self.evaluator
        if not isinstance(evaluator, GnubgNN):
            return [(position, roll, *evaluator.plays(position, roll))
                    for position, roll in rolls]
        listed = evaluator.play_boards(rolls)
        kept = [boards if keep is None else boards[keep]
                for boards, keep in zip(listed, pruned(evaluator, listed,
                                                       _cubeless(state.turned())))]
        valued = evaluator.play_chances([(position, boards)
                                         for (position, _), boards in zip(rolls, kept)])
        return [(position, roll, keys, chances)
                for (position, roll), (keys, chances) in zip(rolls, valued)]

    def _after(self, reply: Reply) -> Position:
        """The position after the play of ``reply`` (a dance: the same, the opponent on
        roll)."""
        before = reply.before
        if reply.play is None:
            return before.with_turn(1 - before.turn)
        return self.evaluator.position_after(reply.play, before.turn)

    def _leaf(self, rows: np.ndarray, life: np.ndarray,
              states: tuple[CubeState | None, ...], top: bool = False) -> np.ndarray:
        """0-ply values (n, len(states)) of positions with the chances ``rows`` (n, 9) of the
        player on roll; NaN for a missing state; ``top``: each state valued as no double."""
        value = no_double if top else cubeful_equities
        values = np.full((len(rows), len(states)), np.nan)
        for column, state in enumerate(states):
            if state is not None:
                values[:, column] = value(rows, state, life)
        return values

    def values(self, positions: Sequence[Position], states: tuple[CubeState | None, ...],
               mover: CubeState, plies: int, top: bool = False,
               known: Sequence[tuple[np.ndarray, float]] | None = None) -> np.ndarray:
        """The values of each of ``positions`` at ``plies`` for the player on roll under each
        of ``states`` (None: a state that does not occur), shape (len(positions),
        len(states)), MWC (match play) or money equity per cube of the state; ``mover`` is
        the actual cube, by which plays are chosen. ``top``: no cube decision now (each
        state valued as no double, as for the equities of a cube decision). ``known``: the
        positions' 0-ply chances (9 columns) and life indices, when known. The positions of
        each ply are searched together (:meth:`replies_of`)."""
        values = np.full((len(positions), len(states)), np.nan)
        settled = [not plies or _settled(position, mover) for position in positions]
        leaves = [row for row, leaf in enumerate(settled) if leaf]
        searched = [row for row, leaf in enumerate(settled) if not leaf]
        if leaves:
            chances, lives = zip(*(known[row] if known else (
                _pad(position_chances(self.evaluator, positions[row])[None])[0],
                cube_efficiency(positions[row], self.deep)) for row in leaves))
            values[leaves] = self._leaf(np.array(chances), np.array(lives), states, top)
        if not searched:
            return values
        children = tuple(chain.from_iterable(
            (None, None) if state is None else
            (state.turned(), state.doubled().turned() if not top and state.may_double else None)
            for state in states))
        replies = list(chain.from_iterable(
            self.replies_of([positions[row] for row in searched], mover)))
        if plies == 1:
            below = self._leaf(np.array([reply.chances for reply in replies]),
                               np.array([reply.life for reply in replies]), children)
        else:
            below = self.values([self._after(reply) for reply in replies], children,
                                mover.turned(), plies - 1,
                                known=[(reply.chances, reply.life) for reply in replies])
        below = below.reshape(len(searched), len(ALL_ROLLS), len(children))
        mean = np.array([_ROLL_WEIGHTS @ rolls / 36 for rolls in below])
        mine = 1.0 - mean if mover.length else -mean
        for column, state in enumerate(states):
            if state is None:
                continue
            nd, dt = mine[:, 2 * column], mine[:, 2 * column + 1]
            values[searched, column] = nd
            if not np.isnan(dt).all():
                dp = state.mwc(state.cube) if state.length else 1.0
                values[searched, column] = np.maximum(
                    nd, np.minimum(dt * (1 if state.length else 2), dp))
        return values

    def after_plays(self, afters: Sequence[Position], state: CubeState) -> np.ndarray:
        """The mover's normalised cubeful equity (EMG) at :attr:`plies` after each of the
        plays that led to ``afters`` (the opponent on roll), shape (len(afters),), ``state``
        the mover's cube before them: as :func:`after_play_equities`, the opponent's value
        at :attr:`plies` turned round."""
        opponent = state.turned()
        value = self.values(afters, (opponent,), opponent, self.plies)[:, 0]
        normalised: np.ndarray = state.normalise(1.0 - value if state.length else -value)
        return normalised

    def cube_decision(self, position: Position, state: CubeState) -> tuple[float, float, float]:
        """ND, DT, DP (EMG) of the player on roll in ``position`` at :attr:`plies`, as
        :func:`~nardy_analysis.analysis.cubeful.normalised_cube_decision` has them at 0-ply
        (GNU Backgammon's ``GeneralCubeDecisionE``: the no-double and doubled cube valued
        without a cube decision at the top); ``state.may_double`` must be true."""
        nd, dt = self.values((position,), (state, state.doubled()), state, self.plies,
                             top=True)[0]
        if not state.length:
            return float(nd), float(2 * dt), 1.0
        win, lose = state.mwc(state.cube), state.mwc(-state.cube)
        return tuple(float((2 * v - win - lose) / (win - lose))  # type: ignore[return-value]
                     for v in (nd, dt, win))
