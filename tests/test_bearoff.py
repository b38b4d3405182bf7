"""Two-sided bear-off equities against GNU Backgammon's own (tests/data/bearoff)."""

from itertools import product
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nardy_analysis.analysis import bearoff
from nardy_analysis.analysis.bearoff import (
    CENTRED,
    CUBELESS,
    OPPONENT_OWNS,
    OWNED,
    bearoff_equities,
    is_two_sided_bearoff,
)
from nardy_analysis.errors import InvalidArgument
from nardy_analysis.game.position import Position

DATA = Path(__file__).parent / "data" / "bearoff"
GNUBG = pd.read_csv(DATA / "gnubg_bearoff.tsv", sep="\t", comment="#")


def side(points) -> tuple[int, ...]:
    """A full side from checkers on points 1..6, the rest borne off."""
    return (15 - sum(points), *points) + (0,) * 19


def position(on_roll, opponent) -> Position:
    return Position((side(on_roll), side(opponent)), 0)


def parse(text: str) -> tuple[int, ...]:
    return tuple(int(n) for n in text.split("-"))


@pytest.mark.parametrize("row", GNUBG.to_dict("records"),
                         ids=lambda row: f"{row['on_roll']}_vs_{row['opponent']}")
def test_as_gnubg(row):
    """Cubeless and the three cubeful equities equal gnubg's 0-ply eval (its two-sided
    database, 16-bit) to its five printed decimals, within 1e-4."""
    found = bearoff_equities(position(parse(row["on_roll"]), parse(row["opponent"])))
    for column, name in ((CUBELESS, "cubeless"), (OWNED, "owned"), (CENTRED, "centred"),
                         (OPPONENT_OWNS, "opponent_owns")):
        assert found[column] == pytest.approx(row[name], abs=1e-4)
    assert min(2 * found[OPPONENT_OWNS], 1.0) == pytest.approx(min(row["double_take"], 1.0),
                                                               abs=2e-4)


STEP = 1 / 65535
"""Half a step of the shipped table: its equities' precision."""


def test_known_values():
    """Hand-checkable values: one checker each on the 1-point (the mover wins: +1); one on
    the 4-point against one on the 1-point: the mover wins with every roll but 21 (34 of 36),
    else loses: 2 * 34/36 - 1, whatever the cube (the game ends before it could be taken
    anywhere)."""
    assert bearoff_equities(position((1, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0))) == \
        pytest.approx([1.0] * 4, abs=STEP)
    assert bearoff_equities(position((0, 0, 0, 1, 0, 0), (1, 0, 0, 0, 0, 0))) == \
        pytest.approx([2 * 34 / 36 - 1] * 4, abs=STEP)


def test_not_a_bearoff_is_refused():
    with pytest.raises(InvalidArgument, match="not a two-sided bear-off"):
        bearoff_equities(Position.start())
    assert not is_two_sided_bearoff(position((0, 0, 0, 0, 0, 7), (1, 0, 0, 0, 0, 0)))


sides = st.lists(st.integers(0, 5), min_size=1, max_size=6).map(
    lambda points: tuple(points.count(p) for p in range(6)))


@settings(max_examples=30, deadline=None)
@given(sides, sides)
def test_cube_access_is_worth_something(mine, theirs):
    """Owning the cube is worth at least a centred cube, which is worth at least the
    opponent's owning it; each within -1..1 per cube; cubeless between owning and not."""
    if not sum(mine) or not sum(theirs):
        return
    found = bearoff_equities(position(mine, theirs))
    assert found[OWNED] >= found[CENTRED] - STEP >= found[OPPONENT_OWNS] - 2 * STEP
    assert found[OWNED] + STEP >= found[CUBELESS] >= found[OPPONENT_OWNS] - STEP
    assert np.all(np.abs(found) <= 1)


def test_shipped_table_is_the_dynamic_programming():
    """The shipped table holds the equities that the dynamic programming makes (here for
    every pair of sides of at most three checkers, closed under play), to half a step."""
    sides = bearoff._reachable([side for side in product(range(4), repeat=6)
                                if sum(side) <= 3])
    assert len(sides) == 84  # every side of 0 to 3 checkers on 6 points
    made = bearoff._table(sides)
    for i, mine in enumerate(sides[1:], 1):
        for j, theirs in enumerate(sides[1:], 1):
            found = bearoff_equities(position(mine, theirs))
            assert np.abs(found - made[i, j]).max() <= STEP + 1e-12
