"""The long nardy engine: the package's evaluator (nardy_analysis.analysis.long_engine) and
the training tools (tools/long_engine: the compiled move generator and encoder checked against
the package, and a smoke run of the trainer)."""

from __future__ import annotations

import shutil
import sys
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from nardy_analysis.analysis.bearoff import bearoff_equities
from nardy_analysis.analysis.engine import default_evaluator
from nardy_analysis.analysis.evaluator import MONEY, Probabilities, game_over_probabilities
from nardy_analysis.analysis.gnubg import GnubgNN
from nardy_analysis.analysis.long_engine import (
    INPUTS,
    NET_FILE,
    LongEvaluator,
    encode,
    is_race,
    sides,
)
from nardy_analysis.errors import EngineError
from nardy_analysis.game.long import LongPosition
from nardy_analysis.game.moves import ALL_ROLLS, Roll
from nardy_analysis.game.rules import LONG, LONG_FEDERATION, STANDARD

TOOLS = Path(__file__).resolve().parents[1] / "tools" / "long_engine"
needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")


@pytest.fixture(scope="module")
def native():
    """The compiled tools (built by gcc on first use)."""
    sys.path.insert(0, str(TOOLS))
    try:
        import native as module
        module.lib()
        yield module
    finally:
        sys.path.remove(str(TOOLS))


def position(boards) -> LongPosition:
    """A LongPosition, player 0 on roll, from sides of 25 counts (side on roll first)."""
    return LongPosition(([int(v) for v in boards[0]] + [0], [int(v) for v in boards[1]] + [0]))


def blocking_positions(count: int, seed: int) -> list[LongPosition]:
    """Positions where the mover's checkers stand on seven points in a row of the opponent's
    path, so that plays making or breaking six-point blocks abound, and the opponent's on
    the other points, some past any six in a row (a board no game reaches is drawn again)."""
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < count:
        me, opp = [0] * 26, [0] * 26
        low = int(rng.integers(1, 19))
        points = [LongPosition.facing(q) for q in range(low, low + 7)]
        for _ in range(15):
            me[points[rng.integers(0, 7)]] += 1
        free = [q for q in range(1, 25) if not me[LongPosition.facing(q)]]
        for _ in range(15):
            opp[free[rng.integers(0, len(free))]] += 1
        if LongPosition.unreachable((me, opp)) is None:     # a block some checker passed
            found.append(LongPosition((me, opp)))
    return found


@pytest.mark.slow
@needs_gcc
def test_compiled_plays_match_legal_plays(native):
    """The compiled generator finds the same positions after the plays of every roll as
    LongPosition.legal_plays, with the head rule of a first turn (all 15 on the head) and
    six-point blocks, on random-play positions and blocking ones."""
    positions = [position(b) for b in native.random_positions(400, 11)[::2]]
    positions += blocking_positions(150, 3)
    checked = blocked = 0
    for where in positions:
        me, opp = sides(where)
        first = me[24] == 15
        for roll in ALL_ROLLS:
            legal = where.legal_plays(roll, LONG, first_turn=first)
            want = sorted(tuple(play.after.board[0][:25]) for play in legal)
            got = sorted(tuple(map(int, after)) for after in
                         native.legal_afters(me, opp, (roll.high, roll.low), 2 if first else 1))
            assert got == want, (where.notation(), str(roll))
            unblocked = where.legal_plays(roll, LONG.override(forced_play=False), first)
            blocked += len(unblocked) > len(legal)
            checked += 1
    assert checked == 21 * len(positions)
    assert blocked > 100                 # the six-point block rule was exercised


@needs_gcc
def test_compiled_encoder_matches_package(native):
    """The training tools' C encoder gives exactly the package's inputs on 1,000 self-play
    positions."""
    boards = native.random_positions(1000, 5)
    assert np.array_equal(native.encode(boards), encode(boards))
    assert encode(boards).shape == (1000, INPUTS)


def test_encoding_of_the_start():
    """The start: 15 on the head each (unary 1, 1, 1, 12/12), 360 pips, no race."""
    x = encode(sides(LongPosition.start())[None])[0]
    assert x[92:96].tolist() == [1, 1, 1, 1]
    assert x[96 + 1] == 1.0 and x[110 + 96 + 1] == 1.0
    assert x[-1] == 0
    assert x[:92].sum() == 0


@needs_gcc
def test_training_smoke(native, tmp_path):
    """A handful of self-play games: checkpoints, resume and export to a file the evaluator
    reads."""
    import train
    meta = train.run(games=20, resume=False, seed=3, hidden=8, alpha=0.04, floor=0.01,
                     lam=0.7, every=10, folder=tmp_path, command="test")
    assert meta["games"] == 20 and meta["plies"] > 20 * 40
    assert [p.name for p in train.checkpoints(tmp_path)] == [
        "long_net_00000000.npz", "long_net_00000010.npz", "long_net_00000020.npz"]
    with pytest.raises(SystemExit):
        train.run(30, False, 3, 8, 0.04, 0.01, 0.7, 10, tmp_path, "test")
    assert train.run(30, True, 3, 8, 0.04, 0.01, 0.7, 10, tmp_path, "test")["games"] == 30
    exported = train.export(tmp_path, tmp_path / "net.npz")
    evaluator = LongEvaluator(weights=exported)
    assert evaluator.metadata["games"] == 30
    assert 0 < evaluator.evaluate(LongPosition.start()).win < 1
    points = native.match(train.load(exported)[0], None, 4, 1)
    assert set(np.abs(points)) <= {1, 2, 3}


@needs_gcc
def test_widened_net_plays_as_before(native, tmp_path):
    """--widen: the shipped net with more hidden units gives the same chances, then trains on
    in its own folder, its games counted on."""
    import train
    weights, meta = train.load(train.EXPORT)
    positions = native.random_positions(50, 5)
    wide = train.widen(weights, meta["hidden"] + 16, seed=2)
    assert wide["w1t"].shape == (weights["w1t"].shape[0], meta["hidden"] + 16)
    np.testing.assert_array_equal(native.evaluate(wide, positions),
                                  native.evaluate(weights, positions))
    with pytest.raises(SystemExit):
        train.widen(weights, meta["hidden"] - 1, seed=2)
    done = train.run(meta["games"] + 10, False, 2, meta["hidden"] + 16, 0.001, 0.001, 0.7, 10,
                     tmp_path, "test", start=train.EXPORT)
    assert done["games"] == meta["games"] + 10 and done["started_from"]["games"] == meta["games"]
    assert done["hidden"] == meta["hidden"] + 16 and len(train.checkpoints(tmp_path)) == 2
    towards = train.run(meta["games"] + 4, False, 2, meta["hidden"], 0.001, 0.001, 0.7, 2,
                        tmp_path / "ply1", "test", start=train.EXPORT, one_ply=0.2)
    assert towards["one_ply"] == 0.2 and towards["games"] == meta["games"] + 4


@needs_gcc
def test_compiled_one_ply_is_the_evaluators(native):
    """The trainer's 1-ply targets are the package's 1-ply chances (float32) on self-play
    positions far from a race (where the package's tables take over from the net)."""
    import train
    weights, _ = train.load(train.EXPORT)
    boards = native.random_positions(400, 9)
    boards = boards[(boards[:, :, 13:].sum(axis=2) >= 6).all(axis=1)][:40]
    one = LongEvaluator(ply=1)
    want = [tuple(one.evaluate(position(b))) for b in boards]
    assert len(boards) == 40
    np.testing.assert_allclose(native.one_ply(weights, boards), want, atol=2e-6)


def test_weights_file():
    """The package's weights: small, with how they were made."""
    assert NET_FILE.stat().st_size < 5_000_000
    meta = LongEvaluator().metadata
    for key in ("encoding", "hidden", "command", "seed", "games", "cpu_seconds"):
        assert key in meta


def test_default_evaluator_by_rules():
    """Long nardy's default engine is this one, for both variants; short nardy keeps
    gnubg-nn."""
    assert isinstance(default_evaluator(rules=LONG), LongEvaluator)
    federation = default_evaluator(0, rules=LONG_FEDERATION)
    assert isinstance(federation, LongEvaluator) and federation.rules == LONG_FEDERATION
    assert isinstance(default_evaluator(), GnubgNN)
    assert isinstance(default_evaluator(0, "gnubg-nn", STANDARD), GnubgNN)
    with pytest.raises(EngineError):
        LongEvaluator(rules=STANDARD)
    with pytest.raises(EngineError):
        LongEvaluator(ply=2)


def test_first_turn_head_rule():
    """The first turn (all 15 on the head): 65 may take two off the head under LONG, one under
    LONG_FEDERATION; the evaluator's plays are the legal plays of that turn."""
    start = LongPosition.start()
    for rules, heads in ((LONG, 2), (LONG_FEDERATION, 1)):
        evaluator = LongEvaluator(rules=rules)
        keys, chances = evaluator.plays(start, Roll(6, 5))
        legal = start.legal_plays(Roll(6, 5), rules, first_turn=True)
        assert set(keys) == {play.after.board for play in legal}
        assert chances.shape == (len(keys), 5)
        assert max(15 - board[0][24] for board in keys) == heads
        assert evaluator.best_play(start, Roll(6, 5)).after.board in keys
    later = LongPosition.from_notation("24x14,19/24x14,18/0")
    legal = later.legal_plays(Roll(6, 5), LONG)
    assert set(LongEvaluator().plays(later, Roll(6, 5))[0]) == {p.after.board for p in legal}


def test_game_over_is_certain():
    """Finished games: oin, mars, home mars (3 points, or 2 under home_mars=2)."""
    oin = LongPosition.from_notation("-/6,1x3/1")
    mars = LongPosition.from_notation("-/1x14,20/1")
    home = LongPosition.from_notation("-/1x10,6x5/1")
    evaluator = LongEvaluator()
    assert evaluator.evaluate(oin) == Probabilities(0, 0, 0, 0, 0)
    assert evaluator.evaluate(mars) == Probabilities(0, 0, 0, 1, 0)
    assert evaluator.evaluate(home) == Probabilities(0, 0, 0, 1, 1)
    assert evaluator.evaluate(home.with_turn(0)) == Probabilities(1, 1, 1, 0, 0)
    two = LongEvaluator(rules=LONG.override(home_mars=2))
    assert two.evaluate(home) == Probabilities(0, 0, 0, 1, 0)
    assert game_over_probabilities(home, LONG) == Probabilities(0, 0, 0, 1, 1)


def test_net_chances_are_consistent():
    """The net's chances: cumulative (home mars <= mars <= win), and the equity in -3..3."""
    boards = np.array([sides(p) for p in blocking_positions(200, 9)])
    out = LongEvaluator().net(boards)
    assert out.shape == (200, 5)
    assert (out[:, 2] <= out[:, 1]).all() and (out[:, 1] <= out[:, 0]).all()
    assert (out[:, 4] <= out[:, 3]).all() and (out[:, 3] <= 1 - out[:, 0]).all()
    assert (LongEvaluator(rules=LONG.override(home_mars=2)).net(boards)[:, [2, 4]] == 0).all()


def test_races():
    """A pure race: every checker on its own 1..12."""
    assert is_race(LongPosition.from_notation("12x5,3x10/11x15/0"))
    assert not is_race(LongPosition.from_notation("13,3x14/11x15/0"))
    assert not is_race(LongPosition.start())


def _home_sides(checkers: int) -> list[tuple[int, ...]]:
    """Every way of up to ``checkers`` checkers on the points 1..6."""
    found = [()]
    for point in range(6):
        found = [side + (n,) for side in found for n in range(checkers + 1)
                 if sum(side) + n <= checkers]
    return found


def _win_chances(checkers: int) -> dict:
    """An independent dynamic programme: the chance that the side on roll wins a bear-off
    with up to ``checkers`` checkers a side on 1..6, from long nardy's own legal plays, both
    sides playing to win."""
    plays = {}

    def after(side, roll):
        key = (side, roll)
        if key not in plays:
            board = LongPosition(([15 - sum(side), *side] + [0] * 19, [0, 15] + [0] * 24))
            plays[key] = {tuple(p.after.board[0][1:7])
                          for p in board.legal_plays(roll, LONG)}
        return plays[key]

    @lru_cache(maxsize=None)
    def win(mine, theirs):
        total = 0.0
        for roll in ALL_ROLLS:
            best = max(1.0 if not any(a) else 1.0 - win(theirs, a)
                       for a in after(mine, roll))
            total += (1 if roll.is_double else 2) * best
        return total / 36

    return {(a, b): win(a, b) for a in _home_sides(checkers) for b in _home_sides(checkers)
            if any(a) and any(b)}


@pytest.mark.slow
def test_bearoff_table_is_exact_for_long_nardy():
    """The two-sided table's win chance (backgammon's bear-off, which long nardy's is)
    equals a dynamic programme over long nardy's own plays on every pair of sides with up
    to three checkers, to the table's 16-bit step (equity within 1 / 65535, so the win
    chance within half that), and the evaluator gives it with no mars."""
    evaluator, step = LongEvaluator(), 0.5 / 65535 + 1e-12
    for (a, b), chance in _win_chances(3).items():
        where = LongPosition(([15 - sum(a), *a] + [0] * 19, [15 - sum(b), *b] + [0] * 19))
        assert (bearoff_equities(where)[0] + 1) / 2 == pytest.approx(chance, abs=step)
        assert evaluator.evaluate(where) == pytest.approx((chance, 0, 0, 0, 0), abs=step)


def test_best_play_and_one_ply():
    """best_play gives a legal position; 1-ply is the mean over the rolls of the 0-ply chances
    after the best plays, and stays close to 0-ply."""
    where = LongPosition.from_notation("24x10,19,18,17,16,15/24x12,20,19,15/0")
    zero, one = LongEvaluator(), LongEvaluator(ply=1)
    for roll in (Roll(6, 6), Roll(3, 1)):
        best = zero.best_play(where, roll)
        assert best.after in {p.after for p in where.legal_plays(roll, LONG)}
        assert best.equity == pytest.approx(MONEY(best.probabilities))
        assert one.best_play(where, roll).after in {p.after for p in
                                                    where.legal_plays(roll, LONG)}
    stuck = LongPosition.from_notation("13x15/24x12,23,22,21/0")   # 21 dances
    for position in (where, stuck, LongPosition.start(1)):           # the start: first turn
        total = np.zeros(5)
        for roll in ALL_ROLLS:
            total += (1 if roll.is_double else 2) * np.array(zero.best_play(position, roll)
                                                             .probabilities)
        assert one.evaluate(position) == pytest.approx(tuple(total / 36), abs=1e-12)


def test_best_equities_are_best_play_equities():
    """best_equities (every play of the 21 rolls in one matrix product) gives exactly
    best_play's equity of each roll, also under another utility, and for a dance."""
    evaluator = LongEvaluator(cache_size=0)
    utility = MONEY.__class__(-1.0, 2.0, 0.5, 0.25, -0.5, -0.25)
    stuck = LongPosition.from_notation("13x15/24x12,23,22,21/0")   # 21 dances
    for where in [*blocking_positions(6, 2), LongPosition.start(), stuck]:
        for u in (MONEY, utility):
            assert evaluator.best_equities(where, ALL_ROLLS, u) == tuple(
                evaluator.best_play(where, roll, u).equity for roll in ALL_ROLLS)
    assert not evaluator.plays(stuck, Roll(2, 1))[0]
