"""HTML pages: the dice audit page, its text, table and embedded charts."""

import base64
import re
import struct

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from nardy_analysis.analysis.audit import DiceAudit, dice_tests, simulate_rolls  # noqa: E402
from nardy_analysis.report import audit_html  # noqa: E402


@pytest.fixture(scope="module")
def audit():
    rolls = simulate_rolls(40, players=2, seed=3)
    rolls["player"] = rolls["player"].map({"sim 1": "<b>ann</b>", "sim 2": "bob & co"})
    return DiceAudit(dice_tests(rolls, by="player"), rolls, by="player")


def test_audit_page_holds_summary_charts_and_table(audit):
    figures = plt.get_fignums()
    page = audit_html(audit)
    assert plt.get_fignums() == figures  # drawn off pyplot: no figure left open
    assert page.startswith("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
                           "<title>Dice audit</title>")
    assert page.endswith("</table></body></html>\n")
    summary = page[page.index("<pre>") + 5:page.index("</pre>")]
    assert summary == (audit.summary().replace("&", "&amp;").replace("<", "&lt;")
                       .replace(">", "&gt;").replace('"', "&quot;").replace("'", "&#x27;"))
    assert "&lt;b&gt;ann&lt;/b&gt;" in summary and "<b>" not in page
    images = re.findall(r'<img alt="plot" src="data:image/png;base64,([A-Za-z0-9+/=]+)">', page)
    assert len(images) == 4
    for image in images:  # 7 x 3.5 inches at 90 dpi
        png = base64.b64decode(image)
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", png[16:24]) == (630, 315)
    table = page[page.index("<h2>All tests</h2><table"):]
    assert table.count("</tr>") == len(audit.frame) + 1  # the header row and one per result
    assert "<td>bob &amp; co</td>" in table and ">nan<" not in table


def test_table_cells_are_readable():
    from nardy_analysis.report.audit import _cell

    assert [_cell(v) for v in (None, float("nan"), True, "x", 1234567, 12345.6, 0.000012,
                               0.0, 0.123456)] == [
        "\u2013", "\u2013", "True", "x", "1,234,567", "12,346", "1.20e-05", "0", "0.1235"]
