"""The match equity model: games' results in match-winning chance, the situation of a game,
and luck and skill sharing the one model."""

from pathlib import Path

import pytest

from nardy_analysis import replay_file
from nardy_analysis.analysis import cubeful, luck, skill
from nardy_analysis.analysis.match_equity import GameSituation, game_results, per_game_equity

SAMPLES = Path(__file__).resolve().parents[1] / "sample_games"


def _match(name):
    return replay_file(SAMPLES / name)[0]


def test_luck_and_skill_use_the_one_model():
    assert luck.match_winning_chance is cubeful.match_winning_chance
    assert luck.match_utility is cubeful.match_utility
    assert skill.CubeState is cubeful.CubeState
    assert skill.cube_decision is cubeful.cube_decision


@pytest.mark.parametrize("name", ["BackgammonGalaxy_4440667.mat", "BackgammonStudio_5407469.mat",
                                  "cp1251_cyrillic_names.mat", "galaxy_style_crawford.mat",
                                  "studio_style_bom_crlf.mat"])
def test_the_results_of_a_match_won_from_love_all_add_up_to_a_half(name):
    """From 0-0 (MWC 0.5 each) to the end (1 and 0): each game's change of MWC adds up to
    +0.5 for the winner and -0.5 for the loser, the Crawford game and after it included."""
    match = _match(name)
    assert match.finished and match.games[0].scores == (0, 0)
    totals = [sum(result[side] for result in game_results(match)) for side in (0, 1)]
    assert totals[match.winner] == pytest.approx(0.5)
    assert totals[1 - match.winner] == pytest.approx(-0.5)


def test_a_game_result_is_the_change_of_the_kazaross_mwc():
    """3-point match, 0-0, player 1 wins 2 points: 1-away against 3-away, 0.75076 in the
    Kazaross-XG2 table, from 0.5."""
    match = _match("BackgammonStudio_5407469.mat")
    game = match.games[0]
    assert (game.winner, game.points) == (0, 2)
    assert game_results(match)[0] == pytest.approx((0.75076 - 0.5, 0.5 - 0.75076))
    situation = GameSituation.of(match, game)
    assert situation.mwc(0, 2) == 0.75076 and situation.mwc(0, after=False) == 0.5


def test_money_results_are_the_points_won():
    match = _match("money_beaver_raccoon.mat")
    assert per_game_equity(match) and GameSituation.of(match, match.games[0]).length == 0
    assert game_results(match) == [
        (g.points, -g.points) if g.winner == 0 else (-g.points, g.points) for g in match.games]
