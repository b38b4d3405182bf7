"""Charts of skill (:func:`~nardy_analysis.analysis.skill.skill_summary`).

Every chart takes its data first, draws on ``ax`` (default: the current Axes) and returns the
Axes; none calls ``plt.show()``.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd

from ..analysis.skill import RATINGS
from ..errors import InvalidArgument


def plot_skill_luck(summary: pd.DataFrame, ax=None, *, labels: bool = True):
    """Error rate against luck rate, one point per player per match.

    Parameters
    ----------
    summary : pandas.DataFrame
        Rows of :func:`~nardy_analysis.analysis.skill.skill_summary` (columns
        ``luck_rate_memg``, ``overall_error_rate_memg`` and ``player``).
    ax : matplotlib.axes.Axes, optional
        Drawn into; the current Axes when None.
    labels : bool
        Write each point's player name beside it.

    Returns
    -------
    matplotlib.axes.Axes
        x: luck per roll, y: overall error per decision (both thousandths of normalised
        equity, mEMG; errors are negative, so better play is higher); dotted lines at 0 luck
        and at gnubg's rating bands' edges (5, 8, 13, 20, 32 mEMG per decision), each
        named, right of the Axes, by the rating below it (the first also by the best
        rating, above it).

    Raises
    ------
    InvalidArgument
        ``summary`` has no rows.
    """
    if summary.empty:
        raise InvalidArgument("plot_skill_luck needs at least one player's row")
    ax = ax if ax is not None else plt.gca()
    x, y = summary["luck_rate_memg"], summary["overall_error_rate_memg"]
    ax.scatter(x, y, zorder=3)
    if labels:
        right = x.min() + 0.8 * (x.max() - x.min())
        for name, a, b in zip(summary["player"], x, y):
            left = a > right  # names of the rightmost points go left, inside the Axes
            ax.annotate(str(name), (a, b), textcoords="offset points",
                        xytext=(-4 if left else 4, 4), ha="right" if left else "left",
                        fontsize="small")
    ax.axvline(0, color="grey", linestyle=":", linewidth=1)
    for edge, below in zip((5, 8, 13, 20, 32), RATINGS[-2::-1]):
        if edge <= -y.min() * 1.2:
            ax.axhline(-edge, color="grey", linestyle=":", linewidth=0.8)
            for name, va in ((below, "top"),) + ((RATINGS[-1], "bottom"),) * (edge == 5):
                ax.text(1.01, -edge, name, transform=ax.get_yaxis_transform(), va=va,
                        fontsize="x-small", color="grey")
    ax.set(xlabel="luck per roll (mEMG)", ylabel="error per decision (mEMG)")
    return ax
