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
from pathlib import Path
from typing import Any

import numpy as np

from ..game.rules import BAR
from .blas import one_blas_thread
from .evaluator import Probabilities, Utility
from .gnubg import GnubgNN, board_classes

PRUNE_MOVES = 5
"""The least number of plays GNU Backgammon's pruning nets keep (:func:`pruned`)."""


def pruned(evaluator: GnubgNN, plays: list[np.ndarray],
           utility: Utility) -> list[np.ndarray | None]:
    """The plays that GNU Backgammon's pruning nets keep when a search picks the best play
    of a roll (eval.c, ``FindBestMoveInEval``, read, not copied): of ``n`` plays, the ``5 +
    floor(log2(n))`` whose positions the pruning net of their class values lowest for the
    opponent, then on roll, under the opponent's cubeless ``utility``.

    Parameters
    ----------
    evaluator : GnubgNN
        The engine of the nets.
    plays : list of ndarray of shape (n, 50)
        For each roll, the boards after its plays, the opponent on roll
        (:meth:`GnubgNN.play_boards`).
    utility : Utility
        The opponent's cubeless equity.

    Returns
    -------
    list of (ndarray of int, or None)
        For each of ``plays``, the indices of the plays kept, the best for the mover first;
        None (every play) when there are no more plays than that or the positions are not
        all race, all crashed or all contact (:func:`_crashed`).

    Notes
    -----
    Contact and crashed positions are valued here, all at once, by gnubg-nn's pruning nets
    (:func:`_pruning_nets`, :func:`_logistic`), races by gnubg-nn itself
    (``probabilities(board, p_prune)``).
    """
    keeps = [PRUNE_MOVES + len(boards).bit_length() - 1 for boards in plays]
    listed = [index for index, boards in enumerate(plays) if len(boards) > keeps[index]]
    found: list[np.ndarray | None] = [None] * len(plays)
    if not listed:
        return found
    counts = np.concatenate([plays[index] for index in listed])
    kinds, values = np.empty(len(counts), dtype="<U7"), np.full(len(counts), np.nan)
    for start in range(0, len(counts), _CHUNK):
        rows = slice(start, start + _CHUNK)
        kinds[rows], values[rows] = _pruning_values(evaluator, counts[rows], utility)
    sizes = np.array([len(plays[index]) for index in listed])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    codes = np.unique(kinds, return_inverse=True)[1]
    uniform = (np.minimum.reduceat(codes, starts) == np.maximum.reduceat(codes, starts)) \
        & (kinds[starts] != "bearoff")
    order = np.lexsort((values, np.repeat(np.arange(len(listed)), sizes)))
    for index, start, same in zip(listed, starts.tolist(), uniform):
        if same:
            found[index] = order[start:start + keeps[index]] - start
    return found


_CHUNK = 4096
"""Plays valued by the pruning nets at a time (:func:`pruned`): their inputs stay in the
processor's cache."""


def _pruning_values(evaluator: GnubgNN, counts: np.ndarray,
                    utility: Utility) -> tuple[np.ndarray, np.ndarray]:
    """The classes (``contact``, ``crashed``, ``race``, ``bearoff``) of boards of
    :func:`~nardy_analysis.analysis.gnubg.board_counts` (n, 50) and the opponent's cubeless
    ``utility`` there by the pruning net of the class (NaN in a bear-off), shape (n,)
    each."""
    kinds, _ = board_classes(counts)
    kinds = np.where((kinds == "contact") & _crashed(counts), "crashed", kinds)
    values = np.full(len(counts), np.nan)
    weights = np.array([utility.win, utility.win_gammon, utility.win_backgammon,
                        utility.lose_gammon, utility.lose_backgammon])
    with one_blas_thread():
        for kind, (hidden, hidden_bias, output, output_bias, beta_hidden, beta_output) in \
                _pruning_nets(evaluator.gnubg).items():
            rows = kinds == kind
            if rows.any():
                units = _logistic(beta_hidden * (_first_layer(counts[rows], hidden)
                                                 + hidden_bias))
                chances = _logistic(beta_output * (units @ output + output_bias))
                values[rows] = utility.base + chances @ weights
    for row in np.flatnonzero(kinds == "race"):
        values[row] = utility(_pruning(evaluator.gnubg, counts[row].tobytes()))
    return kinds, values


@lru_cache(maxsize=None)
def _pruning_nets(gnubg: Any) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray,
                                                 np.ndarray, float, float]]:
    """gnubg-nn's pruning nets of contact and crashed positions, read from its weights file
    (``data/gnubg.weights`` of the package: a net's name line, ``inputs hidden outputs
    trained beta_hidden beta_output``, then the hidden weights input by input, the output
    weights output by output, the hidden and the output thresholds): per net the hidden
    weights unit by unit as :func:`_first_layer` takes them (4, 50, h), the thresholds
    (h,), output weights (h, 5), thresholds (5,) and the betas."""
    lines = (Path(gnubg.__file__).parent / "data" / "gnubg.weights").read_text(
        encoding="latin-1").splitlines()
    nets = {}
    for index, line in enumerate(lines):
        if line in ("prune contact", "prune crashed"):
            inputs, hidden, outputs, _, beta_hidden, beta_output = lines[index + 1].split()
            i, h, o = int(inputs), int(hidden), int(outputs)
            values = np.array(lines[index + 2:index + 2 + i * h + h * o + h + o], dtype=float)
            units = values[:i * h].reshape(2 * BAR, 4, h).transpose(1, 0, 2).copy()
            bar = units[:, BAR - 1::BAR]  # at least 1, 2, 3: on a point 1, 2, 3 or more
            bar[1], bar[2] = bar[0] + bar[1], bar[0] + bar[1] + bar[2]
            nets[line.split()[1]] = (units,
                                     values[i * h + h * o:i * h + h * o + h],
                                     values[i * h:i * h + h * o].reshape(o, h).T,
                                     values[i * h + h * o + h:], float(beta_hidden),
                                     float(beta_output))
    return nets


def _first_layer(counts: np.ndarray, hidden: np.ndarray) -> np.ndarray:
    """The hidden units' weighted input sums of boards of
    :func:`~nardy_analysis.analysis.gnubg.board_counts` (n, 50), shape (n, h), without the
    thresholds: GNU Backgammon's 200 base inputs (for each side and point four units: on a
    point one, two, three or more checkers, one each, and half the checkers beyond three; on
    the bar at least one, two, three, and half the checkers beyond three) times ``hidden``,
    the weights of :func:`_pruning_nets` unit by unit (4, 50, h) with the bar's made those of
    a point's units."""
    sums: np.ndarray = ((counts == 1) @ hidden[0] + (counts == 2) @ hidden[1]
                        + (counts >= 3) @ hidden[2] + (np.maximum(counts, 3) - 3) * 0.5 @ hidden[3])
    return sums


def _crashed(counts: np.ndarray) -> np.ndarray:
    """Whether either side of boards of
    :func:`~nardy_analysis.analysis.gnubg.board_counts` is crashed, as GNU Backgammon's
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
def _pruning(gnubg: Any, counts: bytes) -> Probabilities:
    """The pruning net's chances for the player on roll of a board of
    :func:`~nardy_analysis.analysis.gnubg.board_counts` (its 50 counts as bytes; gnubg-nn's
    ``probabilities(board, p_prune)``, the net of the position's class)."""
    board = np.frombuffer(counts, np.int8).reshape(2, BAR).tolist()
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
