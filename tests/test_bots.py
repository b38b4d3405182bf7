"""Bots, ``nardy simulate --bots``, ``nardy eval`` and ``nardy hint``: legal plays, seeded
reproducibility, strength against random play, and the engines' own numbers."""

import json
from importlib.util import find_spec

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from nardy_analysis.analysis.bots import BOTS, HeuristicBot, RandomBot, legal_plays, ranked_plays
from nardy_analysis.analysis.long_engine import LongEvaluator
from nardy_analysis.cli import main
from nardy_analysis.game.long import LongPosition
from nardy_analysis.game.moves import ALL_ROLLS, Play, Roll
from nardy_analysis.game.position import Position
from nardy_analysis.game.rules import CAUCASIAN, LONG, LONG_FEDERATION, STANDARD, TAVLA
from nardy_analysis.notation.mat import parse_mat
from nardy_analysis.notation.writer import format_mat
from nardy_analysis.replay import replay_match
from nardy_analysis.simulate import simulate_match, simulate_matches

needs_engine = pytest.mark.skipif(find_spec("gnubg_nn") is None,
                                  reason="needs gnubg-nn (the engine extra)")
RULES = [STANDARD, TAVLA, CAUCASIAN, LONG, LONG_FEDERATION]
CONTACT = "4HPwEwCwt8FgAg"
"""A short nardy position of a real match, both sides in contact, player 0 on roll."""
LONG_MIDDLE = "24x9,20,18,17,15,13,11/24x10,22,21,19,16,13/0"
"""A long nardy position with blocks on both sides (player 0's checkers, player 1's, who is
on roll)."""


def run(*args):
    return CliRunner().invoke(main, list(args))


def walk(seed: int, turns: int, rules):
    """The position after ``turns`` random legal plays from the start, and whether the
    player then on roll has yet to play (long nardy's first turn)."""
    rng = np.random.default_rng(seed)
    start = LongPosition.start if rules.game == "long" else Position.start
    position, moved = start(int(rng.integers(2))), set()
    for _ in range(turns):
        roll = ALL_ROLLS[int(rng.integers(21))]
        play = RandomBot()(rng, position, roll, rules, position.turn not in moved)
        moved.add(position.turn)
        if play.after.is_over:
            break
        position = play.after
    return position, position.turn not in moved


@settings(max_examples=40, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2 ** 32 - 1), turns=st.integers(0, 120),
       rules=st.sampled_from(RULES), roll=st.sampled_from(ALL_ROLLS),
       name=st.sampled_from(sorted(BOTS)))
def test_every_bot_returns_a_legal_play(seed, turns, rules, roll, name):
    if name == "engine" and rules.game != "long" and find_spec("gnubg_nn") is None:
        pytest.skip("needs gnubg-nn (the engine extra)")
    position, first_turn = walk(seed, turns, rules)
    chosen = BOTS[name](np.random.default_rng(seed), position, roll, rules, first_turn)
    assert chosen in legal_plays(position, roll, rules, first_turn)


def test_the_random_bot_is_uniform_and_reproducible_from_its_generator():
    position, _ = walk(5, 30, LONG)
    plays = legal_plays(position, Roll(5, 2), LONG)
    draws = [RandomBot()(np.random.default_rng([3, i]), position, Roll(5, 2), LONG)
             for i in range(600)]
    assert draws == [RandomBot()(np.random.default_rng([3, i]), position, Roll(5, 2), LONG)
                     for i in range(600)]
    counts = np.array([draws.count(play) for play in plays])
    assert len(plays) > 3 and counts.min() > 0.5 * 600 / len(plays)


def test_bots_refuse_a_position_of_the_other_game():
    with pytest.raises(ValueError, match="do not apply"):
        HeuristicBot()(None, Position.start(), Roll(3, 1), LONG)


def heuristic_points(rules, games: int) -> np.ndarray:
    """The heuristic bot's points in single games against random play, no cube; it is
    player 0 and throws first in the even games."""
    points = []
    for i in range(games):
        match = simulate_match(np.random.default_rng([11, i]), length=0, games=1, cube=False,
                               rules=rules, bots=(HeuristicBot(), RandomBot()), first=i % 2)
        result = match.games[0].actions[-1]
        points.append(result.points if result.player == 0 else -result.points)
    return np.array(points)


@pytest.mark.slow
@pytest.mark.parametrize("rules", [LONG, STANDARD])
def test_the_heuristic_bot_beats_random_play(rules):
    points = heuristic_points(rules, 60)
    assert (points > 0).mean() >= 0.7
    assert points.mean() > 0.5


def test_player_1_plays_the_first_bot_and_the_files_say_so():
    [record] = simulate_matches(1, seed=2, rules=LONG, length=0, cube=False,
                                bots=(HeuristicBot(), RandomBot()))
    assert record.tags["Bots"] == "player 1: heuristic, player 2: random"
    [match] = [replay_match(m) for m in parse_mat(format_mat([record])).matches]
    assert not match.errors
    game = match.games[0]
    heuristic = game.record.names.index("player 1")
    mine = [turn for turn in game.turns if turn.before.turn == heuristic]
    for turn in mine:
        first = turn.before.on_roll[24] == 15
        chosen = HeuristicBot()(None, turn.before, turn.record.roll, LONG, first)
        assert chosen.after == turn.after


def test_the_first_player_of_every_game_can_be_fixed():
    for first in (0, 1):
        match = simulate_match(np.random.default_rng(4), length=0, games=3, rules=LONG,
                               first=first)
        assert {game.actions[0].player for game in match.games} == {first}
    with pytest.raises(ValueError, match="first=2"):
        simulate_match(np.random.default_rng(4), first=2)


@pytest.mark.slow
@pytest.mark.parametrize("rules, bots", [
    ("long", "heuristic,random"), ("long-federation", "engine,heuristic"),
    pytest.param("caucasian", "engine,heuristic", marks=needs_engine),
    ("standard", "random,heuristic")])
def test_simulate_bots_writes_files_that_replay_ok(tmp_path, rules, bots):
    done = run("simulate", "2", "--out", str(tmp_path), "--rules", rules, "--length", "0",
               "--bots", bots)
    assert done.exit_code == 0, done.output
    assert f'[Bots "player 1: {bots.split(",")[0]}, player 2: {bots.split(",")[1]}"]' in \
        (tmp_path / "sim_0001.mat").read_text()
    replayed = run("replay", str(tmp_path))
    assert replayed.exit_code == 0, replayed.output
    assert replayed.output.count(": ok") == 2


@pytest.mark.parametrize("bots", ["engine", "engine,random,heuristic", "engine,best"])
def test_simulate_refuses_bad_bots_quoting_them(tmp_path, bots):
    done = run("simulate", "1", "--out", str(tmp_path), "--bots", bots)
    assert done.exit_code == 2
    assert repr(bots) in done.output


@needs_engine
@pytest.mark.parametrize("position_id", ["4HPwATDgc/ABMA", CONTACT])
def test_eval_gives_gnubg_nns_own_chances(position_id):
    import gnubg_nn

    done = run("eval", position_id, "--json")
    assert done.exit_code == 0, done.output
    found = json.loads(done.stdout)
    expected = gnubg_nn.probabilities(gnubg_nn.board_from_position_id(position_id), 0)
    names = ["win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"]
    assert [found[name] for name in names] == pytest.approx(expected, abs=1e-7)
    win, wg, wb, lg, lb = expected
    assert found["equity"] == pytest.approx(2 * win - 1 + wg + wb - lg - lb, abs=1e-7)


@needs_engine
@pytest.mark.parametrize("position_id, roll", [("4HPwATDgc/ABMA", "31"), (CONTACT, "64"),
                                               (CONTACT, "22")])
def test_hint_ranks_the_plays_as_gnubg_nn_does(position_id, roll):
    import gnubg_nn

    done = run("hint", position_id, roll, "--json", "--top", "1000")
    assert done.exit_code == 0, done.output
    plays = json.loads(done.stdout)["plays"]
    listed = gnubg_nn.best_move(gnubg_nn.board_from_position_id(position_id), int(roll[0]),
                                int(roll[1]), n=0, list=1, b=1)[2]
    assert len(plays) == len(listed)
    assert [p["equity"] for p in plays] == pytest.approx([p[3] for p in listed], abs=1e-6)
    assert plays[0]["difference"] == 0
    assert all(p["difference"] <= 0 for p in plays)
    best = listed[0][1]
    steps = sorted(zip(best[::2], best[1::2]))
    assert sorted((m.start, m.end) for m in Play.from_str(plays[0]["play"]).moves) == steps


def test_eval_and_hint_give_the_long_nardy_engines_own_numbers():
    evaluator = LongEvaluator()
    position = LongPosition.from_notation(LONG_MIDDLE)
    found = json.loads(run("eval", LONG_MIDDLE, "--json").stdout)
    expected = evaluator.evaluate(position)
    assert [found[name] for name in expected._fields] == pytest.approx(expected, abs=1e-12)
    assert found["equity"] == pytest.approx(expected.money_equity, abs=1e-12)
    done = run("hint", LONG_MIDDLE, "53", "--json", "--top", "100")
    assert done.exit_code == 0, done.output
    plays = json.loads(done.stdout)["plays"]
    keys, chances = evaluator.plays(position, Roll(5, 3))
    equities = sorted((2 * (1 - c[0]) - 1 + c[3] + c[4] - c[1] - c[2] for c in chances),
                      reverse=True)
    assert [p["equity"] for p in plays] == pytest.approx(equities, abs=1e-12)
    assert plays[0]["difference"] == 0
    best = evaluator.best_play(position, Roll(5, 3))
    [legal] = [legal for legal in legal_plays(position, Roll(5, 3), LONG)
               if str(legal.play) == plays[0]["play"]]
    assert legal.after == best.after


@pytest.mark.parametrize("position, player", [
    ("24x15/24x15/0", 1), ("24x15/24x15/1", 2),
    pytest.param("4HPwATDgc/ABMA", 1, marks=needs_engine)])
def test_board_eval_and_hint_number_the_player_on_roll_alike(position, player):
    """Players are numbered 1 and 2 as in the Player tags, by every command that names
    the one on roll."""
    said = [run("board", position).output.splitlines()[-1],
            *(run(*command).output.splitlines()[0]
              for command in (("eval", position), ("hint", position, "61")))]
    assert [line.split(") ")[0].split("X (")[1] for line in said] == [f"player {player}"] * 3
    assert "(player 1 on roll)" in run("board", "--help").output


def test_hint_text_lists_the_best_plays_first():
    done = run("hint", "24x15/24x15/1", "61", "--top", "2")
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert lines[0].startswith("24x15/24x15/1: X (player 2) to play 61; nardy-long 0-ply")
    assert len(lines) == 4 and [row.split()[0] for row in lines[2:]] == ["1", "2"]
    best = json.loads(run("hint", "24x15/24x15/1", "61", "--json").stdout)["plays"][0]
    words = best["play"].split()
    assert lines[2].split()[1:len(words) + 1] == words
    assert lines[2].split()[len(words) + 2] == "+0.000"


def test_hint_follows_the_head_rule_of_the_first_turn():
    ranked = ranked_plays(LongEvaluator(), LongPosition.start(), Roll(4, 4), LONG_FEDERATION)
    assert {str(row.play.play) for row in ranked} >= {"24/20(2) 20/16(2)"}
    single = ranked_plays(LongEvaluator(), LongPosition.start(), Roll(5, 5), LONG_FEDERATION)
    assert {str(row.play.play) for row in single} == {"24/19 19/14 14/9 9/4"}


@pytest.mark.parametrize("args, quoted", [
    (("eval", "4HPwATDgc/ABM"), "'4HPwATDgc/ABM'"),
    (("eval", "24x15/24x16/0"), "'24x15/24x16/0'"),
    (("hint", "4HPwATDgc/ABMA", "71"), "'71'"),
    (("hint", "24x15/24x15/0", "3"), "'3'"),
    (("hint", "4HPwATDgc/ABMA", "31", "--rules", "long"), "'4HPwATDgc/ABMA'"),
    (("eval", "24x15/24x15/0", "--ply", "2"), "2"),
])
def test_malformed_positions_and_rolls_are_usage_errors_quoting_them(args, quoted):
    done = run(*args)
    assert done.exit_code == 2
    assert quoted in done.output


@pytest.mark.parametrize("position, impossible", [
    ("24x14/24x15/0", "player 1 has borne off 1 checker with 14 still outside home"),
    ("23x15/24x13,6/1", "player 2 has borne off 1 checker with 13 still outside home"),
    ("24x10,23,22,21,20,19/24x15/0", "player 1 holds six points in a row (24, 23, 22, 21, "
                                     "20, 19) that no checker of player 2 has passed"),
    ("-/-/0", "both players have borne off all 15 checkers"),
    ("24x15/12x15/0", "both players have checkers on player 1's point 24"),
    ("AAAAAAAAAAAAAA", "both players have borne off all 15 checkers"),
    ("27YBAHDbtgEAcA", "both players have checkers on the bar against a closed home board"),
])
@pytest.mark.parametrize("command", [("board",), ("eval",), ("hint", "31")])
def test_impossible_positions_are_usage_errors_saying_what_is_impossible(position, impossible,
                                                                         command):
    done = run(command[0], position, *command[1:])
    assert done.exit_code == 2
    line, = done.output.splitlines()
    assert line.startswith("Error: impossible ") and f"{position!r}: {impossible}" in line
