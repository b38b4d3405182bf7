"""The HTML page of a dice audit, rendered from ``templates/audit.html.j2``."""

from __future__ import annotations

import base64
import io
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..analysis.audit import ABOUT, ALPHA, EFFECT_UNITS
from ..plots.audit import plot_doubles, plot_face_counts, plot_p_values, plot_roll_classes
from .templates import template

if TYPE_CHECKING:
    from ..analysis.audit import DiceAudit

COLUMNS = {"test": "test", "group": "group", "n": "n", "observed": "observed",
           "expected": "expected", "p_value": "p", "p_adjusted": "p adj.",
           "effect": "effect", "ci_low": "95% CI low", "ci_high": "95% CI high",
           "cell": "cell", "note": "note"}
"""The columns of the results table and their headings."""

_DASH = "\u2013"


def audit_html(audit: DiceAudit) -> str:
    """The HTML page of a dice audit.

    Parameters
    ----------
    audit : DiceAudit

    Returns
    -------
    str
        A self-contained HTML document (no external URL; everything from the files is
        escaped): what was audited (rolls, files, player, groups; the file names in a
        collapsed list), when and by which version, the verdict, one sentence per test with
        the unit of its effect and its method, the face, roll-class, doubles and p-value
        charts (as PNG in ``data:`` URLs, 90 dpi, 8 inches wide; the doubles chart 0.2 inch
        high per group shown) and every result, smallest adjusted p first (missing values as
        an en dash, flagged rows red).
    """
    frame = audit.frame
    groups = int((frame["test"] == "doubles").sum())
    charts = [("faces", plot_face_counts, 3.5), ("roll classes", plot_roll_classes, 3.5),
              ("doubles per group", plot_doubles, max(3.5, 1.3 + 0.2 * groups)),
              ("p-values", plot_p_values, 3.5)]
    first = frame[frame["group"] == "all"].drop_duplicates("test")
    tests = [{"name": row.test, "about": ABOUT[row.test], "effect": EFFECT_UNITS[row.test],
              "method": row.method or _DASH} for row in first.itertuples()]
    flagged = audit.flagged()
    rows = [{"flagged": row.Index in flagged.index,
             "cells": [{"text": _cell(getattr(row, column)),
                        "number": isinstance(getattr(row, column), (int, float, np.number))}
                       for column in COLUMNS]}
            for row in audit.sorted().itertuples()]
    return template("audit.html.j2").render(
        audit=audit, scope=audit.scope(), files=audit.files, level=ALPHA,
        tested=int(frame["p_value"].notna().sum()),
        flagged=[f"{row.test} of {row.group}" for row in audit.sorted(flagged).itertuples()],
        tests=tests, headings=list(COLUMNS.values()), rows=rows,
        charts=[{"alt": alt, "png": _png(chart, audit, height)} for alt, chart, height in charts])


def _png(chart, data, height: float) -> str:
    """``chart(data)`` drawn on a figure of its own (no pyplot state), 8 x ``height`` inches
    at 90 dpi, as base64 PNG."""
    figure = Figure(figsize=(8, height), dpi=90, layout="constrained")
    chart(data, ax=figure.subplots())
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=90)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _cell(value) -> str:
    """A table cell: missing values as an en dash, numbers readably (thousands separated,
    four significant digits for small ones)."""
    if value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value)):
        return _DASH
    if isinstance(value, (bool, np.bool_, str)):
        return str(value)
    if isinstance(value, (int, np.integer)):
        return f"{value:,}"
    if isinstance(value, (float, np.floating)):
        if value != 0 and abs(value) < 1e-4:
            return f"{value:.2e}"
        return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.4g}"
    return str(value)
