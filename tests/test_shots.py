"""Exact hit probabilities: book values, brute force over legal plays, bar entry, the CLI."""

import json
import random

import pytest
from click.testing import CliRunner
from conftest import side
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from nardy_analysis import ALL_ROLLS, CAUCASIAN, LENIENT, STANDARD, InvalidArgument, Position
from nardy_analysis.analysis import shots as S
from nardy_analysis.analysis.shots import entering_rolls, shots, throws
from nardy_analysis.cli import main

# Shots at a lone blot d pips from a lone hitter with nothing in between, out of 36 (the
# standard table, e.g. Magriel, "Backgammon", ch. "Hitting"; also gnubg's manual).
BOOK = {1: 11, 2: 12, 3: 14, 4: 15, 5: 15, 6: 17, 7: 6, 8: 6, 9: 5, 10: 3, 11: 2, 12: 3,
        13: 0, 14: 0, 15: 1, 16: 1, 17: 0, 18: 1, 19: 0, 20: 1, 21: 0, 22: 0, 23: 0, 24: 1}


def lone_blot(distance: int, blockers=()) -> Position:
    """My lone checker (on 24, or on the bar for 24 pips) and the opponent's blot
    ``distance`` pips ahead; ``blockers`` are my points the opponent has closed."""
    start = 25 if distance == 24 else 24
    me = side(**{"bar" if start == 25 else "p24": 1})
    opp = [0] * 26
    opp[25 - (start - distance)] = 1
    for point in blockers:
        opp[25 - point] = 2
    opp[0] = 15 - sum(opp)
    return Position.from_mover(me, opp)


@pytest.mark.parametrize("distance, expected", sorted(BOOK.items()))
def test_book_values_for_a_lone_blot(distance, expected):
    result = shots(lone_blot(distance))
    assert result.count == expected
    assert result.probability == pytest.approx(expected / 36)
    (point,) = result.blots
    assert throws(result.blots[point]) == expected


def test_blockers_cut_the_indirect_shots():
    # A blot 8 away: 6 throws (62 26 53 35 44 22). Block my 20-point: 4-4 (24/20/16) and
    # 2-2 (24/22/20/18/16) need it, and 6-2 can still go 24/18/16, so 6-2 and 5-3 remain.
    open_board = shots(lone_blot(8))
    blocked = shots(lone_blot(8, blockers=(20,)))
    assert {str(r) for r in open_board.rolls} == {"62", "53", "44", "22"}
    assert {str(r) for r in blocked.rolls} == {"62", "53"}
    assert blocked.count == 4


def test_a_checker_on_the_bar_must_enter_first():
    # Hitter on the bar, blot on my 20-point, my other checkers on 13 (behind nothing).
    me = side(bar=1, p13=14)
    opp = [0] * 26
    opp[25 - 20] = 1
    opp[0] = 14
    result = shots(Position.from_mover(me, opp))
    # Any roll with a 5 enters on 20 and hits (11 throws); 4-1 (bar/21/20* or bar/24/20*),
    # 3-2 (bar/22/20* or bar/23/20*) hit with both dice; 13/... can never reach 20.
    assert result.count == 11 + 2 + 2


@pytest.mark.parametrize("closed", range(0, 7))
def test_bar_entry_table(closed):
    me = side(bar=1, p6=5)
    opp = side(**{f"p{p}": 2 for p in range(1, closed + 1)})
    position = Position.from_mover(me, opp)
    assert throws(entering_rolls(position)) == 36 - closed * closed
    two = Position.from_mover(side(bar=2, p6=5), opp)
    assert throws(entering_rolls(two, every_checker=True)) == (6 - closed) ** 2


def test_entering_rolls_needs_a_checker_on_the_bar():
    with pytest.raises(InvalidArgument, match=r"no checker on the bar in position "
                       r"Position.from_id\('4HPwATDgc/ABMA', turn=0\)"):
        entering_rolls(Position.start())


def brute_force(position, rules):
    """Hits of every legal play of every roll, straight from Position.legal_plays."""
    by_blot, double = {}, set()
    for roll in ALL_ROLLS:
        for play, _ in position.legal_plays(roll, rules):
            ends = {m.end for m in play.moves if m.hit}
            for end in ends:
                by_blot.setdefault(end, set()).add(roll)
            if len(ends) > 1:
                double.add(roll)
    return by_blot, double


def random_positions(seed: int, games: int):
    """Positions along random legal games (contact, hits, bar, bear-off all occur)."""
    rng = random.Random(seed)
    for _ in range(games):
        position = Position.start(rng.randrange(2))
        while not position.is_over:
            yield position
            plays = position.legal_plays(rng.choice(ALL_ROLLS))
            position = rng.choice(plays).after


@pytest.mark.slow
@pytest.mark.parametrize("rules", [STANDARD, LENIENT, CAUCASIAN], ids=lambda r: r.name)
def test_agrees_with_brute_force_over_legal_plays(rules):
    checked = 0
    for position in random_positions(seed=7, games=12):
        result = shots(position, rules)
        by_blot, double = brute_force(position, rules)
        assert {p: set(r) for p, r in result.blots.items() if r} == by_blot, position
        assert set(result.double_hits) == double, position
        assert set(result.rolls) == set().union(set(), *by_blot.values())
        checked += 1
    assert checked > 500


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_blocked_boards_agree_with_brute_force(data):
    """Arbitrary positions with many blocks and blots (not only reachable ones)."""
    me, opp = [0] * 26, [0] * 26
    for counts, taken in ((me, set()), (opp, set())):
        for _ in range(15):
            point = data.draw(st.sampled_from([0, 25] + list(range(1, 25))))
            counts[point] += 1
    for point in range(1, 25):  # no point shared: give it to whoever has more
        if me[point] and opp[25 - point]:
            if me[point] >= opp[25 - point]:
                opp[0] += opp[25 - point]
                opp[25 - point] = 0
            else:
                me[0] += me[point]
                me[point] = 0
    assume(Position.unreachable((me, opp)) is None)      # such as both sides borne off
    position = Position.from_mover(me, opp)
    rules = data.draw(st.sampled_from([STANDARD, CAUCASIAN]))  # Caucasian: home blots safe
    result = shots(position, rules)
    by_blot, double = brute_force(position, rules)
    assert {p: set(r) for p, r in result.blots.items() if r} == by_blot
    assert set(result.double_hits) == double


def random_board(data, bar_checkers: int):
    """A position drawn by hypothesis: the mover with ``bar_checkers`` on the bar, blots and
    blocks anywhere (not only reachable positions)."""
    me, opp = [0] * 26, [0] * 26
    me[25] = bar_checkers
    for counts, left in ((me, 15 - bar_checkers), (opp, 15)):
        for _ in range(left):
            counts[data.draw(st.sampled_from([0] + list(range(1, 25))))] += 1
    return _unshared(me, opp, lambda point: me[point] < opp[25 - point])


def _unshared(me, opp, mine_go) -> Position:
    """The position of ``me`` and ``opp`` (26 counts each) with no point held by both: on a
    shared point the checkers of one side (``me``'s when ``mine_go(point)``) are borne off."""
    for point in range(1, 25):
        if me[point] and opp[25 - point]:
            side, index = (me, point) if mine_go(point) else (opp, 25 - point)
            side[0] += side[index]
            side[index] = 0
    assume(Position.unreachable((me, opp)) is None)      # such as both sides borne off
    return Position.from_mover(me, opp)


def searched(position, rules=STANDARD):
    """Blot -> rolls hitting it, and the rolls hitting two, by the search alone."""
    me, opp = position.lists()
    blots = [p for p in range(1, 25) if opp[25 - p] == 1]
    by_blot, double = {p: set() for p in blots}, set()
    for roll in ALL_ROLLS:
        hit, two = S._hits(position, me, opp, roll, blots, rules)
        for point in hit:
            by_blot[point].add(roll)
        if two:
            double.add(roll)
    return by_blot, double


def fast_answer(position, roll, rules=STANDARD):
    """The rules without a search for one roll (forced-play rules): a set of points and
    whether a play hits two, or None where the search must tell."""
    me = position.on_roll
    theirs, mine = bytes(position.opponent), bytes(me)
    blots = int.from_bytes(theirs.translate(S._ONE), "big") & S._BOARD
    opens = int.from_bytes(theirs.translate(S._OPEN), "big") & S._BOARD
    board, lone = S._point_set(mine, S._SOME), S._point_set(mine, S._ONE)
    a, b = roll.high, roll.low
    if a == b:
        return S._double(me, board, blots, opens, a, me[25])
    if me[25]:
        return S._entering(board, blots, opens, a, b, me[25])
    both = (board >> 8 * (a + b)) & blots & ((opens >> 8 * a) | (opens >> 8 * b))
    return S._two_dice(me, position.opponent, rules, board, lone, blots, opens, a, b,
                       (board >> 8 * a) & blots, (board >> 8 * b) & blots, both)


def assert_fast_paths_agree(position):
    """Each roll's rule without a search, and the whole position's sets of rolls
    (reach, suspects, the two-blot tests), give the search's hits."""
    me, opp = position.lists()
    blots = [p for p in range(1, 25) if opp[25 - p] == 1]
    for roll in ALL_ROLLS:
        found = fast_answer(position, roll)
        if me[25] and not roll.is_double:
            assert found is not None  # entering always answers
        if found is not None:
            hit, two = S._hits(position, me, opp, roll, blots, STANDARD)
            assert found == (sum(S._POINT[t] for t in hit), two), (position, roll)
    assert (me, opp) == position.lists()  # the lists are left as they were
    by_blot, every, double = S._hitting_rolls(position, STANDARD, doubles=True)
    assert ({p: set(S._rolls(r)) for p, r in by_blot.items()}, set(S._rolls(double))) == \
        searched(position), position
    assert set(S._rolls(every)) == set().union(*map(S._rolls, by_blot.values()))


def sparse_board(data) -> Position:
    """The mover with 1..6 checkers on the board (maybe some on the bar), the rest off; the
    opponent anywhere: few checkers free to move, so the forced-play rules bite."""
    me, opp = [0] * 26, [0] * 26
    for _ in range(data.draw(st.integers(1, 6))):
        me[data.draw(st.sampled_from([25] + list(range(1, 25))))] += 1
    me[0] = 15 - sum(me)
    for _ in range(15):
        opp[data.draw(st.sampled_from([0] + list(range(1, 25))))] += 1
    return _unshared(me, opp, lambda point: me[point] < opp[25 - point])


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_fast_paths_agree_with_the_search(data):
    """The rules without a search (two dice, entering, doubles; the sets of rolls of a
    whole position) give the search's hits, on random boards and rolls."""
    position = random_board(data, data.draw(st.sampled_from([0, 0, 1, 2, 3, 4, 5])))
    assert_fast_paths_agree(position)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_fast_paths_agree_on_sparse_boards(data):
    """Few checkers to move: the suspect rolls, lone movers, capacity below four steps."""
    assert_fast_paths_agree(sparse_board(data))


def home_board(data) -> Position:
    """The mover's checkers in their home board or off, the opponent's anywhere (drawn by
    hypothesis, blots in the mover's home board likely): bearing off during the play."""
    me, opp = [0] * 26, [0] * 26
    for _ in range(15):
        me[data.draw(st.sampled_from(range(0, 7)))] += 1
    for _ in range(15):
        opp[data.draw(st.sampled_from([0, 0, 25] + list(range(13, 25)) + list(range(1, 25))))] += 1
    return _unshared(me, opp, lambda point: True)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_bearing_off_boards_agree_with_brute_force(data):
    """All the mover's checkers home: doubles that fit on the board need no search, the
    others are searched; both give the hits of the legal plays."""
    position = home_board(data)
    result = shots(position)
    by_blot, double = brute_force(position, STANDARD)
    assert {p: set(r) for p, r in result.blots.items() if r} == by_blot, position
    assert set(result.double_hits) == double, position


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from([1, 2, 3]))
def test_doubles_after_entering_agree_with_brute_force(data, on_bar):
    """One to three checkers on the bar: a double enters them, then plays the rest."""
    position = random_board(data, on_bar)
    result = shots(position)
    by_blot, double = brute_force(position, STANDARD)
    doubles = {p: {r for r in rolls if r.is_double} for p, rolls in by_blot.items()}
    assert {p: {r for r in rolls if r.is_double} for p, rolls in result.blots.items()
            if any(r.is_double for r in rolls)} == {p: r for p, r in doubles.items() if r}
    assert {r for r in result.double_hits if r.is_double} == {r for r in double if r.is_double}


def reference_shots(position, rules):
    """The hits of every roll by the search alone (no rule that skips it)."""
    me, opp = position.lists()
    blots = [p for p in range(1, 25) if opp[25 - p] == 1]
    return {roll: S._hits(position, me, opp, roll, blots, rules) for roll in ALL_ROLLS}


def test_corpus_positions_agree_with_the_search(corpus_files):
    from nardy_analysis import load_file
    checked = 0
    for path in corpus_files[:12]:
        for match in load_file(path).matches:
            for game in match.games:
                for turn in game.turns:
                    position = turn.after or turn.before
                    if 1 not in position.opponent[1:25]:
                        continue
                    result = shots(position, match.rules)
                    searched = reference_shots(position, match.rules)
                    assert {p: set(r) for p, r in result.blots.items() if r} == \
                        {p: {r for r, (hit, _) in searched.items() if p in hit}
                         for p in result.blots if any(p in hit for hit, _ in searched.values())}
                    assert set(result.double_hits) == {r for r, (_, d) in searched.items() if d}
                    checked += 1
    assert checked > 500


def test_double_hits():
    # Hitters on my 24 and 23, blots on my 22 and 21, nothing else on the board. The 22 is hit
    # by a 2 from 24 or a 1 from 23, the 21 by a 3 from 24, a 2 from 23 or a 1 from 22. Both
    # are hit by 1-1 (23/22*/21*), 2-1 (24/22*/21*), 2-2 (24/22* 23/21*) and 3-1 (24/21*
    # 23/22*); 3-2 puts both dice on one blot and 3-3, 4-1, 4-2 reach one at most.
    me = side(p24=1, p23=1)
    opp = [0] * 26
    opp[25 - 22] = 1
    opp[25 - 21] = 1
    opp[0] = 13
    result = shots(Position.from_mover(me, opp))
    assert sorted(str(r) for r in result.double_hits) == ["11", "21", "22", "31"]
    assert result.double_hit_count == 1 + 2 + 1 + 2


def test_cli_shots_json_and_bad_ids():
    position = lone_blot(6)
    runner = CliRunner()
    done = runner.invoke(main, ["shots", "--json", position.id()])
    assert done.exit_code == 0, done.output
    obj = json.loads(done.output)
    assert obj["position_id"] == position.id()
    assert obj["rolls"] == 17
    assert obj["blots"] == [{"point": 18, "hitting_rolls": obj["hitting_rolls"]}]
    text = runner.invoke(main, ["shots", position.id()])
    assert "shots: 17/36" in text.output
    bad = runner.invoke(main, ["shots", "4HPwATDgc/ABM!"])
    assert bad.exit_code == 2 and "4HPwATDgc/ABM!" in bad.output
