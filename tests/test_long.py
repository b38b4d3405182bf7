"""Long nardy positions, legal plays, written plays, blocked rolls, endings and notation.

Sources: the rule page "Игра в длинные нарды" and docs/RULES.md, "Long nardy": the start (15
on the head, 360 pips), the head rule, no hitting, the six-point block, bearing off, the
results. The expected plays below are worked
out by hand from those rules, in small positions where few checkers can move; the property
tests play random games and compare with an independent check of the block rule written here.
"""

from __future__ import annotations

import pickle
import random
from collections import Counter
from itertools import permutations
from xml.etree import ElementTree

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from nardy_analysis.errors import IllegalPlayError, InvalidArgument, PositionIdError
from nardy_analysis.game.long import HEAD, LongPosition, blocked_rolls, check_play
from nardy_analysis.game.moves import ALL_ROLLS, Move, Play, Roll
from nardy_analysis.game.position import OFF, ending
from nardy_analysis.game.rules import LONG, LONG_FEDERATION, VARIANTS, Rules

# --- helpers ----------------------------------------------------------------------------------

def side(points: dict[int, int]) -> list[int]:
    """26 counts with ``points`` set and the rest of the 15 checkers borne off."""
    counts = [0] * 26
    for point, n in points.items():
        counts[point] += n
    counts[OFF] += 15 - sum(counts)
    return counts


def theirs(point: int) -> int:
    """The opponent's number of my ``point``, worked out on the board of the rule page: my 24 (my
    head) is the opponent's 12, my 12 its head (24), my 13 its 1."""
    return point + 12 if point <= 12 else point - 12


def pos(me: dict[int, int], opp: dict[int, int], turn: int = 0) -> LongPosition:
    """Player ``turn`` on roll with ``me``; the opponent's checkers ``opp`` on MY points."""
    mover, other = side(me), side({theirs(p): n for p, n in opp.items()})
    return LongPosition((mover, other) if turn == 0 else (other, mover), turn)


def possible(me: dict[int, int], opp: dict[int, int]) -> LongPosition | None:
    """:func:`pos`, or None when no game reaches that board (LongPosition.unreachable)."""
    try:
        return pos(me, opp)
    except InvalidArgument:
        return None


def plays(position, text: str, rules=LONG, first_turn=False) -> set[str]:
    return {str(p.play) for p in position.legal_plays(Roll.from_str(text), rules, first_turn)}


def afters(position, text: str, rules=LONG, first_turn=False) -> set[LongPosition]:
    return {p.after for p in position.legal_plays(Roll.from_str(text), rules, first_turn)}


def raises(position, roll: str, steps, kind: str, step, **options) -> IllegalPlayError:
    with pytest.raises(IllegalPlayError) as info:
        check_play(position, Roll.from_str(roll), steps, **options)
    assert (info.value.kind, info.value.step) == (kind, step), info.value
    return info.value


START = LongPosition.start()
OPP_HEAD = {12: 15}
"""The opponent untouched: all 15 on its head, my 12-point."""


# --- the position -----------------------------------------------------------------------------

def test_start_position_and_pips():
    assert START.board[0][HEAD] == START.board[1][HEAD] == 15
    assert START.pip_count(0) == START.pip_count(1) == 360
    assert START.notation() == "24x15/24x15/0" == START.id()
    assert START.facing(24) == 12 and START.facing(12) == 24 and START.facing(1) == 13
    assert all(START.facing(p) == theirs(p) for p in range(1, 25))
    # Both heads: mine on 24 (top right), the opponent's on my 12 (bottom left).
    lines = str(START).splitlines()
    assert lines[0].endswith("23 24") and lines[-2].startswith("  12 11")
    assert lines[5].endswith(" 15") and lines[7].startswith("  15") and lines[4].endswith("X")
    assert lines[8].startswith("   O") and lines[-1] == " off: X 0 O 0   pips: X 360 O 360"


def test_value_type():
    after = START.legal_plays(Roll(6, 5))[0].after
    assert isinstance(after, LongPosition) and after.turn == 1
    assert eval(repr(after)) == after and hash(eval(repr(after))) == hash(after)
    copy = pickle.loads(pickle.dumps(after))
    assert type(copy) is LongPosition and copy == after
    assert type(after.with_turn(0)) is LongPosition
    assert LongPosition.from_id(after.id(), turn=0) == after.with_turn(0)
    assert START != START.with_turn(1) and START.board == START.with_turn(1).board
    with pytest.raises(AttributeError):
        START.turn = 1


@pytest.mark.parametrize("board, message", [
    ((side({24: 15}), [0] * 24 + [14, 0]), "summing to 15"),
    ((side({24: 14, 25: 1}), side({24: 15})), "no bar"),
    ((side({24: 14, 12: 1}), side({24: 15})), "point 12$"),
    ((side({1: 15}), side({13: 1, 24: 14})), "point 1$"),
])
def test_invalid_positions(board, message):
    with pytest.raises(InvalidArgument, match=message):
        LongPosition(board)


# --- the head rule ----------------------------------------------------------------------------

def test_head_rule_first_turn():
    # Seed 002: two checkers may leave the head on the first turn, with any roll.
    assert plays(START, "65", first_turn=True) == {"24/19 24/18", "24/18 18/13"}
    assert plays(START, "21", first_turn=True) == {"24/23 24/22", "24/22 22/21"}
    # The federation: only 66, 44 and 33 let two leave.
    assert plays(START, "65", LONG_FEDERATION, first_turn=True) == {"24/18 18/13"}
    # 66: 24/18 twice, then 18/12 is the opponent's head (closed), and a third checker may
    # not leave: two sixes only, with either rule.
    for rules in (LONG, LONG_FEDERATION):
        assert plays(START, "66", rules, first_turn=True) == {"24/18(2)"}
        # 44: each of the two checkers goes 24/20/16 (16/12 is closed).
        assert plays(START, "44", rules, first_turn=True) == {"24/20(2) 20/16(2)"}
        # 33: 24/21/18 twice, or 24/21/18/15 and 24/21 (18/15/12 is closed).
        assert plays(START, "33", rules, first_turn=True) == {"24/21(2) 21/18(2)",
                                                               "24/21(2) 21/18 18/15"}


def test_head_rule_later_turns():
    # One checker only: 65 takes it 24/13; 66 only 24/18 (18/12 is closed).
    assert plays(START, "65") == {"24/18 18/13"}
    assert plays(START, "66") == {"24/18"}
    raises(START, "65", [(24, 6), (24, 5)], "head_rule", 1)
    raises(START, "65", [(24, 6), (24, 5)], "head_rule", 1, rules=LONG_FEDERATION,
           first_turn=True)
    check_play(START, Roll(6, 5), [(24, 6), (24, 5)], first_turn=True)
    raises(START, "44", [(24, 4), (24, 4), (24, 4)], "head_rule", 2, first_turn=True)


# --- closed points ----------------------------------------------------------------------------

def test_closed_point_and_intermediate_landing():
    # One checker on 10, one opposing checker on my 7: 31 may go 10/9/6 but not via 7.
    position = pos({10: 1, 1: 14}, {7: 1, 12: 14})
    assert plays(position, "31") == {"10/9 9/6"}
    raises(position, "31", [(10, 3), (7, 1)], "closed_point", 0)
    assert check_play(position, Roll(3, 1), [(10, 1), (9, 3)]).after == \
        pos({6: 1, 1: 14}, {7: 1, 12: 14}).with_turn(1)
    # Later in a play: 66 from the start, 24/18 then 18/12 lands on the opponent's head.
    error = raises(START, "66", [(24, 6), (18, 6)], "closed_point", 1)
    assert "18/12" in str(error) and "point 12" in str(error)


# --- the six-point block ----------------------------------------------------------------------

def test_six_block_refused_and_allowed():
    # 8, 7, 6, 5, 4 held; 61 played 10/9/3 makes 8..3, six in a row.
    me = {10: 1, 8: 1, 7: 1, 6: 1, 5: 1, 4: 1, 1: 9}
    # All opposing checkers on their head (my 12), none past my 8..3: refused, and a board
    # holding them is no position.
    refused = pos(me, OPP_HEAD)
    error = raises(refused, "61", [(10, 1), (9, 6)], "six_block", None)
    assert "8, 7, 6, 5, 4, 3" in str(error)
    assert not any(LongPosition.unreachable(after.board) for after in afters(refused, "61"))
    with pytest.raises(InvalidArgument, match=r"player 1 holds six points in a row "
                       r"\(8, 7, 6, 5, 4, 3\) that no checker of player 2 has passed"):
        pos({8: 1, 7: 1, 6: 1, 5: 1, 4: 1, 3: 1, 1: 9}, OPP_HEAD)
    # One opposing checker on my 2 (its 14-point) has passed them: allowed.
    allowed = pos(me, {12: 14, 2: 1})
    made = pos({8: 1, 7: 1, 6: 1, 5: 1, 4: 1, 3: 1, 1: 9}, {12: 14, 2: 1}).with_turn(1)
    assert check_play(allowed, Roll(6, 1), [(10, 1), (9, 6)]).after == made
    assert made in afters(allowed, "61")


def test_six_block_across_the_head():
    # My 22, 23, 24, 1, 2, 3 are the opponent's 10..15, consecutive on its path.
    me = {24: 10, 23: 1, 22: 1, 5: 1, 3: 1, 2: 1}
    raises(pos(me, OPP_HEAD), "41", [(5, 4), (24, 1)], "six_block", None)
    # An opposing checker on my 20 (its 8-point) has passed them.
    check_play(pos(me, {12: 14, 20: 1}), Roll(4, 1), [(5, 4), (24, 1)])


def test_six_block_checked_after_the_whole_play():
    # 11: 10/9 makes 9..4 for a moment, 4/3 breaks it (9, 8, 7, 6, 5, 3): allowed.
    position = pos({10: 1, 8: 1, 7: 1, 6: 1, 5: 1, 4: 1, 1: 9}, OPP_HEAD)
    result = check_play(position, Roll(2, 1), [(10, 1), (4, 2)])
    assert result.after == pos({9: 1, 8: 1, 7: 1, 6: 1, 5: 1, 2: 1, 1: 9},
                               OPP_HEAD).with_turn(1)


# --- bearing off and forced play --------------------------------------------------------------

def test_bear_off_with_a_larger_number():
    # 3 and 2 left: 65 bears off both, the 6 from the highest point, 3.
    position = pos({3: 1, 2: 1}, {13: 15})
    assert plays(position, "65") == {"3/off 2/off"}
    # 5 and 3 left, 41: 3/off with the 4 is refused while 5 is higher; the plays are 5/1/off
    # (= 5/4/off) and 5/1 3/2.
    position = pos({5: 1, 3: 1}, {13: 15})
    assert afters(position, "41") == {pos({3: 1}, {13: 15}).with_turn(1),
                                      pos({2: 1, 1: 1}, {13: 15}).with_turn(1)}
    raises(position, "41", [(3, 4)], "illegal_play", 0)
    # Not all home: no bearing off.
    raises(pos({7: 1, 2: 14}, {13: 15}), "21", [(2, 2)], "illegal_play", 0)


def test_forced_play():
    # Both dice when possible: from the start (a later turn) 65 must be 24/13.
    raises(START, "65", [(24, 6)], "forced_play", None)
    # 10 and 14 on 1; an opposing checker on my 3: 52 plays 10/5 or 10/8, never both
    # (5/3 and 8/3 are closed; 1/off is refused while 5 is higher): the larger, 10/5.
    position = pos({10: 1, 1: 14}, {3: 1, 12: 14})
    assert plays(position, "52") == {"10/5"}
    raises(position, "52", [(10, 2)], "forced_play", None)
    assert check_play(position, Roll(5, 2), [(10, 5)]).play == Play((Move(10, 5),))
    # Without the forced-play rules the 2 alone and no play at all are legal too.
    lenient = LONG.override(forced_play=False)
    assert plays(position, "52", lenient) == {"10/5", "10/8", "Cannot Move"}
    check_play(position, Roll(5, 2), [(10, 2)], rules=lenient)


def test_illegal_steps():
    raises(START, "65", [(24, 4)], "illegal_play", 0)          # no 4 in the roll
    raises(START, "65", [(24, 6), (18, 6)], "illegal_play", 1)  # one 6 only
    raises(START, "65", [(20, 5)], "illegal_play", 0)          # no checker on 20
    error = raises(START, "65", [(30, 5)], "illegal_play", 0)
    assert "'24x15/24x15/0'" in str(error)


# --- results and blocked rolls ----------------------------------------------------------------

def test_ending():
    # Player 0 has borne off all 15; player 1 is the loser.
    assert ending(LongPosition((side({}), side({1: 14}))), LONG) == ("oin", 1)
    assert ending(LongPosition((side({}), side({1: 13, 6: 1}))), LONG) == ("oin", 1)
    assert ending(LongPosition((side({}), side({6: 10, 24: 5}))), LONG) == ("mars", 2)
    assert ending(LongPosition((side({}), side({6: 10, 1: 5}))), LONG) == ("home_mars", 3)
    assert ending(LongPosition((side({}), side({6: 10, 1: 5}))),
                  LONG.override(home_mars=2)) == ("home_mars", 2)
    with pytest.raises(InvalidArgument):
        ending(START, LONG)


def test_blocked_rolls():
    # From the start, a later turn: one checker leaves the head and 12 is closed, so 33
    # (24/21/18/15), 44 (24/20/16) and 66 (24/18) cannot be played fully; 55 goes
    # 24/19/14/9/4. On the first turn only 66 (24/18 twice).
    assert blocked_rolls(START) == 3
    assert blocked_rolls(START, first_turn=True) == 1
    # The last checker borne off with the first die is a full play: nothing is blocked.
    assert blocked_rolls(pos({1: 1}, {13: 15})) == 0
    # One checker on 10 and 14 on 1 (which cannot bear off while 10 is out); opposing
    # checkers on my 9, 8, 7, 6, 5 and 3: only a 6 moves (10/4), and then every second die
    # plays: 1 by 1/off (4/3 is closed), 2 4/2, 3 4/1, 4, 5 and 6 4/off, and 66 goes on with
    # 1/off twice. The 25 throws without a 6 are blocked.
    position = pos({10: 1, 1: 14}, {9: 1, 8: 1, 7: 1, 6: 1, 5: 1, 3: 1, 12: 9})
    assert blocked_rolls(position) == 25
    assert plays(position, "66") == {"10/4 4/off 1/off(2)"}


# --- rules values -----------------------------------------------------------------------------

def test_variants():
    assert VARIANTS["long"] is LONG and VARIANTS["longnardy"] is LONG
    assert VARIANTS["long-federation"] is LONG_FEDERATION
    assert (LONG.game, LONG.head_doubles, LONG.home_mars, LONG.cube) == ("long", None, 3, False)
    assert LONG_FEDERATION.head_doubles == (6, 4, 3) and Rules().game == "short"
    assert Rules().with_tags({"Variation": "LongNardy"}) == LONG


# --- notation ---------------------------------------------------------------------------------

def test_notation_known_values():
    after = check_play(START, Roll(6, 5), [(24, 6), (24, 5)], first_turn=True).after
    assert after.notation() == "24x13,19,18/24x15/1"
    assert LongPosition.from_notation(" 24x13,19,18/24x15/1 ") == after
    assert LongPosition.from_notation("-/1/0") == LongPosition((side({}), side({1: 1})))


@pytest.mark.parametrize("text", ["", "24x15/24x15", "24x15/24x15/2", "24x16/24x15/0",
                                  "24x8,24x7/24x15/0", "25x15/24x15/0", "24x15/12/0",
                                  "24x0,23x15/24x15/0", "24x15/24x15,1/0", "x/24x15/0"])
def test_notation_errors(text):
    with pytest.raises(PositionIdError) as info:
        LongPosition.from_notation(text)
    assert repr(text.strip()) in str(info.value) or repr(text) in str(info.value)


@pytest.mark.parametrize("text, impossible", [
    # Bearing off starts with all 15 home, and no checker leaves home (no hitting).
    ("24x14/24x15/0", "player 1 has borne off 1 checker with 14 still outside home (points "
                      "7..24): bearing off starts with all 15 home"),
    ("24x15/6x13,7/1", "player 2 has borne off 1 checker with 1 still outside home (points "
                       "7..24): bearing off starts with all 15 home"),
    # Six in a row that no opposing checker has passed, listed along the opponent's path:
    # the head and 23..19, or across the opponent's head (my 1 and 24 are neighbours there).
    ("24x10,23,22,21,20,19/24x15/0", "player 1 holds six points in a row (24, 23, 22, 21, "
                                     "20, 19) that no checker of player 2 has passed"),
    ("24x15/24x10,3,2,1,23,22/1", "player 2 holds six points in a row (3, 2, 1, 24, 23, 22) "
                                  "that no checker of player 1 has passed"),
    ("-/-/0", "both players have borne off all 15 checkers (the game ends with the first)"),
])
def test_impossible_positions_are_refused(text, impossible):
    with pytest.raises(ValueError) as info:
        LongPosition.from_notation(text)
    assert isinstance(info.value, PositionIdError)
    assert str(info.value) == f"impossible long nardy position {text!r}: {impossible}"


def test_possible_positions_are_kept():
    # Off with all the rest home; six in a row past which an opposing checker stands (on a
    # lower point of its own, or borne off); a finished game; the head and five more points.
    for text in ("6x10,1x4/24x15/0", "24x10,23,22,21,20,19/24x14,6/0",
                 "24x10,23,22,21,20,19/6x14/0", "-/2,1x3/1", "24x10,23,22,21,20,18/24x15/1"):
        assert LongPosition.from_notation(text).notation() == text


# --- property tests ---------------------------------------------------------------------------

def unpassed_block(position: LongPosition) -> bool:
    """Independent check of the six-point block after a play (the mover is not on roll):
    six of the mover's points in a row along the opponent's path, numbered the opponent's
    way, and no opposing checker on a lower point of its own or borne off."""
    mover, opp = position.board[1 - position.turn], position.board[position.turn]
    held = {theirs(p) for p in range(1, 25) if mover[p]}
    return any(set(range(low, low + 6)) <= held and not any(opp[:low])
               for low in range(1, 20))


def random_game(seed: int, rules=LONG):
    """A game played at random until one side is off: its turns ``(position, roll,
    first_turn, legal plays)`` and the final position."""
    rng = random.Random(seed)
    position, first, turns = LongPosition.start(rng.randrange(2)), [True, True], []
    while not position.is_over:
        roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
        legal = position.legal_plays(roll, rules, first[position.turn])
        turns.append((position, roll, first[position.turn], legal))
        first[position.turn] = False
        position = rng.choice(legal).after
    return turns, position


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([LONG, LONG_FEDERATION]))
def test_random_games(seed, rules):
    turns, final = random_game(seed, rules)
    for position, roll, first, legal in turns:
        assert legal and len({p.after for p in legal}) == len(legal)
        most = max(len(p.play) for p in legal)
        for play, after in legal:
            assert type(after) is LongPosition and after.turn == 1 - position.turn
            LongPosition(after.board, after.turn)             # valid
            assert not unpassed_block(after)
            assert len(play) == most and not any(m.hit for m in play.moves)
            mover = position.turn
            steps = [m.start - m.end for m in play.moves]
            assert position.pip_count(mover) - after.pip_count(mover) == sum(steps)
            if all(m.end for m in play.moves):               # no bearing off: the dice
                assert Counter(steps) <= Counter(roll.dice)
            assert after.board[1 - mover] == position.board[1 - mover]
            for steps in _dice_orders(play, roll):
                try:
                    result = check_play(position, roll, steps, rules, first)
                except IllegalPlayError:
                    continue
                assert result.after == after
                break
            else:
                raise AssertionError(f"check_play refuses {play} of {roll} in {position!r}")
            assert LongPosition.from_notation(after.notation()) == after
    assert final.borne_off(1 - final.turn) == 15 and sum(final.board[final.turn]) == 15
    assert ending(final, rules)[0] in ("oin", "mars", "home_mars")


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32))
def test_blocked_rolls_are_the_legal_plays(seed):
    """blocked_rolls counts, on positions of a random game, the throws whose legal plays all
    use fewer dice than the roll has, unless they end the game."""
    turns, _ = random_game(seed)
    for position, *_ in turns[::7]:
        assert blocked_rolls(position) == sum(
            1 if roll.is_double else 2 for roll in ALL_ROLLS
            if not any(len(play) == len(roll.dice) or after.is_over
                       for play, after in position.legal_plays(roll)))


def _dice_orders(play, roll):
    """Each assignment of the roll's dice to the play's moves that fits them."""
    for dice in dict.fromkeys(permutations(roll.dice, len(play))):
        if all(d == m.start - m.end if m.end else d >= m.start for d, m in zip(dice, play.moves)):
            yield [(m.start, d) for m, d in zip(play.moves, dice)]


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 2**32))
def test_random_illegal_plays(seed, pick):
    """In a random game's later turns: a second checker off the head is ``head_rule`` at that
    step; a step onto an opposing checker, first or after a legal first step, is
    ``closed_point`` at that step."""
    rng = random.Random(pick)
    turns, _ = random_game(seed)
    heads = closed = 0
    for position, roll, first, legal in turns[2:]:
        me, opp = position.on_roll, position.opponent
        one, two = roll.dice[:2]
        if me[HEAD] >= 2 and not opp[theirs(HEAD - one)] and not opp[theirs(HEAD - two)]:
            raises(position, str(roll), [(HEAD, one), (HEAD, two)], "head_rule", 1)
            heads += 1
        first_steps = [s[:1] for p in legal for s in _dice_orders(p.play, roll) if s]
        for prefix in [[]] + rng.sample(first_steps, min(2, len(first_steps))):
            board = list(me)
            dice = list(roll.dice)
            for start, die in prefix:
                board[start] -= 1
                board[max(start - die, 0)] += 1
                dice.remove(die)
            onto = [(p, d) for p in range(1, 25) for d in set(dice) if board[p] and p - d > 0
                    and opp[theirs(p - d)] and not (p == HEAD and prefix and prefix[0][0] == HEAD)]
            if onto:
                raises(position, str(roll), prefix + [rng.choice(onto)], "closed_point",
                       len(prefix))
                closed += 1
    assert heads + closed


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 16), st.integers(0, 5), st.integers(1, 6), st.data())
def test_random_six_blocks(low, gap, die, data):
    """Five points of a six-point run held, a checker ``die`` pips above the sixth, the
    opponent all behind the run: completing it is ``six_block``; with one opposing checker
    moved past the run it is allowed."""
    run = [low + i for i in range(6)]                    # the opponent's numbering
    target = theirs(run[gap])                            # my point still to make
    start = target + die
    assume(start <= 24 and theirs(start) not in run)
    behind = [q for q in range(run[-1] + 1, 25) if q != theirs(start)]
    assume(behind)
    me = {theirs(q): 1 for q in run if q != run[gap]}
    me[start] = me.get(start, 0) + 10
    opp_points = data.draw(st.lists(st.sampled_from(behind), min_size=15, max_size=15))
    opp = {}
    for q in opp_points:
        opp[theirs(q)] = opp.get(theirs(q), 0) + 1
    position = possible(me, opp)
    assume(position)                        # no six in a row before the play
    raises(position, f"{die}{die}", [(start, die)], "six_block", None)
    # One opposing checker moved past the run, to a point of its own below it that is free.
    free = [q for q in range(1, low) if theirs(q) not in me]
    assume(free)
    q = data.draw(st.sampled_from(free))
    moved = dict(opp)
    first = theirs(opp_points[0])
    moved[first] -= 1
    moved = {p: n for p, n in moved.items() if n}
    moved[theirs(q)] = moved.get(theirs(q), 0) + 1
    position = possible(me, moved)
    assume(position)
    try:
        check_play(position, Roll(die, die), [(start, die)])
    except IllegalPlayError as error:
        assert error.kind == "forced_play"


@st.composite
def long_positions(draw):
    """Any long nardy position a game may reach, the player on roll with a checker left: the
    mover's 15 checkers on points drawn up to a highest point (1..24, so that bear-offs come;
    from 0, off, when that is in home), the opponent's on points where the mover has none,
    all in home and off or none off; boards with six points in a row that no opposing checker
    has passed are left out."""
    me = [0] * 26
    top = draw(st.integers(1, 24))
    for point in draw(st.lists(st.integers(0 if top <= 6 else 1, top), min_size=15,
                               max_size=15)):
        me[point] += 1
    assume(me[OFF] < 15)
    points = range(7) if draw(st.booleans()) else range(1, 25)
    free = [q for q in points if q == OFF or not me[theirs(q)]]
    assume(free)
    opp = [0] * 26
    for point in draw(st.lists(st.sampled_from(free), min_size=15, max_size=15)):
        opp[point] += 1
    assume(LongPosition.unreachable((me, opp)) is None)
    return LongPosition((me, opp), draw(st.integers(0, 1)) if opp[OFF] < 15 else 0)


@settings(max_examples=100, deadline=None)
@given(long_positions())
def test_notation_round_trip(position):
    text = position.notation()
    assert LongPosition.from_notation(text) == position and position.id() == text
    assert eval(repr(position)) == position


# --- boards -----------------------------------------------------------------------------------

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("turn", [0, 1])
def test_svg_board_shows_both_heads(turn):
    # One checker each left on its head: the viewer's (on roll) on their 24, top right; the
    # opponent's on the viewer's 12, bottom left; the bar empty; the notation in the title.
    position = LongPosition.from_notation(f"24,1x14/24,1x14/{turn}")
    root = ElementTree.fromstring(position._repr_svg_())
    numbers = {int(t.text): (float(t.get("x")), float(t.get("y")))
               for t in root.iter(SVG + "text") if t.get("class") == "point-number"}
    assert sorted(numbers) == list(range(1, 25))
    middle = (numbers[13][1] + numbers[12][1]) / 2

    def points(player):
        """The viewer's points the checkers of ``player`` are drawn on."""
        return {p for c in root.iter(SVG + "circle") if c.get("class") == f"checker player{player}"
                for p, (x, y) in numbers.items()
                if x == float(c.get("cx")) and (y < middle) == (float(c.get("cy")) < middle)}

    assert points(turn) == {24, 1} and points(1 - turn) == {12, 13}
    assert numbers[24][1] < middle < numbers[12][1]                  # 24 top, 12 bottom
    assert numbers[24][0] > numbers[13][0] and numbers[12][0] < numbers[1][0]  # right, left
    assert f"24,1x14/24,1x14/{turn}" in root.find(SVG + "title").text
    captions = [t.text for t in root.iter(SVG + "text") if t.get("class") == "caption"]
    assert all("38 pips, 0 off" in c for c in captions)


def every_order(position: LongPosition, roll: Roll, rules: Rules, first_turn: bool):
    """The legal plays by their definition, written here: every order of the dice and every
    start from the 24-point down, step by step from the rules, keeping each board the first
    time the forced-play rules' best way reaches it (most dice, then the larger die), then
    the best allowed: ``[(moves, after side)]`` in the order first reached."""
    me, opp = position.lists()
    limit = 2 if first_turn and (rules.head_doubles is None or (
        roll.is_double and roll.high in rules.head_doubles)) else 1
    found, seen = {}, set()

    def search(dice, steps, biggest):
        board = tuple(me)
        if (board, dice) in seen:                   # the same subtree again
            return
        seen.add((board, dice))
        key = (len(steps), biggest)
        if board not in found or found[board][0] < key:
            found[board] = (key, tuple(steps))
        for i, die in enumerate(dice):
            for start in range(24, 0, -1):
                end = start - die
                if not me[start] or (start == HEAD and me[HEAD] <= position.on_roll[HEAD]
                                     - limit):
                    continue
                if end > 0 and opp[theirs(end)]:
                    continue
                if end <= 0 and (any(me[7:25]) or end < 0 and not
                                 rules.bear_off_any_with_larger and any(me[start + 1:7])):
                    continue
                end = max(end, OFF)
                me[start], me[end] = me[start] - 1, me[end] + 1
                search(dice[:i] + dice[i + 1:], steps + [Move(start, end)], max(biggest, die))
                me[start], me[end] = me[start] + 1, me[end] - 1

    search(roll.dice, [], 0)
    allowed = {board: (key, steps) for board, (key, steps) in found.items()
               if not unpassed_block(LongPosition.after(board, opp, position.turn))}
    best = max((key for key, _ in allowed.values()), default=None)
    return [(steps, board) for board, (key, steps) in allowed.items()
            if key == best or not rules.forced_play]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(long_positions(), st.sampled_from(ALL_ROLLS),
       st.sampled_from([LONG, LONG_FEDERATION, LONG.override(forced_play=False),
                        LONG.override(bear_off_any_with_larger=True)]), st.booleans())
def test_legal_plays_are_every_order_of_the_steps(position, roll, rules, first_turn):
    """legal_plays (whose search tries a double's steps only from the highest start down)
    gives exactly the plays of every order of the steps, play for play, moves in the same
    order, in the same order; legal_sides the mover's side after each."""
    want = every_order(position, roll, rules, first_turn)
    legal = position.legal_plays(roll, rules, first_turn)
    assert [(play.moves, after.board[position.turn]) for play, after in legal] == want
    assert position.legal_sides(roll, rules, first_turn) == tuple(board for _, board in want)
