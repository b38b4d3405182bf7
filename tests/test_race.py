"""The one-sided race database (nardy_analysis.analysis.race) against dynamic programmes
written here over long nardy's own legal plays, and chances worked out by hand."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from nardy_analysis.analysis.long_engine import LongEvaluator
from nardy_analysis.analysis.race import covered, race_chances, turn_distributions
from nardy_analysis.game.long import LongPosition
from nardy_analysis.game.moves import ALL_ROLLS
from nardy_analysis.game.rules import LONG

THROWS = [1 if roll.is_double else 2 for roll in ALL_ROLLS]


def board(side) -> list[int]:
    """A 26-entry side from counts on the points 1..12 (the rest borne off)."""
    return [15 - sum(side), *side] + [0] * 13


def race(mine, theirs) -> LongPosition:
    """Built unchecked (``_make``): the race tables cover every side on 1..12, also those no
    game reaches (checkers borne off with one still on 7..12)."""
    return LongPosition._make((tuple(board(mine)), tuple(board(theirs))), 0)


@lru_cache(maxsize=None)
def plays(side) -> tuple:
    """The sides a racing side reaches with each roll, from LongPosition.legal_sides (the
    other side's 15 checkers on its 1-point, my 13: in nobody's way)."""
    where = LongPosition._make((tuple(board(side)), (0, 15) + (0,) * 24), 0)
    return tuple(frozenset(after[1:13] for after in where.legal_sides(roll, LONG))
                 for roll in ALL_ROLLS)


@lru_cache(maxsize=None)
def expected_turns(side) -> float:
    """The fewest turns a side needs on average to bear off every checker."""
    if not any(side):
        return 0.0
    return 1.0 + sum(w * min(expected_turns(after) for after in reached)
                     for w, reached in zip(THROWS, plays(side))) / 36


@lru_cache(maxsize=None)
def win(mine, theirs) -> float:
    """The exact chance that the side on roll wins the race, both playing to win."""
    return sum(w * max(1.0 if not any(after) else 1.0 - win(theirs, after)
                       for after in reached)
               for w, reached in zip(THROWS, plays(mine))) / 36


def sides(checkers: int, points: int) -> list[tuple[int, ...]]:
    """Every side of 1..``checkers`` checkers on the points 1..``points``."""
    found = [()]
    for _ in range(points):
        found = [side + (n,) for side in found for n in range(checkers + 1 - sum(side))]
    return [side + (0,) * (12 - points) for side in found if any(side)]


def rows(some) -> np.ndarray:
    return np.array([board(side)[:25] for side in some])


def test_expected_turns_are_the_fewest():
    """Each side's mean turns to bear off, from the database's distribution, equals the
    dynamic programme here, on every side of up to two checkers on 1..12 and up to four
    all home."""
    index, finish, first = turn_distributions()
    some = sorted(set(sides(2, 12)) | set(sides(4, 6)))
    codes = rows(some)[:, 1:13] @ (16 ** np.arange(12))
    got = finish[[index[code] for code in codes.tolist()]] @ np.arange(finish.shape[1])
    assert got == pytest.approx([expected_turns(side) for side in some], abs=1e-9)
    assert np.allclose(finish.sum(axis=1), 1.0) and np.allclose(first.sum(axis=1), 1.0)


def test_race_chances_near_the_exact_ones():
    """The evaluator's win chance in pure races of up to two checkers a side on 1..12 that
    the two-sided table does not cover (the database's) is within 0.02 of the exact one of
    the programme here, 0.002 on average; with no mars (each side has thirteen off)."""
    some = sides(2, 12)
    pairs = [(a, b) for a in some for b in some if any(a[6:]) or any(b[6:])]
    got = LongEvaluator(cache_size=0).static([race(a, b) for a, b in pairs])
    error = np.abs(got[:, 0] - [win(a, b) for a, b in pairs])
    assert error.max() < 0.02 and error.mean() < 0.002
    assert (got[:, 1:] == 0).all()


def test_home_mars_by_hand():
    """15 on the 6-point against one checker on the 1-point: on roll, the 15 get one off
    with a 6, 51, 42, 33 or 22 (17 throws), else the other side wins by home mars; the other
    way round the single checker wins at once, by home mars (a mars when it scores 2)."""
    heavy, light = (0,) * 5 + (15,) + (0,) * 6, (1,) + (0,) * 11
    assert covered(rows([heavy, light])).all()
    assert race_chances(rows([heavy]), rows([light]))[0].tolist() == pytest.approx(
        [0, 0, 0, 19 / 36, 19 / 36], abs=1e-12)
    evaluator = LongEvaluator(cache_size=0)
    assert evaluator.evaluate(race(light, heavy)) == pytest.approx((1, 1, 1, 0, 0))
    two = LongEvaluator(cache_size=0, rules=LONG.override(home_mars=2))
    assert two.evaluate(race(heavy, light)) == pytest.approx((0, 0, 0, 19 / 36, 0))


def test_covered():
    """Covered: at most six left on 1..12, or all home; not a checker beyond 12."""
    seven_out = (0,) * 6 + (7,) + (0,) * 5
    assert covered(rows([(0,) * 11 + (6,), (15,) + (0,) * 11])).all()
    assert not covered(rows([seven_out])).any()
    far = np.zeros((1, 25), int)
    far[0, 0], far[0, 13] = 14, 1
    assert not covered(far).any()
