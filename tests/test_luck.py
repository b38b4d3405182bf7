"""Dice luck against GNU Backgammon's own numbers.

The oracle is GNU Backgammon 1.1.0a16 (the full ``gnubg`` package): ``tests/data/luck`` holds
the luck it gives every roll of real matches (its SGF ``LU[...]``) and its luck statistics,
recorded by ``tools/gnubg_reference.py`` (see the README there). The match equity table and
the marks and ratings are checked against values gnubg printed.
"""

from __future__ import annotations

import json
import math
import re
from importlib.util import find_spec
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import pandas as pd
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from nardy_analysis import ALL_ROLLS, Position, Roll, load_file, replay_file
from nardy_analysis.analysis.engine import MONEY, EngineError
from nardy_analysis.errors import NardyError
from nardy_analysis.cli.luck import luck
from nardy_analysis.analysis.luck import (KEY, RATINGS, ROLL_COLUMNS, luck_frame, luck_mark,
                                 luck_rating, luck_summary, match_utility,
                                 match_winning_chance, roll_luck)
from nardy_analysis.game.rules import TAVLA
from nardy_analysis.plots.luck import plot_cumulative_luck

matplotlib.use("Agg")

DATA = Path(__file__).parent / "data" / "luck"
FILES = sorted(DATA.glob("*.mat"))
KNOWN = pd.read_csv(DATA / "KNOWN_DIFFERENCES.tsv", sep="\t")
needs_engine = pytest.mark.skipif(find_spec("gnubg_nn") is None,
                                  reason="gnubg-nn (the engine extra) is not installed")


def reference(path: Path) -> pd.DataFrame:
    return pd.read_csv(path.with_suffix(".luck.tsv"), sep="\t", comment="#",
                       dtype={"dice": str})


def statistics(path: Path) -> dict:
    return json.loads(path.with_suffix(".stats.json").read_text())


_frames: dict = {}


def frame_of(path: Path) -> pd.DataFrame:
    if path not in _frames:
        _frames[path] = luck_frame(load_file(path))
    return _frames[path]


# --- match equity table and equity (no engine) ------------------------------------------------

def test_match_equity_table_known_values():
    """Kazaross-XG2, gnubg's default table: 1-away/2-away (Crawford) 0.67736, 2-away/4-away
    0.66870, 5-away/5-away 0.5; post-Crawford, 2-away against 1-away (free drop) 0.48803."""
    assert match_winning_chance(1, 2) == 0.67736
    assert match_winning_chance(2, 4) == 0.66870
    assert match_winning_chance(5, 5) == 0.5
    assert match_winning_chance(2, 1, post_crawford=True) == 0.48803
    assert match_winning_chance(1, 2, post_crawford=True) == pytest.approx(1 - 0.48803)
    assert match_winning_chance(1, 1, post_crawford=True) == 0.5
    assert match_winning_chance(0, 3) == 1.0 and match_winning_chance(3, -1) == 0.0
    for a in range(1, 26):
        for b in range(1, 26):
            assert match_winning_chance(a, b) + match_winning_chance(b, a) == pytest.approx(1)
    with pytest.raises(NardyError, match="25"):
        match_winning_chance(26, 3)


def test_match_utility_is_gnubgs_gammon_price():
    """gnubg's cubeinfo at 5-point 0-0, cube 1, prints gammon prices (0.913477, 1.236938):
    the extra equity of a gammon over a single game and of a backgammon over a gammon."""
    utility = match_utility(5, 0, 0)
    assert (utility.base, utility.win) == pytest.approx((-1.0, 2.0))
    assert utility.win_gammon == pytest.approx(0.913477, abs=1e-6)
    assert utility.win_backgammon == pytest.approx(1.236938, abs=1e-6)
    assert utility.lose_gammon == pytest.approx(-utility.win_gammon)


def test_money_utility_and_rules():
    assert match_utility(0, 0, 0) == MONEY
    no_backgammons = match_utility(0, 0, 0, rules=TAVLA)
    assert no_backgammons.win_backgammon == 0 and no_backgammons.lose_backgammon == 0
    # Crawford game at 4-0 in a 5-point match: a gammon is worth no more than a single game
    # to the leader, who needs one point
    assert match_utility(5, 4, 0, crawford=True).win_gammon == pytest.approx(0)


def test_marks_are_strict():
    assert luck_mark(0.6000001) == "very lucky" and luck_mark(0.6) == "lucky"
    assert luck_mark(0.3000001) == "lucky" and luck_mark(0.3) == ""
    assert luck_mark(-0.3) == "" and luck_mark(-0.3000001) == "unlucky"
    assert luck_mark(-0.6) == "unlucky" and luck_mark(-0.6000001) == "very unlucky"


def test_rating_bands_as_gnubgs_luckrating():
    """Boundaries measured with gnubg 1.1.0a16's ``luckrating`` (its 0..4 -> RATINGS)."""
    cases = {-0.1: 0, -0.0600001: 0, -0.06: 1, -0.0300001: 1, -0.03: 2, 0.0: 2, 0.03: 2,
             0.0300001: 3, 0.06: 3, 0.0600001: 4, 1.0: 4}
    for rate, index in cases.items():
        assert luck_rating(rate) == RATINGS[index], rate


# --- roll by roll against gnubg ---------------------------------------------------------------

def test_reference_data_is_there():
    names = {f.name for f in FILES}
    assert "money_BackgammonGalaxy_165695.mat" in names and len(names) >= 4
    assert sum(len(reference(f)) for f in FILES) > 1500


@needs_engine
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_roll_as_gnubg(path):
    """Every roll's luck equals gnubg's within 0.0001 (gnubg prints 5 decimals), except the
    rolls listed in KNOWN_DIFFERENCES.tsv, which are within 0.0005."""
    ours, theirs = frame_of(path), reference(path)
    assert len(ours) == len(theirs)
    assert list(ours["game"]) == list(theirs["game"])
    assert list(ours["turn"]) == list(theirs["roll"])
    assert list(ours["side"]) == list(theirs["player"])
    assert list(ours["dice"]) == list(theirs["dice"])
    difference = (ours["luck"] - theirs["luck"]).abs()
    known = KNOWN[KNOWN["file"] == path.name]
    exempt = ours.set_index(["game", "turn"]).index.isin(list(zip(known["game"], known["roll"])))
    assert difference[~exempt].max() <= 1e-4, ours.loc[difference.idxmax()]
    assert difference[exempt].max() <= 5e-4 if exempt.any() else True
    assert exempt.sum() == len(known)
    # the marks are gnubg's: counts per player agree with its statistics
    stats = statistics(path)["match"]
    for mark in ("very lucky", "lucky", "unlucky", "very unlucky"):
        counts = [int((ours[ours["side"] == s]["mark"] == mark).sum()) for s in (0, 1)]
        assert counts == stats[mark.replace(" ", "_")], mark


@needs_engine
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_summary_as_gnubgs_statistics(path):
    """Per game and per match, each player's luck as gnubg's statistics print it (to the
    printed precision; sums of 5-decimal values may drift in the last digit)."""
    stats = statistics(path)
    summary = luck_summary(load_file(path), frame_of(path))
    money = summary["unit"].iloc[0] == "points"
    scale, tolerance = (1, 0.002) if money else (100, 0.02)
    games = summary[summary["scope"] == "game"]
    blocks = [(summary[summary["scope"] == "match"], stats["match"])] + [
        (games[games["game"] == number], printed)
        for number, printed in zip(games["game"].unique(), stats["games"])]
    assert len(blocks) == len(stats["games"]) + 1
    for ours, printed in blocks:
        ours = ours.sort_values("side")
        assert list(ours["luck"]) == pytest.approx(printed["luck_total"], abs=0.002)
        assert list(ours["luck_rate"] * 1000) == pytest.approx(printed["luck_rate"], abs=0.1)
        assert list(ours["rating"]) == printed["rating"]
        total = printed["luck_total_points" if money else "luck_total_mwc"]
        assert list(ours["luck_total"] * scale) == pytest.approx(total, abs=tolerance)
        assert list(ours["result"] * scale) == pytest.approx(printed["actual_result"],
                                                             abs=tolerance)
        assert list(ours["luck_adjusted"] * scale) == pytest.approx(
            printed["luck_adjusted_result"], abs=tolerance)
        assert list(ours["rolls"]) == [sum(printed[k][s] for k in (
            "very_lucky", "lucky", "unmarked", "unlucky", "very_unlucky")) for s in (0, 1)]


# --- properties -------------------------------------------------------------------------------

@needs_engine
@settings(max_examples=25, deadline=None)
@given(st.data())
def test_luck_averages_zero_over_the_36_rolls(data):
    """Away from the opening, the luck of the 36 throws of a position averages 0."""
    path = data.draw(st.sampled_from(FILES[:3]))
    match = replay_file(path)[0]
    game = data.draw(st.sampled_from(match.games))
    turn = data.draw(st.sampled_from(game.turns[1:]))
    utility = match_utility(match.record.length, game.record.scores[turn.player],
                            game.record.scores[1 - turn.player], turn.cube_value)
    total = sum((1 if r.is_double else 2) * roll_luck(turn.before, r, utility)[0]
                for r in ALL_ROLLS)
    assert total / 36 == pytest.approx(0, abs=1e-9)


@needs_engine
def test_opening_luck_is_the_equity_at_equal_scores():
    """Opening rolls at 0-0 (and in money play): the mean over both players' openings is 0."""
    for utility in (MONEY, match_utility(7, 2, 2)):
        luck_, equity = roll_luck(Position.start(), Roll(3, 1), utility, opening=True)
        assert luck_ == pytest.approx(equity) and equity > 0
    # at unequal scores it is not: the two sides' openings are worth different amounts
    leader, trailer = match_utility(5, 3, 0), match_utility(5, 0, 3)
    luck_, equity = roll_luck(Position.start(), Roll(3, 1), leader, opening=True,
                              opponent_utility=trailer)
    assert abs(luck_ - equity) > 1e-3


@needs_engine
def test_dances_are_rows_and_count():
    path = DATA / "BackgammonGalaxy_45686759.mat"
    frame = frame_of(path)
    match = replay_file(path)[0]
    dances = sum(1 for g in match.games for t in g.turns if t.play is not None
                 and len(t.play) == 0)
    assert dances > 20 and frame["dance"].sum() == dances  # their luck: test_every_roll...


@needs_engine
def test_frame_columns_and_units():
    frame = frame_of(DATA / "BackgammonGalaxy_165695.mat")
    assert list(frame.columns) == list(ROLL_COLUMNS) and set(KEY) <= set(frame.columns)
    assert frame["luck_points"].isna().all() and frame["luck_mwc"].notna().all()
    money = frame_of(DATA / "money_BackgammonGalaxy_165695.mat")
    assert money["luck_mwc"].isna().all()
    assert (money["luck_points"] == money["luck"] * money["cube_value"]).all()
    first = frame.iloc[0]
    assert (first["game"], first["turn"], first["move"], first["dice"]) == (1, 1, 1, "41")
    assert first["luck"] == pytest.approx(-0.00293, abs=1e-5)


def test_summary_wants_the_matches_first_and_says_so():
    frame = pd.DataFrame(columns=list(ROLL_COLUMNS))
    with pytest.raises(ValueError, match=r"luck_summary\(source, frame\).*DataFrame"):
        luck_summary(frame)


# --- command line and chart -------------------------------------------------------------------

@needs_engine
def test_cli_csv_json_and_jobs(tmp_path):
    files = [str(DATA / "BackgammonGalaxy_165695.mat"),
             str(DATA / "money_BackgammonGalaxy_165695.mat")]
    runner = CliRunner()
    csv = tmp_path / "luck.csv"
    result = runner.invoke(luck, files + ["--csv", str(csv), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "Go to Las Vegas" in result.output and "match 165695" in result.output
    assert "luck (equity)" in result.output and "luck (%MWC)" in result.output
    assert "luck (points)" in result.output and '"None" (average)' in result.output
    rows = pd.read_csv(csv, dtype={"dice": str})
    assert len(rows) == 302
    assert {"game", "move", "player", "dice", "luck"} <= set(rows.columns)
    assert list(rows["dice"][:4]) == ["41", "53", "53", "21"]  # file order
    # A dance is written as a bare roll (``66:`` then blanks): one in each file, game 2.
    bare = re.compile(r"(?:^| )[1-6][1-6]:(?: {2,}|$)", re.MULTILINE)
    assert sum(len(bare.findall(Path(f).read_text())) for f in files) == 2
    assert rows.loc[rows["dance"], ["game", "move", "dice"]].values.tolist() == \
        [[2, 3, "66"], [2, 3, "66"]]
    single = runner.invoke(luck, files + ["--json", "--no-progress"])
    multi = runner.invoke(luck, files + ["--json", "--jobs", "2", "--no-progress"])
    assert single.exit_code == multi.exit_code == 0
    assert single.output == multi.output
    objects = [json.loads(line) for line in single.output.splitlines()]
    assert [o["rolls"] for o in objects] == [151, 151]
    assert objects[1]["summary"][-1]["unit"] == "points"
    assert objects[1]["summary"][-1]["luck_total_unit"] == "points"
    assert objects[0]["summary"][-1]["luck_total_unit"] == "match-winning chance (0..1)"
    assert objects[0]["summary"][-1]["luck_unit"] == "normalised match equity"


def test_cli_without_engine_names_the_extra(monkeypatch):
    def no_engine(ply=0, engine="gnubg-nn"):
        raise EngineError("equity analyses need an engine; install it with "
                          "`pip install nardy-analysis[engine]` (gnubg-nn, GPL-3)")

    monkeypatch.setattr("nardy_analysis.cli.luck.default_evaluator", no_engine)
    result = CliRunner().invoke(luck, [str(DATA / "BackgammonGalaxy_165695.mat")])
    assert result.exit_code == 1
    assert "pip install nardy-analysis[engine]" in result.output


@needs_engine
def test_cumulative_luck_chart():
    """The lines end at each player's luck as gnubg's statistics print it; its roll counts
    per game (8, 45, 45, 53) place the game starts."""
    path = DATA / "BackgammonGalaxy_165695.mat"
    frame, stats = frame_of(path), statistics(path)
    _, ax = plt.subplots()
    assert plot_cumulative_luck(frame) is ax
    players = [line for line in ax.get_lines() if line.get_drawstyle() == "steps-post"]
    starts = [line for line in ax.get_lines() if line.get_linestyle() == ":"]
    (zero,) = [line for line in ax.get_lines() if line.get_linestyle() == "-"
               and line not in players]
    assert len(ax.get_lines()) == 2 + 3 + 1  # two players, three game starts, the zero line
    assert [line.get_label() for line in players] == ["p6a4fdb2ae56933", "p9d29"]  # the file
    assert [line.get_ydata()[-1] for line in players] == pytest.approx(
        stats["match"]["luck_total"], abs=0.002)
    assert max(line.get_xdata()[-1] for line in players) == 151
    assert [line.get_xdata()[0] for line in starts] == [8.5, 53.5, 98.5]
    assert list(zero.get_ydata()) == [0, 0]
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("roll", "cumulative luck (equity)")
    assert ax.get_legend().get_title().get_text() == "player"
    ax.clear()
    plot_cumulative_luck(frame, game=2, column="luck_mwc", ax=ax)
    players = [line for line in ax.get_lines() if line.get_drawstyle() == "steps-post"]
    assert [line.get_ydata()[-1] * 100 for line in players] == pytest.approx(
        stats["games"][1]["luck_total_mwc"], abs=0.02)
    assert max(line.get_xdata()[-1] for line in players) == 45
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("roll in game 2", "cumulative luck (MWC)")
    assert len(ax.get_lines()) == 2 + 1  # no game starts within one game
    plt.close("all")
    with pytest.raises(NardyError, match="no rolls to draw for game 99"):
        plot_cumulative_luck(frame, game=99)
    both = pd.concat([frame, frame_of(DATA / "BackgammonGalaxy_5238874.mat")])
    with pytest.raises(NardyError, match="one match"):
        plot_cumulative_luck(both)
    assert not math.isnan(frame["luck"].sum())


@pytest.mark.skipif(find_spec("bgsage") is None, reason="bgsage (the sage extra) is missing")
def test_bgsage_luck_is_close_to_gnubgs():
    """Another engine, other numbers, the same idea: its luck follows gnubg's closely."""
    from nardy_analysis.analysis.engine import BgSage

    path = DATA / "BackgammonStudio_3344736.mat"
    ours = luck_frame(load_file(path), BgSage())
    theirs = reference(path)
    assert ours["luck"].corr(theirs["luck"]) > 0.97
    assert (ours["luck"] - theirs["luck"]).abs().median() < 0.02


def test_reference_tool_reads_gnubgs_sgf_and_statistics():
    """tools/gnubg_reference.py parses what gnubg writes (excerpts of its real output)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "gnubg_reference", Path(__file__).parents[1] / "tools" / "gnubg_reference.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    sgf = ("(;FF[4]GM[6]MI[length:5][game:0]\n;W[41mife]A[2][mixw E ver 3]MR[]LU[-0.00293]DO[]"
           "\n;B[53addi]DA[E ver 3]LU[0.06408]\n;W[double]DA[E]\n;B[take]\n;W[66]DA[E]LU[-0.38885]"
           "GB[1]\n)(;FF[4]GM[6]\n;B[21jihg]LU[1e-05]\n)")
    assert tool.sgf_rolls(sgf) == [[(0, Roll(4, 1), -0.00293), (1, Roll(5, 3), 0.06408),
                                     (0, Roll(6, 6), -0.38885)], [(1, Roll(2, 1), 1e-05)]]
    text = """
Rolls marked very lucky                    0                       1
Rolls unmarked                            68                      73
Luck total EMG (MWC)                          +0.203 ( +3.156%)       +2.185 (+34.120%)
Luck rate mEMG (MWC)                          +2.7   ( +0.043%)      +28.4   ( +0.443%)
Luck rating                              None                    Good dice, man!
Actual result                             -50.00%                 +50.00%
Luck adjusted result                      -19.04%                 +19.04%
"""
    assert tool.parse_statistics(text) == {
        "very_lucky": [0, 1], "unmarked": [68, 73], "luck_total": [0.203, 2.185],
        "luck_total_mwc": [3.156, 34.12], "luck_rate": [2.7, 28.4],
        "luck_rate_mwc": [0.043, 0.443], "rating": ["None", "Good dice, man!"],
        "actual_result": [-50.0, 50.0], "luck_adjusted_result": [-19.04, 19.04]}
