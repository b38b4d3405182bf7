"""Skill (checker-play and cube errors) against GNU Backgammon's own analysis.

The oracle is GNU Backgammon 1.1.0a16 (the full ``gnubg`` package): ``tests/data/skill``
holds its "Match statistics" table and every move's cubeful 0-ply equity for 14 real
matches, recorded by ``tools/gnubg_skill_reference.py`` (see the README there). Marks,
ratings and two cube decisions are checked against values gnubg printed.
"""

from __future__ import annotations

import json
from importlib.util import find_spec
from pathlib import Path

import click
import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from nardy_analysis import load_file, replay_file
from nardy_analysis.analysis.cubeful import position_chances as chances_of
from nardy_analysis.analysis.luck import MARKS
from nardy_analysis.analysis.match_statistics import (
    CUBE_ERRORS,
    RATINGS,
    move_mark,
    skill_rating,
)
from nardy_analysis.analysis.skill import (
    DECISION_COLUMNS,
    DECISION_DTYPES,
    SUMMARY_COLUMNS,
    CubeState,
    cube_decision,
    cube_efficiency,
    cubeful_equities,
    skill_frame,
    skill_summary,
)
from nardy_analysis.analysis.turns import turns_frame
from nardy_analysis.cli.skill import skill
from nardy_analysis.game.position import Position

DATA = Path(__file__).parent / "data" / "skill"
REFERENCES = sorted(DATA.glob("*.skill.json"))
KNOWN = pd.read_csv(DATA / "KNOWN_DIFFERENCES.tsv", sep="\t")
needs_engine = pytest.mark.skipif(find_spec("gnubg_nn") is None,
                                  reason="gnubg-nn (the engine extra) is not installed")


def match_file(reference: Path) -> Path:
    name = json.loads(reference.read_text())["file"]
    here = DATA / name
    return here if here.exists() else DATA.parent / "luck" / name


_results: dict = {}


def analysed(path: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    if path not in _results:
        matches = replay_file(path)
        frame = skill_frame(matches)
        _results[path] = frame, skill_summary(matches, frame)
    return _results[path]


def number(text: str) -> float:
    return float(text.split()[0]) if text else 0.0


# --- marks, ratings, cubeful equity (values from gnubg) -----------------------------------

@pytest.mark.parametrize("error, mark", [(0.0, ""), (-0.0299, ""), (-0.03, "doubtful"),
                                         (-0.0599, "doubtful"), (-0.06, "bad"),
                                         (-0.1199, "bad"), (-0.12, "very bad"),
                                         (-1.5, "very bad")])
def test_move_marks(error, mark):
    assert move_mark(error) == mark


# gnubg 1.1.0a16's errorrating() at these error rates (EMG per move), either sign.
@pytest.mark.parametrize("rate, rating", [
    (0.0, "Super Grandmaster"), (0.0049, "Super Grandmaster"), (0.005, "Grandmaster"),
    (0.0079, "Grandmaster"), (0.008, "Master"), (0.0129, "Master"), (0.013, "Advanced"),
    (0.0199, "Advanced"), (0.02, "Intermediate"), (0.0319, "Intermediate"),
    (0.032, "Beginner"), (0.5, "Beginner"), (-0.0138, "Advanced")])
def test_ratings(rate, rating):
    assert skill_rating(rate) == rating
    assert rating in RATINGS


def test_cube_decision_match_play_as_gnubg():
    """gnubg's DA[] of BackgammonGalaxy_165695, game 1, before the third roll (5-point match,
    0-0, cube centred, contact): no double 0.490404 and double/take 0.455443 MWC (its chances
    rounded to 6 decimals, hence 1e-5)."""
    chances = np.array([[0.468973, 0.128560, 0.005022, 0.149066, 0.008745]])
    state = CubeState(5, 5, 5, 1)
    nd, dt, dp = cube_decision(chances, state, 0.76)
    assert nd[0] == pytest.approx(0.490404, abs=1e-5)
    assert dt[0] == pytest.approx(0.455443, abs=1e-5)
    assert dp[0] == pytest.approx(0.57732)  # winning 1 point: 4-away against 5-away


def test_cube_decision_money_as_gnubg():
    """gnubg's DA[] of money_BackgammonGalaxy_165695 before the second roll (money, Jacoby,
    cube centred): no double 0.045001 and double/take -0.302725 per cube."""
    chances = np.array([[0.509722, 0.153244, 0.011729, 0.139602, 0.009870]])
    nd, dt, dp = cube_decision(chances, CubeState(0), 0.76)
    assert (nd[0], dt[0], dp[0]) == pytest.approx((0.045001, -0.302725, 1.0), abs=1e-5)


def test_bearoff_cube_decision_money_is_the_exact_equity():
    """In money play a two-sided bear-off's ND is the exact equity of the cube's owner and
    DT twice the opponent-owns one (gnubg's eval at 0-ply: two checkers each on the 6-point,
    no double +0.60385 / +0.60312 here, double/take +0.96123; tests/data/bearoff)."""
    position = Position(((13,) + (0,) * 5 + (2,) + (0,) * 19,) * 2, 0)
    rows = np.array([chances_of(FakeEngine(), position)])
    assert rows.shape == (1, 9)
    nd, dt, dp = cube_decision(rows, CubeState(0), 0.6)
    assert (nd[0], dt[0], dp[0]) == pytest.approx((0.60312, 0.96123, 1.0), abs=1e-4)
    owned = cube_decision(rows, CubeState(0, owner=0), 0.6)[0]
    assert owned[0] == pytest.approx(0.62173, abs=1e-4)


class FakeEngine:
    """Chances far from the truth: the bear-off's exact ones must replace them."""

    def evaluate(self, position):
        return np.array([0.5, 0.2, 0.0, 0.2, 0.0])


@needs_engine
def test_bearoff_doubles_as_gnubg():
    """BackgammonGalaxy_5238874 (5 points, 0-0): the two doubles before rolls 44 and 45 of
    game 1 are two-sided bear-offs; gnubg's SGF analysis calls both right (double/take
    0.582564 >= no double 0.573317, and 0.623636 >= 0.610895 MWC), as we do now."""
    frame, _ = analysed(DATA.parent / "luck" / "BackgammonGalaxy_5238874.mat")
    doubles = frame[(frame["kind"] == "double") & (frame["game"] == 1)
                    & frame["turn"].isin([44, 45])]
    assert list(doubles["play"]) == ["double", "double"]
    assert list(doubles["error"]) == [0.0, 0.0]
    assert list(doubles["category"]) == ["", ""]


@needs_engine
def test_a_play_that_brings_the_last_checkers_home_is_valued_as_a_bear_off():
    """BackgammonGalaxy_5808595, game 4, before roll 99 (17-point match, 4-3, the roller
    owns a 4-cube, one checker on their 16-point): 44 bears it off into a two-sided
    bear-off, whose cubeful equity gnubg 1.1.0a16 takes from its exact equities (its hint at
    0-ply, ``set output digits 5``: 16/off, -0.64096); so must the luck and skill analyses,
    which valued it as any race (-0.59000) while the roller's rearmost checker was out."""
    from nardy_analysis.analysis.cube_life import life_indices
    from nardy_analysis.analysis.cubeful import after_play_equities, chances_after_plays
    from nardy_analysis.analysis.gnubg import GnubgNN
    from nardy_analysis.game.moves import Roll

    position, roll, evaluator = Position.from_id("NwAAQB8ACAAAAA", turn=0), Roll(4, 4), GnubgNN()
    keys, chances = evaluator.plays(position, roll)
    rows = chances_after_plays(evaluator, position, keys, chances)
    assert rows.shape[1] == 9
    [x] = life_indices(evaluator, [(position, roll, keys)])
    state = CubeState(17, 13, 14, 4, owner=0)
    # gnubg works in single precision: 2.6e-5 apart
    assert after_play_equities(rows, state, x).max() == pytest.approx(-0.64096, abs=5e-5)


chances_strategy = st.tuples(*[st.floats(0.0, 1.0)] * 5).map(
    lambda c: (c[0], c[0] * c[1], c[0] * c[1] * c[2], (1 - c[0]) * c[3],
               (1 - c[0]) * c[3] * c[4]))


@settings(deadline=None)
@given(chances_strategy, st.sampled_from([None, 0, 1]), st.integers(1, 7),
       st.integers(1, 7))
def test_dead_cube_is_cubeless(chances, owner, away, opponent_away):
    """With a dead cube (life index 0) no double is the cubeless equity: money without the
    Jacoby rule, and the cubeless MWC in match play."""
    rows = np.array([chances])
    w, wg, wb, lg, lb = chances
    money = cube_decision(rows, CubeState(0, owner=owner, jacoby=False), 0.0)[0][0]
    assert money == pytest.approx(2 * w - 1 + wg - lg + wb - lb, abs=1e-9)
    state = CubeState(7, away, opponent_away, 1, owner)
    mwc = state.score.mwc
    dead = ((w - wg) * mwc(1) + (wg - wb) * mwc(2) + wb * mwc(3) + (1 - w - lg) * mwc(-1)
            + (lg - lb) * mwc(-2) + lb * mwc(-3))
    # chances of a win below 1e-7 are averaged as single wins: at most 1e-7 of MWC apart
    assert cube_decision(rows, state, 0.0)[0][0] == pytest.approx(dead, abs=2e-7)


@settings(deadline=None)
@given(chances_strategy, st.sampled_from([None, 0]))
def test_cube_decision_takes_the_better_choice(chances, owner):
    """The cubeful value is no double or the double's min(take, pass), whichever is more."""
    rows = np.array([chances])
    state = CubeState(0, owner=owner)
    nd, dt, dp = (v[0] for v in cube_decision(rows, state, 0.76))
    assert cubeful_equities(rows, state, 0.76)[0] == max(nd, min(dt, dp))


@settings(deadline=None)
@given(chances_strategy, st.sampled_from([None, 0, 1]), st.sampled_from([1, 2, 4]))
def test_two_away_two_away_cube_is_dead(chances, owner, cube):
    """At 2-away 2-away GNU Backgammon makes no cubeful evaluation (eval.c, fDoCubeful): no
    double is the cubeless MWC whatever the cube and its life index, while at 2-away
    3-away the cube is live."""
    rows = np.array([chances])
    state = CubeState(3, 2, 2, cube, owner)
    assert cube_decision(rows, state, 0.76)[0][0] == pytest.approx(
        cube_decision(rows, state, 0.0)[0][0], abs=1e-12)
    live = CubeState(4, 2, 3, 1, None)
    centred = np.array([[0.7, 0.0, 0.0, 0.0, 0.0]])
    assert cube_decision(centred, live, 0.76)[0][0] != pytest.approx(
        cube_decision(centred, live, 0.0)[0][0], abs=0.01)


@needs_engine
def test_two_away_two_away_no_double_as_gnubg():
    """BackgammonGalaxy_1099255 (3 points, game 3 at 1-1, cube centred): gnubg's SGF gives
    no double -0.0317 before roll 2 and 0.0980 before roll 3 (EMG), the cubeless equities;
    with a live cube we had -0.0536 and 0.1242."""
    frame, _ = analysed(DATA / "BackgammonGalaxy_1099255.mat")
    cube = frame[(frame["kind"] == "double") & (frame["game"] == 3)].set_index("turn")
    assert cube.loc[2, "equity"] == pytest.approx(-0.0317, abs=1e-4)
    assert cube.loc[3, "equity"] == pytest.approx(0.0980, abs=1e-4)


def test_cube_efficiency():
    bearoff = Position(((10,) + (1,) * 5 + (0,) * 20, (10,) + (1,) * 5 + (0,) * 20), 0)
    race = Position(((13, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2) + (0,) * 13,
                     (13,) + (1, 1) + (0,) * 23), 0)
    assert cube_efficiency(bearoff) == 0.6
    assert cube_efficiency(race) == pytest.approx(0.6 + 0.0025 * 24)
    assert cube_efficiency(Position.start(0)) == 0.76


# --- against gnubg's analysis of real matches ------------------------------------------------

def test_references_cover_money_and_match_play_with_cube_action():
    files = [json.loads(r.read_text()) for r in REFERENCES]
    assert len(files) >= 10
    assert any(f["file"].startswith("money_") for f in files)
    assert all(int(f["match"]["Cube"]["Doubles"][0]) + int(f["match"]["Cube"]["Doubles"][1])
               for f in files)


@pytest.mark.slow
@needs_engine
@pytest.mark.parametrize("reference", REFERENCES, ids=lambda p: p.stem)
def test_every_move_as_gnubg(reference):
    """Each analysed move's cubeful 0-ply equity (played and best) equals gnubg's to 1e-4,
    except the moves listed in KNOWN_DIFFERENCES.tsv, which differ as listed."""
    path = match_file(reference)
    frame, _ = analysed(path)
    moves = frame[frame["kind"] == "move"]
    theirs = pd.read_csv(DATA / f"{path.stem}.moves.tsv", sep="\t", comment="#",
                         dtype={"dice": str})
    both = moves.merge(theirs, left_on=["game", "turn"], right_on=["game", "roll"],
                       suffixes=("", "_gnubg"))
    assert len(both) == len(theirs)
    assert (both["plays"] == both["plays_gnubg"]).all()
    differ = ((both["equity"] - both["played"]).abs() > 1e-4) | (
        (both["best_equity"] - both["best_gnubg"]).abs() > 1e-4)
    known = KNOWN[KNOWN["file"] == path.name]
    assert sorted(zip(both.loc[differ, "game"], both.loc[differ, "turn"])) == \
        sorted(zip(known["game"], known["roll"]))
    listed = both.set_index(["game", "turn"]).loc[list(zip(known["game"], known["roll"]))]
    assert np.allclose(listed["equity"], known["ours_played"], atol=2e-6)


@needs_engine
@pytest.mark.parametrize("reference", REFERENCES, ids=lambda p: p.stem)
def test_match_statistics_as_gnubg(reference):
    """gnubg's "Match statistics" player by player: counts exact, errors and luck to gnubg's
    three decimals, rating words equal (two-sided bear-offs' cube decisions included), the
    rolls marked lucky and unlucky and the luck rating, the luck-adjusted result and its
    FIBS rating difference as printed."""
    stats = json.loads(reference.read_text())
    table = stats["match"]
    chequer, cube, overall = table["Chequerplay"], table["Cube"], table["Overall"]
    unit = "MWC" if "Error total EMG (MWC)" in chequer else "Points"
    _, summary = analysed(match_file(reference))
    for side, row in summary.iterrows():
        assert row["total_moves"] == int(chequer["Total moves"][side])
        assert row["unforced_moves"] == int(chequer["Unforced moves"][side])
        assert row["unmarked_moves"] == int(chequer["Unmarked moves"][side])
        for mark in ("doubtful", "bad", "very bad"):
            assert row[f"marked_{mark.replace(' ', '_')}"] == \
                int(chequer[f"Moves marked {mark}"][side])
        assert row["checker_error_emg"] == pytest.approx(
            number(chequer[f"Error total EMG ({unit})"][side]), abs=0.0015)
        assert row["checker_rating"] == chequer["Chequerplay rating"][side]
        assert row["cube_decisions"] == int(cube["Total cube decisions"][side])
        assert row["close_cube_decisions"] == int(cube["Close or actual cube decisions"][side])
        for key in ("doubles", "takes", "passes"):
            assert row[key] == int(cube[key.capitalize()][side])
        assert row["cube_error_emg"] == pytest.approx(
            number(cube[f"Error total EMG ({unit})"][side]), abs=0.012)
        assert row["cube_rating"] == cube["Cube decision rating"][side]
        assert row["overall_rating"] == overall["Overall rating"][side]
        assert row["snowie_error_rate"] == pytest.approx(
            number(overall["Snowie error rate"][side]), abs=0.25)
        # luck: gnubg's default cubeful 0-ply luck, printed to 3 decimals (EMG), 0.01% (MWC)
        # or 0.001 points; the FIBS difference then within what 1e-4 of MWC makes of it
        luck = table["Luck"]
        assert row["luck_emg"] == pytest.approx(
            number(luck[f"Luck total EMG ({unit})"][side]), abs=0.0015)
        for mark in MARKS:
            assert row[mark.replace(" ", "_")] == int(luck[f"Rolls marked {mark}"][side])
        assert row["luck_rating"] == luck["Luck rating"][side]
        if unit == "Points":  # no match-winning chance in money play
            assert np.isnan(row["checker_error_mwc"]) and np.isnan(row["cube_error_mwc"])
        if "Luck adjusted result" in overall:
            text = overall["Luck adjusted result"][side]
            expected = float(text.rstrip("%")) / 100 if unit == "MWC" else float(text)
            assert row["luck_adjusted_result"] == pytest.approx(expected, abs=2e-4)
        if overall.get("Luck based FIBS rating diff.", ["", ""])[side]:
            assert row["fibs_rating_difference"] == pytest.approx(
                float(overall["Luck based FIBS rating diff."][side]), abs=0.25)
        if "Error based abs. FIBS rating" in overall:
            assert row["fibs_rating"] == pytest.approx(
                number(overall["Error based abs. FIBS rating"][side]), abs=0.3)
        for key, label in (("checker_rating_loss", "Chequerplay errors rating loss"),
                           ("cube_rating_loss", "Cube errors rating loss")):
            if label in overall and overall[label][side] == "n/a":
                assert np.isnan(row[key])


@needs_engine
def test_cube_categories_as_gnubg():
    """Each cube error category's count and cost in BackgammonStudio_8518258 (the long
    match: all six categories occur) as gnubg printed them."""
    reference = DATA / "BackgammonStudio_8518258.skill.json"
    cube = json.loads(reference.read_text())["match"]["Cube"]
    _, summary = analysed(match_file(reference))
    names = {"missed_double_below_cp": "Missed doubles below CP",
             "missed_double_above_cp": "Missed doubles above CP",
             "wrong_double_below_dp": "Wrong doubles below DP",
             "wrong_double_above_tg": "Wrong doubles above TG",
             "wrong_take": "Wrong takes", "wrong_pass": "Wrong passes"}
    for side, row in summary.iterrows():
        for key, name in names.items():
            text = cube[f"{name} (EMG (MWC))"][side]
            count, cost = (text, "0") if " " not in text else text.split(" (", 1)
            assert row[key] == int(count)
            assert row[f"{key}_emg"] == pytest.approx(number(cost) if row[key] else 0.0,
                                                      abs=0.0015)


@needs_engine
def test_frame_joins_the_turns_frame():
    path = DATA / "BackgammonGalaxy_113817.mat"
    loaded = load_file(path)
    frame = skill_frame(loaded)
    assert list(frame.columns) == list(DECISION_COLUMNS)
    moves = frame[frame["kind"] == "move"]
    joined = turns_frame(loaded).merge(moves, on=["file", "match_id", "game", "turn"])
    assert len(joined) == len(moves) > 100
    assert (joined["play_x"] == joined["play_y"]).all()
    assert (moves["error"] <= 0).all() and (frame["error"] <= 1e-12).all()
    forced = moves[moves["plays"] == 1]
    assert (forced["error"] == 0).all() and (forced["mark"] == "").all()
    played_best = moves[moves["play"] == moves["best"]]
    assert len(played_best) > 50 and (played_best["error"] == 0).all()


# --- the command --------------------------------------------------------------------------

@pytest.mark.slow
@needs_engine
def test_cli_json_csv_parquet_by_player_and_jobs(tmp_path):
    files = [str(DATA / "BackgammonGalaxy_113817.mat"),
             str(DATA.parent / "luck" / "money_BackgammonGalaxy_165695.mat")]
    runner = CliRunner()
    csv, dataset, one = (tmp_path / name for name in ("decisions.csv", "decisions", "d.parquet"))
    single = runner.invoke(skill, files + ["--json", "--csv", str(csv), "--parquet",
                                           str(dataset), "--no-progress"])
    assert single.exit_code == 0, single.output
    rows = [json.loads(line) for line in single.stdout.splitlines()]
    assert len(rows) == 4 and [r["side"] for r in rows] == [0, 1, 0, 1]
    required = {"file", "match_id", "player", "side", "total_moves", "unforced_moves",
                "marked_doubtful", "marked_bad", "marked_very_bad", "checker_error_emg",
                "checker_error_rate_memg", "checker_rating", "cube_decisions",
                "close_cube_decisions", "cube_error_emg", "cube_rating",
                "overall_error_rate_memg", "snowie_error_rate", "overall_rating"}
    assert required <= set(rows[0]) and set(rows[0]) == set(SUMMARY_COLUMNS)
    assert rows[0]["unforced_moves"] == 43 and rows[0]["checker_rating"] == "Advanced"
    decisions = pd.read_csv(csv)
    assert list(decisions.columns) == list(DECISION_COLUMNS)
    assert set(decisions["file"]) == set(files)
    multi = runner.invoke(skill, files + ["--json", "--jobs", "2", "--parquet", str(one),
                                          "--no-progress"])
    assert multi.stdout == single.stdout
    parts = sorted(p.name for p in dataset.iterdir())
    assert parts == ["part-00000.parquet"] and "wrote " + str(dataset) in single.stderr
    written = pd.read_parquet(dataset)
    pd.testing.assert_frame_equal(written, pd.read_parquet(one))
    assert list(written.columns) == list(DECISION_DTYPES)
    assert written["turn"].dtype == written["plays"].dtype == "Int64"
    assert written["close"].dtype == bool and written["cube_value"].dtype == "Int64"
    assert written["turn"].notna().all() and written["plays"].isna().any()  # cube decisions
    assert len(written) == len(decisions) > 100
    assert np.allclose(written["error"], decisions["error"])
    assert (written["play"].tolist(), written["mark"].fillna("").tolist()) == \
        (decisions["play"].tolist(), decisions["mark"].fillna("").tolist())
    totals = runner.invoke(skill, files + ["--by", "player", "--json", "--no-progress"])
    players = {r["player"]: r for r in map(json.loads, totals.stdout.splitlines())}
    both = [r for r in rows if r["player"] == "p9d29"]
    assert players["p9d29"]["matches"] == len(both) == 2
    assert players["p9d29"]["unforced_moves"] == sum(r["unforced_moves"] for r in both)
    table = runner.invoke(skill, files + ["--by", "player", "--no-progress"]).stdout
    header, *lines = table.splitlines()
    assert header.split()[:3] == ["player", "matches", "moves"] and len(lines) == 3
    line = next(line for line in lines if line.split()[0] == "p9d29")
    assert line.split()[1:3] == ["2", str(players["p9d29"]["total_moves"])]
    assert players["p9d29"]["overall_rating"] in line


@needs_engine
def test_cli_csv_a_dropped_double_has_the_next_rolls_turn(tmp_path):
    """Game 1 of this match ends in a double and a pass before the 17th roll (line 24:
    ``9)  Doubles => 2   Drops``): both rows have turn 17, as a double taken has the number
    of the roll it came before; every row has a turn."""
    csv = tmp_path / "decisions.csv"
    result = CliRunner().invoke(skill, [str(DATA / "BackgammonGalaxy_113817.mat"),
                                        "--csv", str(csv), "--no-progress"])
    assert result.exit_code == 0, result.output
    decisions = pd.read_csv(csv, dtype={"turn": "Int64"})
    assert decisions["turn"].notna().all()
    first = decisions[decisions["game"] == 1]
    assert first["turn"].is_monotonic_increasing and first["turn"].iloc[-3] == 16
    assert first.tail(2)[["turn", "kind", "play"]].values.tolist() == [
        [17, "double", "double"], [17, "take", "pass"]]


def test_cli_table_columns_never_touch():
    """Four-digit rates (a beaver-sized cube error on few decisions) keep a space."""
    from nardy_analysis.cli.skill import _print_table

    row = {"player": "p", "total_moves": 3, "unforced_moves": 1, "marked_doubtful": 0,
           "marked_bad": 0, "marked_very_bad": 1, "checker_error_emg": -1.404,
           "checker_error_rate_memg": -1403.9, "checker_rating": "Awful!",
           "cube_decisions": 1, "close_cube_decisions": 1, "cube_error_emg": -1.404,
           "cube_error_rate_memg": -1403.9, "cube_rating": "Awful!",
           "overall_error_emg": -2.808, "overall_error_rate_memg": -1403.9,
           "overall_rating": "Awful!", "snowie_error_rate": -1403.9}

    @click.command()
    def show():
        _print_table(pd.DataFrame([row]))

    out = CliRunner().invoke(show).stdout.splitlines()[1]
    assert out.split() == ["p", "3", "1", "0/0/1", "-1.404", "-1403.9", "Awful!", "1", "1",
                           "-1.404", "-1403.9", "Awful!", "-2.808", "-1403.9", "Awful!",
                           "-1403.9"]


@needs_engine
def test_cli_table_and_errors(tmp_path):
    bad = tmp_path / "bad.mat"
    bad.write_text(" 1 point match\n\n Game 1\n a : 0   b : 0\n  1) 66: 24/18(9)\n")
    result = CliRunner().invoke(skill, [str(DATA / "BackgammonGalaxy_113817.mat"), str(bad)])
    assert result.exit_code == 1
    assert "match 113817" in result.output and "Advanced" in result.output
    usage = CliRunner().invoke(skill, [str(bad), "--csv", str(tmp_path / "no" / "x.csv")])
    assert usage.exit_code == 2


def test_plot_skill_luck():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from nardy_analysis.errors import InvalidArgument
    from nardy_analysis.plots import plot_skill_luck

    summary = pd.DataFrame({"player": ["a", "b"], "luck_rate_memg": [-10.0, 25.0],
                            "overall_error_rate_memg": [-6.0, -14.0]})
    fig, ax = plt.subplots()
    assert plot_skill_luck(summary, ax) is ax
    points = ax.collections[0].get_offsets()
    assert points.tolist() == [[-10.0, -6.0], [25.0, -14.0]]
    assert [t.get_text() for t in ax.texts if t.get_text() in "ab"] == ["a", "b"]
    bands = {t.get_text(): t.get_position()[1] for t in ax.texts} | {}
    del bands["a"], bands["b"]
    low, high = ax.get_ylim()  # about -14.4 and -5.6: the bands in view named in their middle
    assert bands == {"Grandmaster": pytest.approx((high - 8) / 2),
                     "Master": pytest.approx(-10.5), "Advanced": pytest.approx((low - 13) / 2)}
    edges = sorted(line.get_ydata()[0] for line in ax.lines if line.get_xdata()[0] == 0)
    assert edges == [-13, -8, 0]  # the edges in view, and the line at 0 luck (x 0)
    plt.close(fig)
    # Names of points close together are written where they do not overlap.
    close = pd.DataFrame({"player": ["p27409", "pe90bd", "p99c81a44", "p865db", "p9be6"],
                          "luck_rate_memg": [18.1, 21.7, 5.2, 20.0, 47.6],
                          "overall_error_rate_memg": [-8.4, -7.6, -9.1, -8.0, -2.8]})
    fig, ax = plt.subplots(figsize=(8, 5))
    plot_skill_luck(close, ax)
    boxes = [t.get_window_extent() for t in ax.texts if t.get_text() in set(close["player"])]
    assert len(boxes) == 5
    assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    ratings = [t.get_window_extent() for t in ax.texts if t.get_text().endswith("Grandmaster")]
    assert len(ratings) == 2 and not ratings[0].overlaps(ratings[1])
    plt.close(fig)
    with pytest.raises(InvalidArgument):
        plot_skill_luck(summary.iloc[:0])


@needs_engine
def test_engine_play_index_and_classes_agree_with_positions():
    """gnubg-nn's fast play index and position classes give what the positions give: the
    base Evaluator's play index, cube_efficiency() of each position after a play and GNU
    Backgammon's own class of it (gnubg-nn's classify: contact and crashed above race, the
    bear-off classes and over below)."""
    import gnubg_nn

    from nardy_analysis.analysis.cube_life import life_index
    from nardy_analysis.analysis.evaluator import Evaluator
    from nardy_analysis.analysis.gnubg import GnubgNN

    engine = GnubgNN()
    checked = set()
    for name in ("BackgammonGalaxy_113817.mat", "BackgammonGalaxy_1404339.mat"):
        for game in replay_file(DATA / name)[0].games:
            for turn in game.turns:
                keys, _ = engine.plays(turn.before, turn.roll)
                if not keys or turn.after is None:
                    continue
                assert engine.play_index(keys, turn.after, turn.player) == \
                    Evaluator.play_index(engine, keys, turn.after, turn.player)
                kinds, all_pips = engine.position_classes(keys)
                for key, kind, pips in zip(keys, kinds, all_pips):
                    after = engine.position_after(key, turn.player)
                    assert engine.position_class(key) == (kind, pips)
                    assert pips == after.pip_count()
                    assert life_index(kind, pips) == cube_efficiency(after)
                    board = [list(side) for side in gnubg_nn.board_from_position_key(key)]
                    race = gnubg_nn.classify(board) - gnubg_nn.c_race
                    assert kind == ("race" if race == 0 else "contact" if race > 0 else "bearoff")
                    checked.add(kind)
    assert checked == {"contact", "race", "bearoff"}


@needs_engine
def test_sure_life_index_is_that_of_every_play():
    """Where the life index after every play of a roll is certain from the position before
    (:func:`sure_life_index`, which the luck uses to skip the plays' keys), it is that of
    each play's position; it is certain for most rolls, of each class."""
    from nardy_analysis.analysis.cube_life import life_index, sure_life_index
    from nardy_analysis.analysis.gnubg import GnubgNN
    from nardy_analysis.game.moves import ALL_ROLLS

    engine, sure, rolls = GnubgNN(), set(), 0
    for game in replay_file(DATA / "BackgammonGalaxy_113817.mat")[0].games:
        for turn in game.turns:
            for roll in ALL_ROLLS:
                keys, _ = engine.plays(turn.before, roll)
                x = sure_life_index(turn.before, roll)
                if not keys or x is None:
                    continue
                rolls += 1
                assert np.array_equal(life_index(*engine.position_classes(keys)),
                                      np.full(len(keys), x))
                sure.add(x if x in (0.76, 0.6) else "race")
    assert sure == {0.76, 0.6, "race"}
    assert rolls > 0.6 * 21 * sum(len(game.turns) for game in replay_file(
        DATA / "BackgammonGalaxy_113817.mat")[0].games)


@needs_engine
def test_nothing_counted_is_not_rated():
    """gnubg prints n/a for the rating of a player with no unforced move or no close cube
    decision (BackgammonGalaxy_1442593 of the shared corpus: no close cube decision)."""
    from nardy_analysis.analysis.match_statistics import NO_RATING, player_statistics

    row = player_statistics(skill_frame([]), 0, 0, 5)
    assert row["cube_rating"] == row["checker_rating"] == row["overall_rating"] == NO_RATING
    assert row["cube_error_rate_memg"] == 0.0


CUBE_TIES = sorted((DATA / "cube").glob("*.skill.json"))


@needs_engine
@pytest.mark.parametrize("reference", CUBE_TIES, ids=lambda p: p.stem)
def test_cube_ties_counted_as_gnubg(reference):
    """Matches with cube decisions where no double and double/pass are equal but for
    rounding (certain wins without gammons), or that turn on gnubg's checks of a race's
    chances: every count of gnubg's cube statistics as it printed them, those ties included
    or left out as gnubg has them; with no close cube decision (a 1-point match) the cube
    rating loss is n/a (NaN)."""
    table = json.loads(reference.read_text())["match"]
    cube, overall = table["Cube"], table["Overall"]
    unit = "MWC" if "Error total EMG (MWC)" in cube else "Points"
    _, summary = analysed(reference.with_suffix("").with_suffix(".mat"))
    for side, row in summary.iterrows():
        assert row["cube_decisions"] == int(cube["Total cube decisions"][side])
        assert row["close_cube_decisions"] == int(cube["Close or actual cube decisions"][side])
        for key, name in CUBE_ERRORS.items():
            assert row[key] == int(cube[f"{name} (EMG ({unit}))"][side].split()[0]), key
        losses = overall.get("Cube errors rating loss")  # printed in match play only
        if losses is not None:
            assert (np.isnan(row["cube_rating_loss"]) if losses[side] == "n/a" else
                    row["cube_rating_loss"] == pytest.approx(float(losses[side]), abs=0.1))
