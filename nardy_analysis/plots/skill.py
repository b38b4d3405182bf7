"""Charts of skill (:func:`~nardy_analysis.analysis.skill.skill_summary`).

Every chart takes its data first, draws on ``ax`` (default: the current Axes) and returns the
Axes; none calls ``plt.show()``.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.transforms import Bbox

from ..analysis.match_statistics import RATINGS
from ..errors import InvalidArgument


def plot_skill_luck(summary: pd.DataFrame, ax: Axes | None = None, *,
                    labels: bool = True) -> Axes:
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
        and at gnubg's rating bands' edges (5, 8, 13, 20, 32 mEMG per decision), each band
        named right of the Axes, in its middle; each name written where it overlaps no
        other name or point when one of four places beside its point allows.

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
    ax.autoscale_view()
    if labels:
        _label_points(ax, summary["player"], x, y)
    ax.axvline(0, color="grey", linestyle=":", linewidth=1)
    low, high = (-limit for limit in ax.get_ylim())  # in mEMG given away, high < low
    edges = (5, 8, 13, 20, 32)
    for upper, lower, name in zip((0,) + edges, edges + (np.inf,), RATINGS[::-1]):
        if high < lower < low:
            ax.axhline(-lower, color="grey", linestyle=":", linewidth=0.8)
        if upper < low and lower > high:  # the rating's name in the middle of its band
            ax.text(1.01, -(max(upper, high) + min(lower, low)) / 2, name, va="center",
                    transform=ax.get_yaxis_transform(), fontsize="x-small", color="grey")
    ax.set_ylim(-low, -high)
    ax.set(xlabel="luck per roll (mEMG)", ylabel="error per decision (mEMG)")
    return ax


_PLACES = ((4, 3, "left", "bottom"), (4, -3, "left", "top"), (-4, 3, "right", "bottom"),
           (-4, -3, "right", "top"))
"""Where a point's name may go: offsets (points) from the point and the text's alignment."""


def _label_points(ax: Axes, names: pd.Series, xs: pd.Series, ys: pd.Series) -> None:
    """Write each name beside its point at the first of :data:`_PLACES` where it stays in
    the Axes and overlaps no name written before it and no point (else at the first)."""
    centres = ax.transData.transform(np.column_stack([xs, ys]))
    dots = [Bbox.from_bounds(cx - 3, cy - 3, 6, 6) for cx, cy in centres]
    frame = ax.get_window_extent()
    taken: list[Bbox] = []
    for index, (name, a, b) in enumerate(zip(names, xs, ys)):
        for dx, dy, ha, va in _PLACES:
            label = ax.annotate(str(name), (a, b), textcoords="offset points",
                                xytext=(dx, dy), ha=ha, va=va, fontsize="small")
            box = label.get_window_extent()
            if (frame.x0 <= box.x0 and box.x1 <= frame.x1 and box.y1 <= frame.y1
                    and not any(box.overlaps(other) for other in taken)
                    and not any(box.overlaps(dot) for i, dot in enumerate(dots)
                                if i != index)):
                break
            label.remove()
        else:
            dx, dy, ha, va = _PLACES[0]
            label = ax.annotate(str(name), (a, b), textcoords="offset points",
                                xytext=(dx, dy), ha=ha, va=va, fontsize="small")
            box = label.get_window_extent()
        taken.append(box)
