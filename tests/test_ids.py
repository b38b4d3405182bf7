"""gnubg Position ID, gnubg Match ID and XGID: known values, gnubg as an oracle, round trips.

Known values come from outside this code: the GNU Backgammon manual's technical notes (the
start position ``4HPwATDgc/ABMA`` and the Match ID example ``QYkqASAAIAAA``), the gnubg ID of
the position after the opening 31 played 8/5 6/5 (``sGfwATDgc/ABMA``, quoted by gnubg-based
tools), the XGID of the start position with 52 to play as eXtreme Gammon writes it, and an
XGID / gnubg ID pair published with a converter. The oracle is ``gnubg_nn`` (GNU Backgammon's
own position-ID code), whose board is ``[opponent, player_on_roll]``, each 25 ints from that
player's side: points 1..24 at index 0..23, the bar at index 24, borne-off checkers implicit.
"""

from __future__ import annotations

import base64
import csv
import random
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import gnubg_board
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from nardy_analysis.errors import InvalidArgument, PositionIdError
from nardy_analysis.game.ids import GameState, MatchState, match_from_id, match_id
from nardy_analysis.game.long import LongPosition
from nardy_analysis.game.position import BAR, Position, play_steps
from nardy_analysis.notation.positions import parse_position

START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10"


# --- strategies -------------------------------------------------------------------------------

def random_board(draw_location) -> list[list[int]]:
    """15 checkers per player, each put where ``draw_location(free)`` says; no shared points."""
    board = [[0] * 26, [0] * 26]
    for player in (0, 1):
        other = board[1 - player]
        free = [p for p in range(26) if p in (0, BAR) or not other[25 - p]]
        for _ in range(15):
            board[player][draw_location(free)] += 1
    return board


@st.composite
def positions(draw):
    spots = draw(st.lists(st.integers(0, 25), min_size=1, max_size=8))
    def location(free):
        preferred = [p for p in free if p in spots]
        return draw(st.sampled_from(preferred or free))
    board = random_board(location)
    assume(Position.unreachable(board) is None)
    return Position(board, draw(st.integers(0, 1)))


@st.composite
def match_states(draw, for_xgid=False):
    length = draw(st.sampled_from([0, 1, 3, 7, 25, 32767]))
    score = tuple(draw(st.integers(0, length or 32767)) for _ in range(2))
    player = draw(st.integers(0, 1))
    doubled = draw(st.booleans())
    dice = None if doubled else draw(st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)))
    extra = {}
    if for_xgid:
        beavers = draw(st.integers(0, 2)) if doubled and not length else 0
        extra = dict(beavers=beavers, max_cube=2 ** draw(st.integers(0, 15)),
                     turn=1 - player if doubled and beavers != 1 else player,
                     jacoby=not length and draw(st.booleans()),
                     beavers_allowed=not length and draw(st.booleans()))
    else:
        extra = dict(turn=draw(st.integers(0, 1)), game_state=draw(st.sampled_from(GameState)),
                     resigned=draw(st.integers(0, 3)), jacoby=draw(st.booleans()))
    return MatchState(cube=2 ** draw(st.integers(0, 15)),
                      cube_owner=draw(st.sampled_from([None, 0, 1])), player=player,
                      crawford=bool(length) and draw(st.booleans()), doubled=doubled, dice=dice,
                      match_length=length, score=score, **extra)


def id_from_bits(bits: str) -> str:
    """A Position ID from a string of key bits (bit 0 first), padded to 80 bits."""
    key = int(bits[::-1] or "0", 2)
    return base64.b64encode(key.to_bytes(10, "little")).decode()[:14]


def side_bits(side: dict[int, int]) -> str:
    """Key bits of one side: ``{point: checkers}`` for points 1..25."""
    return "".join("1" * side.get(point, 0) + "0" for point in range(1, 26))


def match_key(text: str) -> int:
    return int.from_bytes(base64.b64decode(text), "little")


def match_text(key: int) -> str:
    return base64.b64encode(key.to_bytes(9, "little")).decode()


# --- known values -----------------------------------------------------------------------------

@pytest.mark.parametrize("turn", [0, 1])
def test_start_position_id_is_the_manuals(turn):
    assert Position.start(turn).id() == "4HPwATDgc/ABMA"
    assert Position.from_id("4HPwATDgc/ABMA", turn) == Position.start(turn)


def test_after_opening_31_is_gnubgs_id():
    """After 8/5 6/5 the opponent is on roll; gnubg lists the side not on roll first."""
    after, _ = play_steps(Position.start(0), [(8, 3), (6, 1)])
    assert after.turn == 1
    assert after.id() == "sGfwATDgc/ABMA"
    assert Position.from_id("sGfwATDgc/ABMA", 1) == after


def test_match_id_manual_example():
    """Manual: score 2-4 in a 9-point match, player 0 holds a 2-cube, player 1 has rolled 52.

    The manual's ID predates gnubg 1.08's Jacoby bit (bit 67, stored inverted): it reads as the
    flag on. gnubg 1.1.0a16 prints the same state with the flag off, as it has in every match it
    imports, with that bit set: ``QYkqASAAIAAE``.
    """
    state = MatchState(cube=2, cube_owner=0, player=1, turn=1, game_state=GameState.PLAYING,
                       dice=(5, 2), match_length=9, score=(2, 4))
    assert match_id(state) == "QYkqASAAIAAE"
    assert match_from_id("QYkqASAAIAAE") == state
    assert match_from_id("QYkqASAAIAAA") == replace(state, jacoby=True)
    assert match_id(replace(state, jacoby=True)) == "QYkqASAAIAAA"


def _gnubg_state(row: dict) -> MatchState:
    """The MatchState of a row of tests/data/gnubg_ids.tsv, from the state gnubg reported."""
    dice = tuple(map(int, row["dice"].split()))
    length = int(row["matchto"])
    return MatchState(cube=int(row["cube"]),
                      cube_owner=None if row["cubeowner"] == "-1" else int(row["cubeowner"]),
                      player=int(row["move"]), crawford=row["crawford"] == "1",
                      game_state=int(row["gamestate"]), turn=int(row["turn"]),
                      doubled=row["doubled"] == "1", resigned=int(row["resigned"]),
                      dice=dice if dice != (0, 0) else None, match_length=length,
                      score=tuple(map(int, row["score"].split())),
                      jacoby=not length and row["jacoby"] == "1")


GNUBG_IDS = list(csv.DictReader((Path(__file__).parent / "data" / "gnubg_ids.tsv").open(),
                                delimiter="\t"))


def test_match_ids_as_gnubg_prints_them():
    """1,721 positions of 7 matches (money and match play, Crawford and post-Crawford games,
    doubles offered, cubes to 4 on either side, a resignation): each Match ID gnubg 1.1.0a16
    printed reads as the state gnubg reported, and that state is written byte for byte as
    gnubg wrote it (tests/data/gnubg_ids.tsv, made by tools/gnubg_ids.py)."""
    assert len(GNUBG_IDS) >= 1700
    assert {row["matchto"] for row in GNUBG_IDS} >= {"0", "5"}
    for row in GNUBG_IDS:
        state, decoded = _gnubg_state(row), match_from_id(row["match_id"])
        if not state.match_length:  # gnubg's cubeinfo() gives no session score in money play
            state = replace(state, score=decoded.score)
        assert decoded == state, row
        assert match_id(state) == row["match_id"], row
        position = Position.from_id(row["position_id"], turn=state.player)
        assert position.id() == row["position_id"]


@pytest.mark.parametrize("text, jacoby", [
    # gnubg 1.1.0a16: set rng mersenne, set seed 1, set jacoby off|on, new session, matchid
    ("cAkOAAAAAAAE", False), ("cAkOAAAAAAAA", True)])
def test_money_session_jacoby_bit(text, jacoby):
    state = match_from_id(text)
    assert (state.match_length, state.jacoby, state.player, state.dice) == (0, jacoby, 1, (4, 3))
    assert match_id(state) == text


@pytest.mark.parametrize("xgid, gnubg_match_id", [
    # gnubg 1.1.0a16: set xgid XGID, then matchid
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10", "cImqAAAAAAAE"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:4:3:1:5:10", "8ImqADAAIAAE"),
    ("XGID=-b----E-C---eE---c-e----B-:1:1:1:00:2:3:0:7:10", "UQngADAAEAAE"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:1:0:10", "cIkKAAAAAAAA"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10", "cIkKAAAAAAAE")])
def test_xgid_to_match_id_as_gnubg(xgid, gnubg_match_id):
    assert match_id(Position.from_xgid(xgid)[1]) == gnubg_match_id


def test_start_xgid():
    position, state = Position.from_xgid(START_XGID)
    assert position == Position.start(1)
    assert state == MatchState(player=1, dice=(5, 2), jacoby=True, beavers_allowed=True,
                               max_cube=1024)
    assert position.xgid(state) == START_XGID
    assert Position.from_xgid(START_XGID[5:]) == (position, state)  # the prefix is optional


def test_xgid_and_gnubg_ids_of_one_position_agree():
    """A published XGID / gnubg ID pair: bottom (player 1) to play 21 with a 2-cube it owns, top
    with a checker on the bar, 3 on its 3-point and 2 on its ace-point."""
    text = "aFBBB-A---A-------A---c-b-:1:1:1:21:0:0:3:0:10"
    position, state = Position.from_xgid(text)
    assert position.board[0][BAR] == 1 and position.board[0][3] == 3 and position.board[0][1] == 2
    assert position.board[1][1] == 6 and position.turn == 1
    assert position.id() == "cwAAoN82IUAAAA"
    assert match_id(state) == "UQkFAAAAAAAA"
    assert position.xgid(state) == "XGID=" + text


def test_xgid_double_offered_and_match_fields():
    text = "XGID=-b----E-C---eE---c-e----B-:2:-1:-1:D:4:1:0:7:10"
    position, state = Position.from_xgid(text)
    assert position == Position.start(0)
    assert (state.cube, state.cube_owner, state.player, state.turn) == (4, 0, 0, 1)
    assert state.doubled
    assert (state.score, state.match_length, state.crawford, state.dice) == ((1, 4), 7, False, None)
    assert position.xgid(state) == text


# --- gnubg as an oracle -----------------------------------------------------------------------

def test_position_ids_agree_with_gnubg():
    gnubg = pytest.importorskip("gnubg_nn")
    rng = random.Random(20240612)
    for _ in range(3000):
        spots = rng.sample(range(26), rng.randint(1, 10))
        board = random_board(lambda free: rng.choice([p for p in free if p in spots] or free))
        if Position.unreachable(board):
            continue
        for turn in (0, 1):
            position = Position(board, turn)
            ours, gnu_board = position.id(), gnubg_board(position)
            assert ours == gnubg.position_id(gnu_board), position
            assert gnubg.board_from_position_id(ours) == gnu_board
            assert Position.from_id(gnubg.position_id(gnu_board), turn) == position


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(positions())
def test_position_ids_agree_with_gnubg_hypothesis(position):
    gnubg = pytest.importorskip("gnubg_nn")
    assert position.id() == gnubg.position_id(gnubg_board(position))


# --- round trips ------------------------------------------------------------------------------

@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(positions())
def test_position_id_round_trip(position):
    text = position.id()
    assert len(text) == 14
    assert Position.from_id(text, position.turn) == position


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(positions())
def test_position_id_is_the_bit_by_bit_definition(position):
    # The manual's layout, bit 0 first: the side not on roll, then the side on roll (the
    # order gnubg's program writes; see the module docstring of game/ids.py).
    sides = [dict(enumerate(position.opponent)), dict(enumerate(position.on_roll))]
    assert position.id() == id_from_bits("".join(side_bits(side) for side in sides))


@settings(max_examples=500, deadline=None)
@given(match_states())
def test_match_id_round_trip(state):
    text = match_id(state)
    assert len(text) == 12
    assert match_from_id(text) == state


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(positions(), match_states(for_xgid=True))
def test_xgid_round_trip(position, state):
    position = position.with_turn(state.player)
    text = position.xgid(state)
    assert Position.from_xgid(text) == (position, state)
    again, again_state = Position.from_xgid(text)
    assert again.xgid(again_state) == text


# --- malformed input --------------------------------------------------------------------------

def raises_quoting(function, text, *args):
    with pytest.raises(PositionIdError) as info:
        function(text, *args)
    assert repr(text) in str(info.value)
    return str(info.value)


@pytest.mark.parametrize("text", ["", "4HPwATDgc/ABM", "4HPwATDgc/ABMAA", "4HPwATDgc/ABMA=="])
def test_position_id_wrong_length(text):
    assert "characters" in raises_quoting(Position.from_id, text)


@pytest.mark.parametrize("text", ["4HPwATDgc/AB*A", "4HPwATDgc/ABM=", "4HPwATDgc-ABMA",
                                  "4HPwATDgc/ABMé"])
def test_position_id_bad_characters(text):
    assert "base64" in raises_quoting(Position.from_id, text)


def test_position_id_unused_bits():
    assert "unused" in raises_quoting(Position.from_id, "4HPwATDgc/ABMB")


def test_position_id_too_many_checkers():
    text = id_from_bits(side_bits({6: 16}) + side_bits({6: 14}))
    assert "16 checkers" in raises_quoting(Position.from_id, text)


def test_position_id_bits_left_over():
    text = id_from_bits(side_bits({}) + side_bits({}) + "1")
    assert "left over" in raises_quoting(Position.from_id, text)


def test_position_id_shared_point():
    # the player not on roll on its 1-point is the player on roll's 24-point
    text = id_from_bits(side_bits({1: 1, 6: 14}) + side_bits({24: 1, 6: 14}))
    assert "both players" in raises_quoting(Position.from_id, text)
    assert Position.from_id(id_from_bits(side_bits({1: 1}) + side_bits({23: 1}))).board[0][23] == 1


def test_position_id_bad_turn():
    with pytest.raises(InvalidArgument, match="turn must be 0 or 1, got 2"):
        Position.from_id("4HPwATDgc/ABMA", 2)


@pytest.mark.parametrize("text", ["", "QYkqASAAIAA", "QYkqASAAIAAAA"])
def test_match_id_wrong_length(text):
    raises_quoting(match_from_id, text)


def test_match_id_bad_character():
    assert "base64" in raises_quoting(match_from_id, "QYkqASAAIA!A")


def _set_bits(text: str, start: int, width: int, value: int) -> str:
    """``text`` with the ``width`` key bits from bit ``start`` (0-based) set to ``value``."""
    key = match_key(text) & ~(((1 << width) - 1) << start)
    return match_text(key | value << start)


@pytest.mark.parametrize("start, width, value, words", [
    (4, 2, 2, "cube owner"),          # owner 2 is not 0, 1 or 3
    (8, 3, 5, "game state"),          # game states are 0..4
    (15, 3, 7, "dice"),               # a die of 7
    (15, 3, 0, "one die"),            # 0 and 2: only one die
    (36, 15, 10, "scores"),           # 10 points in a 9-point match
    (67, 5, 1, "after the 67 bits"),  # bits after the key
])
def test_match_id_bad_fields(start, width, value, words):
    assert words in raises_quoting(match_from_id, _set_bits("QYkqASAAIAAA", start, width, value))


def test_match_id_crawford_in_money_game():
    money = match_id(MatchState())
    assert "Crawford" in raises_quoting(match_from_id, _set_bits(money, 7, 1, 1))


@pytest.mark.parametrize("text, words", [
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3", "fields"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10:1", "fields"),
    ("XGID=-b----E-C---eE---c-e----B:0:0:1:52:0:0:3:0:10", "26"),
    ("XGID=-b----E-C---eE---c-e--*-B-:0:0:1:52:0:0:3:0:10", "'*'"),
    ("XGID=-b----E-C---eE---c-e---PB-:0:0:1:52:0:0:3:0:10", "'P'"),
    ("XGID=-b----E-C---eE---c-e----Bé:0:0:1:52:0:0:3:0:10", "'é'"),
    ("XGID=-b----E-C---eE---c-e---AB-:0:0:1:52:0:0:3:0:10", "16 checkers"),
    ("XGID=Ab----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10", "bar"),
    ("XGID=-b----E-C---eE---c-e----Ba:0:0:1:52:0:0:3:0:10", "bar"),
    ("XGID=-b----E-C---eE---c-e----B-:x:0:1:52:0:0:3:0:10", "integer"),
    ("XGID=-b----E-C---eE---c-e----B-:1_0:0:1:52:0:0:3:0:10", "integer"),
    ("XGID=-b----E-C---eE---c-e----B-:0:2:1:52:0:0:3:0:10", "cube position"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:0:52:0:0:3:0:10", "turn"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:72:0:0:3:0:10", "dice"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:05:0:0:3:0:10", "dice"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:X:0:0:3:0:10", "dice"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:4:0:10", "Crawford/Jacoby"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:2:5:10", "Crawford/Jacoby"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:6:0:0:5:10", "scores"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:-1:0:0:5:10", "scores"),
    ("XGID=-b----E-C---eE---c-e----B-:16:0:1:52:0:0:0:5:10", "cube"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:B:0:0:0:5:10", "beavers"),
])
def test_xgid_malformed(text, words):
    assert words in raises_quoting(Position.from_xgid, text)


def test_xgid_without_max_cube_field():
    position, state = Position.from_xgid(START_XGID.rsplit(":", 1)[0])
    assert state.max_cube == 1024 and position == Position.start(1)


def test_xgid_refuses_what_it_cannot_record():
    start = Position.start(0)
    with pytest.raises(InvalidArgument, match="player 0 on roll, state player 1"):
        start.xgid(MatchState(player=1))               # position and state disagree on the roller
    with pytest.raises(InvalidArgument, match="without a resignation"):
        start.xgid(MatchState(resigned=2, turn=1))     # no field for a resignation
    with pytest.raises(InvalidArgument, match="cannot record turn 0"):
        start.xgid(MatchState(doubled=True, turn=0))   # the doubler does not answer the double


@pytest.mark.parametrize("fields", [
    dict(cube=3), dict(cube=2 ** 16), dict(cube_owner=2), dict(player=2), dict(turn=-1),
    dict(game_state=5), dict(resigned=4), dict(dice=(0, 3)), dict(dice=(7, 1)),
    dict(match_length=-1), dict(match_length=5, score=(6, 0)), dict(crawford=True),
    dict(match_length=5, beavers_allowed=True), dict(doubled=True, dice=(3, 1)), dict(beavers=1),
    dict(max_cube=12),
])
def test_match_state_validation(fields):
    with pytest.raises(InvalidArgument):
        MatchState(**fields)


# --- a position written any of the four ways ---------------------------------------------------

def test_parse_position_tells_the_four_ways_apart():
    start = Position.start()
    assert parse_position("4HPwATDgc/ABMA") == (start, None)
    position, state = parse_position("4HPwATDgc/ABMA:QYkqASAAIAAA")  # the manual's Match ID
    assert (position, state.player, state.score, state.dice) == (start.with_turn(1), 1, (2, 4),
                                                                 (5, 2))
    assert parse_position(START_XGID) == parse_position(START_XGID[5:]) \
        == Position.from_xgid(START_XGID)
    position, state = parse_position("24x15/24x15/0")
    assert isinstance(position, LongPosition) and state is None
    assert position == LongPosition.from_notation("24x15/24x15/0")


@pytest.mark.parametrize("text, quoted", [
    ("", ""), ("4HPwATDgc/ABM", "4HPwATDgc/ABM"), ("4HPwATDgc/ABMA:QYkqAS", "QYkqAS"),
    ("XGID=-b--:0", "XGID=-b--:0"), ("24x16/24x15/0", "24x16/24x15/0")])
def test_parse_position_quotes_what_it_cannot_read(text, quoted):
    with pytest.raises(PositionIdError) as info:
        parse_position(text)
    assert repr(quoted) in str(info.value)
