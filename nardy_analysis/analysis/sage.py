"""The Open Sage engine as an :class:`~nardy_analysis.analysis.evaluator.Evaluator`:
:class:`BgSage`, a second engine of short nardy.

It uses the Open Sage engine (``bgsage``, MPL-2.0: ``pip install nardy-analysis[sage]``); its
numbers are its own. Without it this module still imports; making a :class:`BgSage` raises
:class:`~nardy_analysis.errors.EngineError` naming the command to run.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..game.moves import Roll
from ..game.position import Position
from ..game.rules import BAR, CHECKERS, OFF
from .evaluator import (
    Evaluator,
    Probabilities,
    check_position,
    game_over_probabilities,
    not_installed,
)


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
            raise not_installed("the bgsage engine is not installed", "sage",
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
