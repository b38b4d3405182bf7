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
to them when they may double (:func:`cubeful_equities`). The cube life index ``x``
(:func:`cube_efficiency`) is 0.76 in contact, 0.6 in a bear-off (both sides home) and ``0.6
+ 0.0025 * pips`` of the player on roll (at most 0.8) in any other race: values fitted to
GNU Backgammon 1.1.0a16's equities, not read from its source. Two-sided bear-offs (both
sides at most six checkers, all home) are valued as GNU Backgammon values them, from their
exact equities (:mod:`~nardy_analysis.analysis.bearoff`): in money play the exact cubeful
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
from itertools import chain
from typing import Any, Iterator, NamedTuple

import numpy as np

from ..game.position import ALL_ROLLS, Position, Roll
from ..game.rules import BAR, CHECKERS, OFF
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
from .engine import MONEY, Evaluator, GnubgNN, Utility
from .match_equity import (
    MET_LENGTH,
    GameSituation,
    game_results,
    match_utility,
    match_winning_chance,
    per_game_equity,
)
from .turns import phase

# MET_LENGTH, GameSituation, game_results, match_utility, match_winning_chance and
# per_game_equity are match_equity's, listed here too
__all__ = ["MET_LENGTH", "CubeState", "GameSituation", "MatchScore", "after_play_equities",
           "chances_after_plays", "cube_decision", "cube_efficiency", "cubeful_equities",
           "game_results", "life_index", "life_indices", "match_utility",
           "match_winning_chance", "normalised_cube_decision", "per_game_equity",
           "position_chances", "sure_life_index"]


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
    mine, theirs = _rearmost(position)
    moved = 4 * roll.low if roll.is_double else roll.low + roll.high
    if mine + theirs > BAR - 1:  # contact (cube_efficiency, phase)
        return _one_life_index("contact", 0, deep) if mine - moved + theirs > BAR - 1 else None
    if mine <= BEAROFF_POINTS and theirs <= BEAROFF_POINTS:
        return _one_life_index("bearoff", 0, deep)
    if theirs > BEAROFF_POINTS or mine - moved > BEAROFF_POINTS:
        return _one_life_index("race", position.pip_count(1 - position.turn), deep)
    return None


def _rearmost(position: Position) -> tuple[int, int]:
    """The points of the rearmost checkers of the player on roll and of the opponent, each
    from their own side (25 the bar); kept for the 21 rolls of a position."""
    mine, theirs = (next(point for point in range(BAR, 0, -1) if side[point])
                    for side in (position.on_roll, position.opponent))
    return mine, theirs


@lru_cache(maxsize=None)
def _one_life_index(kind: str, pips: int, deep: bool) -> float:
    """:func:`life_index` of one position, as a float."""
    return float(life_index(kind, pips, deep))


# --- cubeful equity -----------------------------------------------------------------------

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


_SWAP = [0, 3, 4, 1, 2]


def _swap(chances: np.ndarray) -> np.ndarray:
    """Chances (n, 5) from the other side."""
    swapped = chances[:, _SWAP]
    swapped[:, 0] = 1.0 - swapped[:, 0]
    return swapped


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
    cash = 1.0 - _take_point(taker, _swap(taker_chances), 2 * cube)
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
        knots.append((1.0 - _take_point(score, _swap(chances), cube), score.mwc(cube)))
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
    """ND of :func:`_no_double` before its mix, ``(p, dead, live, x)``: the winning chance
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


def _no_double(chances: np.ndarray, state: CubeState, x: Any) -> np.ndarray:
    """ND in MWC (match) or money equity per cube of ``state.cube``; rows with a two-sided
    bear-off's exact equities (``chances`` of shape (n, 9)) as GNU Backgammon values them
    (:mod:`~nardy_analysis.analysis.bearoff`): in money play the exact equity of the cube's
    owner, in match play Janowski's formula on the exact winning chance with the cube life
    index that gives that money equity (at most ``x``)."""
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
    nd = _no_double(chances, state, x)
    if not state.may_double:
        return nd, np.full_like(nd, np.nan), np.full_like(nd, np.nan)
    doubled = state.doubled()
    dt = _no_double(chances, doubled, x) * (1 if state.length else 2)
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
        Cube life index (:func:`cube_efficiency`).

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
    """ND of :func:`_no_double` as GNU Backgammon's eval.c works it out, in single precision
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
    mine, theirs = _rearmost(position)
    if mine > BEAROFF_POINTS or theirs > BEAROFF_POINTS \
            or CHECKERS - position.opponent[OFF] > BEAROFF_CHECKERS:
        return chances
    exact = np.full((len(chances), 4), np.nan)
    for row, key in enumerate(keys):
        after = evaluator.position_after(key, position.turn)
        if is_two_sided_bearoff(after):
            exact[row] = bearoff_equities(after)
    return np.concatenate([chances, exact], axis=1)


# --- cubeful n-ply evaluation ---------------------------------------------------------------

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
    :meth:`~nardy_analysis.analysis.engine.GnubgNN.pruned`, by the opponent's cubeless
    equity).

    In an evaluation of two plies or more every cube life index, at the leaves and in the
    choice of plays, is the deeper one (:func:`life_index` with ``deep``), as eval.c's
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
        pruned = (evaluator.pruned([keys for keys, _ in listed], _cubeless(state.turned()))
                  if isinstance(evaluator, GnubgNN) else [None] * len(listed))
        found = []
        for index, (start, end) in enumerate(zip(np.concatenate([[0], ends[:-1]]), ends)):
            kept = pruned[index]
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
                                 float(_no_double(reply.chances[None], state, reply.life)[0])
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
        :func:`normalised_cube_decision` has them at 0-ply (GNU Backgammon's
        ``GeneralCubeDecisionE``: the no-double and doubled cube valued without a cube
        decision at the top); ``state.may_double`` must be true."""
        nd, dt = self.value(position, (state, state.doubled()), state, self.plies, top=True)
        if not state.length:
            return float(nd), float(2 * dt), 1.0
        win, lose = state.mwc(state.cube), state.mwc(-state.cube)
        return tuple(float((2 * v - win - lose) / (win - lose))  # type: ignore[return-value]
                     for v in (nd, dt, win))
