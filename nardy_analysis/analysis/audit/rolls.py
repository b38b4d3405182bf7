"""The rolls of a dice audit: one row per roll of replayed matches (:func:`rolls_frame`),
simulated rolls (:func:`simulate_rolls`) and the 21 roll classes with fair dice (the tests:
:mod:`nardy_analysis.analysis.audit`)."""

from __future__ import annotations

from typing import Any, Iterable, Iterator, Sequence

import numpy as np
import pandas as pd

from ...game.moves import ALL_ROLLS, Roll
from ...game.position import Position
from ...game.rules import BAR, Rules
from ...replay import ReplayedMatch
from ..evaluator import Evaluator
from ..luck import luck_frame
from ..shots import shots, throws

ROLL_COLUMNS = ("file", "match", "game", "move", "player", "roll_high", "roll_low", "opening")
"""Columns a rolls frame needs for the tests
(:func:`~nardy_analysis.analysis.audit.counts.roll_counts`)."""

ROLLS_DTYPES = {
    "file": "object", "match": "int64", "game": "int64", "move": "Int64", "side": "int64",
    "player": "object", "site": "object", "dice": "object", "roll_high": "int64",
    "roll_low": "int64", "opening": "bool", "on_bar": "Int64", "closed_points": "Int64",
    "entered": "boolean", "shots": "Int64", "hitting_roll": "boolean", "long": "bool",
}
"""The columns of :func:`rolls_frame` in order, with their pandas dtypes."""

LUCK_DTYPES = {"luck": "float64", "luck_variance": "float64", "p_lucky": "float64",
               "p_unlucky": "float64", "luck_fourth_moment": "float64"}
"""The columns :func:`rolls_frame` adds with ``luck=True``: those of
:func:`~nardy_analysis.analysis.luck.luck_frame` (NaN for a roll not replayed and for the
opening roll of standard rules)."""

# The 36 equally likely throws, as the 21 classes of ALL_ROLLS.
CLASS_INDEX = np.zeros((7, 7), dtype=np.int64)
"""The index in ``ALL_ROLLS`` of each roll's class, by its dice: ``CLASS_INDEX[high, low]``."""
for _i, _roll in enumerate(ALL_ROLLS):
    CLASS_INDEX[_roll.high, _roll.low] = _i
_THROWS = np.array([throws((r,)) for r in ALL_ROLLS])  # throws of 36 per class
CLASS_PROBABILITY = _THROWS / 36
"""Probability (0..1) of each roll class of ``ALL_ROLLS`` with fair dice."""
CLASS_DOUBLE = np.array([r.is_double for r in ALL_ROLLS])
"""Whether each roll class of ``ALL_ROLLS`` is a double."""
CLASS_PIPS = np.array([r.pips for r in ALL_ROLLS], dtype=float)
"""The pips of each roll class of ``ALL_ROLLS`` (a double counts four times)."""
CLASS_FACES = np.array([[(r.high == f) + (r.low == f) for f in range(1, 7)] for r in ALL_ROLLS],
                       dtype=float)
"""Class x face, shape (21, 6): how many dice of each roll class of ``ALL_ROLLS`` show each
face 1..6."""
MEAN_PIPS = float(CLASS_PROBABILITY @ CLASS_PIPS)
"""Mean pips per roll with fair dice, 294/36 = 8.1667 (a double counts four times)."""
VAR_PIPS = float(CLASS_PROBABILITY @ (CLASS_PIPS - MEAN_PIPS) ** 2)
"""Variance of the pips of one roll with fair dice, 665/36 = 18.47 pips squared."""


def rolls_frame(matches: Iterable[ReplayedMatch], positions: bool = True, luck: bool = False,
                evaluator: Evaluator | None = None) -> pd.DataFrame:
    """One row per roll written in the replayed matches.

    Parameters
    ----------
    matches : iterable of ReplayedMatch
    positions : bool
        Fill the columns that need the replayed position before each roll (bar entry and
        shots). Shots cost a legal-play search per roll, so this is the slow part.
    luck : bool
        Add the columns of :data:`LUCK_DTYPES`: each roll's luck and its distribution under
        fair dice (an engine evaluation of each position; the engine extra).
    evaluator : Evaluator, optional
        With ``luck``: the engine of every match (of its game); default each match's own
        (:func:`~nardy_analysis.analysis.luck.luck_frame`; 0-ply, as GNU Backgammon's luck
        analysis).

    Returns
    -------
    pandas.DataFrame
        ``file``, ``match`` (1-based index of the match in its file), ``game`` (number as
        written), ``move`` (the ``N)`` label), ``side`` (0 left column, 1 right), ``player``
        (name; ``player 1``/``player 2`` when the file has none), ``site`` (the ``Site`` tag,
        ``unknown`` without one), ``dice`` (the roll's notation, larger die first),
        ``roll_high``, ``roll_low`` (the dice, 1..6), ``opening`` (first roll of its game;
        never in long nardy, whose first roll is an ordinary one),
        and from the positions: ``on_bar`` (roller's checkers on the bar), ``closed_points``
        (opponent's home points with two or more checkers, when the roller is on the bar),
        ``entered`` (the roll enters a checker), ``shots`` (throws out of 36 that can hit,
        when the opponent has a blot), ``hitting_roll`` (the roll can hit). The position
        columns are missing (NA) for rolls not replayed (after a rule violation, or
        ``positions=False``) and for long nardy. ``long``: thrown in long nardy. With
        ``luck``, then :data:`LUCK_DTYPES`.

    Raises
    ------
    EngineError
        ``luck`` on short nardy without the engine extra.

    Notes
    -----
    Rolls come from the records, so the rolls of a game cut short by a rule violation all
    count; positions exist only up to the violation.
    """
    dtypes = ROLLS_DTYPES | (LUCK_DTYPES if luck else {})
    rows = list(roll_rows(matches, positions, luck, evaluator))
    return pd.DataFrame(rows, columns=list(dtypes)).astype(dtypes)


def roll_rows(matches: Iterable[ReplayedMatch], positions: bool, luck: bool,
              evaluator: Evaluator | None) -> Iterator[list[Any]]:
    """The rows of :func:`rolls_frame` (the columns of :data:`ROLLS_DTYPES`, then of
    :data:`LUCK_DTYPES` with ``luck``), None where a value is missing."""
    seen_files: dict[str, int] = {}
    caches: dict[Rules, dict[Position, _RollFree]] = {}  # _position_facts's, by position
    unknown: list[Any] = [None] * 5
    no_luck = [np.nan] * len(LUCK_DTYPES)
    for match in matches:
        record = match.record
        file = record.file or ""
        seen_files[file] = seen_files.get(file, 0) + 1
        names = record.players
        site = record.tags.get("Site", "").strip() or "unknown"
        long = match.rules.game == "long"
        lucks = _turn_lucks(match, evaluator) if luck else {}
        rules, cache = match.rules, caches.setdefault(match.rules, {})
        for game in match.games:
            replayed = {id(t.record): t for t in game.turns}
            for index, turn in enumerate(game.record.turns):
                roll = turn.roll
                row = [file, seen_files[file], game.number, turn.move, turn.player,
                       names[turn.player], site, str(roll), roll.high, roll.low,
                       index == 0 and not long]
                done = replayed.get(id(turn))
                row += (_position_facts(done.before, roll, rules, cache)
                        if positions and done is not None and not long else unknown)
                row.append(long)
                if luck:
                    row += lucks.get(id(turn), no_luck)
                yield row


def _turn_lucks(match: ReplayedMatch, evaluator: Evaluator | None) -> dict[int, list[float]]:
    """The :data:`LUCK_DTYPES` of each replayed roll of ``match``, by ``id`` of its record."""
    frame = luck_frame(match, evaluator)
    turns = [turn.record for game in match.games for turn in game.turns]
    return dict(zip(map(id, turns), frame[list(LUCK_DTYPES)].to_numpy().tolist()))


_RollFree = tuple[int, int | None, int | None, int | None]
"""``on_bar, closed_points, shots`` of a position and its hitting rolls as a bit mask."""


def _position_facts(before: Position, roll: Roll, rules: Rules,
                    cache: dict[Position, _RollFree]) -> list[Any]:
    """``on_bar, closed_points, entered, shots, hitting_roll`` for a roll thrown in ``before``
    (None where missing); ``cache`` keeps, by position, the facts that do not depend on the
    roll (for one ``rules``).

    A die ``d`` enters on the roller's point ``25 - d``, the opponent's point ``d``.
    """
    facts = cache.get(before)
    if facts is None:
        facts = cache[before] = _roll_free_facts(before, rules)
    on_bar, closed, count, mask = facts
    entered = None
    if on_bar:
        opponent = before.opponent
        entered = opponent[roll.high] < 2 or opponent[roll.low] < 2
    hitting = None if mask is None else bool(mask >> (roll.high * 8 + roll.low) & 1)
    return [on_bar, closed, entered, count, hitting]


def _roll_free_facts(before: Position, rules: Rules) -> _RollFree:
    """``on_bar, closed_points, shots`` of ``before`` and its hitting rolls as a bit mask (bit
    ``8 * high + low``), None where missing."""
    me, opponent = before.on_roll, before.opponent
    closed = sum(opponent[d] >= 2 for d in range(1, 7)) if me[BAR] else None
    if 1 not in opponent[1:25]:
        return me[BAR], closed, None, None
    found = shots(before, rules)
    return me[BAR], closed, found.count, sum(1 << (r.high * 8 + r.low) for r in found.rolls)


def simulate_rolls(n: int, *, players: int = 1, doubles: float | None = None,
                   faces: Sequence[float] | None = None, positions: bool = True,
                   seed: int | np.random.Generator | None = None) -> pd.DataFrame:
    """Simulated rolls in the frame of :func:`rolls_frame`, from fair or loaded dice.

    Parameters
    ----------
    n : int
        Rolls per player.
    players : int
        Players, named ``sim 1``, ``sim 2``, ... (each one game of ``n`` rolls).
    doubles : float, optional
        Probability (0..1) of a double; the six doubles share it equally and the 15 other
        classes share the rest equally. Default: what ``faces`` gives (1/6 for fair dice).
    faces : sequence of 6 floats, optional
        Probability of each face 1..6 of each die (both dice alike and independent).
    positions : bool
        Also simulate the position columns: about 10% of rolls are thrown from the bar
        against 1..5 random closed points (``entered`` decided by the dice), about 40% at a
        random set of hitting roll classes (``hitting_roll`` decided by the dice).
    seed : int or numpy.random.Generator, optional

    Returns
    -------
    pandas.DataFrame
        With ``opening`` all False, so every roll is tested.
    """
    rng = np.random.default_rng(seed)
    face = np.full(6, 1 / 6) if faces is None else np.asarray(faces, float) / np.sum(faces)
    prob = _THROWS * np.array([face[r.high - 1] * face[r.low - 1] for r in ALL_ROLLS])
    if doubles is not None:
        prob = np.where(CLASS_DOUBLE, prob / prob[CLASS_DOUBLE].sum() * doubles,
                        prob / prob[~CLASS_DOUBLE].sum() * (1 - doubles))
    total = n * players
    classes = rng.choice(len(ALL_ROLLS), size=total, p=prob / prob.sum())
    high = np.array([r.high for r in ALL_ROLLS])[classes]
    low = np.array([r.low for r in ALL_ROLLS])[classes]
    frame = pd.DataFrame({
        "file": "simulated", "match": 1, "game": 1, "move": np.tile(np.arange(1, n + 1), players),
        "side": 0, "player": np.repeat([f"sim {i + 1}" for i in range(players)], n),
        "site": "simulated", "dice": np.array([str(r) for r in ALL_ROLLS])[classes],
        "roll_high": high, "roll_low": low, "opening": False})
    if positions:
        every = np.arange(total)
        bar = rng.random(total) < 0.1
        closed = rng.random((total, 6)).argsort(axis=1) < rng.integers(1, 6, total)[:, None]
        exposed = rng.random(total) < 0.4
        hitters = rng.random((exposed.sum(), len(ALL_ROLLS))) < rng.random((exposed.sum(), 1))
        count, hits = np.zeros(total, dtype=np.int64), np.zeros(total, dtype=bool)
        count[exposed] = hitters @ _THROWS
        hits[exposed] = hitters[np.arange(len(hitters)), classes[exposed]]
        frame["on_bar"] = bar.astype(np.int64)
        frame["closed_points"] = pd.arrays.IntegerArray(closed.sum(axis=1), ~bar)
        frame["entered"] = pd.arrays.BooleanArray(
            ~(closed[every, high - 1] & closed[every, low - 1]), ~bar)
        frame["shots"] = pd.arrays.IntegerArray(count, ~exposed)
        frame["hitting_roll"] = pd.arrays.BooleanArray(hits, ~exposed)
    return frame.astype({column: kind for column, kind in ROLLS_DTYPES.items() if column in frame})
