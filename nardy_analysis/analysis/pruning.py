"""GNU Backgammon's pruning nets: the plays a cubeful search looks at after each roll.

When GNU Backgammon's search (eval.c, ``FindBestMoveInEval``, read, not copied) picks a
roll's best play it first keeps the few plays that small nets, its pruning nets, value best;
:func:`pruned` makes that choice for gnubg-nn's plays
(:class:`~nardy_analysis.analysis.search.CubefulSearch` uses it). The nets of contact and
crashed positions are read from gnubg-nn's weights file and evaluated here, all plays at
once; races go to gnubg-nn's own pruning evaluation.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import chain
from pathlib import Path
from typing import Any

import numpy as np

from .blas import one_blas_thread
from .evaluator import Probabilities, Utility
from .gnubg import GnubgNN, checker_points

PRUNE_MOVES = 5
"""The least number of plays GNU Backgammon's pruning nets keep (:func:`pruned`)."""


def pruned(evaluator: GnubgNN, plays: list[tuple[str, ...]],
           utility: Utility) -> list[np.ndarray | None]:
    """The plays that GNU Backgammon's pruning nets keep when a search picks the best play
    of a roll (eval.c, ``FindBestMoveInEval``, read, not copied): of ``n`` plays, the ``5 +
    floor(log2(n))`` whose positions the pruning net of their class values lowest for the
    opponent, then on roll, under the opponent's cubeless ``utility``.

    Parameters
    ----------
    evaluator : GnubgNN
        The engine whose play keys ``plays`` holds.
    plays : list of tuple of str
        For each roll, the keys of its plays (:meth:`GnubgNN.plays
        <nardy_analysis.analysis.evaluator.Evaluator.plays>`).
    utility : Utility
        The opponent's cubeless equity.

    Returns
    -------
    list of (ndarray of int, or None)
        For each list of ``plays``, the indices of the plays kept; None (every play) when
        there are no more plays than that or the positions are not all race, all crashed or
        all contact (:func:`_crashed`).

    Notes
    -----
    Contact and crashed positions are valued here, all at once, by gnubg-nn's pruning nets
    (:func:`_pruning_nets`, :func:`_logistic`), races by gnubg-nn itself
    (``probabilities(board, p_prune)``).
    """
    keeps = [PRUNE_MOVES + len(keys).bit_length() - 1 for keys in plays]
    listed = [index for index, keys in enumerate(plays) if len(keys) > keeps[index]]
    found: list[np.ndarray | None] = [None] * len(plays)
    if not listed:
        return found
    keys = tuple(chain.from_iterable(plays[index] for index in listed))
    kinds, _ = evaluator.position_classes(keys)
    counts = _board_counts(checker_points(keys))
    kinds = np.where((kinds == "contact") & _crashed(counts), "crashed", kinds)
    values = np.full(len(keys), np.nan)
    weights = np.array([utility.win, utility.win_gammon, utility.win_backgammon,
                        utility.lose_gammon, utility.lose_backgammon])
    with one_blas_thread():
        for kind, (hidden, hidden_bias, output, output_bias, beta_hidden, beta_output) in \
                _pruning_nets(evaluator.gnubg).items():
            rows = kinds == kind
            if rows.any():
                units = _logistic(beta_hidden * (_pruning_inputs(counts[rows]) @ hidden
                                                 + hidden_bias))
                chances = _logistic(beta_output * (units @ output + output_bias))
                values[rows] = utility.base + chances @ weights
    for row in np.flatnonzero(kinds == "race"):
        values[row] = utility(_pruning(evaluator.gnubg, keys[row]))
    start = 0
    for index in listed:
        end = start + len(plays[index])
        if (kinds[start:end] == kinds[start]).all() and kinds[start] != "bearoff":
            found[index] = np.argsort(values[start:end], kind="stable")[:keeps[index]]
        start = end
    return found


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
