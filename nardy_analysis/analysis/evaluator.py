"""The evaluator interface: the :class:`Evaluator` base of the engines and its value types.

An evaluator estimates, for the player on roll, the chances of the game's outcomes
(:class:`Probabilities`, cubeless) and finds the best play of a roll under a given equity
(a linear function of those chances, see :class:`Utility`). The analyses built on it (dice
luck, :mod:`nardy_analysis.luck`) never see the engine itself.

The backends: :class:`~nardy_analysis.analysis.gnubg.GnubgNN` (GNU Backgammon's nets, the
default), :class:`~nardy_analysis.analysis.sage.BgSage` and, for long nardy,
:class:`~nardy_analysis.analysis.long_engine.LongEvaluator`;
:mod:`~nardy_analysis.analysis.engine` chooses among them. The short nardy backends are
optional extras: without them their modules still import, and asking for one raises
:class:`EngineError` naming the command that installs it (:func:`not_installed`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np

from ..errors import EngineError
from ..game.moves import Roll
from ..game.position import Position, ending
from ..game.rules import BAR, CHECKERS, STANDARD, Rules

ENGINE_EXTRA = "pip install 'nardy-analysis[engine]'"
"""The command that installs the default engine (gnubg-nn, GPL-3)."""
SAGE_EXTRA = "pip install 'nardy-analysis[sage]'"
"""The command that installs the second engine (bgsage, MPL-2.0)."""


def not_installed(what: str, extra: str, package: str) -> EngineError:
    """The error for a missing engine, naming the extra that installs it.

    Parameters
    ----------
    what : str
        What is missing, the start of the message.
    extra : str
        ``"engine"`` (:data:`ENGINE_EXTRA`) or ``"sage"`` (:data:`SAGE_EXTRA`).
    package : str
        The package and its licence, for the end of the message.

    Returns
    -------
    EngineError
    """
    command = ENGINE_EXTRA if extra == "engine" else SAGE_EXTRA
    return EngineError(f"{what}; install it with `{command}` (from a source checkout: "
                       f"`pip install '.[{extra}]'`; {package})")


FILTER_WIDTH = 0.16
"""Equity window of the move filter for plies >= 1: that of GNU Backgammon's "Normal" filter,
its World class analysis' (gnubg-nn's best plays at those plies go by gnubg's default
filters instead, :data:`~nardy_analysis.analysis.plies.DEFAULT_FILTERS`)."""
FILTER_MOVES = 8
"""Plays kept besides the 0-ply best by that filter."""


class Probabilities(NamedTuple):
    """Cubeless chances of a game's outcomes for one player, each a probability 0..1.

    ``win_gammon`` includes backgammons and ``win`` includes both (cumulative, as GNU
    Backgammon reports them); the chance of losing is ``1 - win``.
    """

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float

    def swapped(self) -> "Probabilities":
        """The same chances from the other player's side."""
        return Probabilities(1.0 - self.win, self.lose_gammon, self.lose_backgammon,
                             self.win_gammon, self.win_backgammon)

    @property
    def money_equity(self) -> float:
        """Cubeless money equity, points per game at cube 1:
        ``2 win - 1 + win_gammon - lose_gammon + win_backgammon - lose_backgammon``."""
        return (2.0 * self.win - 1.0 + self.win_gammon - self.lose_gammon
                + self.win_backgammon - self.lose_backgammon)


@dataclass(frozen=True, slots=True)
class Utility:
    """An equity that is linear in the chances of the outcomes.

    ``utility(p) = base + win * p.win + win_gammon * p.win_gammon + ...``. Cubeless money
    equity and GNU Backgammon's normalised cubeless match equity are both of this form
    (:func:`nardy_analysis.luck.match_utility`).
    """

    base: float = -1.0
    win: float = 2.0
    win_gammon: float = 1.0
    win_backgammon: float = 1.0
    lose_gammon: float = -1.0
    lose_backgammon: float = -1.0

    def __call__(self, p: Probabilities) -> float:
        return (self.base + self.win * p[0] + self.win_gammon * p[1]
                + self.win_backgammon * p[2] + self.lose_gammon * p[3]
                + self.lose_backgammon * p[4])

    def of_opponent(self, chances: np.ndarray) -> np.ndarray:
        """The same equity, given chances from the opponent's side: ``self(p.swapped())``
        for each row ``p`` of ``chances``, shape (n, 5); returns shape (n,). Column by
        column in that call's order, not a matrix product: a row's equity is then the same
        to the last bit whatever the other rows (BLAS kernels round by the number of rows)."""
        return (self.base + self.win * (1.0 - chances[:, 0]) + self.win_gammon * chances[:, 3]
                + self.win_backgammon * chances[:, 4] + self.lose_gammon * chances[:, 1]
                + self.lose_backgammon * chances[:, 2])

    def opponent(self) -> "Utility":
        """The opponent's equity in the same game, of their own chances:
        ``-self(p.swapped())``. For money equity and GNU Backgammon's normalised match
        equity it is the opponent's own: a match equity ``M`` normalised by the player's
        ``W`` and ``L`` (MWC after winning and losing the cube) is ``(2 M - W - L) / (W -
        L)``, and the opponent's ``1 - M`` by their ``1 - L`` and ``1 - W`` is its
        negative."""
        return Utility(-(self.base + self.win), self.win, -self.lose_gammon,
                       -self.lose_backgammon, -self.win_gammon, -self.win_backgammon)


MONEY = Utility()
"""Cubeless money equity (:attr:`Probabilities.money_equity`)."""


def swapped(chances: np.ndarray) -> np.ndarray:
    """Chances of shape (..., 5) from the other player's side, as
    :meth:`Probabilities.swapped` turns them."""
    turned = chances[..., [0, 3, 4, 1, 2]]
    turned[..., 0] = 1.0 - turned[..., 0]
    return turned


class BestPlay(NamedTuple):
    """The best play of a roll: the position after it (the opponent on roll), the mover's
    chances there and the mover's equity under the utility used."""

    after: Position
    probabilities: Probabilities
    equity: float


class Evaluator(ABC):
    """Evaluates positions for the player on roll; the base of the backends.

    The public interface is :meth:`evaluate` and :meth:`best_play`. A backend implements
    ``_evaluate_uncached(position)``, ``_plays_uncached(position, roll)`` (every legal play
    as ``(key, chances of the opponent, then on roll)``, ``()`` for a dance) and
    ``_position_after(key, mover)``; both lists are cached here by position.

    Parameters
    ----------
    ply : int
        Look-ahead of the evaluations: 0 is the neural nets' static evaluation, ``n`` the
        average over the 21 rolls of the ``n - 1``-ply evaluation after each roll's best play.
    cache_size : int
        How many (position, roll) play lists and position evaluations to keep.
    highest : int
        The largest ply the backend offers.

    Attributes
    ----------
    ply : int
    name : str
        Name of the engine, for reports.

    Raises
    ------
    EngineError
        ``ply`` is not a whole number 0..``highest``.
    """

    name: str = "evaluator"

    def __init__(self, ply: int, cache_size: int, highest: int):
        if not isinstance(ply, int) or not 0 <= ply <= highest:
            raise EngineError(f"ply must be a whole number 0..{highest}, got {ply!r}")
        self.ply = ply
        self._plays = lru_cache(maxsize=cache_size)(self._plays_uncached)
        self._evaluate = lru_cache(maxsize=cache_size)(self._evaluate_uncached)

    def evaluate(self, position: Position) -> Probabilities:
        """Cubeless chances of ``position`` for the player on roll, before the roll.

        Raises
        ------
        EngineError
            A position the engine cannot take.
        """
        check_position(position)
        return self._evaluate(position)

    def best_play(self, position: Position, roll: Roll, utility: Utility = MONEY) -> BestPlay:
        """The legal play of ``roll`` that maximises the mover's ``utility``.

        Parameters
        ----------
        position : Position
            The position with the roller on roll, game not over.
        roll : Roll
        utility : Utility
            The mover's equity as a function of the mover's chances after the play.

        Returns
        -------
        BestPlay
            For a dance (no legal step) the position is unchanged with the opponent on roll.

        Raises
        ------
        EngineError
            A position the engine cannot take, a finished game, or not a roll.
        """
        check_position(position)
        check_roll(roll)
        if position.is_over:
            raise EngineError(f"the game is over in {position!r}; there is nothing to play")
        keys, chances = self._plays(position, roll)
        if not keys:
            after = position.with_turn(1 - position.turn)
            mine = self._after_dance(after, utility)
            return BestPlay(after, mine, utility(mine))
        equity, key, mine = self._choose(position, keys, chances, utility)
        return BestPlay(self._position_after(key, position.turn), mine, equity)

    def best_equities(self, position: Position, rolls: tuple[Roll, ...],
                      utility: Utility = MONEY) -> tuple[float, ...]:
        """The equity after the best play of each of ``rolls``: ``best_play(position,
        roll, utility).equity`` for each, without building the positions at 0-ply."""
        if self.ply:
            return tuple(self.best_play(position, roll, utility).equity for roll in rolls)
        check_position(position)
        if position.is_over:
            raise EngineError(f"the game is over in {position!r}; there is nothing to play")
        found = []
        for roll in rolls:
            check_roll(roll)
            keys, chances = self._plays(position, roll)
            found.append(float(utility.of_opponent(chances).max()) if keys else
                         utility(self.evaluate(position.with_turn(1 - position.turn))
                                 .swapped()))
        return tuple(found)

    def plays(self, position: Position, roll: Roll) -> tuple[tuple[Any, ...], np.ndarray]:
        """Every legal play of ``roll`` at 0-ply: ``(keys, chances)``, a key per play (the
        backend's; :meth:`position_after` turns it into a position) and the chances of the
        opponent, then on roll, after each, shape (plays, 5); no keys for a dance.

        Raises
        ------
        EngineError
            A position the engine cannot take, or not a roll.
        """
        check_position(position)
        check_roll(roll)
        return self._plays(position, roll)

    def position_after(self, key: Any, mover: int) -> Position:
        """The position after the play ``key`` of :meth:`plays`, ``mover`` having played."""
        return self._position_after(key, mover)

    def play_index(self, keys: tuple[Any, ...], after: Position, mover: int) -> int | None:
        """The index in ``keys`` (of :meth:`plays`) of the play that leads to ``after``,
        or None."""
        return next((i for i, key in enumerate(keys)
                     if self._position_after(key, mover) == after), None)

    def _choose(self, position: Position, keys: tuple[Any, ...], chances: np.ndarray,
                utility: Utility) -> tuple[float, Any, Probabilities]:
        """(equity, key, mover's Probabilities) of the best of the plays ``keys`` with the
        opponent's ``chances`` after each (equal equities: the greatest key)."""
        equities = utility.of_opponent(chances)
        best = max(np.flatnonzero(equities == equities.max()), key=keys.__getitem__)
        return float(equities[best]), keys[best], Probabilities(*chances[best]).swapped()

    def _after_dance(self, after: Position, utility: Utility) -> Probabilities:
        """The mover's chances in ``after``, the position a dance leaves (the opponent on
        roll); ``utility`` is the mover's equity."""
        return self.evaluate(after).swapped()

    def _filtered_choice(self, position: Position, keys: tuple[Any, ...], chances: np.ndarray,
                         utility: Utility) -> tuple[float, Any, Probabilities]:
        """As :meth:`_choose`, the plays within :data:`FILTER_WIDTH` of the 0-ply best of
        ``chances`` (at most :data:`FILTER_MOVES` besides it) evaluated again at ``self.ply``,
        as GNU Backgammon's move filters do."""
        ranked = sorted(zip(utility.of_opponent(chances).tolist(), keys), reverse=True)
        best, deeper = ranked[0][0], []
        for equity, key in ranked[:FILTER_MOVES + 1]:
            if equity >= best - FILTER_WIDTH:
                mine = self.evaluate(self._position_after(key, position.turn)).swapped()
                deeper.append((utility(mine), key, mine))
        return max(deeper)

    @abstractmethod
    def _evaluate_uncached(self, position: Position) -> Probabilities:
        """The engine's evaluation of a checked position (see :meth:`evaluate`)."""

    @abstractmethod
    def _plays_uncached(self, position: Position,
                        roll: Roll) -> tuple[tuple[Any, ...], np.ndarray]:
        """Every legal play: ``(keys, chances)``, the opponent's chances after each play as
        the rows of an array of shape (plays, 5); no keys for a dance."""

    @abstractmethod
    def _position_after(self, key: Any, mover: int) -> Position:
        """The position a play's ``key`` stands for, ``mover`` having played."""


def check_position(position: Position) -> None:
    """Raise EngineError unless ``position`` is a :class:`Position`.

    A Position is validated when it is built (15 checkers a side, no point held by both
    sides), so any Position is one an engine may be given.
    """
    if not isinstance(position, Position):
        raise EngineError(f"not a Position: {position!r}")


@lru_cache(maxsize=4096)
def rearmost(position: Position) -> tuple[int, int]:
    """The points of the rearmost checkers of the player on roll and of the opponent.

    Parameters
    ----------
    position : Position
        A game not over.

    Returns
    -------
    (int, int)
        Each side's rearmost point from its own side (25 the bar), the player on roll's
        first; kept for the 21 rolls of a position.
    """
    mine, theirs = (next(point for point in range(BAR, 0, -1) if side[point])
                    for side in (position.on_roll, position.opponent))
    return mine, theirs


def pips_beyond(position: Position, point: int) -> int:
    """The pips the player on roll must move to bring every checker to ``point`` or nearer
    home (points from their own side, 25 the bar): 0 when none is beyond it."""
    return sum(count * (where - point)
               for where, count in enumerate(position.on_roll) if where > point)


def check_roll(roll: Roll) -> None:
    """Raise EngineError unless ``roll`` is a Roll of two dice 1..6."""
    if not isinstance(roll, Roll) or not (1 <= roll.low <= roll.high <= 6):
        raise EngineError(f"not a roll of two dice 1..6: {roll!r}")


def game_over_probabilities(position: Position, rules: Rules = STANDARD) -> Probabilities:
    """The certain outcome of a finished game for the player on roll.

    The winner has borne off all 15 checkers; it is a gammon if the loser has borne off none,
    a backgammon if the loser also still has a checker on the bar or in the winner's home
    board (:func:`~nardy_analysis.game.position.ending` under ``rules``; RULES.md, "End of
    game and scoring"). Long nardy: a mars is a gammon, a home mars a backgammon when it
    scores 3 (``rules.home_mars``), a mars when it scores 2 (RULES.md, "Long nardy",
    "Results").

    Raises
    ------
    EngineError
        The game is not over.
    """
    if not position.is_over:
        raise EngineError(f"the game is not over in {position!r}")
    winner = 0 if position.borne_off(0) == CHECKERS else 1
    _, multiple = ending(position, rules)
    won = Probabilities(1.0, float(multiple >= 2), float(multiple == 3), 0.0, 0.0)
    return won if winner == position.turn else won.swapped()
