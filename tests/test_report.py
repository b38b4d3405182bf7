"""HTML pages: the dice audit page from its Jinja2 template, what it says, its charts and
table, escaping of names from the files, and how it looks in headless Chromium."""

import base64
import html
import json
import re
import shutil
import struct
import subprocess

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from markupsafe import escape  # noqa: E402

import nardy_analysis  # noqa: E402
from nardy_analysis.analysis.audit import ABOUT, EFFECT_UNITS, DiceAudit, dice_tests, simulate_rolls  # noqa: E402
from nardy_analysis.report import audit_html  # noqa: E402
from nardy_analysis.report.templates import template  # noqa: E402

SCRIPT = "<script>alert(1)</script>"


@pytest.fixture(scope="module")
def audit():
    rolls = simulate_rolls(40, players=3, seed=3)
    rolls["player"] = rolls["player"].map({"sim 1": SCRIPT, "sim 2": "bob & co",
                                           "sim 3": "<b>ann</b>"})
    rolls["file"] = rolls["player"].map({SCRIPT: "a.mat", "bob & co": "b&c.mat",
                                         "<b>ann</b>": "<i>.mat"})
    return DiceAudit(dice_tests(rolls, by="player"), rolls, by="player")


@pytest.fixture(scope="module")
def page(audit):
    figures = plt.get_fignums()
    text = audit_html(audit)
    assert plt.get_fignums() == figures  # drawn off pyplot: no figure left open
    return text


def test_names_from_the_files_are_escaped(page):
    # The page's own two scripts (its JSON data and the code of the group table), no other.
    assert page.count("<script") == 2 and SCRIPT not in page
    assert "<b>" not in page and "<i>" not in page
    assert escape(SCRIPT) in page and "&lt;b&gt;ann&lt;/b&gt;" in page
    assert '<a href="#chosen">bob &amp; co</a>' in page and "<li>b&amp;c.mat</li>" in page
    data = page[page.index('id="audit-data">'):]
    data = data[:data.index("</script>")]
    assert "\\u003cscript\\u003e" in data and "<" not in data[1:]


def test_the_template_escapes_by_itself():
    assert template("audit.html.j2").environment.autoescape is True


def test_page_says_what_was_audited_when_and_by_which_version(audit, page):
    assert page.startswith('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">')
    assert page.rstrip().endswith("</html>")
    assert escape(audit.scope()) + "." in page
    assert (f"Run {audit.created:%Y-%m-%d %H:%M} UTC by nardy_analysis\n"
            f"{nardy_analysis.__version__}.") in page
    assert "3 files read" in page
    assert all(f"<li>{escape(name)}</li>" in page for name in audit.files)
    verdict = ("No test is significant at 0.05 after adjustment." if audit.flagged().empty
               else "Significant at 0.05 after adjustment")
    assert verdict in page


def test_page_explains_each_test_and_the_unit_of_its_effect(audit, page):
    tests = page[page.index("<h2>The tests</h2>"):page.index("<h2>Charts of all rolls</h2>")]
    for test in dict.fromkeys(audit.frame["test"]):
        assert f"<tr><td>{test}</td><td>{escape(ABOUT[test])}</td>" \
               f"<td>{escape(EFFECT_UNITS[test])}</td>" in tests


def test_page_charts_are_inline_pngs_and_nothing_is_fetched(page):
    images = re.findall(r'<img alt="([a-z -]+)" src="data:image/png;base64,([A-Za-z0-9+/=]+)">',
                        page)
    assert [alt for alt, _ in images] == ["faces", "roll classes", "doubles per group",
                                          "p-values"]
    for _, image in images:  # 8 inches wide at 90 dpi, at least 3.5 inches high
        png = base64.b64decode(image)
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = struct.unpack(">II", png[16:24])
        assert width == 720 and height >= 315
    assert not re.search(r"(src|href)=\"(?!data:|#)", page) and "http" not in page
    assert "@import" not in page and "url(" not in page and "<script src" not in page


def test_results_of_all_rolls_smallest_adjusted_p_first(audit, page):
    table = page[page.index("<h2>Results of all rolls"):page.index("</table>",
                                                                     page.index('id="results"'))]
    rows = re.findall(r"<tr(?: class=\"flagged\")?>(.*?)</tr>", table)
    assert rows[0].startswith("<th>test</th><th>group</th><th>n</th>")
    ordered = audit.sorted()
    ordered = ordered[ordered["group"] == "all"]
    assert len(rows) == len(ordered) + 1  # the header and one row per test
    cells = [re.findall(r"<td[^>]*>(.*?)</td>", r) for r in rows[1:]]
    assert [(c[0], c[1]) for c in cells] == list(zip(ordered["test"], ordered["group"]))
    assert ">nan<" not in table and ">None<" not in table and "<td>\u2013</td>" in table


def test_the_summary_and_the_table_of_every_group(audit, page):
    summary = page[page.index('<table id="summary">'):]
    summary = summary[:summary.index("</table>")]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", summary)
    assert rows[0] == "<th>test</th><th>group</th><th>n</th><th>effect</th><th>p adj.</th>"
    # No result of these fair dice is flagged: the ten smallest adjusted p-values instead.
    assert audit.flagged().empty and len(rows) == 1 + 10
    ordered = audit.sorted()
    first = [re.findall(r"<td[^>]*>(.*?)</td>", r)[:2] for r in rows[1:]]
    assert [(t, html.unescape(g)) for t, g in first] == list(
        zip(ordered["test"], ordered["group"].astype(str)))[:10]
    groups = re.findall(r'<tr data-group="([^"]*)">', page)
    assert sorted(html.unescape(g) for g in groups) == sorted(["bob & co", "<b>ann</b>",
                                                               SCRIPT])


def test_table_cells_are_readable():
    from nardy_analysis.report.audit import _cell

    assert [_cell(v) for v in (None, float("nan"), True, "x", 1234567, 12345.6, 0.000012,
                               0.0, 0.123456)] == [
        "\u2013", "\u2013", "True", "x", "1,234,567", "12,346", "1.20e-05", "0", "0.1235"]


CHROMIUM = shutil.which("chromium")


@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium")
def test_page_renders_in_headless_chromium_without_running_a_script(page, tmp_path):
    """The DOM Chromium builds from the page: the four charts, the player named like a
    script as text, only the page's own two script elements, the chosen group's charts."""
    path = tmp_path / "audit.html"
    path.write_text(page, encoding="utf-8")
    done = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                           "--dump-dom", path.as_uri()], capture_output=True, text=True,
                          timeout=120)
    dom = done.stdout
    assert dom.count('src="data:image/png;base64,') == 4, done.stderr[-2000:]
    assert dom.count("<script") == 2 and escape(SCRIPT) in dom
    # The chosen group's roll classes and faces, drawn by the page's script.
    assert dom.count('aria-label="Roll classes of ') == dom.count('aria-label="Faces of ') == 1


def test_both_charts_of_a_sample_group_mark_the_same_cells_outside_the_fair_range(tmp_path):
    """``nardy audit sample_games --by player``: the faces test of Łukasz Żółć is flagged
    with faces 1 and 2 at 0, below the simultaneous range (1..12 of 34 dice), and face 5 at
    12, the furthest from 34/6 but inside it. The PNG chart and the page's own chart mark
    the cells outside the range of a flagged test, and no other."""
    from click.testing import CliRunner
    from conftest import SAMPLES
    from matplotlib.figure import Figure

    from nardy_analysis.batch import audit_files
    from nardy_analysis.cli.audit import audit as audit_command
    from nardy_analysis.plots.audit import plot_face_counts, plot_roll_classes

    path = tmp_path / "audit.html"
    result = CliRunner().invoke(audit_command, [str(SAMPLES), "--by", "player", "--no-progress",
                                                "--html", str(path)])
    assert result.exit_code in (0, 1), result.output
    text = path.read_text(encoding="utf-8")
    data = json.loads(html.unescape(re.search(
        r'<script type="application/json" id="audit-data">(.*?)</script>', text).group(1)))
    groups = {g["group"]: g for g in data["groups"]}
    sample = audit_files([SAMPLES], by="player")
    faces = sample.cells("faces", "Łukasz Żółć")
    assert faces["observed"].tolist() == [0, 0, 5, 8, 12, 9]
    assert faces[["low", "high"]].drop_duplicates().values.tolist() == [[1, 12]]
    assert faces["significant"].tolist() == [True, True, False, False, False, False]
    for group in ["Łukasz Żółć", "Boris", "bob.k", "Jürgen Müller"]:
        for test, key, chart in (("faces", "faces", plot_face_counts),
                                 ("roll_classes", "classes", plot_roll_classes)):
            cells = sample.cells(test, group)
            outside = (cells["observed"] < cells["low"]) | (cells["observed"] > cells["high"])
            flagged = (sample.frame.set_index(["test", "group"]).loc[(test, group), "p_adjusted"]
                       < 0.05)
            red = (outside & flagged).tolist()
            assert [bool(v) for v in groups[group][key][4]] == red, (group, test)
            ax = chart(sample, Figure().subplots(), group=group)
            bars = [patch.get_facecolor()[:3] == matplotlib.colors.to_rgb("tab:red")
                    for patch in ax.patches]
            labels = [label.get_color() == "tab:red" for label in ax.get_xticklabels()]
            assert bars == labels == red, (group, test)
    assert groups["Łukasz Żółć"]["undrawn"] == []  # doubles: in the doubles chart
    assert "Also flagged, with no chart here: pips" in text  # the pips test of all rolls
