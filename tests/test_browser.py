"""The match page in a real browser: Debian's headless Chromium, driven by Playwright.

Skips when there is no Chromium binary (``apt-get install chromium``) or no Playwright (the
test extra). Playwright's own browser download is not used: the system's Chromium is.
"""

import re
import shutil

import pytest
from conftest import CORPUS, SAMPLES

from nardy_analysis.load import load_file
from nardy_analysis.notation.mat import parse_mat
from nardy_analysis.replay import replay_match
from nardy_analysis.report import match_html

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
"""Chromium's switches: no sandbox (root in CI), and no network of its own (none here)."""

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary on PATH")


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


class Page:
    """A page opened in the browser, with every console error, page error and dialog."""

    def __init__(self, browser, html: str, folder):
        path = folder / "page.html"
        path.write_text(html, encoding="utf-8")
        self.problems = []
        self.page = browser.new_page(viewport={"width": 1280, "height": 1000})
        self.page.on("console", lambda m: m.type == "error" and self.problems.append(m.text))
        self.page.on("pageerror", lambda e: self.problems.append(str(e)))
        self.page.on("dialog", lambda d: (self.problems.append(f"dialog: {d.message}"),
                                          d.dismiss()))
        self.page.goto(path.as_uri())

    def text(self, selector: str) -> str:
        return self.page.text_content(selector)

    def board(self) -> str:
        return self.page.inner_html("#board")


@pytest.fixture
def open_page(browser, tmp_path):
    pages = []

    def opened(html: str) -> Page:
        pages.append(Page(browser, html, tmp_path))
        return pages[-1]

    yield opened
    for page in pages:
        page.page.close()
        assert page.problems == []


@pytest.mark.slow
def test_the_browser_reports_script_errors_and_dialogs(browser, tmp_path):
    page = Page(browser, "<html><body><script>alert('hi'); console.error('seen');"
                         "missing()</script></body></html>", tmp_path)
    assert page.problems == ["dialog: hi", "seen", "missing is not defined"]
    page.page.close()


def test_the_board_renders_and_steps_forward(open_page):
    page = open_page(match_html(load_file(SAMPLES / "BackgammonStudio_6783333.mat"),
                                luck=False))
    box = page.page.locator("#board svg").bounding_box()
    assert box["width"] > 400 and box["height"] > 300
    assert page.page.locator("#board svg circle.checker").count() == 30
    assert page.text("#text") == "Start: p27409 0, p768f632 0"
    start = page.board()
    page.page.click("#next")
    assert page.text("#text") == "p27409 rolls 32: 24/21 13/11"   # line 20 of the file
    assert page.text("#where") == "Game 1, move 1 (roll 1 of the game)"
    after_first = page.board()
    assert after_first != start
    page.page.keyboard.press("ArrowRight")
    assert page.text("#text").startswith("p768f632 rolls ")
    assert page.board() != after_first
    page.page.keyboard.press("ArrowLeft")
    assert page.board() == after_first
    page.page.keyboard.press("End")
    assert page.text("#text").startswith("p768f632 wins 8 points (gammon)")
    assert page.text("#counter") == "step 78 of 78"
    page.page.click("#first")
    assert page.board() == start


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.mat")) + sorted(
    (SAMPLES / "broken").glob("*.mat")), ids=lambda p: p.stem)
def test_every_sample_opens_and_steps_to_its_end(open_page, path):
    loaded = load_file(path)
    page = open_page(match_html(loaded, len(loaded.matches), luck=False))
    steps = page.page.evaluate("() => JSON.parse(document.getElementById('match-data')"
                               ".textContent).steps.length")
    page.page.keyboard.press("End")
    assert page.text("#counter") == f"step {steps} of {steps}"
    assert page.page.locator("#board svg circle.checker").count() > 0


def test_the_cube_and_score_show_at_a_take(open_page):
    page = open_page(match_html(load_file(SAMPLES / "BackgammonStudio_6783333.mat"),
                                luck=False))
    takes = page.page.evaluate("() => JSON.parse(document.getElementById('match-data')"
                               ".textContent).steps.findIndex(s => s.text === 'p27409 takes')")
    for _ in range(takes):
        page.page.keyboard.press("ArrowRight")
    assert page.text("#text") == "p27409 takes"
    cube = page.page.locator("#board svg g.cube")
    assert cube.count() == 1 and cube.locator("text").text_content() == "2"
    board = page.page.locator("#board svg rect >> nth=1").bounding_box()  # the left half
    box = cube.bounding_box()
    assert box["width"] > 20 and box["y"] > board["y"] + board["height"] / 2  # p27409's side
    assert page.text("#board svg text.status") == "7-point match \u00b7 p768f632 to roll"
    pips = page.text("#pips")  # "Pips: p27409 N, p768f632 M"
    assert page.page.locator("#board svg text.caption").all_text_contents() == [
        f"\u25b6 p768f632 (dark): score 0, {pips.split()[-1]} pips, 0 off",
        f"p27409 (light): score 0, {pips.split()[2].rstrip(',')} pips, 0 off"]


@pytest.mark.slow
def test_the_long_nardy_board_has_no_cube_column(open_page):
    page = open_page(match_html(load_file(SAMPLES / "long" / "simulated_match.mat")))
    page.page.keyboard.press("ArrowRight")
    svg = page.page.locator("#board svg")
    assert page.page.locator("#board svg g.cube").count() == 0
    frame, left_half = (page.page.locator("#board svg rect >> nth=" + str(n)).bounding_box()
                        for n in (0, 1))
    outer = svg.bounding_box()
    # The frame shows as wide left of the board as right of the trays (12 of 592 units).
    assert left_half["x"] - outer["x"] < 0.03 * outer["width"]
    assert frame["x"] < outer["x"]  # drawn from x 0, cut by the picture's edge
    assert "\u00b7 player 2 played " in page.text("#board svg text.status")
    # The summary shows what long nardy has: luck (points per game), the checker plays' errors,
    # unrated (gnubg's scale rates backgammon).
    rows = page.page.locator("#players tr").all_text_contents()
    assert "Luck (points)" in rows[0] and "Error rate (millipoints per decision)" in rows[0]
    assert rows[1].endswith("n/a") and "EMG" not in page.text("#summary")
    assert page.page.locator("#biggest a.jump").count() == 5
    assert page.page.locator("#luckiest a.jump").count() == 5
    page.page.locator("#biggest a.jump >> nth=0").click()
    assert re.match(r"Error: \u2212\d\.\d{3} points", page.text("#skill"))
    assert re.match(r"Luck: [+\u2212]?\d\.\d{3} points", page.text("#luck"))


def test_the_summary_links_jump_the_board_to_their_steps(open_page):
    pytest.importorskip("gnubg_nn")
    page = open_page(match_html(load_file(SAMPLES / "BackgammonStudio_6783333.mat")))
    page.page.set_viewport_size({"width": 1400, "height": 900})
    assert page.page.locator("#summary").bounding_box()["y"] < 300  # the page opens on it
    rows = page.page.locator("#players tr").all_text_contents()
    assert "Grandmaster" in rows[1] and "Super Grandmaster" in rows[2]
    for key in ("biggest", "luckiest", "unluckiest"):
        links = page.page.locator(f"#{key} a.jump")
        assert links.count() == 5
        for n in (0, 4):
            link = links.nth(n)
            where = link.text_content()
            entry = link.evaluate("a => a.parentElement.textContent")
            link.click()
            assert page.text("#where").startswith(where)  # "Game 1, move 16"
            assert entry.split(": ", 1)[1].startswith(page.text("#text"))
            assert page.page.locator("#board").bounding_box()["y"] < 900  # in view
    # The biggest error, p27409's double to 4 (-0.077), and the luckiest roll (+0.963).
    page.page.locator("#biggest a.jump >> nth=0").click()
    assert page.text("#text") == "p27409 doubles to 4"
    assert page.text("#cube").startswith("Cube, double: error \u22120.077 EMG")
    page.page.locator("#luckiest a.jump >> nth=0").click()
    assert page.text("#text") == "p27409 rolls 31: 20/17* 7/6"
    assert page.text("#luck").startswith("Luck: +0.963 EMG")


def test_the_charts_fill_the_width_with_readable_labels_in_the_checkers_colours(open_page):
    page = open_page(match_html(load_file(SAMPLES / "BackgammonStudio_6783333.mat"),
                                luck=False))
    for width in (1400, 800):
        page.page.set_viewport_size({"width": width, "height": 900})
        race = page.page.locator("#race").bounding_box()
        assert race["width"] > 0.85 * (width - 64)  # the page's margins: 2em each side
        sizes = page.page.locator("#race text, #exposure text").evaluate_all(
            "ts => ts.map(t => parseFloat(getComputedStyle(t).fontSize))")
        assert min(sizes) >= 12
    lines = page.page.locator("#race polyline").evaluate_all(
        "ps => ps.map(p => p.getAttribute('stroke'))")
    assert lines == ["#6d6a60", "#f4efe1", "#000000", "#2b2b2b"]  # edge, then fill
    fills = set(page.page.locator("#exposure rect[stroke]").evaluate_all(
        "rs => rs.map(r => r.getAttribute('fill'))"))
    assert fills == {"#f4efe1", "#2b2b2b"}


def test_a_short_game_has_a_labelled_x_axis(open_page):
    text = ('; [Player 1 "ann"]\n; [Player 2 "bob"]\n\n 1 point match\n\n Game 1\n'
            " ann : 0                  bob : 0\n"
            "  1) 42: 8/4 6/4                 31: 8/5 6/5\n"
            "  2) 63: 13/7 7/4\n      Wins 1 point and the match\n")
    page = open_page(match_html(replay_match(parse_mat(text).matches[0]), luck=False))
    ticks = page.page.locator("#race text[text-anchor=middle]").all_text_contents()
    assert ticks == ["0", "1", "2", "3"]


def test_the_game_menu_jumps_to_a_game(open_page):
    page = open_page(match_html(load_file(SAMPLES / "galaxy_style_crawford.mat"), luck=False))
    page.page.select_option("#game", value="2")  # the third game
    assert page.text("#where") == "Game 3"
    assert page.text("#text").endswith("(Crawford game)")
    page.page.click("#games button.game >> nth=1")
    assert page.text("#where") == "Game 2"
    assert page.page.input_value("#game") == "1"


def test_a_hostile_name_stays_text(open_page):
    hostile = "<script>alert(1)</script>"
    text = (f'; [Player 1 "{hostile}"]\n\n 1 point match\n\n Game 1\n'
            f" {hostile} : 0                  bob : 0\n"
            "  1) 42: 8/4 6/4                 31: 8/5 6/5\n"
            "      Wins 1 point and the match\n")
    page = open_page(match_html(replay_match(parse_mat(text).matches[0]), luck=False))
    page.page.keyboard.press("ArrowRight")
    # The page's own script and its JSON data (not run), and no other; no alert (a dialog
    # would be one of the page's problems).
    assert page.page.evaluate("() => [...document.scripts].map(s => s.type)") == [
        "application/json", ""]
    assert page.text("h1").startswith(hostile)
    assert hostile in page.text("#pips")
    assert page.page.locator("#board svg text.caption >> nth=1").text_content().startswith(
        hostile + " (light)")


def test_luck_shows_per_roll(open_page):
    pytest.importorskip("gnubg_nn")
    page = open_page(match_html(load_file(SAMPLES / "BackgammonGalaxy_3868853.mat")))
    page.page.keyboard.press("ArrowRight")
    assert page.text("#luck").startswith("Luck: ")
    assert "match-winning chance" in page.text("#luck")


def test_a_15_game_corpus_match(open_page):
    path = CORPUS / "BackgammonStudio_3103011.mat"
    if not path.exists():
        pytest.skip(f"the corpus is not at {CORPUS}")
    page = open_page(match_html(load_file(path), luck=False))
    assert page.page.locator("#game option").count() == 15
    page.page.select_option("#game", value="14")
    assert page.text("#where") == "Game 15"
    page.page.keyboard.press("ArrowRight")
    assert page.text("#where").startswith("Game 15, move 1")
    page.page.locator("#race").click(position={"x": 200, "y": 60})
    assert page.text("#where").startswith("Game 15, move ")
    page.page.keyboard.press("End")
    assert page.text("#text").startswith("p27409 wins 1 point (single)")


def audit_page(open_page, html: str, width: int = 1400):
    page = open_page(html)
    page.page.set_viewport_size({"width": width, "height": 900})
    return page


def check_group_tools(page):
    """The select box draws the chosen group's charts; the filter narrows the group table."""
    chart = page.page.locator("#chosen-charts svg >> nth=0")
    before = chart.get_attribute("aria-label")
    options = page.page.locator("#group-select option")
    other = options.nth(options.count() - 1).text_content()
    page.page.select_option("#group-select", label=other)
    after = chart.get_attribute("aria-label")
    assert after != before and after.startswith(f"Roll classes of {other} (")
    rows = page.page.locator("#group-table tbody tr:not([hidden])")
    everyone = rows.count()
    page.page.fill("#group-filter", other)
    assert 1 <= rows.count() < everyone
    assert all(other.lower() in name.lower()
               for name in rows.evaluate_all("rs => rs.map(r => r.dataset.group)"))
    assert page.text("#group-count") == f"{rows.count():,} of {everyone:,} groups shown"
    page.page.fill("#group-filter", "")
    assert rows.count() == everyone


@pytest.mark.slow
def test_the_audit_page_leads_with_its_summary_and_draws_a_chosen_group(open_page):
    from nardy_analysis.analysis.audit import DiceAudit, dice_tests, simulate_rolls
    from nardy_analysis.report import audit_html

    rolls = simulate_rolls(60, players=12, positions=False, seed=5)
    page = audit_page(open_page, audit_html(DiceAudit(dice_tests(rolls, by="player"), rolls,
                                                      by="player")))
    assert page.page.locator("#summary").bounding_box()["y"] < 900 / 2
    check_group_tools(page)


def test_the_chosen_groups_faces_are_red_where_the_png_chart_marks_them(open_page):
    """Łukasz Żółć of the sample files: faces 1 and 2 (0 of 34 dice, below the range 1..12 of
    the flagged faces test) red in the page's own chart, as in the PNG chart; face 5 (12, the
    face the table names, inside the range) blue."""
    from nardy_analysis.batch import audit_files
    from nardy_analysis.report import audit_html

    audit_ = audit_files([SAMPLES], by="player")
    page = audit_page(open_page, audit_html(audit_))
    page.page.select_option("#group-select", label="Łukasz Żółć")
    faces = page.page.locator("#chosen-charts svg >> nth=1")
    red = faces.locator("rect").evaluate_all(
        "rs => rs.map(r => r.getAttribute('fill') === '#d62728')")
    assert red == audit_.cells("faces", "Łukasz Żółć")["significant"].tolist()
    assert red == [True, True, False, False, False, False]
    labels = faces.locator("text[fill='#d62728']").all_text_contents()
    assert labels == ["1", "2"]


@pytest.mark.slow
def test_the_site_audit_page_of_the_corpus(open_page, tmp_path):
    if not CORPUS.exists():
        pytest.skip(f"the corpus is not at {CORPUS}")
    from click.testing import CliRunner

    from nardy_analysis.cli.audit import audit

    html = tmp_path / "site.html"
    result = CliRunner().invoke(audit, [str(CORPUS), "--by", "player", "--html", str(html)])
    assert result.exit_code in (0, 1), result.output  # 1: some corpus files have errors
    size = html.stat().st_size
    assert size < 2_000_000, size   # 1.3 MB (5.8 MB with a chart row and a table row each)
    for width in (1400, 800):
        page = audit_page(open_page, html.read_text(encoding="utf-8"), width)
        box = page.page.locator("#summary").bounding_box()
        assert box["y"] + box["height"] < 900, width  # the summary on the first screen
        height = page.page.evaluate("document.documentElement.scrollHeight")
        assert height < 8000, height  # about 4,300 px at 1,400 wide (189,099 before)
    check_group_tools(page)
