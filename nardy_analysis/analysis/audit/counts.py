"""The sufficient statistics of a dice audit: :class:`AuditCounts`, counted from a rolls
frame (:func:`roll_counts`) or straight from replayed matches (:func:`match_counts`), and
added up across files (:func:`merge_counts`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

import numpy as np
import pandas as pd

from ...errors import InvalidArgument, NardyError
from ..turns import Source, replayed_matches
from .rolls import CLASS_DOUBLE, CLASS_INDEX, LUCK_DTYPES, ROLL_COLUMNS, ROLLS_DTYPES, roll_rows

TESTS = ("doubles", "roll_classes", "faces", "pips", "serial", "bar_entry", "hits_on_blots")
"""The tests, in report order."""

LUCK_TESTS = ("luck", "luck_spread", "lucky_rolls", "unlucky_rolls", "decisive_luck")
"""The tests of the dice's luck (``luck=True``), in report order, after :data:`TESTS`."""

# Layout of one group's counts (int64): the 21 roll classes; the serial 2x2 table (previous
# roll double or not x this roll double or not); then, for bar_entry and for hits_on_blots,
# the trials and the successes by success probability j/36, j = 0..36.
SERIAL_CELLS = slice(21, 25)
"""Where a group's counts hold the serial 2x2 table, flattened."""
TRIAL_CELLS = {"bar_entry": slice(25, 62), "hits_on_blots": slice(99, 136)}
"""Where a group's counts hold the trials of each test, by success probability j/36."""
SUCCESS_CELLS = {"bar_entry": slice(62, 99), "hits_on_blots": slice(136, 173)}
"""Where a group's counts hold the successes of each test, by success probability j/36."""
_WIDTH = 173


@dataclass(frozen=True, eq=False)
class AuditCounts:
    """The sufficient statistics of a dice audit: counts that add up across files and give
    exactly the tests of the rolls they were counted from (:func:`roll_counts`).

    Counts of different files (or parts of a site) combine by adding, ``a + b`` or
    ``sum(parts)`` (:func:`merge_counts` for many); :func:`count_tests` then runs each test
    once on the total. So an audit counted file by file on worker processes or a Dask
    cluster has the p-values of the audit of all rolls together, and only the counts travel.

    Attributes
    ----------
    by : {None, "player", "site"}
        The grouping the counts were made for.
    include_opening : bool
        Whether opening rolls were counted.
    player : str or None
        The one player whose rolls were counted (all when None).
    groups : dict of str to numpy.ndarray
        Per group (``all`` when ``by`` is None, else each player or site with a tested
        roll), 173 integer counts: the 21 roll classes of ``ALL_ROLLS`` (enough for the
        doubles, roll_classes, faces and pips tests: faces and pips are functions of the
        class), the serial 2x2 table, and for bar_entry and hits_on_blots the trials and
        the successes by success probability ``j/36``, j = 0..36 (the entry probability
        (36 - k^2)/36 and the shot probability shots/36 are both multiples of 1/36, so the
        histogram is the exact Poisson-binomial distribution's input).
    files : tuple of str
        The files with a tested roll, in order.
    players : frozenset of str
        With ``player``: every player with a roll (the error message when ``player`` has
        none names them); else empty.
    read : int
        The files with a roll (before leaving out other players' and opening rolls).
    replayed : bool
        Some roll had a position (False: ``positions=False``, said in the notes).
    tests : tuple of str
        The tests the rolls had the columns for, in :data:`TESTS` then :data:`LUCK_TESTS`
        order.
    long : bool
        Every roll counted was thrown in long nardy (bar_entry and hits_on_blots do not
        apply: their notes say so).
    luck : dict of str to numpy.ndarray
        With the luck tests: per group, one row per roll tested (in the order of the rolls),
        five floats: the roll's luck ``L``, its variance ``V`` under fair dice, the throws
        of 36 that would be lucky (L > 0.3) and unlucky (L < -0.3) in its position, and the
        fourth central moment ``M4`` of its luck (the columns of :data:`LUCK_DTYPES`).
        The decisive-rolls test needs the top decile of ``V`` over a whole group, so the
        rolls themselves are kept (40 bytes a roll), not a sum: an audit counted file by
        file has exactly the luck tests of all rolls together.
    """

    by: str | None
    include_opening: bool
    player: str | None
    groups: dict[str, np.ndarray]
    files: tuple[str, ...] = ()
    players: frozenset[str] = frozenset()
    read: int = 0
    replayed: bool = False
    tests: tuple[str, ...] = TESTS[:5]
    long: bool = False
    luck: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def rolls(self) -> int:
        """The number of rolls counted."""
        return int(self.table("all")[:21].sum())

    def table(self, group: str = "all") -> np.ndarray:
        """The 173 counts of ``group`` (``all``: the sum over the groups)."""
        if group == "all":
            total: np.ndarray = sum(self.groups.values(), np.zeros(_WIDTH, dtype=np.int64))
            return total
        return self.groups[group]

    def luck_rolls(self, group: str = "all") -> np.ndarray:
        """The luck rows of ``group`` (see ``luck``; ``all``: every group's, groups in
        sorted order), shape (rolls, 5); none without the luck tests."""
        parts = ([self.luck[name] for name in sorted(self.luck)] if group == "all"
                 else [self.luck.get(group, _NO_LUCK)])
        return np.concatenate([_NO_LUCK, *parts])

    def __add__(self, other: "AuditCounts") -> "AuditCounts":
        return merge_counts([self, other], self.by, self.include_opening, self.player)

    def __radd__(self, other: object) -> "AuditCounts":  # sum() starts from 0
        if isinstance(other, int) and other == 0:
            return self
        return NotImplemented

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AuditCounts):
            return NotImplemented
        return (self._key() == other._key() and self.groups.keys() == other.groups.keys()
                and all(np.array_equal(v, other.groups[k]) for k, v in self.groups.items())
                and self.luck.keys() == other.luck.keys()
                and all(np.array_equal(v, other.luck[k]) for k, v in self.luck.items()))

    # Not hashable (the counts are arrays): defining __eq__ sets __hash__ to None, and a
    # dataclass with eq=False keeps it.

    def _key(self) -> tuple[object, ...]:
        return (self.by, self.include_opening, self.player, self.files, self.players,
                self.read, self.replayed, self.tests, self.long)


_NO_LUCK = np.zeros((0, len(LUCK_DTYPES)))


def merge_counts(parts: Iterable[AuditCounts], by: str | None = None,
                 include_opening: bool = False, player: str | None = None) -> AuditCounts:
    """The sum of audit counts (of files, in order), in one pass: what ``sum(parts)`` gives,
    in time linear in the parts and their groups.

    Parameters
    ----------
    parts : iterable of AuditCounts
        Counted with ``by``, ``include_opening`` and ``player``; none gives the counts of no
        roll.
    by, include_opening, player
        As for :func:`roll_counts`.

    Returns
    -------
    AuditCounts
        Counts added per group; ``files`` joined in order (each once); ``players`` joined;
        ``read`` added; ``replayed`` when any part was; ``tests`` those of any part; ``long``
        when some part is and every part with rolls is; the rolls of ``luck`` joined per
        group, in order.

    Raises
    ------
    InvalidArgument
        A part counted with other settings (the message quotes both).
    """
    groups: dict[str, np.ndarray] = {}
    luck: dict[str, list[np.ndarray]] = {}
    files: dict[str, None] = {}
    players: set[str] = set()
    read, replayed, tests, longs = 0, False, set(), set()
    first = (by, include_opening, player)
    for part in parts:
        settings = (part.by, part.include_opening, part.player)
        if settings != first:
            raise InvalidArgument(f"cannot add audit counts made with (by, include_opening, "
                                  f"player) = {settings!r} to counts made with {first!r}")
        for name, table in part.groups.items():
            groups[name] = groups[name] + table if name in groups else table.copy()
        for name, rolls in part.luck.items():
            luck.setdefault(name, []).append(rolls)
        files.update(dict.fromkeys(part.files))
        players |= part.players
        read += part.read
        replayed |= part.replayed
        tests |= set(part.tests)
        if part.long or part.rolls:
            longs.add(part.long)
    return AuditCounts(*first, groups, tuple(files), frozenset(players), read, replayed,
                       tuple(t for t in TESTS + LUCK_TESTS
                             if t in tests or (not groups and t in TESTS)),
                       longs == {True},
                       {name: np.concatenate(rolls) for name, rolls in luck.items()})


def roll_counts(rolls: pd.DataFrame, by: str | None = None, include_opening: bool = False,
                player: str | None = None) -> AuditCounts:
    """The sufficient statistics of the audit of a rolls frame (see :class:`AuditCounts`).

    Parameters
    ----------
    rolls : pandas.DataFrame
        One row per roll with at least the columns of :data:`ROLL_COLUMNS` (as made by
        :func:`rolls_frame` or :func:`simulate_rolls`). With ``entered``/``closed_points``
        the bar_entry test is counted, with ``hitting_roll``/``shots`` the hits_on_blots
        test, with the columns of :data:`LUCK_DTYPES` the luck tests (on the rolls with a
        variance).
    by : str, optional
        A column to group by as well as ``all`` (``"player"`` or ``"site"``).
    include_opening : bool
        Count the opening roll of each game (for variants that allow an opening double).
    player : str, optional
        Count only this player's rolls (the name as the files write it).

    Returns
    -------
    AuditCounts

    Raises
    ------
    NardyError
        A needed column is missing.
    """
    missing = [c for c in ROLL_COLUMNS + ((by,) if by else ()) if c not in rolls.columns]
    if missing:
        raise NardyError(f"the rolls frame lacks the column(s) {', '.join(missing)}")
    columns = set(rolls.columns)

    def values(column: str) -> np.ndarray:  # floats, NaN where missing
        return rolls[column].to_numpy(float, na_value=np.nan)

    bar = {"closed_points", "entered"} <= columns
    hits = {"shots", "hitting_roll"} <= columns
    sequence = rolls.groupby([rolls["file"], rolls["match"], rolls["game"], rolls["player"]],
                             sort=False).ngroup()
    return _tally(by, include_opening, player, rolls["file"].nunique(), {
        "file": rolls["file"].astype(str).to_numpy(object),
        "player": rolls["player"].astype(str).to_numpy(object),
        "group": pd.factorize(rolls[by].astype(str).to_numpy(object), sort=True) if by else None,
        "class": _classes(rolls),
        "sequence": sequence.fillna(-1).to_numpy(np.int64),
        "opening": rolls["opening"].to_numpy(bool),
        "entry": 36 - values("closed_points") ** 2 if bar else None,
        "entered": values("entered") if bar else None,
        "shots": values("shots") if hits else None,
        "hitting_roll": values("hitting_roll") if hits else None,
        "replayed": rolls["on_bar"].notna().to_numpy() if "on_bar" in columns else None,
        "long": rolls["long"].to_numpy(bool) if "long" in columns else None,
        "luck": (rolls[list(LUCK_DTYPES)].to_numpy(float, na_value=np.nan)
                 if set(LUCK_DTYPES) <= columns else None)})


def _classes(rolls: pd.DataFrame) -> np.ndarray:
    """Index in ``ALL_ROLLS`` of each roll's class."""
    classes: np.ndarray = CLASS_INDEX[rolls["roll_high"].to_numpy(np.int64),
                                      rolls["roll_low"].to_numpy(np.int64)]
    return classes


def _tally(by: str | None, include_opening: bool, player: str | None, read: int,
           rolls: dict[str, Any]) -> AuditCounts:
    """The :class:`AuditCounts` of rolls given as arrays, one value per roll (the work of
    :func:`roll_counts` and :func:`match_counts`).

    ``rolls`` holds ``file``, ``player`` (names): object arrays of str; ``group``: the ``by``
    column as ``pandas.factorize(..., sort=True)`` gives it, codes (int) and the distinct
    values in order (None when ungrouped); ``class`` (index in ``ALL_ROLLS``) and
    ``sequence`` (code of the roll's file, match, game and player; -1 for none: rolls of one
    code in order are the pairs of the serial test): int; ``opening``: bool; ``entry``,
    ``entered``, ``shots``, ``hitting_roll``: floats, NaN where missing (``entry`` the
    entering throws of 36, ``shots`` the hitting ones), None when the test has no column;
    ``replayed``, ``long``: bool (None: no such column); ``luck``: floats, shape (rolls, 5),
    the columns of :data:`LUCK_DTYPES` (None without them). ``read``: the files with a
    roll.
    """
    players: frozenset[str] = frozenset()
    keep = np.ones(len(rolls["class"]), dtype=bool)
    if player is not None:
        players = frozenset(rolls["player"])
        keep &= rolls["player"] == player
    if not include_opening:
        keep &= ~rolls["opening"]
    group = rolls["group"]
    rolls = {name: None if value is None else value[keep] for name, value in rolls.items()
             if name != "group"}
    if group is None:
        names, codes = ["all"], np.zeros(int(keep.sum()), dtype=np.int64)
    else:  # the groups left with a roll, in order, coded 0, 1, ...
        codes, uniques = group[0][keep], group[1]
        present = np.bincount(codes, minlength=len(uniques)) > 0
        names, codes = list(uniques[present]), (np.cumsum(present) - 1)[codes]
    classes = rolls["class"]
    # Every count as an index into the flat table (group * _WIDTH + cell), counted at once.
    cells = [codes * _WIDTH + classes]
    order = np.argsort(rolls["sequence"], kind="stable")  # each game's rolls, in order
    sequence, double = rolls["sequence"][order], CLASS_DOUBLE[classes][order]
    pair_codes = codes[order]
    paired = (sequence[1:] == sequence[:-1]) & (sequence[1:] >= 0)
    cells.append(pair_codes[1:][paired] * _WIDTH + SERIAL_CELLS.start
                 + 2 * ~double[:-1][paired] + ~double[1:][paired])
    tests = list(TESTS[:5])
    for test, of_36, success in (("bar_entry", rolls["entry"], rolls["entered"]),
                                 ("hits_on_blots", rolls["shots"], rolls["hitting_roll"])):
        if of_36 is None:
            continue
        tests.append(test)
        used = ~np.isnan(of_36) & ~np.isnan(success)
        trial = codes[used] * _WIDTH + of_36[used].astype(np.int64)
        cells += [trial + TRIAL_CELLS[test].start,
                  trial[success[used] == 1] + SUCCESS_CELLS[test].start]
    table = np.bincount(np.concatenate(cells), minlength=len(names) * _WIDTH).reshape(
        len(names), _WIDTH).astype(np.int64, copy=False)
    luck: dict[str, np.ndarray] = {}
    if rolls["luck"] is not None:
        tests += LUCK_TESTS
        values = rolls["luck"]
        values[:, 2:4] = np.rint(values[:, 2:4] * 36)  # throws of 36
        used = ~np.isnan(values).any(axis=1)
        luck = {name: values[used & (codes == code)] for code, name in enumerate(names)}
    replayed = rolls["replayed"] is None or bool(rolls["replayed"].any())
    long = rolls["long"] is not None and len(classes) > 0 and bool(rolls["long"].all())
    return AuditCounts(by, include_opening, player, dict(zip(names, table)),
                       tuple(dict.fromkeys(rolls["file"])), players, read, replayed,
                       tuple(tests), long, luck)


def match_counts(source: Source, by: str | None = None, include_opening: bool = False,
                 positions: bool = True, player: str | None = None,
                 luck: bool = False) -> AuditCounts:
    """The :class:`AuditCounts` of replayed matches (the work on one file of
    :func:`~nardy_analysis.batch.audit_files` and ``nardy audit``):
    ``roll_counts(rolls_frame(...))``, counted straight from the rolls, without the frame.

    Parameters
    ----------
    source : ReplayedMatch or LoadedFile, or an iterable of them
        As for :func:`audit_dice`.
    by, include_opening, positions, player, luck
        As for :func:`audit_dice`.

    Raises
    ------
    InvalidArgument
        ``source`` holds something else (such as a path: load it first).
    EngineError
        ``luck`` on short nardy without the engine extra.
    """
    rows = list(roll_rows(replayed_matches(source), positions, luck, None))
    names = list(ROLLS_DTYPES | (LUCK_DTYPES if luck else {}))
    columns = dict(zip(names, zip(*rows))) if rows else dict.fromkeys(names, ())

    def values(column: str) -> np.ndarray:  # floats, NaN where missing (None)
        return np.array(columns[column], dtype=float)

    keys: dict[tuple[object, ...], int] = {}
    sequence = [keys.setdefault(key, len(keys)) for key in
                zip(columns["file"], columns["match"], columns["game"], columns["player"])]
    return _tally(by, include_opening, player, len(set(columns["file"])), {
        "file": np.array(columns["file"], dtype=object),
        "player": np.array(columns["player"], dtype=object),
        "group": _factorize(columns[by]) if by else None,
        "class": CLASS_INDEX[np.array(columns["roll_high"], dtype=np.int64),
                             np.array(columns["roll_low"], dtype=np.int64)],
        "sequence": np.array(sequence, dtype=np.int64),
        "opening": np.array(columns["opening"], dtype=bool),
        "entry": 36 - values("closed_points") ** 2, "entered": values("entered"),
        "shots": values("shots"), "hitting_roll": values("hitting_roll"),
        "replayed": np.array([bar is not None for bar in columns["on_bar"]], dtype=bool),
        "long": np.array(columns["long"], dtype=bool),
        "luck": (np.column_stack([values(column) for column in LUCK_DTYPES]) if luck
                 else None)})


def _factorize(values: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """``pandas.factorize(values, sort=True)`` of the str values of one file's rolls (about
    120), in a third of its time: codes into the sorted distinct values."""
    uniques = sorted(set(values))
    index = {value: code for code, value in enumerate(uniques)}
    return (np.array([index[value] for value in values], dtype=np.int64),
            np.array(uniques, dtype=object))
