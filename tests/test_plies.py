"""GNU Backgammon's cubeless evaluation at 1 and 2 plies (nardy_analysis.analysis.plies),
through gnubg-nn: the best plays and the luck of every roll against gnubg 1.1.0a16's own
numbers (tests/data/luck/README.md, "Luck at 1 and 2 plies", says how they were made)."""

from __future__ import annotations

import dataclasses
from importlib.util import find_spec
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from nardy_analysis import Roll, load_file, replay_file
from nardy_analysis.analysis.evaluator import MONEY, Probabilities
from nardy_analysis.analysis.luck import luck_frame, match_utility

DATA = Path(__file__).parent / "data" / "luck"
needs_engine = pytest.mark.skipif(find_spec("gnubg_nn") is None,
                                  reason="gnubg-nn (the engine extra) is not installed")


def reference(ply: int, name: str) -> pd.DataFrame:
    return pd.read_csv(DATA / f"ply{ply}" / f"{name}.luck.tsv", sep="\t", comment="#",
                       dtype={"dice": str})


@given(st.integers(1, 11), st.integers(0, 10), st.integers(0, 10), st.sampled_from([1, 2, 4]),
       st.floats(0, 1), st.floats(0, 0.4), st.floats(0, 0.4))
def test_opponents_utility_is_their_own(length, mine, theirs, cube, win, gammon, lost):
    """The opponent's normalised match equity, from their side, is the match utility of
    their own score; money equity is its own opponent's."""
    mine, theirs = min(mine, length - 1), min(theirs, length - 1)
    utility = match_utility(length, mine, theirs, cube)
    chances = Probabilities(win, gammon * win, 0.1 * gammon * win, lost * (1 - win), 0.0)
    other = match_utility(length, theirs, mine, cube)
    assert utility.opponent()(chances.swapped()) == pytest.approx(-utility(chances), abs=1e-12)
    assert other(chances.swapped()) == pytest.approx(utility.opponent()(chances.swapped()),
                                                     abs=1e-9)
    assert MONEY.opponent() == MONEY


def _sixth_roll():
    """Before the sixth roll of BackgammonGalaxy_5238874 (5-point match, 0-0, cube 1): the
    position and the roller's equity."""
    match = replay_file(DATA / "BackgammonGalaxy_5238874.mat")[0]
    return match.games[0].turns[5].before, match_utility(5, 0, 0)


@needs_engine
def test_best_plays_at_one_ply_as_gnubgs():
    """gnubg 1.1.0a16's ``findbestmoves`` at 1 ply, cubeless, no pruning (the luck
    analysis' settings) in the position of :func:`_sixth_roll`: 6-2 and 2-1 are valued at 1
    ply (+0.0146033, -0.0330224); the best play of 4-2 is 0.266 ahead of the next at 0 ply,
    beyond the filter's 0.24, so its 0-ply value stands (+0.3258608) and no play is valued
    again."""
    from nardy_analysis.analysis.gnubg import GnubgNN

    position, utility = _sixth_roll()
    one, zero = GnubgNN(1), GnubgNN(0)
    for roll, theirs in (("62", 0.0146033), ("21", -0.0330224), ("42", 0.3258608)):
        assert one.best_play(position, Roll.from_str(roll), utility).equity == \
            pytest.approx(theirs, abs=2e-6), roll
    assert one.best_play(position, Roll(4, 2), utility) == \
        zero.best_play(position, Roll(4, 2), utility)


@needs_engine
@pytest.mark.slow
def test_best_plays_at_three_plies_as_gnubgs():
    """gnubg 1.1.0a16's ``findbestmoves`` at 3 plies (its default filters: 16 plays within
    0.32 at 0 ply, 8 within 0.16 at 1 ply, 4 within 0.06 at 2 plies), cubeless, no
    pruning, in the position of :func:`_sixth_roll`: the best play's score for four rolls.
    4-2's best play is valued at 3 plies here (16 plays within 0.32), not left at its 0-ply
    value as at 1 ply."""
    from nardy_analysis.analysis.gnubg import GnubgNN

    position, utility = _sixth_roll()
    three = GnubgNN(3)
    for roll, theirs in (("62", 0.0286492), ("21", -0.0435742), ("55", -0.1855707),
                         ("42", 0.2983862)):
        assert three.best_play(position, Roll.from_str(roll), utility).equity == \
            pytest.approx(theirs, abs=2e-6), roll


@needs_engine
@pytest.mark.slow
@pytest.mark.parametrize("name", ["BackgammonGalaxy_5238874", "money_BackgammonGalaxy_165695"])
def test_luck_at_one_ply_as_gnubgs(name):
    """Every roll's luck at 1 ply within 0.0001 of gnubg's ``set analysis luckanalysis plies
    1`` (cubeless): a 5-point match with a cube of 8 and a money session."""
    ours, theirs = luck_frame(load_file(DATA / f"{name}.mat"), ply=1), reference(1, name)
    assert list(ours["dice"]) == list(theirs["dice"])
    assert (ours["luck"] - theirs["luck"]).abs().max() <= 1e-4


@needs_engine
@pytest.mark.slow
def test_luck_at_two_plies_as_gnubgs():
    """The first six rolls of BackgammonGalaxy_5238874 (the opening roll among them, its luck
    over both players' 30 throws) at 2 plies, within 0.00001 of gnubg's luck analysis at 2
    plies."""
    match = replay_file(DATA / "BackgammonGalaxy_5238874.mat")[0]
    game = match.games[0]
    start = dataclasses.replace(match, games=(dataclasses.replace(game, turns=game.turns[:6]),))
    ours, theirs = luck_frame([start], ply=2), reference(2, "BackgammonGalaxy_5238874")[:6]
    assert list(ours["dice"]) == list(theirs["dice"])
    assert (ours["luck"] - theirs["luck"]).abs().max() <= 1e-5
