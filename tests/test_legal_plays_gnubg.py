"""Our legal plays against an independent move generator: GNU Backgammon's, via ``gnubg_nn``.

For every sampled position and every one of the 21 rolls, the SET of boards our
:meth:`Position.legal_plays` reaches must equal the set gnubg's ``moves()`` reaches (gnubg applies
the same forced-play rules: both dice if possible, else the larger; as many steps of a double
as possible). The positions are reachable ones: random games from the start played with our
own legal plays and a seeded random generator (70 % of the players greedily make home points
and hit, so that blitzes, closed boards, checkers on the bar and contact bear-offs all occur); a
hypothesis test adds arbitrary valid positions on top.

gnubg board layout: ``[opponent, player_on_roll]``, each 25 ints from that player's own side,
index ``i`` = point ``i + 1`` (0..23) and index 24 = the bar; borne-off checkers are implicit.
gnubg does not validate its input, so only valid positions are passed in. With no legal move
gnubg returns an empty tuple, where we return the one empty play (a dance) to the same board.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache

import pytest
from conftest import gnubg_board
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from nardy_analysis.game.moves import ALL_ROLLS, Play, Roll
from nardy_analysis.game.position import BAR, OFF, LegalPlay, Position
from nardy_analysis.game.rules import LENIENT, STANDARD

gnubg = pytest.importorskip("gnubg_nn")

SEED = 20240611
POOL_SIZE = 20_000   # positions played through (cheap: one roll each)
SAMPLE_SIZE = 6_000  # positions compared on all 21 rolls (the expensive part)
ROLL_WEIGHTS = [1 if roll.is_double else 2 for roll in ALL_ROLLS]  # out of 36


# --- conversion -------------------------------------------------------------------------------

def board_after(result: Position, mover: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A position reached by ``mover``'s play as gnubg's ``(opponent, mover)`` 25-tuples."""
    return tuple(result.board[1 - mover][1:BAR + 1]), tuple(result.board[mover][1:BAR + 1])


def ours(position: Position, roll: Roll, rules=STANDARD) -> set:
    return {board_after(result, position.turn)
            for _, result in position.legal_plays(roll, rules)}


def theirs(position: Position, roll: Roll) -> set:
    board = gnubg_board(position)
    keys = gnubg.moves(board, roll.high, roll.low)
    if not keys:  # gnubg: no legal move -> no key; the board stays as it is
        return {(tuple(board[0]), tuple(board[1]))}
    return {tuple(tuple(side) for side in gnubg.board_from_position_key(key)) for key in keys}


def describe(position: Position, roll: Roll) -> str:
    mine, gnu = ours(position, roll), theirs(position, roll)
    return (f"roll {roll}, player {position.turn} on roll\n{position}\n"
            f"on roll (0..25): {position.on_roll}\nopponent (0..25): {position.opponent}\n"
            f"{len(mine)} ours vs {len(gnu)} gnubg; only ours: {sorted(mine - gnu)[:3]}; "
            f"only gnubg: {sorted(gnu - mine)[:3]}")


# --- reachable positions ----------------------------------------------------------------------

def _blitz_score(result: Position, mover: int) -> int:
    me, opp = result.board[mover], result.board[1 - mover]
    made = sum(1 for point in range(1, 7) if me[point] >= 2)
    blots = sum(1 for point in range(1, 25) if me[point] == 1)
    return 4 * made + 3 * opp[BAR] - blots


def _play_games(rng: random.Random, count: int) -> list[Position]:
    """Positions (player on roll about to roll) met in random games from the start."""
    positions: list[Position] = []
    while len(positions) < count:
        position = Position.start(turn=rng.randrange(2))
        greedy = (rng.random() < 0.7, rng.random() < 0.7)
        first = True
        while not position.is_over:
            positions.append(position)
            roll = rng.choices(ALL_ROLLS, ROLL_WEIGHTS)[0]
            while first and roll.is_double:  # standard opening roll: never a double
                roll = rng.choices(ALL_ROLLS, ROLL_WEIGHTS)[0]
            first = False
            # sorted: the games depend only on the set of legal plays, not on their order
            results = sorted((a for _, a in position.legal_plays(roll)), key=lambda p: p.board)
            if greedy[position.turn]:
                best = max(_blitz_score(r, position.turn) for r in results)
                results = [r for r in results if _blitz_score(r, position.turn) == best]
            position = rng.choice(results)
    return positions


def category(position: Position) -> str:
    """A coarse class of ``position`` from the side of the player on roll."""
    me, opp = position.on_roll, position.opponent
    closed = sum(1 for point in range(1, 7) if opp[point] >= 2)  # opponent's home = my entry
    if me[BAR]:
        return "bar vs closed board" if closed == 6 else \
            "bar vs 4-5 points" if closed >= 4 else "bar"
    if not any(me[7:BAR + 1]):
        high = max((p for p in range(1, 7) if me[p]), default=0)
        gaps = any(me[p] == 0 for p in range(1, high))
        contact = any(opp[19:BAR + 1])
        return ("bear-off with contact" if contact else
                "bear-off with gaps" if gaps or high < 6 else "bear-off")
    farthest_me = max((p for p in range(1, 25) if me[p]), default=0)
    farthest_opp = max((p for p in range(1, BAR + 1) if opp[p]), default=0)
    if farthest_me + farthest_opp < 25:  # every one of my checkers is past every one of theirs
        return "race"
    return "contact"


@lru_cache(maxsize=None)
def sample_positions() -> tuple[Position, ...]:
    """SAMPLE_SIZE distinct reachable positions: rare kinds up to a quota, then a random share."""
    rng = random.Random(SEED)
    pool = sorted(set(_play_games(rng, POOL_SIZE)), key=lambda p: (p.board, p.turn))
    rng.shuffle(pool)
    quotas = {"bar vs closed board": SAMPLE_SIZE, "bear-off": SAMPLE_SIZE, "bar vs 4-5 points": 400,
              "bear-off with gaps": 400, "bear-off with contact": 400}
    chosen, rest = [], []
    for position in pool:
        kind = category(position)
        if quotas.get(kind, 0) > 0:
            quotas[kind] -= 1
            chosen.append(position)
        else:
            rest.append(position)
    chosen += rng.sample(rest, SAMPLE_SIZE - len(chosen))
    return tuple(chosen[:SAMPLE_SIZE])


# --- tests ------------------------------------------------------------------------------------

def test_board_layout_matches_gnubg():
    """The conversion is gnubg's orientation: the start is gnubg's Position ID 4HPwATDgc/ABMA, and
    after 24/23 24/22 for the player on roll the ID is gnubg's for that board."""
    start = Position.start()
    assert gnubg.position_id(gnubg_board(start)) == "4HPwATDgc/ABMA"
    # 21 from the start, as gnubg generates it: (opponent, mover), the mover's 24-point split
    keys = gnubg.moves(gnubg_board(start), 2, 1)
    boards = {tuple(tuple(s) for s in gnubg.board_from_position_key(k)) for k in keys}
    side = [0] * 25
    side[23], side[12], side[7], side[5] = 2, 5, 3, 5
    split = list(side)
    split[23], split[22], split[21] = 0, 1, 1
    assert (tuple(side), tuple(split)) in boards


def test_gnubg_dance_is_empty_and_ours_is_the_empty_play():
    """On the bar against a closed board: gnubg returns no key, we return one empty play."""
    me = [0] * 26
    me[BAR], me[6] = 1, 14
    opp = [0] * 26
    for point in range(1, 7):
        opp[point] = 2
    opp[13] = 3
    position = Position.from_mover(me, opp)
    for roll in ALL_ROLLS:
        assert gnubg.moves(gnubg_board(position), roll.high, roll.low) == ()
        assert position.legal_plays(roll) == (LegalPlay(Play(), position.with_turn(1)),)
        assert ours(position, roll) == theirs(position, roll)


@pytest.mark.slow
def test_sample_covers_the_hard_cases():
    positions = sample_positions()
    assert len(positions) == SAMPLE_SIZE == len(set(positions))
    counts = Counter(category(p) for p in positions)
    for name, least in [("bar vs closed board", 10), ("bar vs 4-5 points", 100), ("bar", 300),
                        ("bear-off with gaps", 200), ("bear-off with contact", 200),
                        ("bear-off", 10), ("race", 100), ("contact", 1000)]:
        assert counts[name] >= least, (name, counts)
    # and the rolls meet dances, hits, entering and bearing off
    assert sum(1 for p in positions[::10] for r in ALL_ROLLS
               if p.legal_plays(r) == (LegalPlay(Play(), p.with_turn(1 - p.turn)),)) >= 20


@pytest.mark.slow
def test_comparison_has_teeth():
    """Engines with other rules differ from gnubg on the sample: the equality below has teeth."""
    positions = sample_positions()[::8]
    rolls = [Roll(6, 5), Roll(4, 2), Roll(3, 3)]
    lenient = sum(ours(p, r, LENIENT) != theirs(p, r) for p in positions for r in rolls)
    any_larger = STANDARD.override(bear_off_any_with_larger=True)  # only the bear-off rule changed
    bear_off = sum(ours(p, r, any_larger) != theirs(p, r) for p in positions for r in rolls)
    assert lenient > 1000 and bear_off > 100, (lenient, bear_off)


@pytest.mark.slow
@pytest.mark.parametrize("roll", ALL_ROLLS, ids=str)
def test_same_resulting_boards_as_gnubg(roll):
    """SAMPLE_SIZE reachable positions x this roll: our set of results equals gnubg's."""
    bad = [p for p in sample_positions() if ours(p, roll) != theirs(p, roll)]
    assert not bad, (f"{len(bad)} of {SAMPLE_SIZE} positions differ from gnubg; first:\n"
                     + describe(bad[0], roll))


# --- arbitrary valid positions (not necessarily reachable) -------------------------------------

@st.composite
def positions(draw):
    """Any valid position: the mover's checkers biased to the home board, some on the bar."""
    anywhere = st.integers(OFF, BAR)
    home = st.integers(OFF, 6)
    mine = draw(st.lists(st.one_of(home, anywhere, st.just(BAR)), min_size=15, max_size=15))
    me = [0] * 26
    for point in mine:
        me[point] += 1
    # the opponent may use any of its points the mover does not hold (its p = my 25 - p)
    free = [p for p in range(OFF, BAR + 1) if p in (OFF, BAR) or not me[25 - p]]
    entry = [p for p in free if 1 <= p <= 6]  # its home board = where my bar checkers enter
    choices = st.one_of(st.sampled_from(entry), st.sampled_from(free)) if entry else \
        st.sampled_from(free)
    theirs_ = draw(st.lists(choices, min_size=15, max_size=15))
    opp = [0] * 26
    for point in theirs_:
        opp[point] += 1
    return Position.from_mover(me, opp, turn=draw(st.integers(0, 1)))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_arbitrary_positions_match_gnubg(position):
    assume(not position.is_over)  # gnubg's moves() is undefined for a side with no checkers
    for roll in ALL_ROLLS:
        assert ours(position, roll) == theirs(position, roll), describe(position, roll)
