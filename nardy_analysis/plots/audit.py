"""Plots and the HTML page of a dice audit (:mod:`nardy_analysis.audit`).

Every plot function takes long-form frames (the results of
:func:`~nardy_analysis.audit.dice_tests`, or the cell counts of
:meth:`~nardy_analysis.audit.DiceAudit.cells`), draws on ``ax`` (a new figure when None) and
returns the Axes; none calls ``plt.show()``.
"""

from __future__ import annotations

import base64
import html
import io

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.lines import Line2D
from matplotlib.patches import Patch


def _axes(ax, size=(7, 3.5)):
    if ax is None:
        _, ax = plt.subplots(figsize=size)
    return ax


def plot_cells(cells: pd.DataFrame, ax=None, title: str | None = None,
               xlabel: str | None = None):
    """Observed counts as bars (red outside the 95% range of fair dice, blue inside), the
    expected count and its 95% range with fair dice as error bars.

    Parameters
    ----------
    cells : pandas.DataFrame
        ``cell``, ``observed``, ``expected``, ``low``, ``high`` (counts), one row per bar.
    ax : matplotlib Axes, optional
    title, xlabel : str, optional

    Returns
    -------
    matplotlib Axes
    """
    ax = _axes(ax)
    x = np.arange(len(cells))
    outside = (cells["observed"] < cells["low"]) | (cells["observed"] > cells["high"])
    ax.bar(x, cells["observed"], color=np.where(outside, "tab:red", "tab:blue"), alpha=0.7)
    ax.errorbar(x, cells["expected"], yerr=[cells["expected"] - cells["low"],
                                            cells["high"] - cells["expected"]],
                fmt="_", color="black", capsize=3, label="expected, 95% range (fair dice)")
    ax.set_xticks(x, cells["cell"])
    ax.set_ylabel("count")
    if xlabel:
        ax.set_xlabel(xlabel)
    if title:
        ax.set_title(title)
    ax.set_ylim(0, 1.3 * max(cells["high"].max(), cells["observed"].max(), 1))
    handles, _ = ax.get_legend_handles_labels()
    ax.legend(handles=[Patch(color="tab:blue", alpha=0.7, label="observed"),
                       Patch(color="tab:red", alpha=0.7, label="observed, outside 95% range"),
                       *handles], fontsize="small", loc="upper center", ncol=3)
    return ax


def plot_doubles(frame: pd.DataFrame, ax=None, max_groups: int = 40):
    """Doubles rate of each group with its 95% Clopper-Pearson interval, against 1/6; red
    where the Benjamini-Hochberg adjusted p-value is below 0.05.

    Parameters
    ----------
    frame : pandas.DataFrame
        Results of ``dice_tests``; its ``doubles`` rows are drawn: ``all`` first, then the
        ``max_groups`` groups with the most rolls.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
    """
    ax = _axes(ax)
    rows = frame[(frame["test"] == "doubles") & (frame["n"] > 0)]
    rows = pd.concat([rows[rows["group"] == "all"],
                      rows[rows["group"] != "all"].nlargest(max_groups, "n")])
    expected = rows["expected"] / rows["n"]
    rate = rows["observed"] / rows["n"]
    y = np.arange(len(rows))[::-1]
    flagged = rows["p_adjusted"] < 0.05
    ax.errorbar(rate, y, xerr=[rate - (rows["ci_low"] + expected),
                               rows["ci_high"] + expected - rate],
                fmt="none", ecolor="gray", capsize=2)
    ax.scatter(rate, y, c=np.where(flagged, "tab:red", "tab:blue"), zorder=3)
    ax.axvline(1 / 6, color="black", linestyle="--", label="fair: 1/6")
    ax.set_yticks(y, [f"{g} ({n:,.0f})" for g, n in zip(rows["group"], rows["n"])])
    ax.set_xlabel("doubles rate (95% CI)")
    ax.set_title("Doubles per group (rolls)")
    _flag_legend(ax, "significant (BH-adjusted p < 0.05)")
    return ax


def plot_p_values(frame: pd.DataFrame, ax=None, level: float = 0.05):
    """Raw p-values of every test and group on a log scale; red where the
    Benjamini-Hochberg adjusted p-value is below ``level``.

    Parameters
    ----------
    frame : pandas.DataFrame
        Results of ``dice_tests``.
    ax : matplotlib Axes, optional
    level : float

    Returns
    -------
    matplotlib Axes
    """
    ax = _axes(ax)
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
    _flag_legend(ax, f"significant (BH-adjusted p < {level})")
    return ax


def _flag_legend(ax, flagged: str) -> None:
    """The Axes' legend with what the blue and red markers mean."""
    handles, _ = ax.get_legend_handles_labels()
    markers = [Line2D([], [], marker="o", linestyle="", color=colour, label=label)
               for colour, label in (("tab:blue", "not significant"), ("tab:red", flagged))]
    ax.legend(handles=markers + handles, fontsize="small")


def _cell(value) -> str:
    """A table cell: missing values as an en dash, numbers readably (thousands separated,
    four significant digits for small ones)."""
    if value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value)):
        return "\u2013"
    if isinstance(value, (bool, np.bool_, str)):
        return str(value)
    if isinstance(value, (int, np.integer)):
        return f"{value:,}"
    if isinstance(value, (float, np.floating)):
        if value != 0 and abs(value) < 1e-4:
            return f"{value:.2e}"
        return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.4g}"
    return str(value)


def _png(ax) -> str:
    buffer = io.BytesIO()
    figure = ax.figure
    figure.tight_layout()
    figure.savefig(buffer, format="png", dpi=90)
    plt.close(figure)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def report_html(report) -> str:
    """A self-contained HTML page of a ``DiceAudit``: summary, results table, and the
    faces, roll-class, doubles and p-value plots as embedded PNG images."""
    images = [report.plot_faces(), report.plot_roll_classes(), report.plot_doubles(),
              report.plot_p_values()]
    figures = "\n".join(f'<img alt="plot" src="data:image/png;base64,{_png(ax)}">'
                        for ax in images)
    table = report.frame.astype(object).map(_cell).to_html(index=False)
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Dice audit</title>"
            "<style>body{font-family:sans-serif} table{border-collapse:collapse;"
            "font-size:small} td,th{border:1px solid #ccc;padding:2px 6px}</style></head>"
            f"<body><h1>Dice audit</h1><pre>{html.escape(report.summary())}</pre>"
            f"{figures}<h2>All tests</h2>{table}</body></html>\n")
