"""HTML pages of analyses: self-contained pages with tables and charts as embedded PNG."""

from __future__ import annotations

import base64
import html
import io
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..plots.audit import plot_doubles, plot_face_counts, plot_p_values, plot_roll_classes

if TYPE_CHECKING:
    from ..analysis.audit import DiceAudit


def audit_html(audit: DiceAudit) -> str:
    """The HTML page of a dice audit.

    Parameters
    ----------
    audit : DiceAudit

    Returns
    -------
    str
        A self-contained HTML document: the text summary, the face, roll-class, doubles and
        p-value charts of all rolls (7 x 3.5 inches at 90 dpi, as PNG in ``data:`` URLs),
        and the table of every result (missing values as an en dash).
    """
    charts = (plot_face_counts, plot_roll_classes, plot_doubles, plot_p_values)
    figures = "\n".join(f'<img alt="plot" src="data:image/png;base64,{_png(chart, audit)}">'
                        for chart in charts)
    table = audit.frame.astype(object).map(_cell).to_html(index=False)
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Dice audit</title>"
            "<style>body{font-family:sans-serif} table{border-collapse:collapse;"
            "font-size:small} td,th{border:1px solid #ccc;padding:2px 6px}</style></head>"
            f"<body><h1>Dice audit</h1><pre>{html.escape(audit.summary())}</pre>"
            f"{figures}<h2>All tests</h2>{table}</body></html>\n")


def _png(chart, data) -> str:
    """``chart(data)`` drawn on a figure of its own (no pyplot state), as base64 PNG."""
    figure = Figure(figsize=(7, 3.5))
    chart(data, ax=figure.subplots())
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=90)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


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
