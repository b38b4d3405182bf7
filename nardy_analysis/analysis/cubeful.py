"""Cubeful equity: what a position and a score are worth with the cube (the match
equity it rests on: :mod:`~nardy_analysis.analysis.match_equity`).

Cubeful equity at 0-ply (Rick Janowski, "Take-Points in Money Games", 1993, with the cube
life index ``x``; its match-play form after Joern Thyssen's "Cubeful equities in match
play"). The cubeful equity is ``x * live + (1 - x) * dead``: ``dead`` the cubeless equity,
``live`` a piecewise linear function of the winning chance ``p`` through the equities of
losing (``p = 0``), of passing a double (at the take point), of cashing (at the cash point)
and of winning (``p = 1``), each loss or win weighted by the position's gammon and
backgammon rates; the take and cash points are those of a fully live cube, found (match
play) from the highest cube level down, where a redouble no longer helps, or (money) in
closed form ``TP = (L - 1/2) / (W + L + 1/2)``, ``CP = (L + 1) / (W + L + 1/2)``. In money
play with the Jacoby rule a centred cube counts gammons single. After a play the opponent,
then on roll, has their own cube decision: the position is worth ``max(ND, min(DT, DP))``
to them when they may double (:func:`cubeful_equities`). The cube life index ``x`` of a
position is :mod:`~nardy_analysis.analysis.cube_life`'s. Two-sided bear-offs (both sides at
most six checkers, all home) are valued as GNU Backgammon values them, from their exact
equities (:mod:`~nardy_analysis.analysis.bearoff`): in money play the exact cubeful
equity, in match play the formula on the exact winning chance with the life index those
equities imply (:func:`position_chances`, :func:`chances_after_plays`).

Cube decisions (:func:`cube_decision`): the cubeful equities of *no double* (ND), *double,
take* (DT) and *double, pass* (DP) of the player on roll; :func:`normalised_cube_decision`
works them out in single precision as GNU Backgammon's eval.c does, so that where ND and DP
are equal in exact numbers (a certain win without gammons) its roundings decide. How a
decision is judged from them is :mod:`~nardy_analysis.analysis.skill`'s.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np

from ..game.position import Position
from ..game.rules import CHECKERS, OFF
from .bearoff import (
    BEAROFF_CHECKERS,
    BEAROFF_POINTS,
    CENTRED,
    CUBELESS,
    OPPONENT_OWNS,
    OWNED,
    bearoff_equities,
    is_two_sided_bearoff,
)
from .evaluator import MONEY, Evaluator, pips_beyond, rearmost, swapped
from .match_equity import (
    MET_LENGTH,
    GameSituation,
    game_results,
    match_utility,
    match_winning_chance,
    per_game_equity,
)

# MET_LENGTH, GameSituation, game_results, match_utility, match_winning_chance and
# per_game_equity are match_equity's, listed here too
__all__ = ["MET_LENGTH", "CubeState", "GameSituation", "MatchScore", "after_play_equities",
           "chances_after_plays", "cube_decision", "cubeful_equities", "game_results",
           "match_utility", "match_winning_chance", "no_double", "normalised_cube_decision",
           "per_game_equity", "position_chances"]


_Parts = tuple[np.ndarray, np.ndarray, np.ndarray]
"""A no-double equity before its mix: ``(dead, live, x)`` (:func:`_mixed`)."""


class MatchScore(NamedTuple):
    """The match score from the side of the player on roll, for the match equity table.

    Attributes
    ----------
    away, opponent_away : int
        Points the player on roll and the opponent still need.
    post : bool
        The next game is post-Crawford when a player is 1 away (this game is the Crawford
        game or after it).
    """

    away: int
    opponent_away: int
    post: bool

    @property
    def other(self) -> MatchScore:
        """The same score from the opponent's side."""
        return MatchScore(self.opponent_away, self.away, self.post)

    def mwc(self, points: int) -> float:
        """Match-winning chance of the player on roll after winning ``points`` (< 0:
        losing them), from :func:`match_winning_chance`."""
        return _mwc(self, points)


@lru_cache(maxsize=None)
def _mwc(score: MatchScore, points: int) -> float:
    return match_winning_chance(score.away - max(points, 0),
                                score.opponent_away + min(points, 0), score.post)


def _outcome_average(score: MatchScore, chances: np.ndarray, cube: int, win: bool) -> np.ndarray:
    """MWC of the player on roll averaged over the kinds of win (or loss) at ``cube``."""
    sign, (p, g, b) = (1, chances[:, :3].T) if win else (-1, (1.0 - chances[:, 0],
                                                              chances[:, 3], chances[:, 4]))
    single, gammon, backgammon = (score.mwc(sign * k * cube) for k in (1, 2, 3))
    some = p > 1e-7
    return np.where(some, single + ((gammon - single) * g + (backgammon - gammon) * b)
                    / np.where(some, p, 1.0), single)


def _take_point(doubler: MatchScore, taker_chances: np.ndarray, cube: int) -> np.ndarray:
    """The taker's take point (their winning chance) of a double from ``cube`` to
    ``2 * cube``, the cube then live for the taker up to the level where it is dead."""
    taker = doubler.other
    lose = _outcome_average(taker, taker_chances, 2 * cube, False)
    passed = taker.mwc(-cube)
    if taker.away <= 2 * cube:  # the taker's redouble could not gain anything
        win = _outcome_average(taker, taker_chances, 2 * cube, True)
        point: np.ndarray = (passed - lose) / (win - lose)
        return point
    cash = 1.0 - _take_point(taker, swapped(taker_chances), 2 * cube)
    point = cash * (passed - lose) / (taker.mwc(2 * cube) - lose)
    return point


def _piecewise(p: np.ndarray, knots: list[tuple[Any, Any]]) -> np.ndarray:
    """The piecewise linear function through ``knots`` [(x, y), ...] (arrays or numbers,
    x from 0 to 1), at ``p``."""
    value: Any
    p, value = np.clip(p, 0.0, 1.0), 0.0
    for (x0, y0), (x1, y1) in zip(knots[-2::-1], knots[:0:-1]):
        width = np.subtract(x1, x0)
        segment = y0 + (np.subtract(y1, y0)) * (p - x0) / np.where(width > 0, width, 1.0)
        value = np.where(p <= x1, segment, value)
    curve: np.ndarray = value
    return curve


def _match_no_double(score: MatchScore, chances: np.ndarray, cube: int, owner: int | None,
                     x: Any, crawford: bool) -> _Parts:
    """Cubeful MWC for the player on roll, the cube where it is (``owner`` 0: theirs,
    1: the opponent's, None: centred), without doubling now, as ``(dead, live, x)``: the
    cubeless MWC, that of a fully live cube and the life index, to be mixed as ``x * live +
    (1 - x) * dead`` (:func:`_mixed`). The cube is dead (``x`` 0) in the Crawford game, for
    a player who already wins the match with it, and at 2-away 2-away whatever the cube
    (GNU Backgammon 1.1.0a16's eval.c, ``fDoCubeful``, read, not copied: no cubeful
    evaluation at that score)."""
    lose = _outcome_average(score, chances, cube, False)
    win = _outcome_average(score, chances, cube, True)
    pw = chances[:, 0]
    dead = pw * win + (1.0 - pw) * lose  # the cubeless MWC
    knots: list[tuple[Any, Any]]
    knots, live = [(0.0, lose)], not crawford and (score.away, score.opponent_away) != (2, 2)
    if not live:
        return dead, dead, np.zeros_like(dead)
    if owner in (None, 1) and score.opponent_away > cube:
        knots.append((_take_point(score.other, chances, cube), score.mwc(-cube)))
    if owner in (None, 0) and score.away > cube:
        knots.append((1.0 - _take_point(score, swapped(chances), cube), score.mwc(cube)))
    knots.append((1.0, win))
    return dead, _piecewise(pw, knots), np.broadcast_to(x, dead.shape)


def _money_no_double(chances: np.ndarray, owner: int | None, x: Any, jacoby: bool) -> _Parts:
    """Cubeful money equity (per cube) for the player on roll, without doubling now, as
    ``(dead, live, x)`` (:func:`_match_no_double`)."""
    p, g, b, lg, lb = chances.T
    wins = np.where(p > 1e-7, 1.0 + (g + b) / np.where(p > 1e-7, p, 1.0), 1.0)
    losses = np.where(p < 1 - 1e-7, 1.0 + (lg + lb) / np.where(p < 1 - 1e-7, 1 - p, 1.0), 1.0)
    take = (losses - 0.5) / (wins + losses + 0.5)
    cash = (losses + 1.0) / (wins + losses + 0.5)
    single = jacoby and owner is None  # gammons count single with a centred cube
    dead = 2 * p - 1 if single else 2 * p - 1 + g - lg + b - lb
    low, high = (-1.0, 1.0) if single else (-losses, wins)
    knots: list[tuple[Any, Any]] = [(0.0, low)]
    if owner in (None, 1):
        knots.append((take, -1.0))
    if owner in (None, 0):
        knots.append((cash, 1.0))
    knots.append((1.0, high))
    return dead, _piecewise(p, knots), np.broadcast_to(x, dead.shape)


def _mixed(parts: _Parts) -> np.ndarray:
    """``x * live + (1 - x) * dead`` of ``(dead, live, x)``."""
    dead, live, x = parts
    mixed: np.ndarray = x * live + (1 - x) * dead
    return mixed


@dataclass(frozen=True)
class CubeState:
    """The cube and score from the side of the player on roll.

    Parameters
    ----------
    length : int
        Match length (0: money play).
    away, opponent_away : int
        Points the player on roll and the opponent still need (match play).
    cube : int
    owner : int or None
        0 the player on roll owns the cube, 1 the opponent, None centred.
    crawford, post_crawford : bool
        The Crawford game (no doubling); a game after it (or one without the rule) with a
        player one point away.
    jacoby : bool
        Money play: gammons count single with a centred cube.
    cubeful : bool
        False in a game without the cube (long nardy): no cube decision, the equity is the
        cubeless money equity per game (a mars 2 points, a home mars as the rules score it)
        and has no match-winning chance.
    """

    length: int
    away: int = 0
    opponent_away: int = 0
    cube: int = 1
    owner: int | None = None
    crawford: bool = False
    post_crawford: bool = False
    jacoby: bool = True
    cubeful: bool = True

    @property
    def score(self) -> MatchScore | None:
        """The score for the match equity table (None in money play)."""
        if not self.length:
            return None
        return _table_score(self)

    def mwc(self, points: int) -> float:
        """Match play: the match-winning chance of the player on roll after winning
        ``points`` (< 0: losing them), :meth:`MatchScore.mwc` of :attr:`score`."""
        return _mwc(_table_score(self), points)

    @property
    def may_double(self) -> bool:
        """The player on roll may double now (their cube or centred, not the Crawford game,
        and in match play not already enough to win the match)."""
        return (self.cubeful and self.owner in (None, 0) and not self.crawford
                and (not self.length or self.away > self.cube))

    def turned(self) -> "CubeState":
        """The state after the player on roll passes the turn (the opponent on roll)."""
        return replace(self, away=self.opponent_away, opponent_away=self.away,
                       owner=None if self.owner is None else 1 - self.owner)

    def doubled(self) -> "CubeState":
        """The state after the player on roll doubles and is taken."""
        return replace(self, cube=2 * self.cube, owner=1)

    def normalise(self, value: Any) -> Any:
        """MWC (match play) or money equity per cube of the player on roll (a number or an
        array) as normalised equity at this cube: GNU Backgammon's ``mwc2eq``, ``(2 MWC - W -
        L) / (W - L)``, ``W`` and ``L`` the MWC after winning and losing the cube."""
        if not self.length:
            return value
        win, lose = self.mwc(self.cube), self.mwc(-self.cube)
        return (2 * value - win - lose) / (win - lose)

    def mwc_scale(self) -> float:
        """MWC per unit of normalised equity (half the MWC between winning and losing the
        cube); NaN in money play and without the cube."""
        if not self.length or not self.cubeful:
            return float("nan")
        return (self.mwc(self.cube) - self.mwc(-self.cube)) / 2


def _table_score(state: CubeState) -> MatchScore:
    """:attr:`CubeState.score` of a state in match play."""
    return MatchScore(state.away, state.opponent_away, state.crawford or state.post_crawford)


_BEAROFF_COLUMN = {0: OWNED, None: CENTRED, 1: OPPONENT_OWNS}
"""The column of :func:`~nardy_analysis.analysis.bearoff.bearoff_equities` by cube owner."""


def _no_double_parts(chances: np.ndarray, state: CubeState,
                     x: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """ND of :func:`no_double` before its mix, ``(p, dead, live, x)``: the winning chance
    it is worked out from and :func:`_match_no_double`'s parts."""
    exact, chances = chances[:, 5:], chances[:, :5]
    bearoff = ~np.isnan(exact[:, CUBELESS]) if exact.size else np.zeros(len(chances), bool)
    if bearoff.any():
        exact_chances = np.zeros_like(chances)
        exact_chances[:, 0] = (exact[:, CUBELESS] + 1) / 2
        chances = np.where(bearoff[:, None], exact_chances, chances)
        cubeful = exact[:, _BEAROFF_COLUMN[state.owner]]
    if not state.length:
        dead, live, x = _money_no_double(chances, state.owner, x, state.jacoby)
        if bearoff.any():
            dead, live = np.where(bearoff, cubeful, dead), np.where(bearoff, cubeful, live)
            x = np.where(bearoff, 0.0, x)
        return chances[:, 0], dead, live, x
    if bearoff.any():  # gnubg's eval.c, EvaluatePositionCubeful4, CLASS_BEAROFF_TS
        cubeless = exact[:, CUBELESS]
        live = _mixed(_money_no_double(chances, state.owner, 1.0, False))
        apart = np.abs(live - cubeless) > 1e-4
        fitted = (cubeful - cubeless) / np.where(apart, live - cubeless, 1.0)
        x = np.where(bearoff, np.clip(np.where(apart, fitted, x), 0.0, x), x)
    return chances[:, 0], *_match_no_double(_table_score(state), chances, state.cube, state.owner,
                                            x, state.crawford)


def no_double(chances: np.ndarray, state: CubeState, x: Any) -> np.ndarray:
    """The cubeful equity of *no double* (ND) of the player on roll (the module docstring:
    Janowski's formula, Thyssen's match-play form).

    Parameters
    ----------
    chances, state, x
        As for :func:`cubeful_equities`.

    Returns
    -------
    ndarray, shape (n,)
        ND in MWC (match play) or money equity per cube of ``state.cube`` (money play); rows
        with a two-sided bear-off's exact equities (``chances`` of shape (n, 9)) as GNU
        Backgammon values them (:mod:`~nardy_analysis.analysis.bearoff`): in money play the
        exact equity of the cube's owner, in match play Janowski's formula on the exact
        winning chance with the cube life index that gives that money equity (at most
        ``x``).
    """
    _, dead, live, life = _no_double_parts(chances, state, x)
    return _mixed((dead, live, life))


def cube_decision(chances: np.ndarray, state: CubeState,
                  x: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The cubeful equities of the cube decision of the player on roll (the module
    docstring: Janowski's formula, Thyssen's match-play form).

    Parameters
    ----------
    chances, state, x
        As for :func:`cubeful_equities`.

    Returns
    -------
    (ND, DT, DP) : three ndarrays, shape (n,)
        No double, double/take and double/pass, in the player's MWC (match play) or money
        equity at ``state.cube`` (money play; DP is 1); DT and DP NaN when they may not
        double (:attr:`CubeState.may_double`).
    """
    nd = no_double(chances, state, x)
    if not state.may_double:
        return nd, np.full_like(nd, np.nan), np.full_like(nd, np.nan)
    doubled = state.doubled()
    dt = no_double(chances, doubled, x) * (1 if state.length else 2)
    dp = np.full_like(nd, state.mwc(state.cube) if state.length else 1.0)
    return nd, dt, dp


def cubeful_equities(chances: np.ndarray, state: CubeState, x: Any) -> np.ndarray:
    """Cubeful 0-ply value for the player on roll (their cube decision made well): ``max(ND,
    min(DT, DP))`` of :func:`cube_decision`, MWC in match play, money equity per cube in
    money play.

    Parameters
    ----------
    chances : ndarray, shape (n, 5) or (n, 9)
        Cubeless chances of the player on roll (win, win gammon, win backgammon, lose
        gammon, lose backgammon; cumulative, probability 0..1), before their roll; and, in
        columns 5..8, a two-sided bear-off's exact money equities
        (:func:`~nardy_analysis.analysis.bearoff.bearoff_equities`; NaN for other rows),
        which replace the chances and the formula as GNU Backgammon does.
    state : CubeState
    x : float or ndarray of shape (n,)
        Cube life index (:func:`~nardy_analysis.analysis.cube_life.cube_efficiency`).

    Returns
    -------
    ndarray, shape (n,)
    """
    nd, dt, dp = cube_decision(chances, state, x)
    if not state.may_double:
        return nd
    best: np.ndarray = np.maximum(nd, np.minimum(dt, dp))
    return best


def after_play_equities(chances_after: np.ndarray, state: CubeState, x: Any) -> np.ndarray:
    """The mover's normalised cubeful equity after each of their plays: the opponent, then
    on roll, makes their cube decision well (:func:`cubeful_equities` from their side),
    normalised as GNU Backgammon's ``mwc2eq`` (:meth:`CubeState.normalise`).

    Parameters
    ----------
    chances_after : ndarray, shape (n, 5) or (n, 9)
        The opponent's chances (on roll) after each play, as for :func:`cubeful_equities`.
    state : CubeState
        The mover's, before the play.
    x : float or ndarray of shape (n,)
        The opponent's cube life index after each play.

    Returns
    -------
    ndarray, shape (n,)
        Normalised equity (EMG); without the cube (``state.cubeful`` False) the mover's
        cubeless money equity per game.
    """
    if not state.cubeful:
        return MONEY.of_opponent(chances_after[:, :5])
    opponent = state.turned()
    value = cubeful_equities(chances_after, opponent, x)
    mine = 1.0 - value if state.length else -value
    normalised: np.ndarray = state.normalise(mine)
    return normalised


def _single_precision_no_double(chances: np.ndarray, state: CubeState, x: Any) -> np.ndarray:
    """ND of :func:`no_double` as GNU Backgammon's eval.c works it out, in single precision
    (float32): the cubeless equity ``u`` from the winning chance in single precision, the
    dead cube's MWC ``(u (W - L) + W + L) / 2`` (``W``, ``L``: winning and losing the cube;
    money play 1 and -1), then ``dead (1 - x) + live x``. Where ND and double/pass are equal
    in exact numbers (a certain win without gammons) these roundings decide which is
    larger, as they do for gnubg."""
    f32 = np.float32
    p, dead, live, x = _no_double_parts(chances, state, x)
    high, low = (state.mwc(state.cube), state.mwc(-state.cube)) if state.length \
        else (1.0, -1.0)
    utility = (2 * dead - (high + low)) / (high - low) - (2 * p - 1)  # gammons' part
    win, lose = _cash(state)
    utility = (p.astype(f32) * f32(2) - f32(1)) + utility.astype(f32)
    dead = f32(0.5) * (utility * (win - lose) + (win + lose))
    x = np.asarray(x).astype(f32)
    mixed: np.ndarray = dead * (f32(1) - x) + live.astype(f32) * x
    return mixed


def _cash(state: CubeState) -> tuple[np.float32, np.float32]:
    """``(W, L)`` in single precision: the MWC of winning and of losing the cube (match play),
    or 1 and -1 (money play, per cube)."""
    if not state.length:
        return np.float32(1), np.float32(-1)
    return np.float32(state.mwc(state.cube)), np.float32(state.mwc(-state.cube))


def normalised_cube_decision(chances: np.ndarray, state: CubeState,
                             x: Any) -> list[np.ndarray]:
    """ND, DT, DP of :func:`cube_decision` as normalised equity in single precision, as GNU
    Backgammon's eval.c has them (``FindCubeDecision``; ``mwc2eq``: ``(2 MWC - W - L) / (W -
    L)``; money play the equity itself).

    Parameters
    ----------
    chances, state, x
        As for :func:`cubeful_equities`; ``state.may_double`` must be true.

    Returns
    -------
    list of three float32 ndarrays, shape (n,)
        ND, DT, DP in EMG. The dead cube's part is worked out in single precision from the
        winning chance, as gnubg does: where ND and DP are equal in exact numbers (a
        certain win without gammons) these roundings decide which is larger.
    """
    win, lose = _cash(state)
    nd = _single_precision_no_double(chances, state, x)
    dt = _single_precision_no_double(chances, state.doubled(), x) * np.float32(
        1 if state.length else 2)
    return [(np.float32(2) * value - (win + lose)) / (win - lose)
            for value in (nd, dt, np.full_like(nd, win))]


def position_chances(evaluator: Evaluator, position: Position) -> np.ndarray:
    """The chances of the player on roll as :func:`cube_decision` takes them.

    Parameters
    ----------
    evaluator : Evaluator
    position : Position

    Returns
    -------
    ndarray, shape (9,)
        The engine's cubeless chances (5) and a two-sided bear-off's exact money equities
        (4, :func:`~nardy_analysis.analysis.bearoff.bearoff_equities`; NaN in any other
        position), which GNU Backgammon values such a position by.
    """
    exact = bearoff_equities(position) if is_two_sided_bearoff(position) else np.full(4, np.nan)
    return np.concatenate([evaluator.evaluate(position), exact])


def chances_after_plays(evaluator: Evaluator, position: Position, keys: tuple[Any, ...],
                        chances: np.ndarray) -> np.ndarray:
    """The chances after each play with the exact equities of two-sided bear-offs, as
    :func:`position_chances` has them.

    Parameters
    ----------
    evaluator : Evaluator
    position : Position
        Before the plays, the mover on roll.
    keys : tuple
        The plays' keys (``evaluator.plays``).
    chances : ndarray, shape (n, 5)
        The opponent's (then on roll) chances after each play.

    Returns
    -------
    ndarray, shape (n, 9) or (n, 5)
        ``chances`` with the exact equities of the plays that reach a two-sided bear-off
        (NaN for the others); ``chances`` themselves when no play can reach one.
    """
    _, theirs = rearmost(position)  # a roll moves 24 pips and bears off 4 checkers at most:
    if theirs > BEAROFF_POINTS or CHECKERS - position.opponent[OFF] > BEAROFF_CHECKERS \
            or CHECKERS - position.on_roll[OFF] > BEAROFF_CHECKERS + 4 \
            or pips_beyond(position, BEAROFF_POINTS) > 24:
        return chances
    exact = np.full((len(chances), 4), np.nan)
    for row, key in enumerate(keys):
        after = evaluator.position_after(key, position.turn)
        if is_two_sided_bearoff(after):
            exact[row] = bearoff_equities(after)
    return np.concatenate([chances, exact], axis=1)
