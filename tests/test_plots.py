"""Charts: the data drawn on the returned Axes (not pixels), and `nardy plot`."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from click.testing import CliRunner  # noqa: E402
from conftest import SAMPLES  # noqa: E402

from nardy_analysis import NardyError, load_file  # noqa: E402
from nardy_analysis.analysis.audit import DiceAudit, dice_tests, simulate_rolls  # noqa: E402
from nardy_analysis.analysis.turns import turns_frame  # noqa: E402
from nardy_analysis.cli.plot import plot  # noqa: E402
from nardy_analysis.plots import (  # noqa: E402
    plot_blot_exposure,
    plot_blot_points,
    plot_cumulative_luck,
    plot_doubles,
    plot_face_counts,
    plot_hit_calibration,
    plot_hits_by_point,
    plot_p_values,
    plot_pip_race,
    plot_roll_classes,
)

STUDIO = SAMPLES / "BackgammonStudio_5407469.mat"


@pytest.fixture(scope="module")
def studio():
    return turns_frame(load_file(STUDIO))


@pytest.fixture
def ax():
    figure, ax = plt.subplots()
    yield ax
    plt.close(figure)


def by_label(ax):
    return {line.get_label(): line for line in ax.lines}


def test_pip_race_lines_hits_and_cube(studio, ax):
    assert plot_pip_race(studio, game=1, ax=ax) is ax
    lines = by_label(ax)
    pdf, p9 = lines["pdf633"], lines["p9be6"]
    # Both start at 167; pdf633 bears off the last checker on the 37th roll (file, game 1).
    assert pdf.get_ydata()[:5].tolist() == [167, 159, 159, 152, 168]
    assert p9.get_ydata()[:5].tolist() == [167, 167, 158, 158, 151]
    assert pdf.get_xdata()[-1] == 37 and pdf.get_ydata()[-1] == 0
    # Hits written with * in game 1: rolls 4 (18/16*), 5 (bar/23 21/15*), 10 (13/7*(2) 7/1*(2)).
    # Each player's hits in their own checkers' colours, labelled with who was hit.
    hit, p9_hit = lines["pdf633 was hit"], lines["p9be6 was hit"]
    assert hit.get_xdata().tolist() == [4, 10] and p9_hit.get_xdata().tolist() == [5]
    assert hit.get_ydata().tolist() == [168, pdf.get_ydata()[10]]
    assert p9_hit.get_ydata().tolist() == [151 - 10 + 25]
    assert (pdf.get_color(), hit.get_color(), p9.get_color()) == ("#f4efe1",) * 2 + (
        "#2b2b2b",)  # the checkers' fills (light, dark), as on the boards
    assert p9_hit.get_markeredgecolor() == "#000000"
    # The double before move 14 (the 25th roll) is drawn at x = 24.
    cube = [line for line in ax.lines if line.get_linestyle() == ":"]
    assert [line.get_xdata()[0] for line in cube] == [24]
    assert [t.get_text() for t in ax.texts] == ["cube 2"]
    assert ax.get_title() == "Pip race: match 5407469, game 1"
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("turn (rolls played)", "pip count (pips)")
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "pdf633", "p9be6", "pdf633 was hit", "p9be6 was hit"]


def test_pip_race_of_a_short_game_has_whole_turns_on_its_x_axis(ax):
    from nardy_analysis.notation.mat import parse_mat
    from nardy_analysis.replay import replay_match

    text = (" 1 point match\n\n Game 1\n ann : 0                  bob : 0\n"
            "  1) 42: 8/4 6/4                 31: 8/5 6/5\n"
            "      Wins 1 point and the match\n")
    plot_pip_race(turns_frame(replay_match(parse_mat(text).matches[0])), ax=ax)
    ax.figure.canvas.draw()
    ticks = [t for t in ax.get_xticks() if 0 <= t <= 2]
    assert ticks == [0, 1, 2]


def test_pip_race_stops_at_an_unknown_play(studio, ax):
    plot_pip_race(studio[studio["game"] == 2], ax=ax)
    lines = by_label(ax)
    assert np.isnan(lines["p9be6"].get_ydata()[-1])  # 31) 61: ???? then a resignation
    assert not np.isnan(lines["p9be6"].get_ydata()[-2])


def test_one_game_is_required(studio, ax):
    with pytest.raises(NardyError, match="2 games"):
        plot_pip_race(studio, ax=ax)
    with pytest.raises(NardyError, match="0 games numbered 7"):
        plot_blot_exposure(studio, game=7, ax=ax)


def test_blot_exposure_bars_and_hit_marks(studio, ax):
    assert plot_blot_exposure(studio, game=1, ax=ax) is ax
    game = studio[(studio["game"] == 1) & (studio["opponent_shots"] > 0)]
    for container, name in zip(ax.containers, ["pdf633", "p9be6"]):
        rows = game[game["player"] == name]
        assert container.get_label() == name
        assert [bar.get_height() for bar in container] == rows["opponent_shots"].tolist()
        assert [bar.get_x() + bar.get_width() / 2 for bar in container] == \
            rows["turn"].tolist()
    # Blots left by rolls 3 (pdf633) and 4 (p9be6) were hit by the next roll (see pip_race).
    hit = by_label(ax)["hit"]
    assert hit.get_xdata().tolist()[:2] == [3, 4]
    texts = [t.get_text() for t in ax.texts]
    assert texts[0] == str(game[game["player"] == "pdf633"]["blots"].iloc[0])
    assert texts == [str(n) for name in ("pdf633", "p9be6")
                     for n in game[game["player"] == name]["blots"]]
    assert ax.get_title() == "Blot exposure: match 5407469, game 1"
    assert ax.get_ylabel() == "opponent's shots (rolls out of 36)"
    assert ax.get_ylim() == (0, 41)


def test_blot_points_counts_each_blot_left():
    frame = pd.DataFrame({"blot_points": [[1, 5], [5], [], None, [24]]})
    ax = plot_blot_points(frame)
    assert ax is plt.gca()
    heights = [bar.get_height() for bar in ax.patches]
    assert len(heights) == 24
    assert heights[0] == 1 and heights[4] == 2 and heights[23] == 1 and sum(heights) == 4
    assert [bar.get_x() + bar.get_width() / 2 for bar in ax.patches] == list(range(1, 25))
    assert ax.get_title() == "Where blots are left (4 blots, 5 turns)"
    assert ax.get_ylabel() == "blots left after a play"
    plt.close(ax.figure)


def test_hit_calibration_points_and_diagonal(ax):
    frame = pd.DataFrame({"blots": [1, 1, 1, 1, 1],
                          "opponent_shots": [18, 18, 18, 18, 36],
                          "opponent_hit": pd.array([True, False, False, False, True],
                                                   dtype="boolean")})
    plot_hit_calibration(frame, ax=ax)
    diagonal = by_label(ax)["expected"]
    assert diagonal.get_xdata().tolist() == [0, 1] == diagonal.get_ydata().tolist()
    (errorbar,) = ax.containers
    points = errorbar.lines[0]
    assert points.get_xdata().tolist() == [0.5, 1.0]
    assert points.get_ydata().tolist() == [0.25, 1.0]
    # The interval (Clopper-Pearson) of 1 hit in 4: 0.0063 .. 0.8059.
    segments = errorbar.lines[2][0].get_segments()
    assert segments[0][:, 1] == pytest.approx([0.00631, 0.80589], abs=1e-4)
    assert ax.get_title() == "Observed vs expected hits (5 exposures)"
    assert ax.get_xlabel() == "hit probability (opponent's shots / 36)"
    assert ax.get_ylabel() == "fraction hit (95% binomial interval)"
    assert [t.get_text() for t in ax.texts] == ["n=4", "n=1"]
    assert ax.get_legend().get_texts()[0].get_text() == "expected"


def test_hit_calibration_of_the_dice(ax):
    """kind="dice" counts hitting rolls thrown, not hits played; many points: no n labels."""
    frame = pd.DataFrame({"blots": [1, 1, 1, 1], "opponent_shots": [18, 18, 18, 18],
                          "opponent_hit": pd.array([True, False, False, False], "boolean"),
                          "opponent_roll_hits": pd.array([True, True, True, False],
                                                         "boolean")})
    plot_hit_calibration(frame, ax=ax, kind="dice")
    (errorbar,) = ax.containers
    assert errorbar.lines[0].get_ydata().tolist() == [0.75]
    assert ax.get_title() == "Observed vs expected hitting rolls (4 exposures)"
    assert ax.get_ylabel() == ("fraction of next rolls that could hit "
                               "(95% binomial interval)")
    many = pd.DataFrame({"blots": 1, "opponent_shots": range(20),
                         "opponent_roll_hits": pd.array([False] * 20, "boolean")})
    ax.clear()
    plot_hit_calibration(many, ax=ax, kind="dice")
    assert len(ax.containers[0].lines[0].get_xdata()) == 20 and not ax.texts
    with pytest.raises(NardyError, match="'both'"):
        plot_hit_calibration(frame, ax=ax, kind="both")


def test_hits_by_point_expected_rolls_hits_and_n(ax):
    frame = pd.DataFrame({
        "blots": [1, 1, 1, 2], "blot_points": [[6], [6], [24], [6, 9]],
        "opponent_shots": [11, 13, 30, 20],
        "opponent_hit": pd.array([False, True, None, True], "boolean"),
        "opponent_roll_hits": pd.array([True, True, True, True], "boolean")})
    plot_hits_by_point(frame, ax=ax)
    expected = by_label(ax)["expected (shots / 36)"]
    assert expected.get_xdata().tolist() == [6, 24]
    assert expected.get_ydata().tolist() == pytest.approx([12 / 36, 30 / 36])
    rolls, hits = ax.containers
    assert rolls.lines[0].get_xdata().tolist() == pytest.approx([5.85, 23.85])
    assert rolls.lines[0].get_ydata().tolist() == [1.0, 1.0]
    assert hits.lines[0].get_xdata().tolist() == pytest.approx([6.15])  # 24: next play unknown
    assert hits.lines[0].get_ydata().tolist() == [0.5]
    assert [t.get_text() for t in ax.texts] == ["2", "1"]  # n per point, along the top
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "expected (shots / 36)", "hitting rolls", "hits"]
    ax.figure.canvas.draw()  # the legend is right of the Axes, clear of data and ticks
    assert ax.get_legend().get_window_extent().x0 > ax.get_window_extent().x1
    assert ax.get_title() == "Plays that left one blot, by its point (3 exposures)"


def test_cumulative_luck_sums_each_players_rolls():
    """Two games of one match, luck chosen by hand: running sums per player, game starts."""
    frame = pd.DataFrame({"match_id": "m", "game": [1, 1, 1, 2, 2],
                          "turn": [1, 2, 3, 1, 2], "side": [0, 1, 0, 1, 0],
                          "player": ["ann", "bob", "ann", "bob", "ann"],
                          "luck": [0.5, -0.25, 0.125, 1.0, -1.0]})
    ax = plot_cumulative_luck(frame)
    assert ax is plt.gca()
    ann, bob = ax.get_lines()[:2]
    assert (ann.get_label(), bob.get_label()) == ("ann", "bob")
    assert ann.get_xdata().tolist() == [1, 3, 5] and bob.get_xdata().tolist() == [2, 4]
    assert ann.get_ydata().tolist() == [0.5, 0.625, -0.375]
    assert bob.get_ydata().tolist() == [-0.25, 0.75]
    starts = [line.get_xdata()[0] for line in ax.get_lines() if line.get_linestyle() == ":"]
    assert starts == [3.5]
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("roll", "cumulative luck (equity)")
    plt.close(ax.figure)


@pytest.fixture(scope="module")
def simulated_audit():
    rolls = simulate_rolls(60, players=2, seed=1)
    return DiceAudit(dice_tests(rolls, by="player"), rolls, by="player")


def charts(studio, audit):
    """Every chart with data it can draw."""
    luck = pd.DataFrame({"match_id": "m", "game": 1, "turn": [1, 2], "side": [0, 1],
                         "player": ["ann", "bob"], "luck": [0.1, -0.1]})
    return [(plot_pip_race, studio, {"game": 1}), (plot_blot_exposure, studio, {"game": 1}),
            (plot_blot_points, studio, {}), (plot_hit_calibration, studio, {}),
            (plot_hit_calibration, studio, {"kind": "dice"}), (plot_hits_by_point, studio, {}),
            (plot_cumulative_luck, luck, {}), (plot_face_counts, audit, {}),
            (plot_roll_classes, audit, {"group": "sim 2"}), (plot_doubles, audit, {}),
            (plot_p_values, audit, {})]


def test_every_chart_draws_on_the_current_axes_and_never_shows(studio, simulated_audit,
                                                               monkeypatch):
    def show(*args, **kwargs):
        raise AssertionError("plt.show() called")

    monkeypatch.setattr(plt, "show", show)
    for chart, data, options in charts(studio, simulated_audit):
        figure, (left, right) = plt.subplots(1, 2)
        plt.sca(right)
        assert chart(data, **options) is right, chart.__name__  # ax=None: the current Axes
        assert chart(data, left, **options) is left, chart.__name__  # ax second
        assert plt.get_fignums() == [figure.number], chart.__name__  # no figure opened
        assert right.has_data() and left.get_title() == right.get_title(), chart.__name__
        plt.close(figure)


def test_simulated_audit_charts_draw_each_player(simulated_audit):
    """Group names and counts of simulated dice: 60 rolls per player."""
    ax = plot_face_counts(simulated_audit, group="sim 1")
    rolls = simulated_audit.rolls[simulated_audit.rolls["player"] == "sim 1"]
    faces = np.bincount(np.r_[rolls["roll_high"], rolls["roll_low"]], minlength=7)[1:]
    assert [bar.get_height() for bar in ax.patches] == faces.tolist()
    assert ax.get_title() == "Faces (sim 1)"
    plt.close(ax.figure)
    ax = plot_doubles(simulated_audit)
    assert sorted(t.get_text() for t in ax.get_yticklabels()) == [
        "all (120)", "sim 1 (60)", "sim 2 (60)"]
    plt.close(ax.figure)


def test_doubles_chart_draws_groups_with_no_doubles_and_only_doubles():
    """Issue 12: a player with no doubles made ``xerr`` negative (the interval of the rate
    rebuilt as ci_low + 1/6 fell a rounding error below 0)."""
    rolls = pd.concat([simulate_rolls(7, seed=1, positions=False).assign(player="never",
                                                                         roll_high=2, roll_low=1),
                       simulate_rolls(5, seed=2, positions=False).assign(player="always",
                                                                         roll_low=4, roll_high=4),
                       simulate_rolls(60, seed=3, positions=False)])
    audit = DiceAudit(dice_tests(rolls, by="player"), rolls, by="player")
    ax = plot_doubles(audit, ax=plt.figure().subplots())
    ys = {t.get_text(): y for t, y in zip(ax.get_yticklabels(), ax.get_yticks())}
    assert list(ys) == ["all (72)", "sim 1 (60)", "never (7)", "always (5)"]  # top down
    rates = {round(y): x for x, y in ax.collections[-1].get_offsets()}
    (bars,) = [c for c in ax.collections if c is not ax.collections[-1]]
    spans = {round(segment[0][1]): (segment[0][0], segment[1][0])
             for segment in bars.get_segments()}
    never, always = ys["never (7)"], ys["always (5)"]
    assert (rates[never], rates[always]) == (0, 1)
    assert spans[never] == pytest.approx((0, 1 - 0.025 ** (1 / 7)))  # Clopper-Pearson, 0 of 7
    assert spans[always] == pytest.approx((0.025 ** (1 / 5), 1))  # 5 of 5
    plt.close("all")


def test_doubles_chart_cuts_long_names():
    rolls = simulate_rolls(30, players=2, positions=False, seed=5)
    rolls["player"] = rolls["player"].map({"sim 1": "<script>alert(1)</script>", "sim 2": "ann"})
    ax = plot_doubles(DiceAudit(dice_tests(rolls, by="player"), rolls, by="player"),
                      ax=plt.figure().subplots())
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        "all (60)", "<script>alert(1)</scrip\u2026 (30)", "ann (30)"]
    plt.close("all")


def _labels_overlap(ax) -> bool:
    ax.figure.canvas.draw()
    boxes = sorted((t.get_window_extent() for t in ax.get_yticklabels() if t.get_text()),
                   key=lambda box: box.y0)
    return any(low.y1 > high.y0 for low, high in zip(boxes, boxes[1:]))


def test_doubles_chart_with_40_groups_shows_what_fits_and_says_how_many_are_left_out():
    rolls = simulate_rolls(50, players=40, positions=False, seed=4)
    rolls = rolls[rolls.index % 50 < 10 + rolls["player"].str[4:].astype(int)]  # 11..50 rolls
    audit = DiceAudit(dice_tests(rolls, by="player"), rolls, by="player")
    small = plot_doubles(audit, ax=plt.figure(figsize=(7, 3.5)).subplots())
    shown = len(small.get_yticklabels()) - 1
    assert 5 <= shown < 40 and not _labels_overlap(small)
    assert small.get_title() == f"Doubles per group (rolls); {40 - shown} other groups not shown"
    labels = [t.get_text() for t in small.get_yticklabels()]  # top down
    assert labels[:3] == ["all (1,220)", "sim 40 (50)", "sim 39 (49)"]  # most rolls first
    tall = plot_doubles(audit, ax=plt.figure(figsize=(8, 1.3 + 0.2 * 41)).subplots())
    assert len(tall.get_yticklabels()) == 41 and not _labels_overlap(tall)
    assert tall.get_title() == "Doubles per group (rolls)"
    chosen = plot_doubles(audit, ax=plt.figure(figsize=(7, 3.5)).subplots(), max_groups=3,
                          first=["sim 2", "sim 1"])  # such as the flagged groups
    assert [t.get_text() for t in chosen.get_yticklabels()] == [
        "all (1,220)", "sim 2 (12)", "sim 1 (11)", "sim 40 (50)"]
    legend = tall.get_legend().get_window_extent()
    assert legend.x0 >= tall.get_window_extent().x1  # right of the Axes, clear of the data
    plt.close("all")


def test_plot_command_writes_a_png(tmp_path):
    out = tmp_path / "race.png"
    result = CliRunner().invoke(plot, [str(STUDIO), "--game", "1", "--kind", "race",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    out = tmp_path / "exposure.svg"
    result = CliRunner().invoke(plot, [str(STUDIO), "--game", "2", "--kind", "exposure",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert b"<svg" in out.read_bytes()[:500]


def test_plot_command_usage_errors(tmp_path):
    out = tmp_path / "x.png"
    result = CliRunner().invoke(plot, [str(STUDIO), "--game", "5", "--out", str(out)])
    assert result.exit_code == 2 and "no game 5" in result.output
    result = CliRunner().invoke(plot, [str(STUDIO), "--game", "1", "--match", "2",
                                       "--out", str(out)])
    assert result.exit_code == 2 and "1 match" in result.output
    assert not out.exists()
