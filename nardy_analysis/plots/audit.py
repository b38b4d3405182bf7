"""Charts of a dice audit (:class:`~nardy_analysis.analysis.audit.DiceAudit`).

Every chart takes the audit first, draws on ``ax`` (default: the current Axes) and returns
the Axes; none calls ``plt.show()``. Red marks exactly what the audit's table flags: a test
significant after Benjamini-Hochberg (:meth:`~nardy_analysis.analysis.audit.DiceAudit.flagged`);
blue all else. The bar charts mark the cells of a flagged test whose count is outside its
range, that of the table's cell intervals, simultaneous over the cells
(:func:`~nardy_analysis.analysis.audit.cell_alpha`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from ..analysis.audit import ALPHA, clopper_pearson

if TYPE_CHECKING:
    from ..analysis.audit import DiceAudit


def plot_face_counts(audit: DiceAudit, ax: Axes | None = None, *, group: str = "all") -> Axes:
    """How often each face 1..6 came up, against fair dice.

    Parameters
    ----------
    audit : DiceAudit
    ax : matplotlib.axes.Axes, optional
        Drawn into; the current Axes when None.
    group : str
        ``all`` or one group of ``audit.by`` (a player or site).

    Returns
    -------
    matplotlib.axes.Axes
        Six bars, x the face, height the number of dice showing it; black error bars: the
        expected count and the range of fair dice, simultaneous 95% over the six faces
        (1 - 0.05/6 each); red bars and red bold face labels where the faces test is
        significant after adjustment and the count is outside its range (so that a count of
        0 shows), blue otherwise (counts and marks from
        :meth:`~nardy_analysis.analysis.audit.DiceAudit.cells`).
    """
    return _plot_cells(audit.cells("faces", group), ax, f"Faces ({group})", "face")


def plot_roll_classes(audit: DiceAudit, ax: Axes | None = None, *,
                      group: str = "all") -> Axes:
    """How often each of the 21 roll classes (2-1 and 1-2 are one) came up, against fair dice.

    Parameters
    ----------
    audit : DiceAudit
    ax : matplotlib.axes.Axes, optional
        Drawn into; the current Axes when None.
    group : str
        ``all`` or one group of ``audit.by`` (a player or site).

    Returns
    -------
    matplotlib.axes.Axes
        21 bars, x the roll (``11``, ``21``, ... ``66``), height the number of rolls of
        that class; black error bars: the expected count and the range of fair dice,
        simultaneous 95% over the 21 classes (1 - 0.05/21 each); red bars and red bold
        labels where the roll-class test is significant after adjustment and the count is
        outside its range, blue otherwise (counts and marks from
        :meth:`~nardy_analysis.analysis.audit.DiceAudit.cells`).
    """
    return _plot_cells(audit.cells("roll_classes", group), ax, f"Roll classes ({group})",
                       "roll")


def _plot_cells(cells: pd.DataFrame, ax: Axes | None, title: str, xlabel: str) -> Axes:
    """Bars of ``cells`` (``cell``, ``observed``, ``expected``, ``low``, ``high``: counts;
    ``significant``: the bar and its label drawn red)."""
    ax = ax if ax is not None else plt.gca()
    x = np.arange(len(cells))
    ax.bar(x, cells["observed"], color=np.where(cells["significant"], "tab:red", "tab:blue"),
           alpha=0.7)
    ax.errorbar(x, cells["expected"], yerr=[cells["expected"] - cells["low"],
                                            cells["high"] - cells["expected"]],
                fmt="_", color="black", capsize=3,
                label=f"expected, fair range (95% over {len(cells)})")
    ax.set_xticks(x, cells["cell"])
    for label, marked in zip(ax.get_xticklabels(), cells["significant"]):
        if marked:
            label.set(color="tab:red", fontweight="bold")
    ax.set_ylabel("count")
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.set_ylim(0, 1.35 * max(cells["high"].max(), cells["observed"].max(), 1))
    handles, _ = ax.get_legend_handles_labels()
    ax.legend(handles=[Patch(color="tab:blue", alpha=0.7, label="observed"),
                       Patch(color="tab:red", alpha=0.7, label="outside the range, flagged"),
                       *handles], fontsize="small", loc="upper center", ncol=3)
    return ax


def plot_doubles(audit: DiceAudit, ax: Axes | None = None, *, max_groups: int | None = None,
                 first: Sequence[str] = ()) -> Axes:
    """The doubles rate of each group with its 95% confidence interval, against 1/6.

    Parameters
    ----------
    audit : DiceAudit
        Its ``doubles`` rows with rolls are drawn: ``all`` first, then the groups of
        ``first``, then the groups with the most rolls.
    ax : matplotlib.axes.Axes, optional
        Drawn into; the current Axes when None.
    max_groups : int, optional
        Groups drawn at most. Default: as many as the Axes' height holds at 10 points a row
        (size the figure to the groups to see them all); the title says how many are left
        out.
    first : list of str
        Groups drawn first, after ``all`` (such as the flagged ones), within ``max_groups``.

    Returns
    -------
    matplotlib.axes.Axes
        One row per group, top to bottom (y tick: the group, cut at 24 characters, and its
        number of rolls): a dot at the doubles rate (doubles per roll, 0..1), red where the
        Benjamini-Hochberg adjusted p-value is below 0.05 (as the table flags), blue
        otherwise; grey bars the Clopper-Pearson 95% interval of the rate
        (:func:`~nardy_analysis.analysis.audit.clopper_pearson`: the table's ``ci_low``/
        ``ci_high`` plus 1/6); a dashed line at 1/6; the legend outside, right of the Axes.
    """
    ax = ax if ax is not None else plt.gca()
    if max_groups is None:
        height = ax.get_window_extent().height * 72 / ax.figure.dpi  # points
        max_groups = max(int(height / 10) - 1, 1)
    rows = doubles_rows(audit, max_groups, first)
    frame = audit.frame
    groups = ((frame["test"] == "doubles") & (frame["n"] > 0) & (frame["group"] != "all")).sum()
    low, high = clopper_pearson(rows["observed"], rows["n"])
    rate = rows["observed"] / rows["n"]
    y = np.arange(len(rows))[::-1]
    flagged = rows["p_adjusted"] < ALPHA
    ax.errorbar(rate, y, xerr=[rate - low, high - rate], fmt="none", ecolor="gray", capsize=2)
    ax.scatter(rate, y, c=np.where(flagged, "tab:red", "tab:blue"), zorder=3)
    ax.axvline(1 / 6, color="black", linestyle="--", label="fair: 1/6")
    names = [g if len(g) <= 24 else g[:23] + "\u2026" for g in rows["group"].astype(str)]
    ax.set_yticks(y, [f"{g} ({n:,.0f})" for g, n in zip(names, rows["n"])],
                  fontsize="small" if len(rows) > 12 else None)
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.set_xlabel("doubles rate (95% CI)")
    left_out = groups - (len(rows) - 1)
    ax.set_title("Doubles per group (rolls)"
                 + (f"; {left_out} other groups not shown" if left_out > 0 else ""))
    _flag_legend(ax, f"significant (BH p adj. < {ALPHA})")
    return ax


def doubles_rows(audit: DiceAudit, max_groups: int, first: Sequence[str] = ()) -> pd.DataFrame:
    """The ``doubles`` rows :func:`plot_doubles` draws, top to bottom.

    Parameters
    ----------
    audit : DiceAudit
    max_groups : int
        Groups at most besides ``all``.
    first : list of str
        Groups taken first, in this order.

    Returns
    -------
    pandas.DataFrame
        Rows of ``audit.frame`` with rolls: ``all``, then the groups of ``first``, then the
        groups with the most rolls.
    """
    frame = audit.frame
    rows = frame[(frame["test"] == "doubles") & (frame["n"] > 0)]
    others = rows[rows["group"] != "all"]
    chosen = others[others["group"].isin(first)]
    chosen = chosen.iloc[np.argsort([list(first).index(g) for g in chosen["group"]])]
    rest = others[~others["group"].isin(first)].nlargest(max(max_groups - len(chosen), 0), "n")
    return pd.concat([rows[rows["group"] == "all"], pd.concat([chosen, rest])[:max_groups]])


def plot_p_values(audit: DiceAudit, ax: Axes | None = None, *, level: float = ALPHA) -> Axes:
    """The raw p-value of every test and group, on a log scale.

    Parameters
    ----------
    audit : DiceAudit
    ax : matplotlib.axes.Axes, optional
        Drawn into; the current Axes when None.
    level : float
        Significance level: the dashed line, and red dots where the Benjamini-Hochberg
        adjusted p-value is below it.

    Returns
    -------
    matplotlib.axes.Axes
        One dot per result with a p-value: x the test (in the order of the results, jittered
        by up to 0.2 with a fixed seed so that groups do not hide each other), y the raw
        p-value (smallest at the top; 0 drawn at 1e-300); the legend right of the Axes.
    """
    ax = ax if ax is not None else plt.gca()
    frame = audit.frame
    rows = frame[frame["p_value"].notna()]
    tests = list(dict.fromkeys(frame["test"]))
    x = rows["test"].map({t: i for i, t in enumerate(tests)}).to_numpy(float)
    x = x + np.random.default_rng(0).uniform(-0.2, 0.2, len(x))
    flagged = rows["p_adjusted"] < level
    ax.scatter(x, rows["p_value"].clip(lower=1e-300),
               c=np.where(flagged, "tab:red", "tab:blue"), s=14, alpha=0.8)
    ax.axhline(level, color="black", linestyle="--", label=f"p = {level}")
    ax.set_yscale("log")
    ax.invert_yaxis()
    ax.set_xticks(range(len(tests)), tests, rotation=30, ha="right")
    ax.set_ylabel("p-value (raw)")
    ax.set_title("p-values; red: significant after Benjamini-Hochberg")
    _flag_legend(ax, f"significant (BH p adj. < {level})")
    return ax


def _flag_legend(ax: Axes, flagged: str) -> None:
    """The Axes' legend with what the blue and red markers mean, right of the Axes (clear of
    the data)."""
    handles, _ = ax.get_legend_handles_labels()
    markers = [Line2D([], [], marker="o", linestyle="", color=colour, label=label)
               for colour, label in (("tab:blue", "not significant"), ("tab:red", flagged))]
    ax.legend(handles=markers + handles, fontsize="small", loc="upper left",
              bbox_to_anchor=(1.01, 1))
