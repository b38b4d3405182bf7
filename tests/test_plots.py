"""Charts: the data drawn on the returned Axes (not pixels), and `nardy plot`."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from click.testing import CliRunner  # noqa: E402

from conftest import SAMPLES  # noqa: E402
from nardy_analysis import NardyError  # noqa: E402
from nardy_analysis.analysis.turns import turns_frame  # noqa: E402
from nardy_analysis.plots.game import (blot_exposure, blot_locations, hit_calibration,  # noqa: E402
                                  pip_race, plot)

STUDIO = SAMPLES / "BackgammonStudio_5407469.mat"


@pytest.fixture(scope="module")
def studio():
    return turns_frame(STUDIO)


@pytest.fixture
def ax():
    figure, ax = plt.subplots()
    yield ax
    plt.close(figure)


def by_label(ax):
    return {line.get_label(): line for line in ax.lines}


def test_pip_race_lines_hits_and_cube(studio, ax):
    assert pip_race(studio, game=1, ax=ax) is ax
    lines = by_label(ax)
    pdf, p9 = lines["pdf633"], lines["p9be6"]
    # Both start at 167; pdf633 bears off the last checker on the 37th roll (file, game 1).
    assert pdf.get_ydata()[:5].tolist() == [167, 159, 159, 152, 168]
    assert p9.get_ydata()[:5].tolist() == [167, 167, 158, 158, 151]
    assert pdf.get_xdata()[-1] == 37 and pdf.get_ydata()[-1] == 0
    # Hits written with * in game 1: rolls 4 (18/16*), 5 (bar/23 21/15*), 10 (13/7*(2) 7/1*(2)).
    hit = lines["hit"]
    assert hit.get_xdata().tolist() == [4, 5, 10]
    assert hit.get_ydata().tolist() == [168, 151 - 10 + 25, pdf.get_ydata()[10]]
    # The double before move 14 (the 25th roll) is drawn at x = 24.
    cube = [line for line in ax.lines if line.get_linestyle() == ":"]
    assert [line.get_xdata()[0] for line in cube] == [24]


def test_pip_race_stops_at_an_unknown_play(studio, ax):
    pip_race(studio[studio["game"] == 2], ax=ax)
    lines = by_label(ax)
    assert np.isnan(lines["p9be6"].get_ydata()[-1])  # 31) 61: ???? then a resignation
    assert not np.isnan(lines["p9be6"].get_ydata()[-2])


def test_one_game_is_required(studio, ax):
    with pytest.raises(NardyError, match="2 games"):
        pip_race(studio, ax=ax)
    with pytest.raises(NardyError, match="0 games numbered 7"):
        blot_exposure(studio, game=7, ax=ax)


def test_blot_exposure_bars_and_hit_marks(studio, ax):
    assert blot_exposure(studio, game=1, ax=ax) is ax
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


def test_blot_locations_counts_each_blot_left():
    frame = pd.DataFrame({"blot_points": [[1, 5], [5], [], None, [24]]})
    ax = blot_locations(frame)
    assert ax is plt.gca()
    heights = [bar.get_height() for bar in ax.patches]
    assert len(heights) == 24
    assert heights[0] == 1 and heights[4] == 2 and heights[23] == 1 and sum(heights) == 4
    plt.close(ax.figure)


def test_hit_calibration_points_and_diagonal(ax):
    frame = pd.DataFrame({"blots": [1, 1, 1, 1, 1],
                          "opponent_shots": [18, 18, 18, 18, 36],
                          "opponent_hit": pd.array([True, False, False, False, True],
                                                   dtype="boolean")})
    hit_calibration(frame, ax=ax)
    diagonal = by_label(ax)["expected"]
    assert diagonal.get_xdata().tolist() == [0, 1] == diagonal.get_ydata().tolist()
    (errorbar,) = ax.containers
    points = errorbar.lines[0]
    assert points.get_xdata().tolist() == [0.5, 1.0]
    assert points.get_ydata().tolist() == [0.25, 1.0]
    # The interval (Clopper-Pearson) of 1 hit in 4: 0.0063 .. 0.8059.
    segments = errorbar.lines[2][0].get_segments()
    assert segments[0][:, 1] == pytest.approx([0.00631, 0.80589], abs=1e-4)


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
