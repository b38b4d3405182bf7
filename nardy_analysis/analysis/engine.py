"""Position evaluators: the :class:`Evaluator` interface and its backends.

An evaluator estimates, for the player on roll, the chances of the game's outcomes
(:class:`Probabilities`, cubeless) and finds the best play of a roll under a given equity
(a linear function of those chances, see :class:`Utility`). The analyses built on it (dice
luck, :mod:`nardy_analysis.luck`) never see the engine itself.

The default backend :class:`GnubgNN` uses the neural nets and bear-off databases of GNU
Backgammon through the ``gnubg-nn`` package; its 0-ply numbers are GNU Backgammon's. That
package is GPL-3, so it is an optional extra: install it with ``pip install
nardy-analysis[engine]``. A second backend, :class:`BgSage`, uses the Open Sage engine
(``bgsage``, MPL-2.0: ``pip install nardy-analysis[sage]``); its numbers are its own.
Without them this module still imports; asking for an evaluator raises :class:`EngineError`
naming the command to run.

Known traps of ``gnubg-nn`` 1.1.0a11, guarded here (tests/test_engine.py has a regression
test for each):

* Its boards are ``[opponent, player on roll]``, 25 counts each from that player's own side
  (point ``p`` at index ``p - 1``, the bar at 24, borne-off checkers implicit).
  ``moves()`` returns boards from the mover's side, while ``best_move(..., b=1)`` and
  ``list=1`` return boards already turned round for the opponent, who is then on roll.
* ``best_move`` with ``n >= 1`` and ``list=1`` crashes the process (segmentation fault) when
  the roll has exactly one legal play; this backend only calls ``list=1`` at 0-ply.
* It does not validate its input (a side of 16 checkers or a die of 7 gives garbage or a
  crash), so it is only given a :class:`Position` (which cannot hold such a board) and a
  checked :class:`Roll`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, NamedTuple, Sequence

import numpy as np

from ..errors import EngineError, InvalidArgument
from ..game.position import Position, Roll, ending
from ..game.rules import BAR, CHECKERS, OFF, STANDARD, Rules
from .blas import one_blas_thread

if TYPE_CHECKING:
    from .long_engine import LongEvaluator

ENGINE_EXTRA = "pip install 'nardy-analysis[engine]'"
"""The command that installs the default engine (gnubg-nn, GPL-3)."""
SAGE_EXTRA = "pip install 'nardy-analysis[sage]'"
"""The command that installs the second engine (bgsage, MPL-2.0)."""


def _not_installed(what: str, extra: str, package: str) -> EngineError:
    """The error for a missing engine, naming the extra that installs it."""
    command = ENGINE_EXTRA if extra == "engine" else SAGE_EXTRA
    return EngineError(f"{what}; install it with `{command}` (from a source checkout: "
                       f"`pip install '.[{extra}]'`; {package})")

FILTER_WIDTH = 0.16
"""Equity window of the move filter for plies >= 1 (GNU Backgammon's default for 1-ply)."""
FILTER_MOVES = 8
"""Plays kept besides the 0-ply best by that filter."""
PRUNE_MOVES = 5
"""The least number of plays GNU Backgammon's pruning nets keep (:meth:`GnubgNN.pruned`)."""


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


MONEY = Utility()
"""Cubeless money equity (:attr:`Probabilities.money_equity`)."""


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
            mine = self.evaluate(after).swapped()
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


def checker_points(keys: Iterable[str]) -> np.ndarray:
    """The checkers of gnubg-nn's position keys, shape (n, 80), int8: for each of a key's 80
    bits, lowest first, the point of the checker it stands for, 0..49 (the 25 points of one
    side, 0-based from its own side, 24 the bar, then 25..49 the other's; the boards of
    ``board_from_position_key``), and -1 for a bit that stands for none. Each key is 20
    letters ``A``..``P``, two to a byte (high half first), whose 80 bits hold for each point
    as many ones as checkers there and a zero (GNU Backgammon's position key): a checker's
    point is the number of zeros before its one."""
    codes = np.frombuffer("".join(keys).encode("ascii"), np.uint8).reshape(-1, 20) - 65
    bits = np.unpackbits(codes[:, 0::2] << np.uint8(4) | codes[:, 1::2], axis=1,
                         bitorder="little")
    return np.where(bits == 1, np.cumsum(1 - bits, axis=1, dtype=np.int8), np.int8(-1))


@lru_cache(maxsize=None)
def _one_sided(gnubg: Any, side: tuple[int, ...]) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """gnubg-nn's one-sided bear-off distribution of ``side`` (checkers on points 1..6):
    ``P(done in i rolls)`` and ``P(done in i rolls or more)``, i = 0, 1, ..."""
    done = gnubg.bearoff_probabilities(side)
    return done, tuple(sum(done[i:]) for i in range(len(done)))


@lru_cache(maxsize=None)
def _pruning_nets(gnubg: Any) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray,
                                                 np.ndarray, float, float]]:
    """gnubg-nn's pruning nets of contact and crashed positions, read from its weights file
    (``data/gnubg.weights`` of the package: a net's name line, ``inputs hidden outputs
    trained beta_hidden beta_output``, then the hidden weights input by input, the output
    weights output by output, the hidden and the output thresholds): per net the hidden
    weights (200, h), thresholds (h,), output weights (h, 5), thresholds (5,) and the
    betas."""
    lines = (Path(gnubg.__file__).parent / "data" / "gnubg.weights").read_text(
        encoding="latin-1").splitlines()
    nets = {}
    for index, line in enumerate(lines):
        if line in ("prune contact", "prune crashed"):
            inputs, hidden, outputs, _, beta_hidden, beta_output = lines[index + 1].split()
            i, h, o = int(inputs), int(hidden), int(outputs)
            values = np.array(lines[index + 2:index + 2 + i * h + h * o + h + o], dtype=float)
            nets[line.split()[1]] = (values[:i * h].reshape(i, h),
                                     values[i * h + h * o:i * h + h * o + h],
                                     values[i * h:i * h + h * o].reshape(o, h).T,
                                     values[i * h + h * o + h:], float(beta_hidden),
                                     float(beta_output))
    return nets


def _board_counts(points: np.ndarray) -> np.ndarray:
    """Checkers per point of :func:`checker_points`' rows: shape (n, 50), the 25 points (24
    the bar) of the side not on roll, then of the side on roll."""
    rows = np.broadcast_to(np.arange(len(points))[:, None], points.shape)
    valid = points >= 0
    return np.bincount((rows[valid] * 50 + points[valid]).astype(np.int64),
                       minlength=50 * len(points)).reshape(-1, 50)


def _pruning_inputs(counts: np.ndarray) -> np.ndarray:
    """GNU Backgammon's 200 base inputs of boards of :func:`_board_counts`, shape (n, 200):
    for each side and point four units, on a point one, two, three or more checkers (one
    each) and half the checkers beyond three, on the bar at least one, two, three and half
    the checkers beyond three."""
    n = counts.reshape(len(counts), 2, 25).astype(float)
    units = np.stack([n == 1, n == 2, n >= 3, np.maximum(n - 3, 0) / 2], axis=-1).astype(float)
    bar = n[:, :, 24]
    units[:, :, 24, :3] = np.stack([bar >= 1, bar >= 2, bar >= 3], axis=-1)
    return units.reshape(len(counts), 200)


def _crashed(counts: np.ndarray) -> np.ndarray:
    """Whether either side of boards of :func:`_board_counts` is crashed, as GNU Backgammon's
    ``ClassifyPosition`` has it (eval.c, read, not copied): six checkers or fewer left on
    the board, or no more than six besides those piled on the ace point (when it holds two
    or more; or besides the ace and deuce points' when the deuce point holds two or more), or
    than six besides all but one of the deuce point's (an ace point of one checker or
    none); shape (n,)."""
    found = np.zeros(len(counts), bool)
    for side in (counts[:, :25], counts[:, 25:]):
        total, ace, deuce = side.sum(axis=1), side[:, 0], side[:, 1]
        found |= (total <= 6) | np.where(
            ace > 1, (total <= 6 + ace) | ((1 + total - ace - deuce <= 6) & (deuce > 1)),
            total <= 6 + deuce - 1)
    return found


@lru_cache(maxsize=200_000)
def _pruning(gnubg: Any, key: str) -> Probabilities:
    """The pruning net's chances for the player on roll in the position of a play's ``key``
    (gnubg-nn's ``probabilities(board, p_prune)``, the net of the position's class)."""
    board = [list(side) for side in gnubg.board_from_position_key(key)]
    return Probabilities(*gnubg.probabilities(board, gnubg.p_prune))


def _logistic(x: np.ndarray) -> np.ndarray:
    """``1 / (1 + exp(-x))`` as GNU Backgammon's nets work it out (its ``sigmoid``, read, not
    copied): ``exp`` from a table of ``exp(i / 10) / 10`` and a step of its first-order
    expansion, ``exp(i / 10) (1 + (10 |x| - i) / 10)`` with ``i = floor(10 |x|)``; 0 or 1
    beyond ``|x| = 10``."""
    size = np.abs(x)
    steps = np.floor(10 * size)
    low = np.where(size < 10, 1 / (1 + np.exp(np.minimum(steps, 99) / 10) / 10
                                   * (10 - steps + 10 * size)), 0.0)
    logistic: np.ndarray = np.where(x < 0, low, 1 - low)
    return logistic


def _turned_twice(win: float) -> float:
    """``win`` as gnubg-nn's ``best_move`` lists it: ``1 - (1 - win)`` in single precision
    (it turns the chances round to the mover's side and back), which can differ from
    ``probabilities()``'s number in the last bit of a float."""
    one = np.float32(1.0)
    return float(one - (one - np.float32(win)))


class GnubgNN(Evaluator):
    """GNU Backgammon's neural nets through ``gnubg-nn`` (GPL-3, the ``engine`` extra).

    Parameters
    ----------
    ply : int
        0 (default) for the nets' static evaluation; ``n >= 1`` (up to 4) to look ``n`` rolls
        ahead. At ``n >= 1`` the plays within :data:`FILTER_WIDTH` of the 0-ply best (at most
        :data:`FILTER_MOVES` besides it) are evaluated again at ``n``-ply, as GNU
        Backgammon's move filters do.
    cache_size : int
        How many (position, roll) play lists and position evaluations to keep.

    Raises
    ------
    EngineError
        ``gnubg-nn`` is not installed (the message names ``pip install
        nardy-analysis[engine]``), or ``ply`` is not a whole number 0..4.
    """

    def __init__(self, ply: int = 0, cache_size: int = 200_000):
        super().__init__(ply, cache_size, highest=4)
        try:
            import gnubg_nn
        except ImportError as error:
            raise _not_installed("equity analyses need an engine", "engine",
                                 "gnubg-nn, GPL-3") from error
        self._gnubg = gnubg_nn
        version = getattr(getattr(gnubg_nn, "_version_module", None), "version", "?")
        self.name = f"gnubg-nn {version} {ply}-ply"

    @staticmethod
    def board(position: Position) -> list[list[int]]:
        """``position`` as gnubg's ``[opponent, player on roll]`` board (checked first)."""
        check_position(position)
        return [list(position.opponent[1:BAR + 1]), list(position.on_roll[1:BAR + 1])]

    def _position_after(self, key: str, mover: int) -> Position:
        """The position of a gnubg key returned by ``best_move(b=1)``/``list=1``: the board
        turned round, so its player on roll is the opponent of ``mover``."""
        not_on_roll, on_roll = self._gnubg.board_from_position_key(key)
        sides = {}
        for player, side in ((mover, not_on_roll), (1 - mover, on_roll)):
            sides[player] = (CHECKERS - sum(side),) + tuple(side)
        return Position((sides[0], sides[1]), 1 - mover)

    def play_index(self, keys: tuple[Any, ...], after: Position, mover: int) -> int | None:
        key = self._gnubg.key_of_board(self.board(after))
        return keys.index(key) if key in keys else None

    def play_moves(self, position: Position, roll: Roll, key: str) -> tuple[tuple[int, int], ...]:
        """The checker steps of the play ``key`` (of :meth:`plays`) as gnubg lists them:
        ``(start, end)`` points from the mover's side (25 the bar, 0 off), one per die used;
        ``()`` when ``key`` is not a play of ``roll``."""
        gnubg = self._gnubg
        after = gnubg.board_from_position_key(key)  # turned round: moves() keys are not
        wanted = gnubg.key_of_board([list(after[1]), list(after[0])])
        return next((tuple(steps) for found, steps in
                     gnubg.moves(self.board(position), roll.high, roll.low, 1)
                     if found == wanted), ())

    def position_class(self, key: str) -> tuple[str, int]:
        """The class of the position of a play's key, for the cube life index: ``"contact"``,
        ``"race"`` (the rearmost checkers of both sides have passed each other),
        ``"bearoff"`` (every checker of both sides home or off, or the game over), and the
        pip count of the player then on roll, without building the position."""
        kinds, pips = self.position_classes((key,))
        return str(kinds[0]), int(pips[0])

    def pruned(self, plays: list[tuple[str, ...]],
               utility: Utility) -> list[np.ndarray | None]:
        """The plays that GNU Backgammon's pruning nets keep when a search picks the best
        play of a roll (eval.c, ``FindBestMoveInEval``, read, not copied), for each list of
        plays (keys of :meth:`plays`) in ``plays``: of ``n`` plays, the ``5 +
        floor(log2(n))`` whose positions the pruning net of their class values lowest for
        the opponent, then on roll, under the opponent's cubeless ``utility``; None (every
        play) when there are no more plays than that or the positions are not all race, all
        crashed or all contact (:func:`_crashed`). Contact and crashed positions are
        valued here, all at once, by gnubg-nn's pruning nets (:func:`_pruning_nets`,
        :func:`_logistic`), races by gnubg-nn itself (``probabilities(board, p_prune)``).

        Returns
        -------
        list of (ndarray of int, or None)
            For each list, indices into it.
        """
        keeps = [PRUNE_MOVES + len(keys).bit_length() - 1 for keys in plays]
        listed = [index for index, keys in enumerate(plays) if len(keys) > keeps[index]]
        found: list[np.ndarray | None] = [None] * len(plays)
        if not listed:
            return found
        keys = tuple(chain.from_iterable(plays[index] for index in listed))
        kinds, _ = self.position_classes(keys)
        counts = _board_counts(checker_points(keys))
        kinds = np.where((kinds == "contact") & _crashed(counts), "crashed", kinds)
        values = np.full(len(keys), np.nan)
        weights = np.array([utility.win, utility.win_gammon, utility.win_backgammon,
                            utility.lose_gammon, utility.lose_backgammon])
        with one_blas_thread():
            for kind, (hidden, hidden_bias, output, output_bias, beta_hidden, beta_output) in \
                    _pruning_nets(self._gnubg).items():
                rows = kinds == kind
                if rows.any():
                    units = _logistic(beta_hidden * (_pruning_inputs(counts[rows]) @ hidden
                                                     + hidden_bias))
                    chances = _logistic(beta_output * (units @ output + output_bias))
                    values[rows] = utility.base + chances @ weights
        for row in np.flatnonzero(kinds == "race"):
            values[row] = utility(_pruning(self._gnubg, keys[row]))
        start = 0
        for index in listed:
            end = start + len(plays[index])
            if (kinds[start:end] == kinds[start]).all() and kinds[start] != "bearoff":
                found[index] = np.argsort(values[start:end], kind="stable")[:keeps[index]]
            start = end
        return found

    def position_classes(self, keys: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`position_class` of each of ``keys`` as two arrays of shape (n,): the
        classes (str) and the pip counts."""
        points = checker_points(keys)
        on_roll = points >= BAR  # the checkers of the player then on roll
        rearmost = np.stack([np.where(on_roll, -1, points).max(axis=1),
                             np.where(on_roll, points - BAR, -1).max(axis=1)],
                            axis=1)  # 0-based from each side's own side; 24 the bar, -1 none
        home = (rearmost < 6).all(axis=1) | (rearmost < 0).any(axis=1)
        # my point i + 1 is the opponent's 24 - i: passed when i + j < 23
        kinds = np.where(home, "bearoff", np.where(rearmost.sum(axis=1) < BAR - 2, "race",
                                                   "contact"))
        return kinds, np.where(on_roll, points - (BAR - 1), 0).sum(axis=1)

    def _evaluate_uncached(self, position: Position) -> Probabilities:
        if position.is_over:
            return game_over_probabilities(position)
        return self._net(self.board(position))

    def _net(self, board: list[list[int]],
             probabilities: Sequence[float] | None = None) -> Probabilities:
        """gnubg-nn's chances for the player on roll of ``board`` (at ``self.ply`` unless
        ``probabilities`` at 0-ply are given), one-sided bear-offs as GNU Backgammon does.

        In a bear-off with both sides in the one-sided database gnubg-nn sometimes gives a
        certain win where GNU Backgammon combines the two sides' distributions of the number
        of rolls needed: ``win = sum_i P(I need i rolls) * P(opponent needs >= i rolls)``.
        """
        gnubg = self._gnubg
        if probabilities is None:
            probabilities = gnubg.probabilities(board, self.ply)
            if self.ply:
                return Probabilities(*probabilities)
        if gnubg.classify(board) != gnubg.c_bearoff:
            return Probabilities(*probabilities)
        mine, _ = _one_sided(gnubg, tuple(board[1][:6]))
        _, theirs = _one_sided(gnubg, tuple(board[0][:6]))
        return Probabilities(sum(p * tail for p, tail in zip(mine, theirs)), *probabilities[1:])

    def _plays_uncached(self, position: Position,
                        roll: Roll) -> tuple[tuple[str, ...], np.ndarray]:
        """Every legal play at 0-ply (gnubg keys)."""
        found = self._gnubg.best_move(self.board(position), roll.high, roll.low, n=0, list=1,
                                      b=1)
        if not found[0]:
            return (), np.zeros((0, 5))
        keys, _, listed, _ = zip(*found[2])
        chances = (self._listed(position, found)
                   if len(keys) == 1 or not any(position.opponent[7:BAR + 1]) else listed)
        return keys, np.fromiter(chain.from_iterable(chances), float,
                                 5 * len(keys)).reshape(-1, 5)

    def _listed(self, position: Position, found: Any) -> list[Sequence[float]]:
        """The opponent's chances (rows of 5) after each play in gnubg-nn's answer
        ``found`` to ``best_move(list=1, b=1)`` in ``position``, as :meth:`_plays_uncached`
        gives them: one-sided bear-offs as :meth:`_net` has them."""
        gnubg = self._gnubg
        if not found[0]:
            return []
        if len(found[2]) == 1:  # one legal play: gnubg-nn lists it without evaluating it
            board = [list(side) for side in gnubg.board_from_position_key(found[1])]
            chances: list[Sequence[float]] = [self._net(board, gnubg.probabilities(board, 0))]
        elif any(position.opponent[7:BAR + 1]):  # no bear-off after this roll
            chances = [play[2] for play in found[2]]
        else:
            chances = [self._net([list(side) for side in gnubg.board_from_position_key(key)], p)
                       for key, _, p, _ in found[2]]
        return chances

    def best_equities(self, position: Position, rolls: tuple[Roll, ...],
                      utility: Utility = MONEY) -> tuple[float, ...]:
        """As :meth:`Evaluator.best_equities`; at 0-ply the plays of all ``rolls`` are
        listed by gnubg-nn and their equities taken in one array operation (about 15% less
        time than roll by roll through :meth:`plays`; the nets' evaluations are most of the
        rest), and money play needs only gnubg-nn's pick (:meth:`_money_best_equities`).
        A single play's equity is worked out on its own, as the base class does it (numpy's
        product of one row can differ from the same row's in a larger array in the last
        bit), and a dance by the base class."""
        if self.ply or position.is_over:
            return super().best_equities(position, rolls, utility)
        if utility == MONEY and any(position.opponent[7:BAR + 1]):
            found = self._money_best_equities(position, rolls)
            if found is not None:
                return found
        board, rows, ends, alone = self.board(position), [], [], {}
        for index, roll in enumerate(rolls):
            check_roll(roll)
            chances = self._listed(position, self._gnubg.best_move(
                board, roll.high, roll.low, n=0, list=1, b=1))
            if len(chances) > 1:
                rows += chances
                ends.append(len(rows))
            elif chances:
                alone[index] = float(utility.of_opponent(np.array(chances, dtype=float)).max())
            else:
                alone[index] = super().best_equities(position, (roll,), utility)[0]
        table = np.fromiter(chain.from_iterable(rows), float, 5 * len(rows)).reshape(-1, 5)
        best = iter(np.maximum.reduceat(utility.of_opponent(table), [0, *ends[:-1]]).tolist()
                    if rows else ())
        return tuple(alone[index] if index in alone else next(best)
                     for index in range(len(rolls)))

    def _money_best_equities(self, position: Position,
                             rolls: tuple[Roll, ...]) -> tuple[float, ...] | None:
        """:meth:`best_equities` under :data:`MONEY` at 0-ply, no bear-off to follow, from
        the one play gnubg-nn picks per roll (``best_move(list=0)``, money being the state
        it is left in: this module never sets its score or cube) and its chances, which
        gnubg-nn's evaluation cache holds: the same numbers as the maximum over every
        play's. A dance or a single play goes the base class's way, and so does the whole
        position (None) when fewer than two rolls are left: numpy's product of a single row
        can differ from the same row's in a larger array in the last bit."""
        gnubg, board, rows, picked, alone = self._gnubg, self.board(position), [], [], {}
        for index, roll in enumerate(rolls):
            check_roll(roll)
            if len(gnubg.moves(board, roll.high, roll.low)) < 2:  # a dance or a single play
                alone[index] = super().best_equities(position, (roll,), MONEY)[0]
                continue
            key = gnubg.best_move(board, roll.high, roll.low, n=0, list=0, b=1)[1]
            chances = gnubg.probabilities(
                [list(side) for side in gnubg.board_from_position_key(key)], 0)
            rows.append((_turned_twice(chances[0]), *chances[1:]))
            picked.append(index)
        if len(rows) < 2:
            return None
        best = dict(zip(picked, MONEY.of_opponent(np.array(rows, dtype=float)).tolist()))
        return tuple(best[index] if index in best else alone[index]
                     for index in range(len(rolls)))

    def _choose(self, position: Position, keys: tuple[Any, ...], chances: np.ndarray,
                utility: Utility) -> tuple[float, Any, Probabilities]:
        if not self.ply:
            return super()._choose(position, keys, chances, utility)
        return self._filtered_choice(position, keys, chances, utility)


class BgSage(Evaluator):
    """The Open Sage engine's neural nets through ``bgsage`` (MPL-2.0, the ``sage`` extra).

    A second, independent engine: its numbers are its own, not GNU Backgammon's. Its boards
    are 26 counts from the side of the player on roll: index ``p`` (1..24) holds that
    player's checkers on point ``p`` as positive counts and the opponent's on the same spot
    (the opponent's point ``25 - p``) as negative ones; index 25 is the on-roll player's bar
    and index 0 the opponent's bar, both positive; borne-off checkers are implicit. Its move
    generator and ours agree on the legal plays (tests/test_engine.py).

    Parameters
    ----------
    ply : int
        0 (default) for the raw nets (what bgsage, like eXtreme Gammon, calls 1-ply);
        ``n >= 1`` (up to 3) for bgsage's ``n + 1``-ply search with its default move filter.
    cache_size : int
        How many (position, roll) play lists and position evaluations to keep.

    Raises
    ------
    EngineError
        ``bgsage`` is not installed (the message names ``pip install
        nardy-analysis[sage]``), or ``ply`` is not a whole number 0..3.
    """

    def __init__(self, ply: int = 0, cache_size: int = 200_000):
        super().__init__(ply, cache_size, highest=3)
        try:
            import bgbot_cpp
            from bgsage.weights import default_weights
        except ImportError as error:
            raise _not_installed("the bgsage engine is not installed", "sage",
                                 "bgsage, MPL-2.0") from error
        weights = default_weights()
        paths, sizes = weights.weight_paths_list, weights.hidden_sizes_list
        self._cpp = bgbot_cpp
        self._strategy = (bgbot_cpp.create_multipy(weights.strategy_type, paths, sizes,
                                                   n_plies=ply + 1)
                          if ply else bgbot_cpp.create_strategy(weights.strategy_type, paths,
                                                                sizes))
        self.name = f"bgsage {ply}-ply"

    @staticmethod
    def board(position: Position) -> list[int]:
        """``position`` as a bgsage board from the side of the player on roll (checked)."""
        check_position(position)
        me, opp = position.on_roll, position.opponent
        return [opp[BAR]] + [me[p] - opp[25 - p] for p in range(1, BAR)] + [me[BAR]]

    def _position_after(self, board: Sequence[int], mover: int) -> Position:
        """The position of a bgsage board from the side of ``mover``, who has just played."""
        me, opp = [0] * (BAR + 1), [0] * (BAR + 1)
        for point in range(1, BAR):
            if board[point] > 0:
                me[point] = board[point]
            elif board[point] < 0:
                opp[25 - point] = -board[point]
        me[BAR], opp[BAR] = board[BAR], board[0]
        me[OFF], opp[OFF] = CHECKERS - sum(me), CHECKERS - sum(opp)
        return Position.after(me, opp, mover)

    def _post_move(self, boards: Sequence[Sequence[int]]) -> list[Probabilities]:
        """The mover's chances after each board (the mover's side, the opponent to roll)."""
        over = [self._cpp.check_game_over(b) for b in boards]
        live = [b for b, result in zip(boards, over) if not result]
        found = iter(self._cpp.batch_evaluate_post_move(
            [(b, self._cpp.CubeOwner.CENTERED) for b in live], self._strategy, 1,
            jacoby=False) if live else ())
        chances = []
        for result in over:
            if result:
                won = Probabilities(1.0, float(abs(result) >= 2), float(abs(result) == 3),
                                    0.0, 0.0)
                chances.append(won if result > 0 else won.swapped())
            else:
                chances.append(Probabilities(*next(found)["probs"]))
        return chances

    def _evaluate_uncached(self, position: Position) -> Probabilities:
        if position.is_over:
            return game_over_probabilities(position)
        # the position as if the opponent had just played into it
        return self._post_move([self._cpp.flip_board(self.board(position))])[0].swapped()

    def _plays_uncached(self, position: Position,
                        roll: Roll) -> tuple[tuple[tuple[int, ...], ...], np.ndarray]:
        boards = self._cpp.possible_moves(self.board(position), roll.high, roll.low)
        return (tuple(tuple(b) for b in boards),
                np.array([p.swapped() for p in self._post_move(boards)],
                         dtype=float).reshape(-1, 5))


ENGINES = {"gnubg-nn": GnubgNN, "bgsage": BgSage}
"""The backends by name: ``gnubg-nn`` (the default, matches GNU Backgammon) and ``bgsage``."""

GAME_ENGINES: dict[str, type[LongEvaluator]] = {}
"""The one engine of each game other than short nardy, by ``Rules.game``: ``"long"`` is
:class:`~nardy_analysis.analysis.long_engine.LongEvaluator`, which enters itself here when
its module is imported (the analysis package imports it)."""


@lru_cache(maxsize=None)
def default_evaluator(ply: int = 0, engine: str = "gnubg-nn",
                      rules: Rules = STANDARD) -> Evaluator:
    """The engine for ``rules`` at ``ply``, one per process.

    Short nardy: the engine ``engine`` (a key of :data:`ENGINES`). Long nardy
    (``rules.game == "long"``, e.g. ``LONG`` and ``LONG_FEDERATION``): this project's own
    :class:`~nardy_analysis.analysis.long_engine.LongEvaluator` for those rules, whatever
    ``engine`` says (it is the one long nardy engine; ply 0 or 1).

    Raises
    ------
    EngineError
        An unknown engine name, or the engine is not installed (the message names the
        ``pip install nardy-analysis[...]`` command).
    """
    if rules.game in GAME_ENGINES:
        return GAME_ENGINES[rules.game](ply, rules=rules)
    if engine not in ENGINES:
        raise EngineError(f"unknown engine {engine!r}; choose from {', '.join(ENGINES)}")
    return ENGINES[engine](ply)


def match_evaluator(rules: Rules, evaluator: Evaluator | None = None, ply: int = 0,
                    engine: str = "gnubg-nn") -> Evaluator:
    """The evaluator for a match played under ``rules``: ``evaluator`` when given, else
    :func:`default_evaluator` of ``ply``, ``engine`` and ``rules``.

    Raises
    ------
    InvalidArgument
        ``evaluator`` is not an engine of the rules' game (a backgammon net for long nardy,
        or the long nardy engine for short nardy), or the game's own engine refuses ``ply``
        (the long nardy engine looks one roll ahead at most): this match cannot be analysed
        so, others may.
    EngineError
        As for :func:`default_evaluator`, for short nardy (an engine not installed).
    """
    own = GAME_ENGINES.get(rules.game)
    if evaluator is None:
        try:
            return default_evaluator(ply, engine, rules)
        except EngineError as error:
            if own is None:
                raise
            raise InvalidArgument(f"{error} (the engine of rules {rules.name!r})") from None
    if not (isinstance(evaluator, own) if own else
            not isinstance(evaluator, tuple(GAME_ENGINES.values()))):
        game = "long nardy" if rules.game == "long" else "short nardy"
        raise InvalidArgument(f"the evaluator {evaluator.name!r} does not evaluate {game} "
                              f"(rules {rules.name!r}); leave it out to use the game's own")
    return evaluator
