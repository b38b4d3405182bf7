"""Two-sided bear-off equities against GNU Backgammon's own (tests/data/bearoff)."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from nardy_analysis.analysis import bearoff
from nardy_analysis.analysis.bearoff import (CACHE_VERSION, CENTRED, CUBELESS, OPPONENT_OWNS,
                                             OWNED, bearoff_equities, cache_file,
                                             is_two_sided_bearoff)
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


def test_known_values():
    """Hand-checkable values: one checker each on the 1-point (the mover wins: +1); one on
    the 4-point against one on the 1-point: the mover wins with every roll but 21 (34 of 36),
    else loses: 2 * 34/36 - 1, whatever the cube (the game ends before it could be taken
    anywhere)."""
    assert bearoff_equities(position((1, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0))) == \
        pytest.approx([1.0] * 4)
    assert bearoff_equities(position((0, 0, 0, 1, 0, 0), (1, 0, 0, 0, 0, 0))) == \
        pytest.approx([2 * 34 / 36 - 1] * 4)


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
    assert found[OWNED] >= found[CENTRED] - 1e-12 >= found[OPPONENT_OWNS] - 2e-12
    assert found[OWNED] + 1e-12 >= found[CUBELESS] >= found[OPPONENT_OWNS] - 1e-12
    assert np.all(np.abs(found) <= 1 + 1e-12)


def fresh_process(monkeypatch) -> None:
    """No table made yet in this process, as in a new one."""
    monkeypatch.setattr(bearoff, "_TABLE", [{}, np.zeros((0, 0, 4)), np.zeros((0, 0, 4))])


def test_table_kept_for_later_processes(tmp_path, monkeypatch):
    """The table made in one process is stored in $NARDY_CACHE, and a later process reads it
    instead of making it again; one it lacks sides for is extended and stored again."""
    monkeypatch.setenv("NARDY_CACHE", str(tmp_path))
    assert cache_file() == tmp_path / f"bearoff-v{CACHE_VERSION}.npz"
    fresh_process(monkeypatch)
    small = position((0, 2, 1, 0, 0, 0), (1, 1, 0, 0, 0, 0))
    expected = bearoff_equities(small)
    assert cache_file().exists() and not list(tmp_path.glob("*.tmp"))
    fresh_process(monkeypatch)
    made = bearoff._table
    monkeypatch.setattr(bearoff, "_table", lambda *args: pytest.fail("made again"))
    assert np.array_equal(bearoff_equities(small), expected)
    monkeypatch.setattr(bearoff, "_table", made)
    larger = position((0, 0, 0, 2, 1, 1), (1, 1, 0, 0, 0, 0))
    extended = bearoff_equities(larger)
    fresh_process(monkeypatch)
    monkeypatch.setattr(bearoff, "_table", lambda *args: pytest.fail("made again"))
    assert np.array_equal(bearoff_equities(larger), extended)
    assert np.array_equal(bearoff_equities(small), expected)


def test_unreadable_cache_is_made_again(tmp_path, monkeypatch):
    """A cache file that is not a table (a crash mid-write elsewhere, another version's) is
    ignored and replaced by a good one; a cache folder that cannot be written costs only
    the saving."""
    monkeypatch.setenv("NARDY_CACHE", str(tmp_path))
    cache_file().write_bytes(b"not a table")
    fresh_process(monkeypatch)
    assert bearoff_equities(position((0, 0, 0, 1, 0, 0), (1, 0, 0, 0, 0, 0))) == \
        pytest.approx([2 * 34 / 36 - 1] * 4)
    assert bearoff._read_cache() is not None
    blocked = tmp_path / "file"
    blocked.write_text("")
    monkeypatch.setenv("NARDY_CACHE", str(blocked / "below"))
    fresh_process(monkeypatch)
    assert bearoff_equities(position((1, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0))) == \
        pytest.approx([1.0] * 4)
