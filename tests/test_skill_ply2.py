"""``skill_frame(ply=2)`` against GNU Backgammon 1.1.0a16's "World class" analysis
(tests/data/skill/ply2: its statistics and the equity of every play it analysed)."""

import json
from importlib.util import find_spec
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from nardy_analysis import replay_file
from nardy_analysis.analysis.cube_life import life_index
from nardy_analysis.analysis.gnubg import GnubgNN
from nardy_analysis.analysis.search import CubefulSearch
from nardy_analysis.analysis.skill import (
    _CubeDecision,
    _match_decisions,
    _MoveDecision,
    skill_frame,
    skill_summary,
)
from nardy_analysis.cli.skill import skill
from nardy_analysis.errors import InvalidArgument
from nardy_analysis.game.rules import LONG

DATA = Path(__file__).parent / "data" / "skill" / "ply2"
SAMPLES = Path(__file__).parent.parent / "sample_games"
REFERENCES = sorted(DATA.glob("*.skill.json"))
needs_engine = pytest.mark.skipif(find_spec("gnubg_nn") is None,
                                  reason="gnubg-nn (the engine extra) is not installed")
MARKS = ("doubtful", "bad", "very bad")


def number(text: str) -> float:
    return float(text.split()[0]) if text else 0.0


def test_deep_life_index():
    """eval.c's ``EvalEfficiency`` at two plies or more: contact 0.68, race 0.55 + 0.00125
    pips between 0.6 and 0.7, bear-off 0.6."""
    kinds = np.array(["contact", "race", "race", "race", "bearoff"])
    pips = np.array([150, 20, 80, 200, 30])
    assert np.allclose(life_index(kinds, pips, deep=True), [0.68, 0.6, 0.65, 0.7, 0.6])
    assert np.allclose(life_index(kinds, pips), [0.76, 0.65, 0.8, 0.8, 0.6])


def test_plies_and_long_nardy():
    """0, 1 or 2 plies only; long nardy (no cube, its own engine) at 0 only."""
    matches = replay_file(SAMPLES / "long" / "simulated_match.mat", rules=LONG)
    with pytest.raises(InvalidArgument, match="0, 1 or 2"):
        skill_frame(matches, ply=3)
    with pytest.raises(InvalidArgument, match="at 2 plies is for short nardy.*at 0 plies"):
        skill_frame(matches, ply=2)
    with pytest.raises(InvalidArgument, match="at 1 ply is for short nardy"):
        skill_frame(matches, ply=1)


@needs_engine
def test_first_plays_and_cube_decisions_as_gnubg():
    """The 2-ply cubeful equity of the first plays made and of gnubg's best ones, and the
    no double and double/take equities of every cube decision of the first game (16, some
    where the roller's best reply is a tie at the opponent's double/pass, which gnubg breaks
    by cubeless equity), equal gnubg's to 1e-5 (its pruning nets through gnubg-nn, the deep
    cube life index)."""
    name = "BackgammonGalaxy_113817"
    match = replay_file(DATA / f"{name}.mat")[0]
    theirs = pd.read_csv(DATA / f"{name}.moves.tsv", sep="\t", comment="#", dtype={"dice": str})
    cubes = pd.read_csv(DATA / f"{name}.cubes.tsv", sep="\t", comment="#")
    cubes = cubes[cubes["game"] == 1].set_index("roll")
    engine = GnubgNN(0)
    search = CubefulSearch(engine, 2)
    checked, decisions = 0, 0
    for decision in _match_decisions(match):
        if decision.game.number > 1:
            break
        if isinstance(decision, _CubeDecision) and decision.state.may_double:
            state = decision.state
            win, lose = state.mwc(1), state.mwc(-1)
            found = search.cube_decision(decision.position, state)[:2]
            assert [(v * (win - lose) + win + lose) / 2 for v in found] == pytest.approx(
                cubes.loc[decision.turn, ["no_double", "double_take"]].tolist(), abs=1e-5)
            decisions += 1
        if not isinstance(decision, _MoveDecision) or decision.number > 3:
            continue
        turn = decision.turn
        row = theirs[(theirs["game"] == 1) & (theirs["roll"] == decision.number)].iloc[0]
        played = search.after_plays([turn.after], decision.state)[0]
        assert played == pytest.approx(row["played"], abs=1e-5)
        checked += 1
    assert checked == 3
    assert decisions == len(cubes) == 16


@pytest.mark.slow
@needs_engine
@pytest.mark.parametrize("reference", REFERENCES, ids=lambda p: p.stem)
def test_every_cube_decision_as_gnubg(reference):
    """The no double and double/take equities of every cube decision gnubg analysed at 2
    plies equal its own: in the three matches (23, 81 and 111 decisions) to 5e-5 MWC and
    nine in ten of the equities to 2e-6 (measured: all within 2.9e-5, 411 of 430 within
    2e-6), in the money session (114) to 1e-4 EMG and four in five to 2e-6 (measured:
    8.9e-5, 195 of 228); gnubg works in single precision."""
    name = reference.name.split(".")[0]
    cubes = pd.read_csv(DATA / f"{name}.cubes.tsv", sep="\t", comment="#")
    search = CubefulSearch(GnubgNN(0), 2)
    found = []
    for decision in _match_decisions(replay_file(DATA / f"{name}.mat")[0]):
        if isinstance(decision, _CubeDecision) and decision.state.may_double:
            state = decision.state
            values = search.cube_decision(decision.position, state)[:2]
            if state.length:  # gnubg writes MWC in match play, equity in money play
                win, lose = state.mwc(state.cube), state.mwc(-state.cube)
                values = tuple((v * (win - lose) + win + lose) / 2 for v in values)
            found.append((decision.game.number, decision.turn, decision.side, *values))
    ours = pd.DataFrame(found, columns=["game", "roll", "player", "no_double", "double_take"])
    both = cubes.merge(ours, on=["game", "roll", "player"], suffixes=("", "_ours"))
    assert len(both) == len(cubes)
    differences = pd.concat([(both[column] - both[f"{column}_ours"]).abs()
                             for column in ("no_double", "double_take")])
    match_play = "money" not in name
    assert differences.max() < (5e-5 if match_play else 1e-4)
    assert (differences < 2e-6).mean() > (0.9 if match_play else 0.8)


@pytest.mark.slow
@needs_engine
@pytest.mark.parametrize("reference", REFERENCES, ids=lambda p: p.stem)
def test_world_class_statistics_as_gnubg(reference):
    """gnubg's World class "Match statistics" player by player: unforced moves, cube
    decisions, close cube decisions and each mark's count equal, checker error totals within
    0.002 EMG, cube error totals within 0.001 EMG, and every rating word equal (measured:
    0.0006 and 0.0002 at most). The luck and the luck-adjusted result equal those of
    gnubg's World class statistics with its evaluation cache off (``set cache 0``, the
    files of nocache/). With the cache on, gnubg's World class luck differs by up to 0.06
    EMG: its cache appears to hand the luck 0-ply equities worked out inside the 2-ply
    searches, at their deeper cube life index."""
    stats = json.loads(reference.read_text())
    table = stats["match"]
    chequer, cube, overall = table["Chequerplay"], table["Cube"], table["Overall"]
    luck = json.loads((DATA / "nocache" / reference.name).read_text())["match"]
    unit = "MWC" if "Error total EMG (MWC)" in chequer else "Points"
    matches = replay_file(DATA / stats["file"])
    frame = skill_frame(matches, ply=2)
    summary = skill_summary(matches, frame)
    for side, row in summary.iterrows():
        assert row["unforced_moves"] == int(chequer["Unforced moves"][side])
        for mark in MARKS:
            assert row[f"marked_{mark.replace(' ', '_')}"] == \
                int(chequer[f"Moves marked {mark}"][side])
        assert row["checker_error_emg"] == pytest.approx(
            number(chequer[f"Error total EMG ({unit})"][side]), abs=0.002)
        assert row["checker_rating"] == chequer["Chequerplay rating"][side]
        assert row["cube_decisions"] == int(cube["Total cube decisions"][side])
        assert row["close_cube_decisions"] == \
            int(cube["Close or actual cube decisions"][side])
        assert row["cube_error_emg"] == pytest.approx(
            number(cube[f"Error total EMG ({unit})"][side]), abs=0.001)
        assert row["cube_rating"] == cube["Cube decision rating"][side]
        assert row["overall_rating"] == overall["Overall rating"][side]
        # luck: gnubg's own with its evaluation cache off (nocache/)
        assert row["luck_emg"] == pytest.approx(
            number(luck["Luck"][f"Luck total EMG ({unit})"][side]), abs=0.0005)
        if "Luck adjusted result" in luck["Overall"]:
            text = luck["Overall"]["Luck adjusted result"][side]
            expected = float(text.rstrip("%")) / 100 if unit == "MWC" else float(text)
            assert row["luck_adjusted_result"] == pytest.approx(expected, abs=2e-4)
    moves = frame[frame["kind"] == "move"]
    theirs = pd.read_csv(DATA / f"{reference.name.split('.')[0]}.moves.tsv", sep="\t",
                         comment="#", dtype={"dice": str})
    both = moves.merge(theirs, left_on=["game", "turn"], right_on=["game", "roll"],
                       suffixes=("", "_gnubg"))
    assert len(both) == len(theirs)
    error = (both["equity"] - both["best_equity"]) - (both["played"] - both["best_gnubg"])
    assert (error.abs() < 0.01).mean() > 0.95


@needs_engine
def test_cli_ply_option():
    result = CliRunner().invoke(skill, ["--help"])
    assert "--ply" in result.output and "World class" in result.output
    result = CliRunner().invoke(skill, ["--ply", "3", str(DATA)])
    assert result.exit_code == 2
