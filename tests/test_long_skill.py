"""Skill of long nardy: each checker play's error by the long nardy engine, no cube.

The errors are checked against the engine itself, asked directly (every legal play's
position evaluated on its own, not through the analysis), and, in bear-offs, against exact
values worked out by hand.
"""

from __future__ import annotations

import json
from importlib.util import find_spec

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from conftest import SAMPLES

from nardy_analysis import load_file
from nardy_analysis.analysis.long_engine import LongEvaluator
from nardy_analysis.analysis.luck import luck_summary
from nardy_analysis.analysis.match_statistics import NO_RATING
from nardy_analysis.analysis.skill import (
    DECISION_COLUMNS,
    SUMMARY_COLUMNS,
    skill_frame,
    skill_summary,
)
from nardy_analysis.cli.skill import skill
from nardy_analysis.game.long import LongPosition
from nardy_analysis.game.moves import Roll
from nardy_analysis.game.rules import LONG
from nardy_analysis.notation.records import GameRecord, MatchRecord, TurnRecord
from nardy_analysis.replay import ReplayedGame, ReplayedMatch, ReplayedTurn

SAMPLE = SAMPLES / "long" / "simulated_match.mat"
LUCK_ADJUSTED = 1.837
"""The first player's luck-adjusted result of the sample, points (``nardy luck``)."""


@pytest.fixture(scope="module")
def sample():
    loaded = load_file(SAMPLE)
    frame = skill_frame(loaded)
    return loaded, frame, skill_summary(loaded, frame)


def one_roll(notation: str, roll: Roll, played: str, rules=LONG) -> ReplayedMatch:
    """A money session of one game of one roll from the long nardy position ``notation``,
    the play ``played`` (its notation) made."""
    before = LongPosition.from_notation(notation)
    legal = next(p for p in before.legal_plays(roll, rules) if str(p.play) == played)
    turn = TurnRecord(before.turn, roll, (), 1, 1, 1, "")
    game = GameRecord(1, ("alice", "bob"), (0, 0), (turn,), 1, 1, 1, 1)
    return ReplayedMatch(MatchRecord(0, {}, (game,), 1, 1), rules,
                         [ReplayedGame(game, turns=[ReplayedTurn(turn, before, legal.after,
                                                                 legal.play, 1, None)])])


def test_every_play_of_the_sample_match_has_a_row_and_no_cube(sample):
    loaded, frame, _ = sample
    rolls = sum(len(game.turns) for game in loaded.matches[0].games)
    assert len(frame) == rolls and (frame["kind"] == "move").all()
    assert frame["cube_value"].isna().all() and frame["error_mwc"].isna().all()
    assert (frame["category"] == "").all() and not frame["close"].any()
    assert (frame["error"] <= 0).all() and (frame["error"] < -0.12).any()


def test_the_best_play_has_no_error_and_forced_plays_count_none(sample):
    _, frame, _ = sample
    best = frame[frame["play"] == frame["best"]]
    assert len(best) > 20 and (best["error"] == 0).all() and (best["mark"] == "").all()
    forced = frame[frame["plays"] == 1]
    assert len(forced) > 5 and (forced["error"] == 0).all() and (forced["mark"] == "").all()
    worse = frame[frame["error"] < 0]
    assert (worse["play"] != worse["best"]).all()


@pytest.mark.slow
def test_each_error_is_the_engines_best_equity_minus_the_plays(sample):
    """Every play's equity from the engine asked directly: each legal play's position
    evaluated alone (the opponent's chances turned round to the mover's money equity), the
    first turn of each player's game under the head rule."""
    loaded, frame, _ = sample
    engine = LongEvaluator()
    rows = frame.set_index(["game", "turn"])
    checked = 0
    for game in loaded.matches[0].games:
        moved = set()
        for number, turn in enumerate(game.turns, 1):
            first = turn.player not in moved
            moved.add(turn.player)
            legal = turn.before.legal_plays(turn.roll, LONG, first_turn=first)
            row = rows.loc[(game.number, number)]
            assert row["plays"] == (len(legal) if legal[0].play.moves else 1)
            if len(legal) < 2:
                continue
            equity = {p.after: engine.evaluate(p.after).swapped().money_equity for p in legal}
            best = max(equity.values())
            assert row["best_equity"] == pytest.approx(best, abs=1e-9)
            assert row["equity"] == pytest.approx(equity[turn.after], abs=1e-9)
            assert row["error"] == pytest.approx(equity[turn.after] - best, abs=1e-9)
            checked += 1
    assert checked > 120


def test_the_per_player_totals_add_up(sample):
    loaded, frame, summary = sample
    assert list(summary.columns) == list(SUMMARY_COLUMNS) and len(summary) == 2
    for side, row in summary.set_index("side").iterrows():
        mine = frame[frame["side"] == side]
        unforced = mine[mine["plays"] > 1]
        assert row["total_moves"] == len(mine) and row["unforced_moves"] == len(unforced)
        assert row["checker_error_emg"] == pytest.approx(unforced["error"].sum())
        assert row["checker_error_rate_memg"] == pytest.approx(
            1000 * unforced["error"].mean())
        assert row["overall_error_emg"] == row["checker_error_emg"]
        assert (row["marked_doubtful"], row["marked_bad"], row["marked_very_bad"]) == tuple(
            (mine["mark"] == mark).sum() for mark in ("doubtful", "bad", "very bad"))
        assert row["unmarked_moves"] == (mine["mark"] == "").sum()
        assert pd.isna(row["cube_decisions"]) and pd.isna(row["cube_error_emg"])
        assert row["cube_rating"] is None and pd.isna(row["fibs_rating"])
        assert row["checker_rating"] == row["overall_rating"] == NO_RATING
        assert np.isfinite(row["luck_emg"]) and pd.isna(row["checker_error_mwc"])
    assert summary["luck_emg"].abs().sum() > 0


def test_the_luck_adjusted_result_is_that_of_nardy_luck(sample):
    loaded, _, summary = sample
    assert loaded.matches[0].record.length > 0  # a match to a length: points, not MWC
    luck = luck_summary(loaded)
    match = luck[luck["scope"] == "match"].set_index("side")
    assert (match["unit"] == "points").all()
    for side, row in summary.set_index("side").iterrows():
        assert row["actual_result"] == match.loc[side, "result"]
        assert row["luck_adjusted_result"] == pytest.approx(match.loc[side, "luck_adjusted"])
    assert summary["luck_adjusted_result"].tolist() == pytest.approx(
        [LUCK_ADJUSTED, -LUCK_ADJUSTED], abs=5e-4)


def test_a_missed_bear_off_costs_its_exact_equity():
    """2-1 with checkers on 2 and 1: bearing both off wins a single game (the opponent has
    borne off 14), +1. Playing 2/1 1/off leaves a checker on 1 against the opponent's one
    on 6, which bears off with 27 of the 36 throws (all but 11, 21, 31, 41, 32): the mover's
    equity is 9/36 - 27/36 = -0.5, an error of -1.5, very bad (to the bear-off table's
    step, 1/65535)."""
    frame = skill_frame(one_roll("2,1/6/0", Roll(2, 1), "2/1 1/off"))
    row = frame.iloc[0]
    assert (row["plays"], row["best"], row["mark"]) == (2, "2/off 1/off", "very bad")
    assert row["best_equity"] == 1.0 and row["equity"] == pytest.approx(-0.5, abs=1 / 65535)
    assert row["error"] == pytest.approx(-1.5, abs=1 / 65535)
    best = skill_frame(one_roll("2,1/6/0", Roll(2, 1), "2/off 1/off")).iloc[0]
    assert best["error"] == 0 and best["equity"] == 1.0 and best["mark"] == ""


def test_a_home_mars_is_worth_three_or_what_the_rules_say():
    """Bearing off the last two checkers while the opponent has all 15 home and none off is
    a home mars: 3 points, or 2 where the rules score it as a mars."""
    for rules, points in ((LONG, 3.0), (LONG.override(home_mars=2), 2.0)):
        frame = skill_frame(one_roll("2,1/6x15/0", Roll(2, 1), "2/1 1/off", rules))
        row = frame.iloc[0]
        assert row["best_equity"] == points and row["error"] == row["equity"] - points
        assert row["error"] < -0.12  # the opponent bears a checker off before the next roll


def test_a_forced_play_counts_no_error():
    frame = skill_frame(one_roll("1/6/0", Roll(2, 1), "1/off"))
    assert frame[["plays", "error", "mark"]].values.tolist() == [[1, 0.0, ""]]
    summary = skill_summary(one_roll("1/6/0", Roll(2, 1), "1/off"), frame)
    assert summary["total_moves"].tolist() == [1, 0]  # a match without a file or Match ID
    assert summary["unforced_moves"].tolist() == [0, 0]
    assert summary["checker_error_rate_memg"].tolist() == [0.0, 0.0]


def test_the_command_on_a_long_match(tmp_path):
    runner = CliRunner()
    csv, parquet = tmp_path / "decisions.csv", tmp_path / "decisions.parquet"
    done = runner.invoke(skill, [str(SAMPLE), "--json", "--csv", str(csv), "--parquet",
                                 str(parquet), "--no-progress"])
    assert done.exit_code == 0, done.output
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["side"] for r in rows] == [0, 1] and set(rows[0]) == set(SUMMARY_COLUMNS)
    assert rows[0]["cube_decisions"] is None and rows[0]["cube_rating"] is None
    assert rows[0]["unforced_moves"] > 50 and rows[0]["checker_error_emg"] < 0
    decisions = pd.read_csv(csv)
    assert list(decisions.columns) == list(DECISION_COLUMNS) and len(decisions) > 150
    assert decisions["cube_value"].isna().all() and (decisions["kind"] == "move").all()
    written = pd.read_parquet(parquet)
    assert written["cube_value"].dtype == "Int64" and written["cube_value"].isna().all()
    assert np.allclose(written["error"], decisions["error"])
    table = runner.invoke(skill, [str(SAMPLE), "--no-progress"]).stdout
    assert "player 1" in table and " - " in table and "nan" not in table
    totals = runner.invoke(skill, [str(SAMPLE), "--by", "player", "--json", "--no-progress"])
    players = {r["player"]: r for r in map(json.loads, totals.stdout.splitlines())}
    assert players["player 1"]["matches"] == 1
    assert players["player 1"]["unforced_moves"] == rows[0]["unforced_moves"]
    assert players["player 1"]["checker_error_emg"] == pytest.approx(
        rows[0]["checker_error_emg"])
    assert players["player 1"]["checker_rating"] == NO_RATING
    assert players["player 1"]["cube_decisions"] is None
    assert players["player 1"]["cube_error_rate_memg"] is None


@pytest.mark.skipif(find_spec("gnubg_nn") is None,
                    reason="gnubg-nn (the engine extra) is not installed")
def test_by_player_keeps_short_nardy_ratings_and_cube_apart_from_long_nardy():
    short = SAMPLES / "BackgammonStudio_5407469.mat"
    done = CliRunner().invoke(skill, [str(SAMPLE), str(short), "--by", "player", "--json",
                                      "--no-progress"])
    assert done.exit_code == 0, done.output
    players = {r["player"]: r for r in map(json.loads, done.stdout.splitlines())}
    assert len(players) == 4
    alone = {r["player"]: r for r in map(json.loads, CliRunner().invoke(
        skill, [str(short), "--json", "--no-progress"]).stdout.splitlines())}
    for name, row in alone.items():
        assert players[name]["cube_decisions"] == row["cube_decisions"] > 0
        assert players[name]["checker_rating"] == row["checker_rating"] != NO_RATING
    for name in ("player 1", "player 2"):
        assert players[name]["cube_decisions"] is None
        assert players[name]["cube_error_rate_memg"] is None
        assert players[name]["overall_rating"] == NO_RATING


def test_long_nardy_needs_no_engine_extra(without_gnubg_nn):
    """Without gnubg-nn a long nardy file is analysed; a short nardy one then stops the
    command with the one line that names the extra (exit status 2)."""
    runner = CliRunner()
    done = runner.invoke(skill, [str(SAMPLE), "--json", "--no-progress"])
    assert done.exit_code == 0 and len(done.stdout.splitlines()) == 2, done.output
    short = SAMPLES / "BackgammonStudio_5407469.mat"
    done = runner.invoke(skill, [str(short), str(SAMPLE), "--json", "--no-progress",
                                 "--jobs", "1"])
    assert done.exit_code == 2
    assert "pip install 'nardy-analysis[engine]'" in done.stderr
