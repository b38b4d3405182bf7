"""GNU Backgammon's cubeless evaluation at more plies than 0, as its luck analysis makes it:
:class:`CubelessSearch`.

The method of GNU Backgammon 1.1's eval.c (``EvaluatePositionFull``, ``FindBestMoveInEval``,
``FindnSaveBestMoves``) and analysis.c (``LuckNormal``), read, not copied; its settings, the
move filters and no pruning nets, as gnubg 1.1.0a16 prints them (``show analysis``: "Luck
analysis ... Not using pruning neural nets"; ``get_eval_hint_filter``) and as its luck
analyses at 1 and 2 plies confirm (tests/data/luck/ply1, ply2).

The chances of a position at ``n`` plies are the average over the 36 throws of the chances
at ``n - 1`` plies after the best play of each roll, that with the highest 0-ply cubeless
equity of the player on roll among all the legal plays; at 0 plies, and for a finished game
or a two-sided bear-off at any ply, the engine's static evaluation.

The best play of a roll at ``n`` plies: every play valued at 0 plies, then for each level
``k`` of the move filter of ``n`` plies (:data:`DEFAULT_FILTERS`) the plays within its width
of the best of those the level before kept, at most its number, valued again at ``k + 1``
plies; when a level keeps a single play its value stands.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

import numpy as np

from ..game.moves import ALL_ROLLS
from ..game.position import Position
from .bearoff import is_two_sided_bearoff
from .evaluator import Evaluator, Utility, swapped
from .shots import ROLL_THROWS

DEFAULT_FILTERS: dict[int, tuple[tuple[int, float], ...]] = {
    1: ((12, 0.24),),
    2: ((12, 0.24), (6, 0.12)),
    3: ((16, 0.32), (8, 0.16), (4, 0.06)),
    4: ((16, 0.32), (12, 0.16), (6, 0.08), (4, 0.06)),
}
"""GNU Backgammon's default move filters by plies: for each level ``k`` (0, 1, ...) the
number of plays at most and the equity window (EMG) of the plays valued again at ``k + 1``
plies (gnubg 1.1.0a16's ``get_eval_hint_filter``, which its luck analysis uses)."""

_THROWS = np.array(ROLL_THROWS, dtype=float)


class CubelessSearch:
    """GNU Backgammon's cubeless n-ply evaluation (the module docstring) for one player.

    Parameters
    ----------
    evaluator : Evaluator
        Its 0-ply plays (:meth:`Evaluator.plays`, :meth:`Evaluator.position_after`).
    static : callable
        A position's 0-ply chances for the player on roll, shape (5,).
    utility : Utility
        The cubeless equity of ``side``; the other side's is :meth:`Utility.opponent`.
    side : int
        The player whose equity ``utility`` is.
    cache_size : int
        How many positions' chances to keep.
    """

    def __init__(self, evaluator: Evaluator, static: Callable[[Position], np.ndarray],
                 utility: Utility, side: int, cache_size: int = 100_000):
        self.evaluator, self.static = evaluator, static
        self.utilities = {side: utility, 1 - side: utility.opponent()}
        self.chances: Callable[[Position, int], np.ndarray] = lru_cache(cache_size)(self._chances)

    def _chances(self, position: Position, plies: int) -> np.ndarray:
        """The chances (5,) of the player on roll in ``position`` at ``plies``."""
        if not plies or position.is_over or is_two_sided_bearoff(position):
            return self.static(position)
        evaluator, utility, rows = self.evaluator, self.utilities[position.turn], []
        for roll in ALL_ROLLS:
            keys, after = evaluator.plays(position, roll)
            if not keys:
                rows.append(self.chances(position.with_turn(1 - position.turn), plies - 1))
                continue
            best = int(np.argmax(utility.of_opponent(after)))
            rows.append(after[best] if plies == 1 else self.chances(
                evaluator.position_after(keys[best], position.turn), plies - 1))
        return swapped(_THROWS @ np.array(rows) / 36)

    def best(self, position: Position, keys: tuple[Any, ...], chances: np.ndarray,
             plies: int) -> tuple[int, float, np.ndarray]:
        """The best of the plays ``keys`` (with the opponent's 0-ply ``chances`` after them,
        shape (plays, 5)) of the player on roll in ``position`` at ``plies``, through the
        move filters (the module docstring): ``(index, equity, chances)``, the equity
        (``utility``'s unit) and the opponent's chances (5,) after it at the ply its value
        comes from."""
        utility, mover = self.utilities[position.turn], position.turn
        values, chances = utility.of_opponent(chances), chances.copy()
        candidates = list(range(len(keys)))
        for level, (count, width) in enumerate(DEFAULT_FILTERS[plies]):
            order = sorted(candidates, key=lambda index: -values[index])
            candidates = [i for i in order[:count] if values[i] >= values[order[0]] - width]
            if len(candidates) == 1:
                break
            for index in candidates:
                chances[index] = self.chances(
                    self.evaluator.position_after(keys[index], mover), level + 1)
                values[index] = utility.of_opponent(chances[index][None])[0]
        best = max(candidates, key=lambda index: values[index])
        return best, float(values[best]), chances[best]
