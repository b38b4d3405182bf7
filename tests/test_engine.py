"""The engine layer: the gnubg-nn backend, its known traps, and running without it.

Known values come from GNU Backgammon 1.1.0a16 (the full ``gnubg`` package, whose analysis of
``tests/data/luck/BackgammonGalaxy_165695.mat`` printed them in its SGF), never from our code.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from importlib.util import find_spec
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import side

from nardy_analysis import ALL_ROLLS, InvalidArgument, Position, Roll
from nardy_analysis.analysis.engine import default_evaluator
from nardy_analysis.analysis.evaluator import (
    MONEY,
    SAGE_EXTRA,
    Probabilities,
    Utility,
    check_position,
    check_roll,
    game_over_probabilities,
)
from nardy_analysis.analysis.gnubg import GnubgNN
from nardy_analysis.analysis.sage import BgSage
from nardy_analysis.errors import EngineError
from nardy_analysis.game.position import BAR

DATA = Path(__file__).parent / "data" / "luck"
needs_engine = pytest.mark.skipif(find_spec("gnubg_nn") is None,
                                  reason="gnubg-nn (the engine extra) is not installed")
needs_sage = pytest.mark.skipif(find_spec("bgsage") is None,
                                reason="bgsage (the sage extra) is not installed")


# One legal play: on the bar against five closed points, 61 can only enter on 24 then
# continue 24/18 (found with our own legal_plays, checked below).
ONE_PLAY = Position.from_mover(side(p25=1, p6=14), side(p2=2, p3=2, p4=2, p5=2, p6=2, p13=5))
ONE_PLAY_ROLL = Roll(6, 1)
# A dance: on the bar against a closed board.
CLOSED = Position.from_mover(side(p25=1, p6=14),
                             side(p1=2, p2=2, p3=2, p4=2, p5=2, p6=2, p13=3))


def sample_positions() -> list[Position]:
    """Openings for both players, a dance, a single legal play, a crashed position."""
    return [Position.start(), Position.start(1), CLOSED, ONE_PLAY,
            Position.from_id("sLfBYALgc/ADIA", 1), Position.from_id("DwAAiG23CQABAA", 1)]


# --- pure parts (no engine needed) ------------------------------------------------------------

def test_probabilities_swapped_and_money_equity():
    p = Probabilities(0.6, 0.2, 0.05, 0.1, 0.01)
    assert p.swapped() == pytest.approx((0.4, 0.1, 0.01, 0.2, 0.05))
    assert p.swapped().swapped() == pytest.approx(p)
    assert p.money_equity == pytest.approx(2 * 0.6 - 1 + 0.2 - 0.1 + 0.05 - 0.01)
    assert MONEY(p) == pytest.approx(p.money_equity)
    assert MONEY.of_opponent(np.array([p.swapped()])) == pytest.approx([MONEY(p)])
    odd = Utility(0.1, 1.5, 0.7, 0.2, -0.9, -0.3)
    assert odd.of_opponent(np.array([p, p.swapped()])) == pytest.approx(
        [odd(p.swapped()), odd(p)])


def test_game_over_probabilities():
    """Single, gammon and backgammon wins (RULES.md), from either player's side."""
    single = Position.from_mover(side(p0=15), side(p0=1, p20=14))
    assert game_over_probabilities(single) == (1, 0, 0, 0, 0)
    gammon = Position.from_mover(side(p0=15), side(p7=15))
    assert game_over_probabilities(gammon) == (1, 1, 0, 0, 0)
    backgammon = Position.from_mover(side(p0=15), side(p7=14, p20=1))
    assert game_over_probabilities(backgammon) == (1, 1, 1, 0, 0)
    on_bar = Position.from_mover(side(p0=15), side(p7=14, p25=1))
    assert game_over_probabilities(on_bar) == (1, 1, 1, 0, 0)
    assert game_over_probabilities(gammon.with_turn(1)) == (0, 0, 0, 1, 0)
    with pytest.raises(EngineError, match="not over"):
        game_over_probabilities(Position.start())


def test_checks_refuse_what_gnubg_would_not_validate():
    """gnubg-nn takes 16 checkers or a die of 7 without a word: we refuse them first. A
    Position cannot hold such a board (it is validated once, when built), and the engine
    takes nothing but a Position."""
    sixteen = side(p6=15)
    sixteen[8] = 1
    bad = (tuple(sixteen), tuple(side(p6=15)))
    with pytest.raises(InvalidArgument, match="summing to 15"):
        Position(bad, 0)
    with pytest.raises(EngineError, match="not a Position"):
        check_position(bad)
    clash = (tuple(side(p6=15)), tuple(side(p19=15)))  # same point
    with pytest.raises(InvalidArgument, match="both players"):
        Position(clash, 0)
    with pytest.raises(EngineError, match="not a Position"):
        check_position(clash)
    seven = object.__new__(Roll)
    object.__setattr__(seven, "high", 7)
    object.__setattr__(seven, "low", 1)
    with pytest.raises(EngineError, match="1..6"):
        check_roll(seven)
    with pytest.raises(EngineError):
        check_roll((6, 1))
    check_position(Position.start())
    check_roll(Roll(6, 6))


def test_without_the_engine_everything_else_works_and_luck_names_the_extra():
    """With gnubg_nn unimportable: the package and the luck module import, replaying works,
    and asking for luck raises EngineError naming ``pip install nardy-analysis[engine]``."""
    code = textwrap.dedent("""
        import sys
        sys.modules["gnubg_nn"] = None  # makes `import gnubg_nn` raise ImportError
        import nardy_analysis
        from nardy_analysis.analysis.luck import luck_frame, match_winning_chance
        from nardy_analysis.errors import EngineError
        assert len(nardy_analysis.replay_file(sys.argv[1])[0].games) == 4
        assert match_winning_chance(1, 2) == 0.67736
        try:
            luck_frame(nardy_analysis.load_file(sys.argv[1]))
        except EngineError as error:
            print(error)
        else:
            raise SystemExit("no EngineError")
    """)
    match = str(DATA / "BackgammonGalaxy_165695.mat")
    done = subprocess.run([sys.executable, "-c", code, match], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "pip install 'nardy-analysis[engine]'" in done.stdout


# --- the gnubg-nn backend ---------------------------------------------------------------------

@needs_engine
def test_ply_must_be_0_to_4():
    for ply in (-1, 5, 1.0):
        with pytest.raises(EngineError, match="ply"):
            GnubgNN(ply)


@pytest.mark.parametrize("backend", [pytest.param(GnubgNN, marks=needs_engine),
                                     pytest.param(BgSage, marks=needs_sage)],
                         ids=["gnubg-nn", "bgsage"])
def test_plays_are_our_legal_plays(backend):
    """Every play a backend lists, read back as a Position, is one of our legal plays, and all
    of them are there. For gnubg-nn this is the orientation trap: best_move(list=1, b=1)
    boards are turned round for the opponent (moves() boards are not)."""
    engine = backend()
    for position in sample_positions():
        one_by_one = []
        for roll in ALL_ROLLS:
            legal = {after for _, after in position.legal_plays(roll)}
            listed = {engine._position_after(key, position.turn)
                      for key in engine._plays(position, roll)[0]} or {
                position.with_turn(1 - position.turn)}
            assert listed == legal, (position, roll)
            best = engine.best_play(position, roll)
            assert best.after in legal
            assert engine.best_equities(position, (roll,)) == (best.equity,)
            one_by_one.append(best.equity)
        # all rolls at once (gnubg-nn: one array of every roll's plays) as roll by roll
        assert engine.best_equities(position, ALL_ROLLS) == pytest.approx(one_by_one,
                                                                          abs=1e-12)


class _NotMoney(Utility):
    """MONEY's weights under another class: not equal to MONEY, so GnubgNN.best_equities
    takes the way that lists every play."""


@needs_engine
def test_money_best_equities_from_the_pick_equal_the_full_list():
    """Money play at 0-ply takes gnubg-nn's pick (best_move list=0) and its chances; they
    give bit for bit the maximum over every play's chances, position by position, in a
    real money session (dances, single plays and bear-offs included)."""
    from nardy_analysis import replay_file

    engine, listing = GnubgNN(), _NotMoney()
    assert listing != MONEY and listing.of_opponent(np.eye(5)).tolist() == \
        MONEY.of_opponent(np.eye(5)).tolist()
    positions = {turn.before for match in replay_file(DATA / "money_BackgammonGalaxy_165695.mat")
                 for game in match.games for turn in game.turns}
    assert len(positions) > 100
    for position in positions:
        assert engine.best_equities(position, ALL_ROLLS) == \
            engine.best_equities(position, ALL_ROLLS, listing), position


@pytest.mark.slow
@needs_engine
def test_board_counts_are_gnubg_nns_boards():
    """The boards decoded from gnubg-nn's play keys all at once are its own
    board_from_position_key, key by key: every play of every roll of a real match (the bar,
    hits and bear-offs included) and of the sample positions."""
    import gnubg_nn

    from nardy_analysis import replay_file
    from nardy_analysis.analysis.gnubg import board_counts

    engine = GnubgNN()
    positions = {turn.before for match in replay_file(DATA / "BackgammonGalaxy_4684335.mat")
                 for game in match.games for turn in game.turns} | set(sample_positions())
    keys = [key for position in positions for roll in ALL_ROLLS
            for key in engine.plays(position, roll)[0]]
    assert len(keys) > 10_000
    counts = board_counts(keys)
    assert (counts[:, 24] > 0).any() and (counts[:, 49] > 1).any()
    assert counts.reshape(-1, 2, 25).tolist() == \
        [[list(side) for side in gnubg_nn.board_from_position_key(key)] for key in keys]


@needs_engine
def test_turned_twice_is_gnubg_nns_listed_win():
    """gnubg-nn 1.1.0a11 lists the best play of 65 (24/18/13) in 4HPwATDgc/ABMA with win
    0.4722871780395508 where probabilities() of the board after it gives
    0.4722871482372284: one turn round and back in single precision."""
    from nardy_analysis.analysis.gnubg import _turned_twice

    assert _turned_twice(0.4722871482372284) == 0.4722871780395508
    assert _turned_twice(0.5) == 0.5


@needs_engine
def test_moves_boards_are_from_the_movers_side():
    """Documents the other half of the trap: gnubg_nn.moves() keys are not turned round, so
    GnubgNN._position_after (meant for best_move keys) must not be used on them."""
    import gnubg_nn

    start = Position.start()
    keys = gnubg_nn.moves(GnubgNN.board(start), 2, 1)
    boards = {tuple(map(tuple, gnubg_nn.board_from_position_key(k))) for k in keys}
    split = list(start.on_roll[1:BAR + 1])
    split[23], split[22], split[21] = 0, 1, 1  # 24/23 24/22: the mover's side, second
    assert (tuple(start.opponent[1:BAR + 1]), tuple(split)) in boards


@needs_engine
def test_best_play_of_an_opening_matches_gnubg():
    """After 41 from the start, gnubg 1.1.0a16's 0-ply chances of its best play (24/23 13/9,
    SGF ``A[...]`` of BackgammonGalaxy_165695 game 1) are 0.498276 0.138722 0.007955
    0.139693 0.006817 for the mover."""
    best = GnubgNN().best_play(Position.start(), Roll(4, 1))
    assert best.probabilities == pytest.approx((0.498276, 0.138722, 0.007955, 0.139693,
                                                0.006817), abs=2e-6)
    assert best.equity == pytest.approx(best.probabilities.money_equity)
    assert [str(play) for play, after in Position.start().legal_plays(Roll(4, 1))
            if after == best.after] == ["24/23 13/9"]


@needs_engine
def test_one_legal_play_is_evaluated_not_taken_from_gnubgs_list():
    """Trap: with exactly one legal play, best_move(n=0, list=1) returns that play with
    unevaluated chances (e.g. a win chance of 1e25). Ours are the position's evaluation."""
    assert len(ONE_PLAY.legal_plays(ONE_PLAY_ROLL)) == 1
    engine = GnubgNN()
    best = engine.best_play(ONE_PLAY, ONE_PLAY_ROLL)
    assert all(0.0 <= p <= 1.0 for p in best.probabilities)
    assert best.probabilities == pytest.approx(engine.evaluate(best.after).swapped())
    # 66 in position sLfBYALgc/ADIA (player 1 on roll) has one play, 8/2(3); gnubg 1.1.0a16
    # gives it -0.58319 at 5-point 0-0 (BackgammonGalaxy_165695 game 1, roll 6).
    from nardy_analysis.analysis.luck import match_utility
    position = Position.from_id("sLfBYALgc/ADIA", 1)
    assert len(position.legal_plays(Roll(6, 6))) == 1
    assert engine.best_play(position, Roll(6, 6), match_utility(5, 0, 0)).equity == \
        pytest.approx(-0.58319, abs=1e-5)


@needs_engine
def test_one_legal_play_at_higher_ply_does_not_crash():
    """Trap: best_move(n>=1, list=1) kills the process (segmentation fault) when the roll
    has one legal play. Run in a subprocess so that a crash fails this test only."""
    code = textwrap.dedent("""
        from nardy_analysis import Position, Roll
        from nardy_analysis.analysis.gnubg import GnubgNN
        from nardy_analysis.game.position import OFF
        def side(**points):
            counts = [0] * 26
            for name, count in points.items():
                counts[int(name[1:])] = count
            counts[OFF] += 15 - sum(counts)
            return counts
        position = Position.from_mover(side(p25=1, p6=14),
                                       side(p2=2, p3=2, p4=2, p5=2, p6=2, p13=5))
        best = GnubgNN(1).best_play(position, Roll(6, 1))
        print(best.equity, best.after.turn)
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, (done.returncode, done.stderr)
    equity, turn = done.stdout.split()
    assert -3.0 <= float(equity) <= 3.0 and turn == "1"


@needs_engine
def test_higher_ply_best_play_is_legal_and_close_to_0_ply():
    zero, one = GnubgNN(0), GnubgNN(1)
    position = Position.from_id("sLfBYALgc/ADIA", 1)
    for roll in (Roll(6, 3), Roll(2, 1), Roll(5, 5)):
        best = one.best_play(position, roll)
        assert best.after in {after for _, after in position.legal_plays(roll)}
        assert abs(best.equity - zero.best_play(position, roll).equity) < 0.15


@needs_engine
def test_dance_keeps_the_position_with_the_opponent_on_roll():
    engine = GnubgNN()
    for roll in ALL_ROLLS:
        best = engine.best_play(CLOSED, roll)
        assert best.after == CLOSED.with_turn(1)
        assert best.probabilities == pytest.approx(engine.evaluate(CLOSED.with_turn(1))
                                                   .swapped())


@needs_engine
def test_bearing_off_the_last_checker_is_a_certain_win():
    engine = GnubgNN()
    position = Position.from_mover(side(p1=1, p2=1), side(p22=10, p0=5))
    keys, chances = engine.plays(position, Roll(2, 1))
    over = [engine._position_after(key, position.turn) for key in keys]
    assert [after.is_over for after in over] == [True, False]
    # 2/1 1/off leaves a win as certain (the opponent needs 10 rolls at least): equal
    assert chances.tolist() == [[0.0] * 5] * 2
    assert tuple(engine.best_play(position, Roll(2, 1)).probabilities) == (1, 0, 0, 0, 0)
    gammon = Position.from_mover(side(p1=1, p2=1), side(p13=5, p12=10))
    assert tuple(engine.best_play(gammon, Roll(2, 1)).probabilities) == (1, 1, 0, 0, 0)
    with pytest.raises(EngineError, match="over"):
        engine.best_play(over[0], Roll(2, 1))


@needs_engine
def test_one_sided_bear_off_as_gnubg():
    """gnubg-nn 1.1.0a11 calls 2wUAAGIAAAAAAA a certain win; gnubg 1.1.0a16 gives 0.998937
    (its one-sided bear-off databases combined), and so do we."""
    import gnubg_nn

    position = Position.from_id("2wUAAGIAAAAAAA", 0)
    assert gnubg_nn.probabilities(GnubgNN.board(position), 0)[0] == 1.0
    assert GnubgNN().evaluate(position).win == pytest.approx(0.998937, abs=1e-6)


RACES = pd.read_csv(Path(__file__).parent / "data" / "race" / "gnubg_race.tsv", sep="\t",
                    comment="#")
_CUBELESS = np.array([2.0, 1.0, 1.0, -1.0, -1.0])  # money equity: 2 win - 1 + gammons ...


@needs_engine
def test_race_chances_as_gnubg():
    """400 random races (tests/data/race): each chance within 6e-5 of GNU Backgammon
    1.1.0a16's 0-ply one, all but 5 within 1e-6, where gnubg-nn's own chances give a
    cubeless equity off by more than 1e-4 in 50 of them (certain wins, losses and gammons,
    and impossible gammons, that gnubg's checks find and gnubg-nn's miss)."""
    import gnubg_nn

    engine, theirs = GnubgNN(), RACES.iloc[:, 1:].to_numpy()
    positions = [Position.from_id(text) for text in RACES["position_id"]]
    ours = np.array([engine.evaluate(position) for position in positions])
    own = np.array([gnubg_nn.probabilities(GnubgNN.board(p), 0) for p in positions])
    assert len(positions) == 400
    assert np.abs(ours - theirs).max() < 6e-5  # a gammon chance below 1e-4: the nets' least
    assert (np.abs(ours - theirs).max(axis=1) > 1e-6).sum() <= 5
    assert (np.abs((own - theirs) @ _CUBELESS) > 1e-4).sum() >= 50


@needs_engine
def test_race_plays_valued_as_their_positions():
    """After every play of every roll in a race, the chances :meth:`plays` lists are those
    of the position the play leaves (gnubg's race checks both ways), to gnubg-nn's single
    precision."""
    engine = GnubgNN()
    for text in RACES["position_id"][:40]:
        position = Position.from_id(text)
        for roll in ALL_ROLLS:
            keys, chances = engine.plays(position, roll)
            for key, row in zip(keys, chances):
                after = engine._position_after(key, position.turn)
                alone = game_over_probabilities(after) if after.is_over else \
                    engine.evaluate(after)
                assert row == pytest.approx(np.array(alone), abs=1e-7), (text, roll, key)


@needs_engine
def test_bad_input_never_reaches_gnubg():
    engine = GnubgNN()
    sixteen = side(p6=15)
    sixteen[8] = 1
    bad = (tuple(sixteen), tuple(side(p6=15)))  # a Position cannot hold it
    with pytest.raises(EngineError, match="not a Position"):
        engine.evaluate(bad)
    with pytest.raises(EngineError, match="not a Position"):
        engine.best_play(bad, Roll(3, 1))


def test_unknown_engine_name():
    with pytest.raises(EngineError, match="unknown engine"):
        default_evaluator(0, "snowie")


# --- the bgsage backend -----------------------------------------------------------------------

def test_without_bgsage_the_error_names_its_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "bgbot_cpp", None)
    with pytest.raises(EngineError) as error:
        BgSage()
    assert SAGE_EXTRA in str(error.value)


@needs_sage
def test_bgsage_evaluations():
    engine = BgSage()
    start = engine.evaluate(Position.start())
    assert 0.45 < start.win < 0.6 and 0.05 < start.win_gammon < 0.25
    assert engine.evaluate(Position.start(1)) == pytest.approx(start)
    for roll in ALL_ROLLS:  # a dance: the position unchanged, the opponent on roll
        assert engine.best_play(CLOSED, roll).after == CLOSED.with_turn(1)
    finish = Position.from_mover(side(p1=1, p2=1), side(p13=5, p12=10))
    borne_off = [BgSage.board(finish)[0]] + [0, 0] + BgSage.board(finish)[3:]  # 2/off 1/off
    assert engine._position_after(borne_off, 0).is_over
    assert tuple(engine._post_move([borne_off])[0]) == (1, 1, 0, 0, 0)  # exact, not the nets'
    with pytest.raises(EngineError):
        BgSage(4)
