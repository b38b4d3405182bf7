"""Dice fairness audit: the statistics against scipy and book values, the rolls taken from
replayed matches, calibration on simulated dice, plots, HTML and ``nardy audit``."""

import json
import re
from fractions import Fraction
from itertools import product

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from click.testing import CliRunner  # noqa: E402
from conftest import SAMPLES, brute_force_shots, read_tsv  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from matplotlib.collections import PathCollection  # noqa: E402
from scipy import stats  # noqa: E402

from nardy_analysis import (  # noqa: E402
    ALL_ROLLS,
    InvalidArgument,
    NardyError,
    Position,
    Roll,
    load_file,
    load_files,
    replay_file,
)
from nardy_analysis.analysis.audit import (  # noqa: E402
    ABOUT,
    EFFECT_UNITS,
    MEAN_PIPS,
    VAR_PIPS,
    DiceAudit,
    audit_dice,
    dice_tests,
    poisson_binomial_test,
    rolls_frame,
    simulate_rolls,
)
from nardy_analysis.analysis.audit.counts import _factorize  # noqa: E402
from nardy_analysis.analysis.shots import shots  # noqa: E402
from nardy_analysis.cli.audit import audit  # noqa: E402
from nardy_analysis.plots.audit import (  # noqa: E402
    plot_doubles,
    plot_face_counts,
    plot_p_values,
    plot_roll_classes,
)

STUDIO = SAMPLES / "BackgammonStudio_5407469.mat"


def frame_of(dice, **columns) -> pd.DataFrame:
    """A rolls frame of one player's rolls ``[(high, low), ...]`` in one game."""
    dice = list(dice)
    return pd.DataFrame({"file": "t.mat", "match": 1, "game": 1,
                         "move": range(1, len(dice) + 1), "player": "alice",
                         "roll_high": [max(d) for d in dice], "roll_low": [min(d) for d in dice],
                         "opening": False, **columns})


def row(frame: pd.DataFrame, test: str, group: str = "all") -> pd.Series:
    (index,) = frame.index[(frame["test"] == test) & (frame["group"] == group)]
    return frame.loc[index]


THROWS = list(product(range(1, 7), repeat=2))  # the 36 equally likely throws
# The seven tests the README lists, in report order: the five on the dice alone, then the two
# that need positions.
SEVEN_TESTS = ("doubles", "roll_classes", "faces", "pips", "serial", "bar_entry",
               "hits_on_blots")


# -- the statistics ----------------------------------------------------------------------------

def test_fair_dice_constants_from_the_36_throws():
    # Books give 8 1/6 pips per roll (doubles counted four times).
    pips = [Roll(a, b).pips for a, b in THROWS]
    mean = Fraction(sum(pips), 36)
    assert mean == Fraction(49, 6) and MEAN_PIPS == pytest.approx(49 / 6)
    assert VAR_PIPS == pytest.approx(float(sum((p - mean) ** 2 for p in pips) / 36))
    assert VAR_PIPS == pytest.approx(665 / 36)


def test_every_throw_once_fits_perfectly():
    results = dice_tests(frame_of(THROWS * 10))
    assert list(results["test"]) == list(SEVEN_TESTS[:5])
    doubles = row(results, "doubles")
    assert (doubles.n, doubles.observed, doubles.expected) == (360, 60, 60)
    assert doubles.p_value == pytest.approx(1.0)
    for test in ("roll_classes", "faces"):
        assert row(results, test).statistic == pytest.approx(0)
        assert row(results, test).p_value == pytest.approx(1)
    assert row(results, "faces").n == 720
    assert row(results, "pips").observed == pytest.approx(49 / 6)
    assert row(results, "pips").effect == pytest.approx(0)


def test_doubles_test_is_scipys_binomial_test_with_clopper_pearson_interval():
    dice = [(3, 3)] * 30 + [(4, 1)] * 120
    doubles = row(dice_tests(frame_of(dice)), "doubles")
    scipy_result = stats.binomtest(30, 150, 1 / 6)
    interval = scipy_result.proportion_ci(confidence_level=0.95, method="exact")
    assert doubles.p_value == pytest.approx(scipy_result.pvalue)
    assert doubles.effect == pytest.approx(30 / 150 - 1 / 6)
    assert doubles.ci_low + 1 / 6 == pytest.approx(interval.low)
    assert doubles.ci_high + 1 / 6 == pytest.approx(interval.high)


def test_roll_classes_use_1_and_2_of_36_and_name_the_worst_class():
    dice = [d for d in THROWS for _ in range(10)] + [(6, 6)] * 20
    result = row(dice_tests(frame_of(dice)), "roll_classes")
    counts = np.array([10 * (1 if r.is_double else 2) + 20 * (str(r) == "66")
                       for r in ALL_ROLLS])
    expected = 380 * np.array([1 if r.is_double else 2 for r in ALL_ROLLS]) / 36
    assert result.p_value == pytest.approx(stats.chisquare(counts, expected).pvalue)
    assert (result.cell, result.observed) == ("66", 30)
    assert result.expected == pytest.approx(380 / 36)


def test_cell_interval_is_simultaneous_over_the_cells_and_a_disagreement_is_noted():
    # 66 is 2.4 standard deviations high: a plain 95% interval of its rate excludes 1/36,
    # although the chi-square test of the 21 classes is far from significant.
    dice = [d for d in THROWS for _ in range(100)] + [(6, 6)] * 25
    result = row(dice_tests(frame_of(dice)), "roll_classes")
    plain = stats.binomtest(125, 3625).proportion_ci(method="exact")
    assert plain.low > 1 / 36 and result.p_value > 0.05
    wide = stats.binomtest(125, 3625).proportion_ci(1 - 0.05 / 21, method="exact")
    assert result.ci_low == pytest.approx(wide.low - 1 / 36)
    assert result.ci_high == pytest.approx(wide.high - 1 / 36)
    assert result.ci_low < 0 < result.ci_high and result.note == ""
    assert "Bonferroni" in result.method and "21 cells" in result.method
    assert "Bonferroni" in row(dice_tests(frame_of(dice)), "faces").method
    # 3.4 standard deviations: even the simultaneous interval excludes 0; the note says so.
    result = row(dice_tests(frame_of(dice + [(6, 6)] * 10)), "roll_classes")
    assert result.ci_low > 0 and result.p_value > 0.05
    assert "not significant" in result.note


def test_the_2009_bug_is_found():
    # The site bug found in 2009: about 9% doubles and 7.6 pips per roll.
    results = dice_tests(simulate_rolls(3000, doubles=0.09, seed=2009, positions=False))
    assert row(results, "doubles").p_adjusted < 0.001
    assert row(results, "pips").observed == pytest.approx(7.6, abs=0.15)
    assert row(results, "pips").p_adjusted < 0.001
    assert row(results, "faces").p_value > 0.01  # each die alone still looks fair


def test_too_few_rolls_say_so_instead_of_a_p_value():
    results = dice_tests(frame_of(THROWS[:10]))
    for test in ("roll_classes", "pips"):
        assert np.isnan(row(results, test).p_value)
        assert "too few" in row(results, test).note
    assert row(results, "doubles").note == ""  # ten doubles in ten rolls would be found
    one = row(dice_tests(frame_of(THROWS[:1])), "doubles")
    assert "too few" in one.note and one.p_value > 0.05  # exact: kept, but never small
    assert "too few" in row(results, "faces").note  # 20 dice: 3.3 expected per face
    assert "few pairs" in row(results, "serial").note and "Fisher" in row(results, "serial").method
    assert row(dice_tests(frame_of(THROWS[:15])), "faces").note == ""  # 30 dice: 5 per face
    empty = dice_tests(frame_of([]))
    assert (empty["n"] == 0).all() and empty["p_value"].isna().all()


def test_opening_rolls_are_left_out_unless_included():
    frame = frame_of([(2, 1), (3, 3), (4, 4)])
    frame["opening"] = [True, False, False]
    assert row(dice_tests(frame), "doubles").n == 2
    assert row(dice_tests(frame, include_opening=True), "doubles").n == 3


def test_serial_dependence_of_doubles_is_detected():
    rng = np.random.default_rng(5)
    independent = simulate_rolls(3000, seed=5, positions=False)
    assert row(dice_tests(independent), "serial").p_value > 0.05
    # After a double, the next roll repeats it half of the time.
    dice = [(6, 5)]
    for _ in range(2999):
        last = dice[-1]
        dice.append(last if last[0] == last[1] and rng.random() < 0.5
                    else tuple(rng.integers(1, 7, 2)))
    serial = row(dice_tests(frame_of(dice)), "serial")
    assert serial.p_value < 1e-6 and serial.effect > 0.2
    assert serial.n == 2999  # pairs


def test_serial_pairs_stay_within_one_players_game():
    frame = frame_of([(1, 1), (2, 2), (3, 3), (4, 4)])
    frame["player"] = ["a", "b", "a", "b"]
    assert row(dice_tests(frame), "serial").n == 2


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 300), st.integers(1, 35), st.data())
def test_poisson_binomial_with_one_probability_is_the_binomial_test(n, shots_, data):
    k = data.draw(st.integers(0, n))
    p_value, method = poisson_binomial_test(k, [shots_ / 36] * n)
    assert method == "exact"
    assert p_value == pytest.approx(stats.binomtest(k, n, shots_ / 36).pvalue, rel=1e-6)


def test_poisson_binomial_normal_branch_agrees_with_the_exact_one():
    p = np.resize(np.arange(1, 36) / 36, 10_000)
    exact, method = poisson_binomial_test(int(p.sum()) + 80, p)
    assert method == "exact"
    normal, method = poisson_binomial_test(int(p.sum()) + 80, np.append(p, 0.5))
    assert method == "normal"
    assert normal == pytest.approx(exact, rel=0.05)


def test_p_values_are_adjusted_by_benjamini_hochberg_over_the_report():
    results = dice_tests(simulate_rolls(500, players=4, doubles=0.22, seed=3), by="player")
    tested = results["p_value"].notna()
    assert tested.sum() == 5 * 7
    assert np.allclose(results.loc[tested, "p_adjusted"],
                       stats.false_discovery_control(results.loc[tested, "p_value"]))
    assert list(results["group"][:5]) == ["all", "sim 1", "sim 2", "sim 3", "sim 4"]


def test_a_missing_column_is_an_error():
    with pytest.raises(NardyError, match="roll_low"):
        dice_tests(frame_of(THROWS).drop(columns="roll_low"))
    with pytest.raises(NardyError, match="site"):
        dice_tests(frame_of(THROWS), by="site")


# -- calibration -------------------------------------------------------------------------------

@pytest.mark.slow
def test_calibration_false_alarms_about_5_percent_and_power_against_20_percent_doubles():
    fair = dice_tests(simulate_rolls(500, players=1000, seed=2024), by="player")
    fair = fair[fair["group"] != "all"]
    alarms = fair.groupby("test")["p_value"].apply(lambda p: (p < 0.05).mean())
    assert set(alarms.index) == set(SEVEN_TESTS)
    # 1000 data sets: 5% + 2 points is 3 standard errors. The exact (discrete) tests may
    # be a little conservative, not much: at least 2%.
    assert alarms.between(0.02, 0.07).all(), alarms
    loaded = dice_tests(simulate_rolls(5000, players=100, doubles=0.2, seed=2025), by="player")
    doubles = loaded[(loaded["test"] == "doubles") & (loaded["group"] != "all")]
    assert (doubles["p_adjusted"] < 0.05).mean() >= 0.95


# -- rolls from replayed matches ---------------------------------------------------------------

def test_every_written_roll_is_a_row():
    expected = {r["file"]: r for r in read_tsv(SAMPLES / "EXPECTED.tsv")}
    for name, facts in expected.items():
        matches = replay_file(SAMPLES / name)
        rolls = rolls_frame(matches, positions=False)
        assert len(rolls) == int(facts["turns"]), name
        assert rolls["opening"].sum() == sum(1 for m in matches for g in m.games
                                             if g.record.turns)
        assert rolls["match"].max() == int(facts["matches"])


def test_rolls_after_a_rule_violation_count_without_positions():
    rolls = rolls_frame(replay_file(SAMPLES / "broken" / "illegal_blocked_point.mat"))
    assert list(rolls["dice"]) == ["31", "64"]
    assert rolls["on_bar"].isna().tolist() == [False, True]


def test_studio_rolls_from_the_bar():
    rolls = rolls_frame(replay_file(STUDIO)).set_index(["game", "move", "side"])
    assert rolls.loc[(1, 3, 0), ["dice", "on_bar", "entered"]].tolist() == ["62", 1, True]
    # 64: Cannot Move against four closed points
    assert rolls.loc[(2, 13, 1), ["closed_points", "entered"]].tolist() == [4, False]
    assert rolls["site"].unique().tolist() == ["Backgammon Studio"]
    assert set(rolls["player"]) == {"pdf633", "p9be6"}


def check_positions_agree_with_the_plays(paths) -> int:
    """From the bar, a roll enters exactly when its play is not empty; a play that hits was
    thrown with a hitting roll. Returns how many rolls were checked."""
    matches = [match for path in paths for match in replay_file(path)]
    rolls = rolls_frame(matches)
    plays = [g.turns[i].play if i < len(g.turns) else None
             for m in matches for g in m.games for i in range(len(g.record.turns))]
    checked = 0
    for (_, roll), play in zip(rolls.iterrows(), plays, strict=True):
        if play is None:
            continue
        if roll["on_bar"] > 0:
            assert roll["entered"] == bool(play.moves), (roll["file"], roll["move"])
            checked += 1
        if any(move.hit for move in play.moves):
            assert roll["hitting_roll"] is True, (roll["file"], roll["move"])
            checked += 1
    return checked


@pytest.mark.parametrize("path", [STUDIO, SAMPLES / "BackgammonStudio_6783333.mat",
                                  SAMPLES / "galaxy_style_crawford.mat"])
def test_positions_agree_with_the_plays(path):
    assert check_positions_agree_with_the_plays([path]) >= 4


def test_positions_agree_with_the_plays_in_the_corpus(corpus_files):
    assert check_positions_agree_with_the_plays(corpus_files[:25]) > 500


def _bar_position(closed: int) -> Position:
    """One checker of the player on roll on the bar; the opponent holds its points 1..closed."""
    me, opponent = [0] * 26, [0] * 26
    me[25], me[3] = 1, 14
    for point in range(1, closed + 1):
        opponent[point] = 2
    opponent[13] = 15 - 2 * closed
    return Position.from_mover(me, opponent)


@pytest.mark.parametrize("closed, entering", [(1, 35), (2, 32), (3, 27), (4, 20), (5, 11)])
def test_bar_entry_expectation_is_the_book_table(closed, entering):
    # Entering one checker against 1..5 closed points: 35, 32, 27, 20, 11 of 36 throws.
    position = _bar_position(closed)
    enters = [any(p.moves for p, _ in position.legal_plays(Roll(a, b)))
              for a, b in THROWS]
    assert sum(enters) == entering
    frame = frame_of(THROWS, closed_points=closed, entered=enters)
    result = row(dice_tests(frame), "bar_entry")
    assert (result.n, result.observed) == (36, entering)
    assert result.expected == pytest.approx(entering)
    assert result.p_value == pytest.approx(1)


def test_hits_on_blots_expectation_is_the_shot_count():
    # A blot 6 pips in front of the hitter's checkers: 17 of 36 throws hit (direct 6).
    me, opponent = [0] * 26, [0] * 26
    me[13] = 15
    opponent[25 - 7], opponent[1] = 1, 14
    position = Position.from_mover(me, opponent)
    found = shots(position)
    assert found.count == 17
    hitting = [any(m.hit for p, _ in position.legal_plays(Roll(a, b)) for m in p.moves)
               for a, b in THROWS]
    frame = frame_of(THROWS, shots=found.count, hitting_roll=hitting)
    result = row(dice_tests(frame), "hits_on_blots")
    assert (result.n, result.observed, result.expected) == (36, 17, pytest.approx(17))
    assert "exact" in result.method


# -- report, plots, command line ---------------------------------------------------------------

def informative_rolls(paths) -> tuple[int, int]:
    """Rolls after the opening roll whose chance to enter from the bar, or to hit a blot, is
    neither 0 nor 1: on the bar against 1 to 5 closed home points, or at a blot that some but
    not all 36 throws hit (counted by brute force over the legal plays)."""
    bar = blots = 0
    for path in paths:
        for match in replay_file(path):
            for game in match.games:
                for turn in game.turns[1:]:
                    me, opponent = turn.before.on_roll, turn.before.opponent
                    if me[25]:
                        bar += 0 < sum(opponent[point] >= 2 for point in range(1, 7)) < 6
                    if 1 in opponent[1:25]:
                        blots += 0 < brute_force_shots(turn.before) < 36
    return bar, blots


@pytest.fixture(scope="module")
def sample_audit():
    return audit_dice(load_files([STUDIO, SAMPLES / "BackgammonStudio_6783333.mat"]),
                      by="player")


@pytest.mark.slow
def test_audit_dice_reports_every_test_for_all_and_each_player(sample_audit):
    frame = sample_audit.frame
    assert set(frame["group"]) == {"all", *sample_audit.rolls["player"]}
    assert frame["group"].nunique() == 5
    assert list(frame.loc[frame["group"] == "all", "test"]) == list(SEVEN_TESTS)
    assert row(frame, "doubles").n == 98 + 72 - 3  # three opening rolls left out
    assert (row(frame, "bar_entry").n, row(frame, "hits_on_blots").n) == \
        informative_rolls([STUDIO, SAMPLES / "BackgammonStudio_6783333.mat"]) == (38, 72)
    text = sample_audit.summary()
    assert "167 rolls" in text and "hits_on_blots" in text


def test_summary_lists_each_group_with_its_doubles_and_interval(sample_audit):
    text = sample_audit.summary()
    assert "Groups by player (4)" in text
    lines = text.splitlines()
    frame = sample_audit.frame
    for player in set(sample_audit.rolls["player"]):
        doubles = row(frame, "doubles", player)
        low, high = stats.binomtest(int(doubles.observed), int(doubles.n)).proportion_ci()
        (line,) = [line for line in lines if line.strip().startswith(player)]
        assert line.split()[1:4] == [f"{doubles.n}", f"{doubles.observed:.0f}",
                                     f"{doubles.n / 6:.1f}"], line
        assert (f"{doubles.observed / doubles.n:.3f} [{low:.3f}, {high:.3f}]" in line), line


def test_the_repr_is_one_short_line(sample_audit):
    flagged = len(sample_audit.flagged())
    assert repr(sample_audit) == (f"<DiceAudit: 167 rolls, 4 groups by player, "
                                  f"{len(sample_audit.frame)} results, {flagged} flagged at 0.05>")
    one = audit_dice(load_file(SAMPLES / "BackgammonStudio_6783333.mat"))
    assert repr(one) == "<DiceAudit: 71 rolls, 7 results, 0 flagged at 0.05>"


def test_an_audit_of_neither_rolls_nor_counts_is_an_invalid_argument():
    rolls = simulate_rolls(50, positions=False, seed=1)
    with pytest.raises(InvalidArgument, match="needs the rolls or the counts"):
        DiceAudit(dice_tests(rolls))


def test_the_group_lines_write_every_number_with_thousands_separated():
    rolls = simulate_rolls(2100, players=2, positions=False, seed=3)
    audit = DiceAudit(dice_tests(rolls, by="player"), rolls, by="player")
    text = audit.summary().splitlines()
    groups = [line for line in text if line.startswith("  sim ")]
    assert len(groups) == 2
    assert all(re.search(r" 2,\d{3} +\d+ +\d+\.\d  ", line) for line in groups), groups
    results = [line for line in text
               if line.startswith(("  faces  ", "  doubles  ")) and " all " in line]
    assert results and all(re.search(r" [48],[0-9]{3} ", line) for line in results), results
    assert not any(re.search(r"(?<![.\d])\d{4}", line) for line in groups + results)


def test_summary_says_what_when_which_version_and_what_each_test_means(sample_audit):
    import nardy_analysis

    text = sample_audit.summary()
    head, run = text.splitlines()[:2]
    assert head == ("Dice audit: 167 rolls (opening rolls excluded) from 2 files "
                    f"({STUDIO}, {SAMPLES / 'BackgammonStudio_6783333.mat'}), "
                    "4 groups by player.")
    assert run.startswith(f"Run {sample_audit.created:%Y-%m-%d %H:%M} UTC by nardy_analysis "
                          f"{nardy_analysis.__version__};")
    assert abs(pd.Timestamp.now(tz="UTC") - sample_audit.created) < pd.Timedelta(minutes=10)
    flat = " ".join(text.split())
    for test in SEVEN_TESTS:
        assert " ".join(ABOUT[test].split()) in flat and f"effect: {EFFECT_UNITS[test]}." in flat
    assert "mean pips per roll minus 8.17, pips" in flat
    assert "doubles rate minus 1/6, proportion of rolls" in flat


def test_summary_rows_are_sorted_by_adjusted_p(sample_audit):
    lines = sample_audit.summary().splitlines()
    start = lines.index(next(line for line in lines if line.startswith("  test ")))
    tests = [line.split()[0] for line in lines[start + 1:start + 8]]
    everyone = sample_audit.frame[sample_audit.frame["group"] == "all"]
    ordered = everyone.sort_values(["p_adjusted", "p_value"], na_position="last", kind="stable")
    assert tests == ordered["test"].tolist() and sorted(tests) == sorted(SEVEN_TESTS)
    assert tests != list(SEVEN_TESTS)  # the order is not the report order by chance
    adjusted = ordered["p_adjusted"].dropna().tolist()
    assert adjusted == sorted(adjusted)


def test_about_says_what_was_audited_as_json(sample_audit):
    about = json.loads(json.dumps(sample_audit.about()))
    assert about["files"] == [str(STUDIO), str(SAMPLES / "BackgammonStudio_6783333.mat")]
    assert (about["rolls"], about["by"], about["player"]) == (167, "player", None)
    assert about["date"] == sample_audit.created.isoformat(timespec="seconds")
    assert list(about["tests"]) == list(SEVEN_TESTS)
    assert about["tests"]["pips"]["effect"] == "mean pips per roll minus 8.17, pips"
    assert about["include_opening"] is False  # short nardy: the opening roll left out


def test_the_json_says_long_nardys_opening_rolls_are_counted():
    """In long nardy the first roll is an ordinary one and is counted: the JSON says what
    the text says, with or without --include-opening."""
    long = str(SAMPLES / "long")
    done = CliRunner().invoke(audit, [long, "--json"])
    assert done.exit_code == 0, done.output
    about = json.loads(done.stdout.splitlines()[0])["audit"]
    assert about["include_opening"] is True and about["rolls"] == 180
    assert "opening rolls included" in CliRunner().invoke(audit, [long]).stdout
    assert audit_dice(load_files([long])).about()["include_opening"] is True


# -- one player --------------------------------------------------------------------------------

def test_one_players_dice_across_files():
    rolls = pd.concat([frame_of(THROWS, file="a.mat"), frame_of(THROWS[:6], file="b.mat"),
                       frame_of([(1, 1)] * 7, file="c.mat").assign(player="bob")])
    audit_ = audit_dice(rolls, player="alice")
    assert audit_.player == "alice" and audit_.files == ["a.mat", "b.mat"]
    assert row(audit_.frame, "doubles").n == 42 and row(audit_.frame, "doubles").observed == 7
    assert "from 2 files (a.mat, b.mat), player alice." in audit_.summary()
    assert audit_dice(rolls, player="bob").frame.equals(
        dice_tests(rolls[rolls["player"] == "bob"]))


def test_an_unknown_player_names_the_players_closest_first():
    rolls = pd.concat([frame_of(THROWS).assign(player=name) for name in
                       ("Smith, José", "bob", "Boris", "alice", "Borislav")])
    with pytest.raises(InvalidArgument) as raised:
        audit_dice(rolls, player="boris")
    assert str(raised.value) == (
        "no rolls of player 'boris' in 1 file; the players are (closest first): 'Boris', "
        "'Borislav', 'bob', 'Smith, José', 'alice'")
    assert isinstance(raised.value, ValueError)


def test_player_option_audits_one_player_and_an_unknown_name_is_exit_1():
    result = CliRunner().invoke(audit, ["--no-progress", "--player", "p9be6", str(STUDIO),
                                        str(SAMPLES / "BackgammonStudio_6783333.mat")])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"Dice audit: 48 rolls (opening rolls excluded) from 1 "
                                    f"file ({STUDIO}), player p9be6.")
    result = CliRunner().invoke(audit, ["--no-progress", "--player", "p9be", str(STUDIO)])
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == ("nardy audit: no rolls of player 'p9be' in 1 file; the players "
                             "are (closest first): 'p9be6', 'pdf633'\n")


# -- the charts agree with the table -----------------------------------------------------------

@pytest.mark.slow
def test_charts_mark_red_only_what_the_table_flags_on_fair_dice():
    """Over many fair audits a chart has red bars only when the table flags its test (a
    flagged test may have no cell outside its range); with every null hypothesis true,
    Benjamini-Hochberg keeps the share of audits with any flag (the family-wise rate) at or
    below 0.05. A plain 95% range per bar, the old rule, marks most fair audits red."""
    audits, red, plain = 60, 0, 0
    for seed in range(audits):
        audit_ = audit_dice(simulate_rolls(200, players=3, positions=False, seed=seed),
                            by="player")
        any_red = any_plain = False
        for group, test in product(["all", "sim 1", "sim 2", "sim 3"], ["faces", "roll_classes"]):
            cells = audit_.cells(test, group)
            flagged = row(audit_.frame, test, group).p_adjusted < 0.05
            assert flagged or not cells["significant"].any(), (seed, group, test)
            any_red |= flagged
            n, p = cells["observed"].sum(), cells["expected"] / cells["observed"].sum()
            any_plain |= ((cells["observed"] < stats.binom.ppf(0.025, n, p))
                          | (cells["observed"] > stats.binom.ppf(0.975, n, p))).any()
        red += any_red
        plain += any_plain
    assert red / audits <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / audits)
    assert plain / audits > 0.8


@pytest.mark.slow
def test_a_cell_is_outside_its_range_exactly_when_the_tables_interval_excludes_it():
    for seed in range(30):
        audit_ = audit_dice(simulate_rolls(300, positions=False, seed=seed,
                                           doubles=0.1 + 0.005 * seed))
        for test in ("faces", "roll_classes"):
            result = row(audit_.frame, test)
            cells = audit_.cells(test).set_index("cell")
            named = cells.loc[result.cell.removeprefix("face ")]
            outside = named.observed < named.low or named.observed > named.high
            assert outside == (result.ci_low > 0 or result.ci_high < 0), (seed, test)


def test_loaded_dice_are_red_in_the_charts_and_flagged_in_the_table():
    audit_ = audit_dice(simulate_rolls(3000, doubles=0.09, positions=False, seed=5))
    cells = audit_.cells("roll_classes")
    assert row(audit_.frame, "roll_classes").p_adjusted < 0.05
    red = set(cells.loc[cells["significant"], "cell"])
    assert red <= {"11", "22", "33", "44", "55", "66"} and len(red) >= 4  # too few doubles
    assert not audit_.cells("faces")["significant"].any()  # a fair face count: no flag
    assert row(audit_.frame, "faces").p_adjusted >= 0.05


def test_cells_of_an_unknown_group_or_test_are_an_invalid_argument(sample_audit):
    with pytest.raises(InvalidArgument, match="no group 'nobody'.*p9be6"):
        sample_audit.cells("faces", "nobody")
    with pytest.raises(InvalidArgument, match="not 'pips'"):
        sample_audit.cells("pips")


def test_no_positions_says_not_computed_instead_of_nan():
    result = CliRunner().invoke(audit, ["--no-positions", "--no-progress", str(STUDIO)])
    assert result.exit_code == 0, result.output
    assert "nan" not in result.stdout
    lines = [line for line in result.stdout.splitlines()
             if line.split()[:2] in (["bar_entry", "all"], ["hits_on_blots", "all"])]
    assert len(lines) == 2 and all("not computed" in line for line in lines)


def test_plots_draw_the_counts_and_return_the_axes(sample_audit):
    """Counts drawn are those of the rolls themselves; the 95% ranges are scipy's."""
    rolls = sample_audit.rolls
    high, low = rolls["roll_high"].to_numpy(), rolls["roll_low"].to_numpy()
    _, axes = plt.subplots(2, 2)
    plt.sca(axes[0, 0])
    ax = plot_face_counts(sample_audit)  # ax=None: the current Axes
    assert ax is axes[0, 0]
    heights = [patch.get_height() for patch in ax.patches]
    assert sum(heights) == 2 * 167 and len(heights) == 6
    assert heights == np.bincount(np.r_[high, low], minlength=7)[1:].tolist()
    assert [t.get_text() for t in ax.get_xticklabels()] == list("123456")
    assert (ax.get_title(), ax.get_xlabel(), ax.get_ylabel()) == ("Faces (all)", "face", "count")
    (errorbar,) = [c for c in ax.containers if c.get_label().startswith("expected")]
    assert errorbar.lines[0].get_ydata().tolist() == pytest.approx([2 * 167 / 6] * 6)
    low_high = stats.binom.ppf([0.025 / 6, 1 - 0.025 / 6], 2 * 167, 1 / 6)  # over 6 faces
    assert errorbar.lines[2][0].get_segments()[0][:, 1] == pytest.approx(low_high)
    ax = plot_roll_classes(sample_audit, ax=axes[0, 1])
    assert len(ax.patches) == 21
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels[:3] == ["11", "21", "22"] and labels[-1] == "66"
    thrown = pd.Series([f"{h}{lo}" for h, lo in zip(high, low)]).value_counts()
    assert [patch.get_height() for patch in ax.patches] == [thrown.get(c, 0) for c in labels]
    assert ax.get_title() == "Roll classes (all)" and ax.get_xlabel() == "roll"
    ax = plot_doubles(sample_audit, ax=axes[1, 0])
    ticks = dict(zip(ax.get_yticks(), [label.get_text() for label in ax.get_yticklabels()]))
    assert [ticks[y] for y in sorted(ticks, reverse=True)] == [  # top down; most rolls first
        "all (167)", "p9be6 (48)", "pdf633 (48)", "p768f632 (36)", "p27409 (35)"]
    doubles = pd.Series(high == low).groupby(rolls["player"].to_numpy()).mean()
    (dots,) = [c for c in ax.collections if isinstance(c, PathCollection)]
    rates = {y: x for x, y in dots.get_offsets()}
    assert rates[4] == pytest.approx((high == low).mean()) == pytest.approx(35 / 167)
    assert [rates[y] for y in (3, 2, 1, 0)] == pytest.approx(
        doubles[["p9be6", "pdf633", "p768f632", "p27409"]].tolist())
    fair = [line for line in ax.lines if line.get_linestyle() == "--"]
    assert [line.get_xdata()[0] for line in fair] == [pytest.approx(1 / 6)]
    ax = plot_p_values(sample_audit, ax=axes[1, 1])
    tested = sample_audit.frame["p_value"].dropna()
    assert len(ax.collections[0].get_offsets()) == tested.notna().sum() == 30
    assert sorted(ax.collections[0].get_offsets()[:, 1]) == pytest.approx(sorted(tested))
    assert ax.get_yscale() == "log" and ax.get_ylabel() == "p-value (raw)"
    for ax in axes.flat:  # the legend says what red means
        assert any("significant" in t.get_text() or "outside" in t.get_text()
                   for t in ax.get_legend().get_texts())
    plt.close("all")


@pytest.mark.slow
def test_json_lines_html_and_exit_status(tmp_path):
    page = tmp_path / "audit.html"
    result = CliRunner().invoke(audit, ["--json", "--by", "site", "--html", str(page),
                                        str(STUDIO), str(SAMPLES / "galaxy_style_crawford.mat")])
    assert result.exit_code == 0, result.output
    about, *objects = [json.loads(line) for line in result.stdout.splitlines()]
    assert list(about) == ["audit"] and len(about["audit"]["files"]) == 2
    assert about["audit"]["tests"]["doubles"]["about"] == ABOUT["doubles"]
    assert [o["test"] for o in objects if o["group"] == "all"] == list(SEVEN_TESTS)
    assert {o["group"] for o in objects} == {"all", "Backgammon Studio", "Nardy Club"}
    for obj in objects:
        assert set(obj) >= {"test", "group", "n", "observed", "expected", "statistic",
                            "p_value", "p_adjusted"}
    text = page.read_text(encoding="utf-8")
    # The four charts of all rolls, and faces and roll classes of each flagged group.
    flagged = text.count("<h2>Flagged group: ")
    assert text.count("data:image/png;base64,") == 4 + 2 * flagged and "<table" in text
    table = text[text.index("<h2>Results of all rolls"):]
    assert ">None<" not in table and ">nan<" not in table and "e+0" not in table
    assert "<td>\u2013</td>" in table


def test_unreadable_files_are_skipped_with_exit_1(tmp_path):
    (tmp_path / "bad.mat").write_bytes(b" 3 point match\n\n Game 1\n a : 0  b : 0\n  1) 31: x\n")
    (tmp_path / "good.mat").write_bytes(STUDIO.read_bytes())
    result = CliRunner().invoke(audit, ["--no-progress", str(tmp_path)])
    assert result.exit_code == 1
    assert "bad.mat" in result.stderr and "skipped" in result.stderr
    assert "Dice audit: 96 rolls" in result.stdout


def test_usage_errors_exit_2():
    runner = CliRunner()
    assert runner.invoke(audit, []).exit_code == 2
    assert runner.invoke(audit, ["--by", "moon", str(STUDIO)]).exit_code == 2
    assert runner.invoke(audit, ["/no/such/file.mat"]).exit_code == 2


def test_poisson_binomial_intervals_stay_within_what_the_rolls_can_give():
    """A rate of successes lies in 0..1: its effect (observed minus expected, per roll) in
    -expected/n .. 1 - expected/n, however few the rolls (the normal interval is cut)."""
    frame = audit_dice(load_files(SAMPLES), by="player").frame
    rows = frame[frame["test"].isin(["bar_entry", "hits_on_blots"]) & (frame["n"] > 1)]
    assert len(rows) > 20
    assert (rows["ci_low"] >= -rows["expected"] / rows["n"] - 1e-12).all()
    assert (rows["ci_high"] <= 1 - rows["expected"] / rows["n"] + 1e-12).all()
    assert ((rows["ci_low"] <= rows["effect"] + 1e-12)
            & (rows["effect"] <= rows["ci_high"] + 1e-12)).all()
    assert (rows["ci_low"] == -rows["expected"] / rows["n"]).any()  # the cut is needed


@pytest.mark.slow
@given(st.lists(st.text(max_size=3), max_size=40))
def test_a_files_groups_are_factorized_as_pandas_does(values):
    """match_counts codes one file's players or sites in Python; the codes and the sorted
    distinct values are those of pandas.factorize(sort=True)."""
    codes, uniques = _factorize(tuple(values))
    expected_codes, expected_uniques = pd.factorize(np.array(values, dtype=object), sort=True)
    assert codes.tolist() == expected_codes.tolist()
    assert list(uniques) == list(expected_uniques)
