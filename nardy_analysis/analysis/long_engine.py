"""The long nardy evaluator: this project's own self-play net, exact bear-offs and the certain
outcome of finished games (docs/LONG_ENGINE.md).

The chances are those of :class:`~nardy_analysis.analysis.evaluator.Probabilities` for the
player on roll: win, win by mars (home mars included), win by home mars, lose by mars, lose
by home mars (``win_gammon`` is the mars, ``win_backgammon`` the home mars; RULES.md, "Long
nardy", "Results"). Under rules where a home mars scores 2 (``Rules.home_mars``) it is a
mars and the home mar chances are 0, so that money equity counts it as 2 points.

* A finished game: the certain outcome (:func:`~nardy_analysis.game.position.ending`).
* Both sides with at most six checkers left, all home: the exact two-sided bear-off table of
  :mod:`~nardy_analysis.analysis.bearoff`; bearing off is the same in both games (RULES.md,
  "Long nardy", "Bearing off") and no mars is possible (each side has borne off nine).
* Other pure races (:func:`is_race`) of sides with at most six checkers left on 1..12, or
  all home: the one-sided race database of :mod:`~nardy_analysis.analysis.race` (each
  side's distribution of the turns it needs; near the exact chances, docs/LONG_ENGINE.md).
* Elsewhere: a net of one hidden layer of sigmoid units and five sigmoid outputs, trained by
  self-play TD(lambda) (``tools/long_engine/train.py``); its weights and how they were made
  are ``data/long_net.npz``. Inference is numpy: the inputs of every play of a roll are
  encoded together and evaluated in one matrix product.

The inputs (:func:`encode`) are computed identically by the training tools' C encoder
(``tools/long_engine/long_engine.c``; tests/test_long_engine.py compares them).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ..errors import EngineError
from ..game.ids import Board
from ..game.long import LongPosition
from ..game.moves import ALL_ROLLS, Roll
from ..game.position import Position
from ..game.rules import CHECKERS, LONG, Rules
from .bearoff import BEAROFF_CHECKERS, BEAROFF_POINTS, bearoff_equities, is_two_sided_bearoff
from .blas import one_blas_thread
from .evaluator import (
    MONEY,
    Evaluator,
    Probabilities,
    Utility,
    check_position,
    check_roll,
    game_over_probabilities,
)
from .race import POINTS, covered, race_chances

NET_FILE = Path(__file__).resolve().parent / "data" / "long_net.npz"
"""The trained weights and their metadata (a JSON string, ``meta``)."""
ENCODING = 1
"""The version of :func:`encode`; the weights file names the one it was trained with."""
SIDE_INPUTS = 110
"""Inputs per side: 4 per point, 14 more."""
INPUTS = 2 * SIDE_INPUTS + 1
"""Inputs of a position: the side on roll's, the other's, the race flag."""
ROWS = 64
"""The net evaluates its rows in blocks of exactly this many (:meth:`LongEvaluator.net`)."""

_FACING = np.array([0] + [(p + 11) % 24 + 1 for p in range(1, 25)])
_POINTS = np.arange(1, 25)


def sides(position: Position) -> np.ndarray:
    """A position as ``(2, 25)`` counts: the side on roll, then the other, each in its own
    numbering (0 borne off, 1..24 the points)."""
    return np.array((position.on_roll[:25], position.opponent[:25]))


def _side_inputs(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The inputs of side ``a`` against ``b`` (both (n, 25)): float32 (n, 110)."""
    n = len(a)
    points = a[:, 1:25]
    unary = np.stack((points >= 1, points >= 2, points >= 3,
                      np.where(points > 3, (points - 3) / 12.0, 0.0)), axis=2)
    pips = points @ _POINTS
    home = points[:, :6].sum(1)
    allhome = home + a[:, 0] == CHECKERS
    # the longest run of points held along b's path (b's points 1..24), the last such, and
    # b's checkers behind it (on b's points above it)
    held = a[:, _FACING[1:]] > 0
    run = np.zeros(n, int)
    longest = np.zeros(n, int)
    top = np.zeros(n, int)
    for q in range(24):
        run = np.where(held[:, q], run + 1, 0)
        new = (run > 0) & (run >= longest)
        longest = np.where(new, run, longest)
        top = np.where(new, q + 1, top)
    above = np.zeros((n, 25), int)
    above[:, :24] = np.cumsum(b[:, 24:0:-1], axis=1)[:, ::-1]   # above[:, k]: on b's > k
    behind = above[np.arange(n), top]
    capped = np.minimum(longest, 6)
    # checkers that can move each die (one from the head), and the dice none can move
    free = b[:, _FACING[1:]] == 0
    movable = points.copy()
    movable[:, 23] = np.minimum(movable[:, 23], 1)
    counts = np.stack([allhome * movable[:, :d].sum(1) + (free[:, :24 - d] * movable[:, d:])
                       .sum(1) for d in range(1, 7)], axis=1)
    extra = np.column_stack((a[:, 0] / 15.0, pips / 360.0, home / 15.0, allhome,
                             points[:, 12:].sum(1) / 15.0, capped / 6.0,
                             behind * capped / 90.0, counts / 15.0,
                             (counts == 0).sum(1) / 6.0))
    return np.concatenate((unary.reshape(n, 96), extra), axis=1).astype(np.float32)


def encode(boards: np.ndarray) -> np.ndarray:
    """The net's inputs of positions.

    Parameters
    ----------
    boards : array of int, shape (n, 2, 25) or (n, 2, 26)
        Each position's side on roll, then the other (:func:`sides`), in their own
        numbering: index 0 borne off, 1..24 the points (25, the bar, is ignored).

    Returns
    -------
    ndarray of float32, shape (n, 221)
        Per side (110, the side on roll first): for each of its points 1..24 the truncated
        unary ``n >= 1``, ``n >= 2``, ``n >= 3``, ``(n - 3) / 12`` (0 when ``n <= 3``); then
        borne off / 15, pips / 360, checkers home (1..6) / 15, all home (1 or 0), checkers on
        13..24 / 15, the longest run of points held along the other side's path (capped at
        6) / 6, the other's checkers behind that run times the capped run / 90, for each die
        1..6 the checkers that can move it (one from the head; bearing off when all are
        home) / 15, and the dice no checker can move / 6. Last, 1 for a pure race (every
        checker of both sides on its own 1..12: no checker can meet an opposing one).
    """
    boards = np.asarray(boards, dtype=np.int64)[:, :, :25]
    mover, other = boards[:, 0], boards[:, 1]
    race = ~np.any(boards[:, :, 13:25], axis=(1, 2))
    return np.concatenate((_side_inputs(mover, other), _side_inputs(other, mover),
                           race[:, None].astype(np.float32)), axis=1)


def is_race(position: Position) -> bool:
    """No checker can meet an opposing one any more: every checker of both sides is on its
    own points 1..12 or borne off (both go the same way round, so mine then only pass my
    1..12, the opponent's 13..24, and the opponent's only my 13..24)."""
    return not any(any(side[13:25]) for side in position.board)


class LongEvaluator(Evaluator):
    """The long nardy engine (``nardy-long``): the self-play net, exact bear-offs and the
    certain outcome of finished games (see the module).

    Parameters
    ----------
    ply : int
        0 (default): the net's static evaluation; 1: the mean over the 21 rolls of the
        0-ply chances after each roll's best play (plays then chosen as gnubg's 1-ply
        filter does: the 0-ply best and those within
        :data:`~nardy_analysis.analysis.evaluator.FILTER_WIDTH` of it, at most
        :data:`~nardy_analysis.analysis.evaluator.FILTER_MOVES` more, evaluated at 1-ply).
    cache_size : int
        How many (position, roll) play lists and evaluations to keep.
    rules : Rules
        ``LONG`` or ``LONG_FEDERATION``: the head rule of a player's first turn (all 15 on
        the head) and the value of a home mars.
    weights : path, optional
        A weights file (default :data:`NET_FILE`).

    Raises
    ------
    EngineError
        ``ply`` not 0 or 1, rules not long nardy's, or a weights file that is missing or of
        another encoding.
    """

    def __init__(self, ply: int = 0, cache_size: int = 200_000, rules: Rules = LONG,
                 weights: Path | str | None = None):
        super().__init__(ply, cache_size, highest=1)
        if rules.game != "long":
            raise EngineError(f"the long nardy engine takes long nardy rules, not {rules.name!r}")
        self.rules = rules
        path = Path(weights) if weights is not None else NET_FILE
        try:
            with np.load(path) as data:
                # C order, both: a product with a transposed (Fortran order) matrix takes
                # another BLAS kernel from 256 rows on, whose rows round differently
                self._w1 = np.ascontiguousarray(data["w1t"], dtype=np.float64)
                self._b1 = data["b1"].astype(np.float64)
                self._w2 = np.ascontiguousarray(data["w2"].T, dtype=np.float64)
                self._b2 = data["b2"].astype(np.float64)
                self.metadata = json.loads(str(data["meta"]))
        except (OSError, KeyError, ValueError) as error:
            raise EngineError(f"cannot read the long nardy weights {str(path)!r}: "
                              f"{error}") from None
        if self.metadata.get("encoding") != ENCODING or self._w1.shape[0] != INPUTS:
            raise EngineError(f"the weights {str(path)!r} are of encoding "
                              f"{self.metadata.get('encoding')!r}, this engine reads {ENCODING}")
        self.name = f"nardy-long {ply}-ply"

    def net(self, boards: np.ndarray) -> np.ndarray:
        """The net's chances of positions (``boards`` as :func:`encode` takes them) for the
        side on roll: float64 (n, 5), made consistent (``win_gammon <= win``, ``
        win_backgammon <= win_gammon``, ``lose_gammon <= 1 - win``, ``lose_backgammon <=
        lose_gammon``); the home mar columns 0 when a home mars scores 2.

        The rows go through the net in blocks of exactly :data:`ROWS`, the last one padded
        with zeros, so that a position's chances do not depend on how many others are
        evaluated with it (BLAS picks its kernels, which round differently, by the size of
        the product), on one BLAS thread (:mod:`~nardy_analysis.analysis.blas`)."""
        inputs = encode(boards)
        n = len(inputs)
        padded = np.zeros((-(-n // ROWS) * ROWS, INPUTS))
        padded[:n] = inputs
        out = np.empty((len(padded), 5))
        with one_blas_thread():
            for start in range(0, len(padded), ROWS):
                hidden = _sigmoid(padded[start:start + ROWS] @ self._w1 + self._b1)
                out[start:start + ROWS] = _sigmoid(hidden @ self._w2 + self._b2)
        out = out[:n]
        out[:, 1] = np.minimum(out[:, 1], out[:, 0])
        out[:, 2] = np.minimum(out[:, 2], out[:, 1])
        out[:, 3] = np.minimum(out[:, 3], 1.0 - out[:, 0])
        out[:, 4] = np.minimum(out[:, 4], out[:, 3])
        if self.rules.home_mars != 3:
            out[:, [2, 4]] = 0.0
        return out

    def static(self, positions: list[Position]) -> np.ndarray:
        """0-ply chances (n, 5) of positions for their players on roll: the certain outcome,
        the exact bear-off, the one-sided race database (:mod:`~nardy_analysis.analysis.race`)
        for the pure races it covers, else the net, all net positions in one matrix
        product."""
        if not positions:
            return np.zeros((0, 5))
        return self.static_sides(np.array([sides(position) for position in positions]))

    def static_sides(self, boards: np.ndarray) -> np.ndarray:
        """:meth:`static` of positions given as ``(n, 2, 25)`` counts (:func:`sides`: the
        side on roll, then the other): float64 (n, 5)."""
        boards = np.asarray(boards, dtype=np.int64)[:, :, :25]
        off = boards[:, :, 0]
        over = (off == CHECKERS).any(axis=1)
        bearoff = ~over & (off >= CHECKERS - BEAROFF_CHECKERS).all(axis=1) \
            & ~boards[:, :, BEAROFF_POINTS + 1:].any(axis=(1, 2))
        race = ~(over | bearoff) & ~boards[:, :, POINTS + 1:].any(axis=(1, 2)) \
            & covered(boards[:, 0]) & covered(boards[:, 1])
        rest = ~(over | bearoff | race)
        out = np.empty((len(boards), 5))
        if race.any():
            out[race] = race_chances(boards[race, 0], boards[race, 1])
            if self.rules.home_mars != 3:
                out[np.ix_(race, [2, 4])] = 0.0
        for i in np.flatnonzero(over | bearoff):
            mover, other = boards[i].tolist()
            position = LongPosition._make((tuple(mover) + (0,), tuple(other) + (0,)), 0)
            out[i] = (game_over_probabilities(position, self.rules) if over[i] else
                      ((bearoff_equities(position)[0] + 1.0) / 2.0, 0.0, 0.0, 0.0, 0.0))
        if rest.any():
            out[rest] = self.net(boards[rest])
        return out

    def first_turn(self, position: Position) -> bool:
        """The player on roll's first turn of the game: all 15 checkers on the head."""
        return position.on_roll[24] == CHECKERS

    def best_equities(self, position: Position, rolls: tuple[Roll, ...],
                      utility: Utility = MONEY) -> tuple[float, ...]:
        """As :meth:`Evaluator.best_equities`; at 0-ply every legal play of all ``rolls`` is
        evaluated in one matrix product (:meth:`static_sides`), from the mover's sides after
        them (:meth:`LongPosition.legal_sides`), no positions built. The same numbers as
        :meth:`best_play`'s: :meth:`net` pads its rows, and each roll's equities are taken
        from its own rows (a product of one row can round differently from the same row's
        in a larger one)."""
        if self.ply:
            return super().best_equities(position, rolls, utility)
        check_position(position)
        if not isinstance(position, LongPosition):
            raise EngineError(f"the long nardy engine takes long nardy positions: {position!r}")
        if position.is_over:
            raise EngineError(f"the game is over in {position!r}; there is nothing to play")
        first, mover = self.first_turn(position), position.on_roll
        found: list[tuple[int, ...]] = []
        ends: list[int] = []
        dances: dict[int, float] = {}
        for index, roll in enumerate(rolls):
            check_roll(roll)
            after = position.legal_sides(roll, self.rules, first)
            if after in ((), (mover,)):                           # no step can be played
                dances[index] = utility(self.evaluate(position.with_turn(1 - position.turn))
                                        .swapped())
            else:
                found += after
                ends.append(len(found))
        if not found:
            return tuple(dances[index] for index in range(len(rolls)))
        chances = self.static_sides(_boards_after(position, found))
        best = iter(float(utility.of_opponent(chances[start:end]).max())  # roll by roll, as
                    for start, end in zip([0, *ends], ends))                 # best_play does
        return tuple(dances[index] if index in dances else next(best)
                     for index in range(len(rolls)))

    def _evaluate_uncached(self, position: Position) -> Probabilities:
        """0-ply: :meth:`static`. 1-ply: the mean over the 21 rolls (36 throws) of the
        mover's 0-ply chances after the roll's best play by money equity, or after a dance
        (the position unchanged, the opponent on roll): every play of every roll evaluated
        in one matrix product (:meth:`static_sides`)."""
        if not isinstance(position, LongPosition):
            raise EngineError(f"the long nardy engine takes long nardy positions: {position!r}")
        if not self.ply or position.is_over or is_two_sided_bearoff(position):
            return Probabilities(*self.static([position])[0].tolist())
        first, mover = self.first_turn(position), position.on_roll
        found: list[tuple[int, ...]] = []
        ends: list[int] = []
        for roll in ALL_ROLLS:             # a dance leaves the mover's side as it was
            found += position.legal_sides(roll, self.rules, first) or (mover,)
            ends.append(len(found))
        chances = self.static_sides(_boards_after(position, found))
        total = np.zeros(5)
        for roll, start, end in zip(ALL_ROLLS, [0, *ends], ends):
            best = start + int(np.argmax(MONEY.of_opponent(chances[start:end])))
            mine = Probabilities(*chances[best]).swapped()
            total += (1 if roll.is_double else 2) * np.array(mine)
        return Probabilities(*(total / 36.0).tolist())

    def _plays_uncached(self, position: Position,
                        roll: Roll) -> tuple[tuple[Board, ...], np.ndarray]:
        if not isinstance(position, LongPosition):
            raise EngineError(f"the long nardy engine takes long nardy positions: {position!r}")
        mover, opp = position.on_roll, position.opponent
        after = position.legal_sides(roll, self.rules, first_turn=self.first_turn(position))
        if after in ((), (mover,)):                               # no step can be played
            return (), np.zeros((0, 5))
        keys = tuple((side, opp) if position.turn == 0 else (opp, side) for side in after)
        return keys, self.static_sides(_boards_after(position, after))

    def _position_after(self, key: Board, mover: int) -> Position:
        return LongPosition._make(key, 1 - mover)

    def _choose(self, position: Position, keys: tuple[Any, ...], chances: np.ndarray,
                utility: Utility) -> tuple[float, Any, Probabilities]:
        if not self.ply:
            return super()._choose(position, keys, chances, utility)
        return self._filtered_choice(position, keys, chances, utility)


def _boards_after(position: Position, after: Sequence[tuple[int, ...]]) -> np.ndarray:
    """The positions after plays of ``position``'s player on roll, from the mover's sides
    after them (26 counts each), as :meth:`LongEvaluator.static_sides` takes them: int64
    (n, 2, 25), the opponent (then on roll) first."""
    boards = np.empty((len(after), 2, 25), np.int64)
    boards[:, 0] = position.opponent[:25]
    boards[:, 1] = np.array(after)[:, :25]
    return boards


def _sigmoid(v: np.ndarray) -> np.ndarray:
    value: np.ndarray = 1.0 / (1.0 + np.exp(-v))
    return value
