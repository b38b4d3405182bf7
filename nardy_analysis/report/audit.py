"""The HTML page of a dice audit, rendered from ``templates/audit.html.j2``."""

from __future__ import annotations

import base64
import io
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Iterable

import numpy as np
import pandas as pd
from jinja2.utils import htmlsafe_json_dumps
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ..analysis.audit import ABOUT, ALPHA, EFFECT_UNITS
from ..plots.audit import (
    doubles_rows,
    plot_doubles,
    plot_face_counts,
    plot_p_values,
    plot_roll_classes,
)
from .templates import template

if TYPE_CHECKING:
    from ..analysis.audit import DiceAudit

COLUMNS = {"test": "test", "group": "group", "n": "n", "observed": "observed",
           "expected": "expected", "p_value": "p", "p_adjusted": "p adj.",
           "effect": "effect", "ci_low": "95% CI low", "ci_high": "95% CI high",
           "cell": "cell", "note": "note"}
"""The columns of the results table and their headings."""

_DASH = "\u2013"


SUMMARY_COLUMNS = ["test", "group", "n", "effect", "p_adjusted"]
"""The columns of the summary of flagged results (and of the smallest adjusted p-values when
none is flagged)."""

DOUBLES_GROUPS = 30
"""Groups drawn at most in the doubles chart: the flagged ones first, then the most rolls."""

FLAGGED_CHARTS = 12
"""Flagged groups at most that get their own face and roll-class charts as pictures."""

CHARTED = ("faces", "roll_classes")
"""The tests a group's charts draw cell by cell; next to them the page names the group's
other flagged tests that no chart draws (``doubles`` is drawn for the groups of the doubles
chart)."""


def audit_html(audit: DiceAudit) -> str:
    """The HTML page of a dice audit.

    Parameters
    ----------
    audit : DiceAudit

    Returns
    -------
    str
        A self-contained HTML document (no external URL; everything from the files is
        escaped), led by the summary: what was audited (rolls, files, player, groups; the file
        names in a collapsed list), when and by which version, the verdict and a table of the
        results flagged after adjustment (:data:`SUMMARY_COLUMNS`, smallest adjusted p first;
        the ten smallest adjusted p-values when none is). Then one sentence per test with the
        unit of its effect and its method; the face, roll-class, doubles and p-value charts of
        all rolls (PNG in ``data:`` URLs, 90 dpi, 8 inches wide; the doubles chart shows at
        most :data:`DOUBLES_GROUPS` groups, flagged first); the face and roll-class charts of
        each flagged group (at most :data:`FLAGGED_CHARTS`), each with a line naming its
        flagged tests that no chart draws (such as ``pips``); the results of all rolls; and
        with groups (``by``) a table of every group (rolls, doubles rate, smallest adjusted
        p and its test, flagged results) with a filter box, and a select box that draws the
        chosen group's roll classes and faces against fair dice (inline SVG from the page's
        JSON data: observed counts, expected counts and the fair range of
        :meth:`~nardy_analysis.analysis.audit.DiceAudit.cells`, whose ``significant``
        cells are red there as in the PNG charts), the same line and its results. Missing
        values are an en dash, flagged rows red.
    """
    frame = audit.frame
    flagged = audit.flagged()
    groups = list(dict.fromkeys(frame["group"].astype(str)))
    flagged_groups = list(dict.fromkeys(audit.sorted(flagged)["group"].astype(str)))
    doubles = frame[(frame["test"] == "doubles") & (frame["n"] > 0) & (frame["group"] != "all")]
    shown = min(len(doubles), DOUBLES_GROUPS)
    drawn = set(doubles_rows(audit, shown, flagged_groups)["group"].astype(str))
    undrawn = partial(_undrawn, flagged, drawn)

    def doubles_chart(data: DiceAudit, ax: Axes) -> Axes:
        return plot_doubles(data, ax=ax, max_groups=shown, first=flagged_groups)

    charts: list[tuple[str, Callable[..., Axes], float]] = [
        ("faces", plot_face_counts, 3.5), ("roll classes", plot_roll_classes, 3.5),
        ("doubles per group", doubles_chart, max(3.5, 1.3 + 0.2 * (shown + 1))),
        ("p-values", plot_p_values, 3.5)]
    first = frame[frame["group"] == "all"].drop_duplicates("test")
    tests = [{"name": test, "about": ABOUT[test], "effect": EFFECT_UNITS[test],
              "method": method or _DASH} for test, method in zip(first["test"], first["method"])]
    ordered = audit.sorted()
    summary = (audit.sorted(flagged) if len(flagged)
               else ordered[ordered["p_adjusted"].notna()][:10])
    return template("audit.html.j2").render(
        audit=audit, scope=audit.scope(), files=audit.files, level=ALPHA,
        tested=int(frame["p_value"].notna().sum()),
        flagged=[f"{row.test} of {row.group}" for row in audit.sorted(flagged).itertuples()],
        summary=_rows(audit, summary, SUMMARY_COLUMNS),
        summary_headings=[COLUMNS[c] for c in SUMMARY_COLUMNS],
        tests=tests, headings=list(COLUMNS.values()),
        rows=_rows(audit, ordered[ordered["group"] == "all"], COLUMNS),
        charts=[{"alt": alt, "png": _png(chart, audit, height)} for alt, chart, height in charts],
        group_charts=[{"group": group, "charts": [
            {"alt": f"{alt} of {group}", "png": _png(partial(chart, group=group), audit, 3.2)}
            for alt, chart in (("faces", plot_face_counts), ("roll classes", plot_roll_classes))],
            "undrawn": undrawn(group)}
            for group in flagged_groups[:FLAGGED_CHARTS]],
        groups=_groups(audit, flagged_groups, undrawn) if len(groups) > 1 else None)


def _undrawn(flagged: pd.DataFrame, drawn: set[str], group: str) -> list[str]:
    """The tests flagged for ``group`` that no chart of the page draws: not in
    :data:`CHARTED`, and ``doubles`` unless the group is in the doubles chart (``drawn``)."""
    tests = flagged.loc[flagged["group"].astype(str) == group, "test"]
    return [test for test in tests
            if test not in CHARTED and not (test == "doubles" and group in drawn)]


def _rows(audit: DiceAudit, rows: pd.DataFrame, columns: Iterable[str]) -> list[dict[str, Any]]:
    """Table rows of ``rows``: whether flagged, and each cell's text and whether a number."""
    flagged = audit.flagged().index
    return [{"flagged": row.Index in flagged,
             "cells": [{"text": _cell(getattr(row, column)),
                        "number": isinstance(getattr(row, column), (int, float, np.number))}
                       for column in columns]}
            for row in rows.itertuples()]


def _groups(audit: DiceAudit, flagged_groups: list[str],
            undrawn: Callable[[str], list[str]]) -> dict[str, Any]:
    """The table of every group and the JSON data of the select box: per group its results
    (``[test, n, effect, p adjusted]``, numbers rounded) and its cells (``[observed, expected,
    low, high, significant]`` lists of the 21 roll classes and of the 6 faces) and the
    flagged tests no chart draws (``undrawn(group)``)."""
    frame = audit.frame
    table: list[dict[str, Any]] = []
    data: list[dict[str, Any]] = []
    for group, rows in frame.groupby(frame["group"].astype(str), sort=False):
        if group == "all":
            continue
        rolls = int(rows.loc[rows["test"] == "doubles", "n"].iloc[0])
        doubles = rows[rows["test"] == "doubles"].iloc[0]
        tested = rows[rows["p_adjusted"].notna()]
        best = tested.iloc[tested["p_adjusted"].argmin()] if len(tested) else None
        table.append({"group": group, "rolls": _cell(rolls),
                      "doubles": f"{doubles['observed'] / rolls:.3f}" if rolls else _DASH,
                      "test": best["test"] if best is not None else _DASH,
                      "p_adjusted": _cell(best["p_adjusted"]) if best is not None else _DASH,
                      "flagged": int((tested["p_adjusted"] < ALPHA).sum()),
                      "order": rolls})
        data.append({"group": group, "rolls": rolls, "results": [
            [row.test, _json_number(row.n), _json_number(row.effect, 5),
             _json_number(row.p_adjusted, 4)] for row in rows.itertuples()],
            "undrawn": undrawn(group),
            **({"classes": _cells(audit, "roll_classes", group),
                "faces": _cells(audit, "faces", group)} if rolls else {})})
    table.sort(key=lambda g: (-g["flagged"], -g["order"], g["group"]))
    order = {g["group"]: i for i, g in enumerate(table)}
    data.sort(key=lambda g: order[g["group"]])
    return {"table": table, "data": htmlsafe_json_dumps({"groups": data, "level": ALPHA},
                                                        separators=(",", ":")),
            "chosen": flagged_groups[0] if flagged_groups else table[0]["group"]}


def _cells(audit: DiceAudit, test: str, group: str) -> list[list[float]]:
    """``[observed, expected, low, high, significant]`` of :meth:`DiceAudit.cells`, each a
    list (``significant`` as 0 or 1: the cells drawn red, as in the PNG charts)."""
    cells = audit.cells(test, group)
    return [[int(v) if float(v).is_integer() else round(float(v), 1) for v in cells[column]]
            for column in ("observed", "expected", "low", "high", "significant")]


def _json_number(value: Any, digits: int | None = None) -> int | float | None:
    """``value`` for the page's JSON: None for a missing value, else rounded to ``digits``
    significant digits (an int when ``digits`` is None)."""
    if value is None or pd.isna(value):
        return None
    return int(value) if digits is None else float(f"{float(value):.{digits}g}")


def _png(chart: Callable[..., Axes], data: DiceAudit, height: float) -> str:
    """``chart(data)`` drawn on a figure of its own (no pyplot state), 8 x ``height`` inches
    at 90 dpi, as base64 PNG."""
    figure = Figure(figsize=(8, height), dpi=90, layout="constrained")
    chart(data, ax=figure.subplots())
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=90)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _cell(value: object) -> str:
    """A table cell: missing values as an en dash, numbers readably (thousands separated,
    four significant digits for small ones)."""
    if value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value)):
        return _DASH
    if isinstance(value, (bool, np.bool_, str)):
        return str(value)
    if isinstance(value, (int, np.integer)):
        return f"{value:,}"
    if isinstance(value, (float, np.floating)):
        value = float(value)  # (numpy's floats format as Python's)
        if value != 0 and abs(value) < 1e-4:
            return f"{value:.2e}"
        return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.4g}"
    return str(value)
