"""The luck tests of the dice audit (issue 15): each roll's luck against its distribution under
fair dice (analysis/luck.py's variance, fourth moment and lucky/unlucky chances;
analysis/audit.py's luck, luck_spread, lucky_rolls, unlucky_rolls and decisive_luck; nardy
audit --luck).

tests/data/cheat holds money sessions GNU Backgammon played against itself (see
tests/data/README.md): ``fair-*`` with fair dice, ``cheat11-*`` with gnubg's dice manipulation
``set cheat player 0 roll 11`` for the left-hand player (named ``helped``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from conftest import ROOT, run_in, side

from nardy_analysis import ALL_ROLLS, Position, Roll
from nardy_analysis.analysis.audit import (
    LUCK_DTYPES,
    LUCK_TESTS,
    TESTS,
    audit_dice,
    merge_counts,
    roll_counts,
    rolls_frame,
    simulate_rolls,
)
from nardy_analysis.analysis.audit.counts import _classes
from nardy_analysis.analysis.luck import LUCKY, luck_frame, roll_luck, roll_luck_distribution
from nardy_analysis.batch import audit_files, file_counts
from nardy_analysis.load import load_file, load_files

pytest.importorskip("gnubg_nn")

CHEAT = ROOT / "tests" / "data" / "cheat"
CHEATED = sorted(CHEAT.glob("cheat11-*.mat"))
FAIR = sorted(CHEAT.glob("fair-*.mat"))


def rows(frame: pd.DataFrame, test: str, group: str = "all") -> pd.Series:
    (row,) = frame[(frame["test"] == test) & (frame["group"] == group)].itertuples()
    return row


# --- the distribution of one roll's luck ----------------------------------------------------

def test_the_variance_of_a_last_roll_race_is_known():
    """Two checkers on the 6-point against an opponent who bears off next turn: only 33, 44,
    55 and 66 (4 throws of 36) bear both off; the game ends +1 or -1 (no gammon), exactly, at
    0-ply (the bear-off database). Luck of a winner 1 + 28/36, of a loser -8/36; variance
    4/36 (64/36)^2 + 32/36 (8/36)^2 = 18432/46656; fourth central moment
    4/36 (64/36)^4 + 32/36 (8/36)^4 = (4 * 64^4 + 32 * 8^4) / 36^5 = 67239936/60466176."""
    position = Position((side(p6=2), side(p1=1)), turn=0)
    winner = roll_luck_distribution(position, Roll(4, 4))
    loser = roll_luck_distribution(position, Roll(6, 5))
    assert winner.luck == pytest.approx(64 / 36, abs=1e-6)
    assert loser.luck == pytest.approx(-8 / 36, abs=1e-6)
    assert winner.variance == loser.variance == pytest.approx(18432 / 46656, abs=1e-6)
    assert winner.fourth == loser.fourth == pytest.approx(67239936 / 60466176, abs=1e-6)
    assert winner.lucky == loser.lucky == pytest.approx(4 / 36)
    assert winner.unlucky == 0.0  # -8/36 is not below -0.3
    assert roll_luck(position, Roll(4, 4)) == winner[:2]


def test_a_standard_opening_roll_has_no_distribution_of_36_throws():
    luck, equity, variance, lucky, unlucky, fourth = roll_luck_distribution(
        Position.start(), Roll(3, 1), opening=True)
    assert luck == pytest.approx(equity)  # money play: the mean of the openings is 0
    assert np.isnan([variance, lucky, unlucky, fourth]).all()


@pytest.mark.slow
def test_the_luck_frame_keeps_each_rolls_variance_next_to_its_luck():
    frame = luck_frame(load_file(FAIR[0]))
    opening = frame["turn"] == 1
    assert frame.loc[opening, ["luck_variance", "luck_fourth_moment"]].isna().all().all()
    rest = frame[~opening]
    # E[x^4] >= E[x^2]^2 (Cauchy-Schwarz), equal only when every throw's luck is +-sqrt(V)
    assert (rest["luck_fourth_moment"] >= rest["luck_variance"] ** 2 * (1 - 1e-12)).all()
    assert (rest["luck_fourth_moment"] > rest["luck_variance"] ** 2).mean() > 0.9
    assert (rest["luck_variance"] >= rest["luck"] ** 2 * 0).all()
    assert rest["luck_variance"].notna().all() and (rest["luck_variance"] > 0).mean() > 0.9
    for column in ("p_lucky", "p_unlucky"):  # shares of 36 throws
        throws = rest[column] * 36
        assert np.allclose(throws, np.rint(throws)) and rest[column].between(0, 1).all()
    # a roll marked lucky was possible, so its position's chance of one is not 0
    assert (rest.loc[rest["luck"] > LUCKY, "p_lucky"] > 0).all()
    assert (rest.loc[rest["luck"] < -LUCKY, "p_unlucky"] > 0).all()


# --- the statistics, on simulated positions --------------------------------------------------

def simulated_luck(sets: int, rolls: int, seed: int, worst: int | None = None) -> pd.DataFrame:
    """A rolls frame of ``sets`` players of ``rolls`` rolls each, every roll in a position of
    its own: 21 random best-play equities (some positions quiet, some decisive). The roll is
    thrown with fair dice (``worst`` None), or is the ``worst``-th best of the 21 (gnubg's
    manipulation ``roll N``, N = 22 - worst)."""
    rng = np.random.default_rng(seed)
    frame = simulate_rolls(rolls, players=sets, positions=False, seed=rng)
    weights = np.array([1 if r.is_double else 2 for r in ALL_ROLLS]) / 36
    equities = rng.normal(0, 1, (len(frame), 21)) * rng.gamma(0.5, 0.4, (len(frame), 1))
    mean = equities @ weights
    lucks = equities - mean[:, None]
    if worst is None:
        chosen = _classes(frame)
    else:
        chosen = np.argsort(-equities, axis=1)[:, 21 - worst]
    frame["luck"] = lucks[np.arange(len(frame)), chosen]
    frame["luck_variance"] = (lucks ** 2) @ weights
    frame["p_lucky"] = (lucks > LUCKY) @ weights
    frame["p_unlucky"] = (lucks < -LUCKY) @ weights
    frame["luck_fourth_moment"] = (lucks ** 4) @ weights
    return frame


def alarm_rates(frame: pd.DataFrame) -> pd.Series:
    tests = audit_dice(frame, by="player").frame
    tests = tests[tests["test"].isin(LUCK_TESTS) & (tests["group"] != "all")]
    return (tests.set_index("test")["p_value"] < 0.05).groupby("test").mean()


@pytest.mark.slow
def test_fair_dice_give_about_five_percent_false_alarms():
    """800 simulated players of 400 rolls: each luck test rejects at 0.05 in 5% +- 2% of
    them (the issue's bounds; binomial s.d. 0.8%), and heavily when the dice are
    manipulated: the same test on the same kind of positions can fail. The median roll of
    the 21 (gnubg's roll 11) has mean luck about 0 here (symmetric equities): the luck test
    cannot see it, luck_spread (too regular) and the mark counts do."""
    fair = alarm_rates(simulated_luck(800, 400, seed=1))
    assert set(fair.index) == set(LUCK_TESTS) and fair.between(0.03, 0.07).all(), fair
    worst = alarm_rates(simulated_luck(100, 400, seed=2, worst=8))  # below the median
    assert (worst[["luck", "luck_spread", "lucky_rolls"]] > 0.9).all(), worst
    assert worst["decisive_luck"] > 0.5, worst
    median = alarm_rates(simulated_luck(100, 400, seed=2, worst=11))
    assert (median[["luck_spread", "lucky_rolls", "unlucky_rolls"]] > 0.9).all(), median
    assert median["luck"] < 0.2, median


def test_counts_of_parts_keep_every_roll_and_give_the_tests_of_the_whole():
    frame = simulated_luck(3, 500, seed=3)
    whole = roll_counts(frame, by="player")
    cuts = [frame.iloc[:400], frame.iloc[400:1100], frame.iloc[1100:]]
    merged = merge_counts([roll_counts(part, by="player") for part in cuts], by="player")
    assert merged.luck.keys() == whole.luck.keys()
    assert all(np.array_equal(merged.luck[k], whole.luck[k]) for k in whole.luck)
    assert whole.tests == TESTS[:5] + LUCK_TESTS
    assert whole.luck_rolls("all").shape == (1500, len(LUCK_DTYPES)) == (1500, 5)
    luck = [audit_dice(c).frame.query("test in @LUCK_TESTS").drop(columns="p_adjusted")
            for c in (merged, whole)]  # (the serial test loses the pairs cut apart)
    pd.testing.assert_frame_equal(*luck)


def test_the_decisive_rolls_are_the_top_decile_of_the_variance():
    frame = simulated_luck(1, 1000, seed=4)
    result = audit_dice(frame).frame
    decisive = rows(result, "decisive_luck")
    threshold = frame["luck_variance"].quantile(0.9)
    chosen = frame[frame["luck_variance"] >= threshold]
    assert decisive.n == len(chosen) == 100
    assert decisive.observed == pytest.approx(chosen["luck"].sum())
    assert decisive.statistic == pytest.approx(
        chosen["luck"].sum() / np.sqrt(chosen["luck_variance"].sum()))
    luck = rows(result, "luck")
    assert luck.n == 1000 and luck.expected == 0
    assert luck.effect == pytest.approx(frame["luck"].mean())
    assert luck.ci_low < luck.effect < luck.ci_high


def test_the_spread_test_weighs_squared_luck_against_the_variance():
    """luck_spread: z = sum(L^2 - V) / sqrt(sum(M4 - V^2)); effect sum(L^2) / sum(V) with
    the interval +- 1.96 sqrt(sum((L^2 - V)^2)) / sum(V)."""
    frame = simulated_luck(1, 1000, seed=6)
    spread = rows(audit_dice(frame).frame, "luck_spread")
    squares, variance = frame["luck"] ** 2, frame["luck_variance"]
    assert spread.n == 1000
    assert (spread.observed, spread.expected) == pytest.approx((squares.sum(), variance.sum()))
    assert spread.statistic == pytest.approx((squares - variance).sum() / np.sqrt(
        (frame["luck_fourth_moment"] - variance ** 2).sum()))
    assert spread.effect == pytest.approx(squares.sum() / variance.sum())
    half = 1.959964 * np.sqrt(((squares - variance) ** 2).sum()) / variance.sum()
    assert (spread.ci_low, spread.ci_high) == pytest.approx(
        (spread.effect - half, spread.effect + half), rel=1e-6)
    assert spread.ci_low < 1 < spread.ci_high  # fair dice


def test_too_few_rolls_get_a_note_not_a_p_value():
    result = audit_dice(simulated_luck(1, 29, seed=5)).frame
    for test in ("luck", "luck_spread"):
        luck = rows(result, test)
        assert np.isnan(luck.p_value) and "fewer than 30" in luck.note


# --- gnubg's own manipulated dice -----------------------------------------------------------

@pytest.fixture(scope="module")
def cheated() -> list[pd.DataFrame]:
    """The audit by player of each manipulated session, and of all of them together."""
    return [audit_dice(load_files(paths), by="player", luck=True).frame
            for paths in ([path] for path in CHEATED)] + [
        audit_dice(load_files(CHEATED), by="player", luck=True).frame]


@pytest.mark.slow
def test_gnubgs_median_roll_is_caught_in_8_games(cheated):
    """``set cheat player 0 roll 11`` gives the helped player the 11th best of the 21 rolls
    every turn: never a lucky roll. In each 8-game session its lucky_rolls test has
    p < 0.001 (none where about 9 are expected), and its mean luck is below 0 (the median
    of the 21 classes is below the mean of the 36 throws); over the three sessions the luck
    test has p < 0.001 too.

    The dice are too regular: luck_spread's ratio sum(L^2) / sum(V) is about 0.23 in each
    session (fair player 0.82, 1.29, 1.00), p 0.0007, 0.014 and 0.0006 (the second session
    is not flagged at 0.001), 8e-8 over the three; its interval excludes 1 in each."""
    spread_p = []
    for frame in cheated[:-1]:
        lucky = rows(frame, "lucky_rolls", "helped")
        assert lucky.observed == 0 and lucky.expected > 5 and lucky.p_value < 0.001
        assert rows(frame, "luck", "helped").effect < 0
        assert rows(frame, "lucky_rolls", "fair").p_value > 0.01
        spread = rows(frame, "luck_spread", "helped")
        assert spread.effect < 0.5 and spread.ci_high < 1 and spread.p_value < 0.05
        assert rows(frame, "luck_spread", "fair").p_value > 0.05
        spread_p.append(spread.p_value)
    assert sum(p < 0.001 for p in spread_p) == 2, spread_p
    for test in ("luck", "luck_spread"):
        assert rows(cheated[-1], test, "helped").p_value < 0.001
        assert rows(cheated[-1], test, "fair").p_value > 0.01


@pytest.mark.slow
def test_gnubgs_fair_dice_do_not_alarm():
    frame = audit_dice(load_files(FAIR), by="player", luck=True).frame
    luck = frame[frame["test"].isin(LUCK_TESTS)]
    assert len(luck) == len(LUCK_TESTS) * 3 and (luck["n"] > 0).all()
    assert (luck["p_value"].dropna() > 0.01).all() and luck["p_value"].notna().sum() >= 12


# --- distributed runs give the serial answer ------------------------------------------------

def assert_same_tests(one: pd.DataFrame, other: pd.DataFrame):
    assert list(one["test"]) == list(other["test"])
    assert list(one["group"]) == list(other["group"])
    for column in ("n", "observed", "expected", "statistic", "p_value", "p_adjusted",
                   "effect", "ci_low", "ci_high"):
        np.testing.assert_allclose(one[column].to_numpy(float), other[column].to_numpy(float),
                                   rtol=1e-9, atol=1e-12, err_msg=column)
    for column in ("cell", "method", "note"):
        assert list(one[column]) == list(other[column]), column


@pytest.mark.parametrize("by", [None, "player"])
def test_file_by_file_on_two_processes_gives_the_serial_p_values(by):
    serial = audit_dice(load_files(CHEAT), by=by, luck=True)
    parallel = audit_files(CHEAT, by=by, luck=True, jobs=2)
    assert parallel.counts == serial.counts
    assert set(LUCK_TESTS) <= set(parallel.frame["test"])
    spread = serial.frame[serial.frame["test"] == "luck_spread"]
    assert spread[["statistic", "p_value", "effect", "ci_low"]].notna().all().all()
    assert_same_tests(parallel.frame, serial.frame)


@pytest.mark.slow
def test_a_real_dask_cluster_gives_the_serial_p_values(cluster):
    import distributed

    serial = audit_dice(load_files(CHEAT), by="player", luck=True)
    with distributed.Client(cluster) as client:
        audit = audit_files(CHEAT, by="player", luck=True, client=client)
    assert_same_tests(audit.frame, serial.frame)


def test_one_player_across_files():
    audit = audit_files(CHEAT, player="helped", luck=True)
    luck = audit.frame[audit.frame["test"] == "luck"]
    assert list(luck["group"]) == ["all"]
    counts = file_counts(CHEATED[0], player="helped", luck=True)
    assert luck["n"].iloc[0] > counts.luck_rolls().shape[0] > 150


# --- the command ----------------------------------------------------------------------------

def undated(text: str) -> str:
    import re

    return re.sub(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d\+00:00)?", "DATE", text)


@pytest.mark.parametrize("more", [["--jobs", "2"]])
def test_the_command_with_jobs_gives_the_serial_output(more, tmp_path, monkeypatch):
    args = ["audit", "--luck", "--by", "player", "--json", CHEAT]
    serial = run_in(tmp_path / "serial", [*args, "--jobs", "1"], monkeypatch, undated)
    other = run_in(tmp_path / "other", [*args, *more], monkeypatch, undated)
    assert other == serial and serial["exit"] == 0
    # all, and each player: helped and fair (manipulated sessions), player0 and player1
    assert serial["stdout"].count('"test": "decisive_luck"') == 5
    assert serial["stdout"].count('"test": "luck_spread"') == 5


@pytest.mark.slow
def test_the_command_reports_the_luck_tests(tmp_path, monkeypatch):
    done = run_in(tmp_path / "run", ["audit", "--luck", "--by", "player", "--html", "a.html",
                                     *CHEATED], monkeypatch)
    assert done["exit"] == 0
    assert "lucky_rolls   helped" in done["stdout"]
    page = done["files"]["a.html"].decode()
    assert "decisive_luck" in page and "martingale" in page
    assert "luck_spread" in page and "too regular" in page
    assert "luck_spread   helped" in done["stdout"]


def test_without_the_engine_luck_is_a_usage_error(without_gnubg_nn):
    from nardy_analysis.cli import main

    result = CliRunner().invoke(main, ["audit", "--luck", str(FAIR[0])])
    assert result.exit_code == 2
    assert "pip install 'nardy-analysis[engine]'" in result.stderr
    assert result.stderr.count("pip install") == 2  # the extra, and from a source checkout
    assert CliRunner().invoke(main, ["audit", str(FAIR[0])]).exit_code == 0


def test_luck_columns_are_optional():
    frame = rolls_frame(load_file(FAIR[0]).matches, positions=False)
    assert not set(LUCK_DTYPES) & set(frame.columns)
    assert not set(LUCK_TESTS) & set(audit_dice(frame).frame["test"])


def test_the_luck_tests_run_on_long_nardy_rolls():
    path = ROOT / "sample_games" / "long" / "simulated_match.mat"
    frame = audit_files([path], luck=True).frame
    luck = frame[frame["test"].isin(LUCK_TESTS)].set_index("test")
    rolls = luck_frame(load_file(path))
    assert len(luck) == len(LUCK_TESTS) and luck.loc["luck", "n"] == len(rolls) == 180
    assert luck.loc["luck", "observed"] == pytest.approx(rolls["luck"].sum())
    z = rolls["luck"].sum() / np.sqrt(rolls["luck_variance"].sum())
    assert luck.loc["luck", "statistic"] == pytest.approx(z)
    assert luck.loc[["luck", "luck_spread", "lucky_rolls", "unlucky_rolls"],
                    "p_value"].notna().all()
    assert not luck["note"].str.contains("does not apply").any()
