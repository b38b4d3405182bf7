"""GNU Backgammon's "Match statistics" of a player, from their decisions: counts, error
totals and rates, marks, ratings and the FIBS rating formulas (the rows of
:func:`~nardy_analysis.analysis.skill.skill_summary`, from the decisions of
:func:`~nardy_analysis.analysis.skill.skill_frame`).

Marks (:data:`MARKS`, :func:`move_mark`): a checker play's error of at least 0.03 EMG is
doubtful, 0.06 bad, 0.12 very bad. Ratings (:data:`RATINGS`, :func:`skill_rating`) are GNU
Backgammon 1.1.0a16's, measured from its output (its ``errorrating`` function and statistics
tables), not read from its source; the error-based FIBS rating and its two rating losses are
the formulas GNU Backgammon's analysis.c states (after Kees van den Doel: ``2050 - EPM (8798 +
25526 / n) - EPC (863 - 519 / n)``, EPM and EPC the error rates per unforced move and per close
cube decision, n the match length). Long nardy play has no rating (:data:`NO_RATING`): gnubg's
scale and the FIBS rating fit backgammon players' errors.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

MARKS = ("doubtful", "bad", "very bad")
"""GNU Backgammon's marks of a checker play's error (at least 0.03, 0.06, 0.12 EMG)."""
_MARK_LIMITS = (0.12, 0.06, 0.03)

RATINGS = ("Beginner", "Intermediate", "Advanced", "Master", "Grandmaster",
           "Super Grandmaster")
"""GNU Backgammon's ratings of an error rate, worst to best (:func:`skill_rating`)."""
_RATING_LIMITS = (0.032, 0.02, 0.013, 0.008, 0.005)
NO_RATING = "n/a"
"""The rating gnubg prints when nothing was counted (no unforced move, no close cube
decision); also the rating of long nardy play, which gnubg's scale does not rate."""

CUBE_ERRORS = {
    "missed_double_below_cp": "Missed doubles below CP",
    "missed_double_above_cp": "Missed doubles above CP",
    "wrong_double_below_dp": "Wrong doubles below DP",
    "wrong_double_above_tg": "Wrong doubles above TG",
    "wrong_take": "Wrong takes",
    "wrong_pass": "Wrong passes",
}
"""The cube error categories, by the key used here and gnubg's name."""

# Error based FIBS rating (gnubg's "Error based abs. FIBS rating"): 2050 minus a chequerplay
# and a cube loss, each the error rate (EMG per decision) times a factor depending on the
# match length n: a + b / n, Kees van den Doel's fit as GNU Backgammon's analysis.c states it
# (absoluteFibsRatingChequer: 8798 + 25526 / n; absoluteFibsRatingCube: 863 - 519 / n).
_FIBS_BASE = 2050.0
_CHEQUER_LOSS = (8798.0, 25526.0)
_CUBE_LOSS = (863.0, -519.0)


def move_mark(error: float) -> str:
    """GNU Backgammon's mark of a checker play's ``error`` (EMG, <= 0): ``very bad``
    (<= -0.12), ``bad`` (<= -0.06), ``doubtful`` (<= -0.03) or ``""``."""
    for limit, mark in zip(_MARK_LIMITS, reversed(MARKS)):
        if error <= -limit:
            return mark
    return ""


def skill_rating(rate: float) -> str:
    """GNU Backgammon's rating of an error rate (EMG per decision, either sign): ``Super
    Grandmaster`` below 0.005, ``Grandmaster`` below 0.008, ``Master`` below 0.013,
    ``Advanced`` below 0.02, ``Intermediate`` below 0.032, else ``Beginner`` (gnubg
    1.1.0a16's ``errorrating``)."""
    return RATINGS[sum(abs(rate) < limit for limit in _RATING_LIMITS)]




def fibs_rating_difference(result: float, length: int) -> float:
    """The FIBS rating difference that makes winning a ``length``-point match ``0.5 +
    result`` likely (gnubg's "Luck based FIBS rating diff.").

    Parameters
    ----------
    result : float
        A luck-adjusted result in match-winning chance, -0.5..0.5.
    length : int
        The match length ``n``, points.

    Returns
    -------
    float
        ``D = 2000 / sqrt(n) * log10(P / (1 - P))`` with ``P = 0.5 + result`` (the FIBS
        rating formula ``P = 1 / (1 + 10 ** (-D * sqrt(n) / 2000))`` solved for ``D``);
        NaN when ``P`` is not strictly between 0 and 1.
    """
    chance = 0.5 + result
    if not 0.0 < chance < 1.0:
        return float("nan")
    return 2000.0 / math.sqrt(length) * math.log10(chance / (1.0 - chance))


def player_statistics(decisions: pd.DataFrame, side: int, all_moves: int,
                      length: int) -> dict[str, Any]:
    """One player's match statistics from the decisions of a match.

    Parameters
    ----------
    decisions : pandas.DataFrame
        The match's rows of :func:`~nardy_analysis.analysis.skill.skill_frame`.
    side : int
        The player's column: 0 left, 1 right.
    all_moves : int
        The moves of both players, for the Snowie error rate.
    length : int
        The match length (0: money play: no FIBS rating, the MWC errors NaN).

    Returns
    -------
    dict
        The columns of :data:`~nardy_analysis.analysis.skill.SUMMARY_COLUMNS` from
        ``total_moves`` to ``overall_rating``, and ``fibs_rating``, ``checker_rating_loss``
        and ``cube_rating_loss``; errors in EMG (<= 0), rates in thousandths of EMG per
        decision (0 and ratings :data:`NO_RATING` when nothing was counted, as gnubg prints
        them), the FIBS rating and its losses NaN in money play or without a counted
        decision.
    """
    mine = decisions[decisions["side"] == side]
    moves, cube = mine[mine["kind"] == "move"], mine[mine["kind"] != "move"]
    unforced = moves[moves["plays"] > 1]
    marks = unforced["mark"].value_counts()
    close = cube[cube["close"]]
    checker, cube_error = float(unforced["error"].sum()), float(close["error"].sum())
    rate = checker / len(unforced) if len(unforced) else 0.0
    cube_rate = cube_error / len(close) if len(close) else 0.0
    total = checker + cube_error
    counted = len(unforced) + len(close)
    row = {"total_moves": len(moves), "unforced_moves": len(unforced),
           "unmarked_moves": len(moves) - int(marks.reindex(MARKS).fillna(0).sum()),
           **{f"marked_{m.replace(' ', '_')}": int(marks.get(m, 0)) for m in MARKS},
           "checker_error_emg": checker,
           "checker_error_mwc": float(unforced["error_mwc"].sum()) if length else float("nan"),
           "checker_error_rate_memg": 1000 * rate,
           "checker_rating": skill_rating(rate) if len(unforced) else NO_RATING,
           "cube_decisions": len(cube), "close_cube_decisions": len(close),
           "doubles": int((cube["play"] == "double").sum()),
           "takes": int((cube["play"] == "take").sum()),
           "passes": int((cube["play"] == "pass").sum())}
    for key in CUBE_ERRORS:
        wrong = cube[cube["category"] == key]
        row |= {key: len(wrong), f"{key}_emg": float(wrong["error"].sum())}
    checker_loss, cube_loss = (
        -error_rate * (a + b / length) if length and counts else float("nan")
        for (a, b), error_rate, counts in ((_CHEQUER_LOSS, rate, len(unforced)),
                                           (_CUBE_LOSS, cube_rate, len(close))))
    return row | {
        "cube_error_emg": cube_error,
        "cube_error_mwc": float(close["error_mwc"].sum()) if length else float("nan"),
        "cube_error_rate_memg": 1000 * cube_rate,
        "cube_rating": skill_rating(cube_rate) if len(close) else NO_RATING,
        "overall_error_emg": total,
        "overall_error_rate_memg": 1000 * total / counted if counted else 0.0,
        "snowie_error_rate": 1000 * total / all_moves if all_moves else 0.0,
        "overall_rating": skill_rating(total / counted) if counted else NO_RATING,
        "fibs_rating": _FIBS_BASE - float(np.nansum([checker_loss, cube_loss]))
        if length and counted else float("nan"), "checker_rating_loss": checker_loss,
        "cube_rating_loss": cube_loss}


CUBE_COUNTS = ["cube_decisions", "close_cube_decisions", "doubles", "takes", "passes",
               *CUBE_ERRORS]
"""The summary's counts of cube decisions (nullable integers: NA in long nardy)."""
_NOT_LONG = ["checker_error_mwc", *CUBE_COUNTS, *(f"{key}_emg" for key in CUBE_ERRORS),
             "cube_error_emg", "cube_error_mwc", "cube_error_rate_memg", "cube_rating",
             "fibs_rating", "checker_rating_loss", "cube_rating_loss"]
"""The summary columns that long nardy does not have: match-winning chances (its equity is
money equity), the cube's (there is none) and the FIBS rating (a fit to backgammon
matches)."""


def long_nardy_statistics(row: dict[str, Any]) -> dict[str, Any]:
    """A long nardy player's match statistics.

    Parameters
    ----------
    row : dict
        The player's :func:`player_statistics`.

    Returns
    -------
    dict
        ``row`` with the columns of :data:`_NOT_LONG` NaN (the cube rating None), and no
        checker or overall rating (:data:`NO_RATING`: gnubg's scale rates backgammon
        players' error rates; none is measured for long nardy).
    """
    return row | dict.fromkeys(_NOT_LONG, float("nan")) | {
        "cube_rating": None, "checker_rating": NO_RATING, "overall_rating": NO_RATING}
