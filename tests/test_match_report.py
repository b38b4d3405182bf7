"""The match page (report/match.py, ``nardy report``): its steps, boards, escaping, errors,
luck and skill, and the command."""

import html
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import CORPUS, SAMPLES, read_tsv

from nardy_analysis.analysis import engine, luck
from nardy_analysis.analysis.evaluator import not_installed
from nardy_analysis.analysis.turns import turns_frame
from nardy_analysis.cli import main
from nardy_analysis.errors import InvalidArgument
from nardy_analysis.game.ids import MatchState
from nardy_analysis.game.svg import board_svg
from nardy_analysis.load import load_file
from nardy_analysis.notation.mat import parse_mat
from nardy_analysis.replay import replay_match
from nardy_analysis.report import match_html

STUDIO = SAMPLES / "BackgammonStudio_6783333.mat"   # 1 game, 72 turns, 2 doubles taken
EXPECTED = {row["file"]: row for row in read_tsv(SAMPLES / "EXPECTED.tsv")}
CORPUS_15 = CORPUS / "BackgammonStudio_3103011.mat"   # a 15-game 13-point match
HOSTILE = "<script>alert(1)</script>"


def data(page: str) -> dict:
    """The JSON block the page's script reads."""
    block = re.search(r'<script type="application/json" id="match-data">(.*?)</script>', page,
                      re.S)
    return json.loads(block.group(1))


def board(page_data: dict, step: dict) -> str:
    return "\n".join(page_data["lines"][k] for k in step["board"])


def hostile_match():
    text = (f'; [Player 1 "{HOSTILE}"]\n; [Event "<b>final</b> & \'more\'"]\n\n'
            " 1 point match\n\n Game 1\n"
            f" {HOSTILE} : 0                  bob : 0\n"
            "  1) 42: 8/4 6/4                 31: 8/5 6/5\n"
            "  2) 63: 13/7 7/4                21: 13/11 11/10\n"
            "  3) 55: 13/8(4)\n      Wins 1 point and the match\n")
    return replay_match(parse_mat(text).matches[0])


@pytest.fixture(scope="module")
def studio_page():
    return match_html(load_file(STUDIO), luck=False)


def test_the_page_has_one_step_per_roll_cube_action_and_result(studio_page):
    steps = data(studio_page)["steps"]
    kinds = [step["kind"] for step in steps]
    assert kinds[0] == "start" and kinds[-1] == "result"
    assert kinds.count("roll") == int(EXPECTED[STUDIO.name]["turns"]) == 72
    assert kinds.count("cube") == 4  # two doubles, two takes
    assert [s["text"] for s in steps if s["kind"] == "cube"][:2] == [
        "p768f632 doubles to 2", "p27409 takes"]
    assert steps[0]["pips"] == [167, 167]
    assert steps[-1]["text"].startswith("p768f632 wins 8 points (gammon)")  # a gammon at 4
    assert "p768f632 wins the match p27409 0 \u2013 p768f632 8" in studio_page


def test_each_step_shows_the_board_after_the_play_with_pips_and_shots(studio_page):
    page_data = data(studio_page)
    match = load_file(STUDIO).matches[0]
    names = match.record.names
    frame = turns_frame(match)
    rolls = [s for s in page_data["steps"] if s["kind"] == "roll"]
    for step, turn, row in zip(rolls, match.games[0].turns, frame.itertuples()):
        # The cube as the roll was thrown, the dice just played, the score 0-0 of 7.
        state = MatchState(cube=turn.cube_value, cube_owner=turn.cube_owner,
                           player=turn.player, dice=(turn.roll.high, turn.roll.low),
                           match_length=7)
        assert board(page_data, step) == board_svg(turn.after, side=0, names=names, width=480,
                                                   state=state)
        assert step["roll"] == row.dice and step["play"] == row.play
        assert step["pips"][row.side] == row.pips_after
        assert step["pips"][1 - row.side] == row.opponent_pips_after
        assert step["shots"]["count"] == row.opponent_shots
        assert [point for point, _ in step["shots"]["blots"]] == row.blot_points
        assert (step["game"], step["turn"], step["move"]) == (row.game, row.turn, row.move)


def test_the_boards_of_cube_actions_and_the_result_show_the_cube_and_score(studio_page):
    page_data = data(studio_page)
    cube_steps = [s for s in page_data["steps"] if s["kind"] == "cube"]
    boards = [board(page_data, s) for s in cube_steps[:2]]
    # "p768f632 doubles to 2": the centred cube offered at 2 where the dice go; "p27409
    # takes": the 2 on p27409's side (player 0's, the side the board is seen from: bottom).
    assert re.findall(r'class="cube-value"[^>]*>(\d+)<', boards[0]) == ["2"]
    assert '<g class="cube offered">' in boards[0]
    assert "p768f632 doubles to 2; p27409 to take or drop" in boards[0]
    assert re.findall(r'class="cube-value"[^>]*>(\d+)<', boards[1]) == ["2"]
    assert re.search(r'<g class="cube"><rect x="8" y="(\d+)', boards[1]).group(1) == "404"
    assert "p768f632 to roll" in boards[1]
    last = board(page_data, page_data["steps"][-1])
    assert "game over" in last and "score 7, " in last  # 8 points won, shown as the 7 needed


def test_a_beaver_and_a_raccoon_turn_the_cube_and_the_doubler_rolls_next():
    page_data = data(match_html(load_file(SAMPLES / "money_beaver_raccoon.mat"), luck=False))
    steps = page_data["steps"]
    shown = {s["text"]: board(page_data, s) for s in steps[3:6]}
    values = {text: re.findall(r'class="cube-value"[^>]*>(\d+)<', svg)
              for text, svg in shown.items()}
    assert values == {"Anna doubles to 2": ["2"], "Boris beavers to 4": ["4"],
                      "Anna raccoons to 8": ["8"]}
    assert "Money game \u00b7 Anna to roll" in shown["Boris beavers to 4"]
    assert "Money game \u00b7 Anna to roll" in shown["Anna raccoons to 8"]
    # Seen from Anna's side: Boris's 4 at the top, Anna's 8 at the bottom.
    tops = {text: int(re.search(r'<g class="cube"><rect x="8" y="(\d+)', svg).group(1))
            for text, svg in shown.items() if text != "Anna doubles to 2"}
    assert tops == {"Boris beavers to 4": 34, "Anna raccoons to 8": 404}


def test_the_page_is_self_contained(studio_page):
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?!data:|#)""", studio_page)
    assert "<link" not in studio_page and "@import" not in studio_page
    assert not re.search(r"url\((?!data:)", studio_page)
    # The only URL is the SVG namespace, inside the boards (data, not a link).
    assert set(re.findall(r"https?://[^\s\"'\\]+", studio_page)) == {
        "http://www.w3.org/2000/svg"}


def test_the_header_shows_tags_scores_and_result(studio_page):
    for text in ("7-point match", "2023.05.15 18.07", "Backgammon Studio", "Online match",
                 "Round 0", "Match ID", "6783333"):
        assert text in studio_page
    games = data(studio_page)["games"]
    assert games == [{"number": 1, "first": 0}]


def test_a_money_session_gives_each_players_points():
    page = match_html(load_file(SAMPLES / "money_beaver_raccoon.mat"), luck=False)
    assert "Money session: Anna 12 points, Boris 1 point" in page  # 8 + 4 and 1


def test_names_and_tags_from_the_file_are_escaped():
    page = match_html(hostile_match(), luck=False)
    assert page.count("<script") == 2  # the JSON block and the page's own script
    assert "<script>alert" not in page and "<b>final" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;b&gt;final&lt;/b&gt; &amp; &#39;more&#39;" in page
    assert HOSTILE in data(page)["names"]  # the JSON keeps the text, escaped as \u003c
    assert "\\u003cscript\\u003e" in page


def test_a_game_that_breaks_a_rule_stops_at_its_error():
    page = match_html(load_file(SAMPLES / "broken" / "illegal_blocked_point.mat"), luck=False)
    steps = data(page)["steps"]
    errors = [s for s in steps if s["kind"] == "error"]
    assert len(errors) == 1
    (note,) = errors[0]["notes"]
    assert note.startswith("error: line 8:38: illegal_play: point 20 is closed")
    assert errors[0]["text"] == "Game 1 stops here"
    assert steps.index(errors[0]) == len(steps) - 2  # then the result the file gives


@pytest.mark.parametrize("path", sorted((Path(__file__).parent / "malformed").glob("*.mat")),
                         ids=lambda p: p.stem)
def test_every_problem_of_a_malformed_file_is_on_its_page(path):
    loaded = load_file(path)
    for number, match in enumerate(loaded.matches, 1):
        page_data = data(match_html(loaded, number, luck=False))
        notes = [note for step in page_data["steps"] for note in step.get("notes", ())]
        for problem in match.errors + match.warnings:
            kind = "warning" if problem in match.warnings else "error"
            assert sum(note.startswith(f"{kind}: line {problem.line}:{problem.column}: "
                                       f"{problem.kind}: ") for note in notes) == 1
        ends = [i for i, s in enumerate(page_data["steps"]) if s["kind"] == "error"]
        for index in ends:  # an error step ends its game (a result may follow)
            following = page_data["steps"][index + 1:index + 2]
            assert following == [] or following[0]["kind"] in ("start", "result", "error")


def test_a_game_that_cannot_be_read_is_shown_with_its_error():
    """Game 1's move 2 (line 9) cannot be read: its move 1 is shown, then the error."""
    page = match_html(load_file(SAMPLES / "broken" / "syntax_bad_move_token.mat"), luck=False)
    *kept, step = data(page)["steps"]
    assert [s["kind"] for s in kept] == ["start", "roll", "roll"]
    assert step["text"] == "Game 1 cannot be read"
    assert step["notes"][0].startswith("error: line 9:10: syntax: unexpected '13/x7'")
    assert "not read" in page


def test_one_page_shows_the_match_asked_for():
    loaded = load_file(SAMPLES / "two_matches_anonymous.mat")
    first, second = (data(match_html(loaded, n, luck=False)) for n in (1, 2))
    assert first["steps"] != second["steps"]
    assert [s["kind"] for s in second["steps"]].count("roll") == 5  # 10 turns, 5 in each
    with pytest.raises(InvalidArgument, match="holds 2 replayed match"):
        match_html(loaded, 3)
    with pytest.raises(InvalidArgument, match="expected a replayed match"):
        match_html(str(STUDIO))


def test_without_an_engine_the_page_says_how_to_install_one(monkeypatch):
    def missing(ply=0, engine_name="gnubg-nn", rules=None):
        raise not_installed("gnubg-nn is not installed", "engine", "GPL-3")

    monkeypatch.setattr(engine, "default_evaluator", missing)  # match_evaluator's
    page = match_html(load_file(STUDIO))
    assert "pip install 'nardy-analysis[engine]'" in html.unescape(page)
    assert not any("luck" in step for step in data(page)["steps"])


def test_with_the_engine_each_roll_has_its_luck():
    pytest.importorskip("gnubg_nn")
    match = load_file(STUDIO).matches[0]
    steps = [s for s in data(match_html(match))["steps"] if s["kind"] == "roll"]
    frame = luck.luck_frame(match)
    assert [s["luck"]["value"] for s in steps] == [round(v, 4) for v in frame["luck"]]
    assert [s["luck"]["mark"] for s in steps] == list(frame["mark"])
    assert all(s["luck"]["mwc"] is not None for s in steps)  # match play


def test_with_the_engine_each_decision_has_its_error_beside_its_luck():
    """Each roll step has its checker play's error and mark from skill_frame (itself checked
    against GNU Backgammon, tests/test_skill.py) next to its luck; each double and take its
    cube error; a close or wrong "no double" is on the roll it came before."""
    pytest.importorskip("gnubg_nn")
    from nardy_analysis.analysis.skill import skill_frame

    match = load_file(STUDIO).matches[0]
    steps = data(match_html(match))["steps"]
    frame = skill_frame(match)
    moves = frame[frame["kind"] == "move"]
    rolls = [s for s in steps if s["kind"] == "roll"]
    assert all("luck" in s for s in rolls)
    assert [s["error"]["value"] for s in rolls] == [round(v, 4) for v in moves["error"]]
    assert [s["error"]["mark"] for s in rolls] == list(moves["mark"])
    assert [s["error"]["best"] for s in rolls] == list(moves["best"])
    assert sum(bool(s["error"]["mark"]) for s in rolls) >= 2
    actions = frame[(frame["kind"] == "take") | (frame["play"] == "double")]
    cube_steps = [s for s in steps if s["kind"] == "cube"]
    assert [s["cube"]["play"] for s in cube_steps] == list(actions["play"]) == \
        ["double", "take", "double", "take"]
    assert [s["cube"]["value"] for s in cube_steps] == [round(v, 4) for v in actions["error"]]
    assert cube_steps[2]["cube"]["category"] == "Wrong double below DP"
    waited = frame[(frame["play"] == "no double") & (frame["close"] | (frame["error"] < 0))]
    shown = {s["turn"]: s["cube"] for s in rolls if "cube" in s}
    assert list(shown) == list(waited["turn"]) and shown
    assert all(cube["play"] == "no double" for cube in shown.values())


def test_the_summary_gives_the_luck_and_error_rates_of_the_match_statistics():
    """Each player's luck and error rate on the page as luck_summary and skill_summary give
    them (the page's from its steps' rounded values: within 0.0005 EMG), with their ratings;
    the biggest errors and luckiest and unluckiest rolls in order, each naming its step."""
    pytest.importorskip("gnubg_nn")
    from nardy_analysis.analysis.skill import skill_summary
    from nardy_analysis.report.match import _summary

    match = load_file(STUDIO).matches[0]
    page_data = data(match_html(match))
    steps = page_data["steps"]
    summary = _summary(steps, page_data["names"])
    lucks = luck.luck_summary(luck.luck_frame(match)).query("scope == 'match'")
    skills = skill_summary(match)
    for side, player in enumerate(summary["players"]):
        assert player["luck"] == pytest.approx(lucks["luck"].iloc[side], abs=5e-4)
        assert player["luck_rating"] == lucks["rating"].iloc[side]
        assert player["error_rate"] == pytest.approx(
            skills["overall_error_rate_memg"].iloc[side], abs=0.05)
        assert player["rating"] == skills["overall_rating"].iloc[side]
    assert [p["rating"] for p in summary["players"]] == ["Grandmaster", "Super Grandmaster"]
    values = [e["value"] for e in summary["biggest"]]
    assert values == sorted(values) and len(values) == 5 and values[0] == -0.0773
    assert summary["biggest"][0]["what"] == "p27409 doubles to 4 (best: no double)"
    lucky = [e["value"] for e in summary["luckiest"]]
    assert lucky == sorted(lucky, reverse=True) and min(lucky) > 0
    assert max(e["value"] for e in summary["unluckiest"]) < 0
    for entry in summary["biggest"] + summary["luckiest"] + summary["unluckiest"]:
        step = steps[entry["step"]]
        assert entry["where"] == f"Game {step['game']}, move {step['move']}"
        assert entry["what"].startswith(step["text"])


def test_a_roll_whose_play_is_not_recorded_has_no_luck_on_the_page():
    """The sample's last roll is played ``????``: gnubg gives it no luck and its statistics
    count 48 rolls for that player; so does the page (its step shows no luck), and the
    summary's luck rate is that of luck_summary (-0.0139 EMG a roll, not -0.0136 over 49)."""
    pytest.importorskip("gnubg_nn")
    from nardy_analysis.report.match import _summary

    match = load_file(SAMPLES / "BackgammonStudio_5407469.mat").matches[0]
    page_data = data(match_html(match))
    last = [s for s in page_data["steps"] if s["kind"] == "roll"][-1]
    assert last["text"].endswith("(the play is not recorded)") and "luck" not in last
    players = _summary(page_data["steps"], page_data["names"])["players"]
    lucks = luck.luck_summary(match).query("scope == 'match'")
    assert [p["rolls"] for p in players] == lucks["rolls"].tolist() == [49, 48]
    # the steps' luck is rounded to 4 decimals: the mean within 5e-5
    assert [p["luck_rate"] for p in players] == pytest.approx(lucks["luck_rate"].tolist(),
                                                              abs=5e-5)


def test_a_long_match_page_gives_luck_and_errors_in_points_a_short_one_in_emg():
    """Long nardy's equity is money equity, points per game (no cube): no EMG on its page;
    short nardy's page keeps GNU Backgammon's EMG and mEMG."""
    pytest.importorskip("gnubg_nn")
    long_page = match_html(load_file(SAMPLES / "long" / "simulated_match.mat"))
    assert "EMG" not in long_page
    assert "<th class=\"num\">Luck (points)</th>" in long_page
    assert "Error rate (millipoints per decision)" in long_page
    biggest = long_page[long_page.index('<section id="biggest">'):].split("</section>")[0]
    assert re.findall(r'<span class="value">\(\u2212\d\.\d{3} points\)</span>', biggest)
    assert data(long_page)["unit"] == {"equity": "points", "rate": "millipoints"}
    short_page = match_html(load_file(STUDIO))
    assert "<th class=\"num\">Luck (EMG)</th>" in short_page
    assert "Error rate (mEMG per decision)" in short_page
    assert '<span class="value">(\u22120.077 EMG)</span>' in short_page
    assert "points)</span>" not in short_page
    assert data(short_page)["unit"] == {"equity": "EMG", "rate": "mEMG"}


def _signed(value: float) -> str:
    """``value`` as the page's summary shows it (three decimals, a minus sign)."""
    return ("\u2212" if value < 0 else "+") + f"{abs(value):.3f}"


@pytest.mark.parametrize("path", [SAMPLES / "long" / "simulated_match.mat", STUDIO],
                         ids=["long", "short"])
def test_the_summarys_luck_totals_are_those_of_nardy_luck(path):
    """The totals come from the unrounded luck of each roll, not from the page's rounded
    values (whose sum is off by up to 0.00005 a roll): the same to the digits shown."""
    if path == STUDIO:
        pytest.importorskip("gnubg_nn")
    match = load_file(path).matches[0]
    page = match_html(match)
    summary = page[page.index("<th>Player</th>"):page.index("</table>", page.index(
        "<th>Player</th>"))]
    totals = luck.luck_summary(match).query("scope == 'match'")["luck"].tolist()
    for total in totals:
        assert f'<td class="num">{_signed(total)}</td>' in summary
    if path != STUDIO:
        assert [_signed(total) for total in totals] == ["\u22120.905", "\u22121.067"]


def test_the_dice_table_has_the_tests_over_all_rolls(studio_page):
    table = studio_page[studio_page.index('<table id="dice">'):]
    table = table[:table.index("</table>")]
    for test in ("doubles", "roll_classes", "faces", "pips", "serial", "bar_entry",
                 "hits_on_blots"):
        assert f"<td>{test}</td>" in table
    assert "71 rolls (opening rolls excluded)" in studio_page  # 72 turns, 1 opening roll


def test_a_15_game_match_stays_small():
    if not CORPUS_15.exists():
        pytest.skip(f"the corpus is not at {CORPUS}")
    page = match_html(load_file(CORPUS_15), luck=False)
    page_data = data(page)
    assert [g["number"] for g in page_data["games"]] == list(range(1, 16))
    assert len(page) < 1_000_000  # the boards' 5 MB of SVG, shared line by line
    assert "p27409 wins the match pc1c4a 11 \u2013 p27409 13" in page


# -- the command ------------------------------------------------------------------------------

def test_report_writes_the_page_and_says_so(tmp_path):
    out = tmp_path / "page.html"
    result = CliRunner().invoke(main, ["report", str(STUDIO), "-o", str(out), "--no-luck"])
    assert result.exit_code == 0, result.output
    assert f"wrote {out}" in result.stderr
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_report_names_the_page_after_the_file_by_default(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["report", str(STUDIO), "--no-luck"])
    assert result.exit_code == 0, result.output
    assert Path("BackgammonStudio_6783333.html").is_file()


def test_report_of_a_broken_file_writes_the_page_and_exits_1(tmp_path):
    out = tmp_path / "page.html"
    path = SAMPLES / "broken" / "illegal_blocked_point.mat"
    result = CliRunner().invoke(main, ["report", str(path), "-o", str(out), "--no-luck"])
    assert result.exit_code == 1
    assert ":8:38: game 1, move 1: illegal_play:" in result.stderr
    assert "Game 1 stops here" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("command", ["report", "plot"])
def test_report_and_plot_say_why_strict_mode_leaves_them_nothing(tmp_path, command):
    """A warning that --strict makes an error stops the file: the commands say so after it
    (a file with no match at all says so itself, in one line: tests/test_cli_shared.py)."""
    path = SAMPLES / "broken" / "wrong_result_points.mat"
    out = tmp_path / ("page.html" if command == "report" else "race.png")
    options = ["-o", str(out)] if command == "report" else ["--game", "1", "--out", str(out)]
    result = CliRunner().invoke(main, [command, str(path), *options, "--strict"])
    assert result.exit_code == 1 and not out.exists()
    error, why = result.stderr.splitlines()
    assert error.endswith("2 points is not a possible result here (expected 1 with the cube "
                          "at 1) in 'Wins 2 point'")
    assert why == (f"{path}: --strict stops the file at its first error or warning, so no "
                   "match is read; " + ("no page is written" if command == "report"
                                        else "nothing is drawn"))


@pytest.mark.parametrize("arguments, message", [
    (["--match", "3"], "holds 2 matches"),
    (["-o", "/proc/x.html"], "cannot write '/proc/x.html'"),
])
def test_report_usage_errors_exit_2(arguments, message):
    path = SAMPLES / "two_matches_anonymous.mat"
    result = CliRunner().invoke(main, ["report", str(path), "--no-luck", *arguments])
    assert result.exit_code == 2
    assert message in result.stderr


def test_report_of_a_file_with_two_matches_says_which_it_shows(tmp_path):
    path = SAMPLES / "two_matches_anonymous.mat"
    result = CliRunner().invoke(main, ["report", str(path), "-o", str(tmp_path / "p.html"),
                                       "--match", "2", "--no-luck"])
    assert result.exit_code == 0
    assert "holds 2 matches; the page shows match 2" in result.stderr


def test_the_dice_table_is_sorted_explained_and_marks_what_is_significant():
    from markupsafe import escape

    from nardy_analysis.analysis.audit import ABOUT, audit_dice

    path = SAMPLES / "studio_style_bom_crlf.mat"
    page = match_html(load_file(path), luck=False)
    table = page[page.index('<table id="dice">'):]
    table = table[:table.index("</table>")]
    rows = re.findall(r"<tr( class=\"flagged\")?><td>(\w+)</td>", table)
    frame = audit_dice(load_file(path).matches).frame
    frame = frame[frame["group"] == "all"].sort_values(["p_adjusted", "p_value"],
                                                       na_position="last", kind="stable")
    assert [test for _, test in rows] == list(frame["test"])
    assert [bool(flag) for flag, _ in rows] == list(frame["p_adjusted"] < 0.05)
    assert sum(bool(flag) for flag, _ in rows) == 2  # doubles and pips of this match
    assert all(str(escape(ABOUT[test])) in table for _, test in rows)


def test_luck_game_by_game_on_worker_processes_gives_the_same_page():
    pytest.importorskip("gnubg_nn")
    loaded = load_file(SAMPLES / "galaxy_style_crawford.mat")  # 3 games
    assert match_html(loaded, jobs=2) == match_html(loaded, jobs=1)


def test_a_match_with_a_rule_error_on_worker_processes_gives_the_same_page(tmp_path):
    """The errors of the replay travel to the worker processes and back whole."""
    pytest.importorskip("gnubg_nn")
    broken = tmp_path / "typo.mat"
    text = (SAMPLES / "BackgammonStudio_5407469.mat").read_text()
    assert text.count("53: 23/18 13/10") == 1
    broken.write_text(text.replace("53: 23/18 13/10", "53: 23/18 13/9"))
    loaded = load_file(broken)
    assert [error.kind for error in loaded.matches[0].errors] == ["illegal_play"]
    assert match_html(loaded, jobs=2) == match_html(loaded, jobs=1)


def test_the_page_of_a_long_match_starts_at_360_pips_with_luck_errors_and_no_shots():
    from nardy_analysis.analysis.skill import skill_frame

    loaded = load_file(SAMPLES / "long" / "simulated_match.mat")
    page = match_html(loaded)
    page_data = data(page)
    starts = [step for step in page_data["steps"] if step["kind"] == "start"]
    assert len(starts) == 2 and all(step["pips"] == [360, 360] for step in starts)
    first_roll = next(step for step in page_data["steps"] if step["kind"] == "roll")
    assert first_roll["pips"] != [360, 360]  # the start is a step of its own, before it
    rolls = [step for step in page_data["steps"] if step["kind"] == "roll"]
    assert page_data["long"] and not any("shots" in step or "cube" in step
                                         for step in page_data["steps"])
    frame = skill_frame(loaded)
    assert [step["error"]["value"] for step in rolls] == frame["error"].round(4).tolist()
    assert [step["error"]["mark"] for step in rolls] == frame["mark"].tolist()
    assert [step["error"]["forced"] for step in rolls] == (frame["plays"] == 1).tolist()
    assert all(step["error"]["mwc"] is None for step in rolls)
    frame = luck.luck_frame(loaded)
    assert [step["luck"]["value"] for step in rolls] == frame["luck"].round(4).tolist()
    assert all(step["luck"]["mwc"] is None for step in rolls)  # points per game: no cube
    assert 'id="exposure"' not in page and 'id="race"' in page
    assert "by the long nardy engine" in page and "a home mars 3" in page
    assert "long nardy has no cube" in page
    assert match_html(loaded, jobs=2) == page
    unasked = data(match_html(loaded, luck=False))["steps"]
    assert not any("error" in step for step in unasked)
    dice = page[page.index('<table id="dice">'):]
    for test in ("bar_entry", "hits_on_blots"):
        row = dice[dice.index(f"<td>{test}</td>"):].split("</tr>")[0]
        assert "does not apply to long nardy" in row
    assert "opening rolls included" in page
    assert "opening rolls excluded" in match_html(load_file(STUDIO), luck=False)
