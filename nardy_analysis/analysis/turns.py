"""Per-turn DataFrames of replayed matches.

:func:`turns_frame` gives one row per turn (every roll written, dances and unknown ``???``
plays included; cube actions are not turns) in tidy long form. "The player" is the one who
rolled; points are numbered from the player's own side (1..24, bar 25, off 0). Values that
need the position after the play are missing (``<NA>`` or NaN) for an unknown play.

Long nardy (RULES.md, "Long nardy"): nothing is hit, so the blot and shot columns
(``phase`` too) are missing, and so are ``cube_value``, ``bar`` and ``opponent_bar`` (no
cube, no bar); ``home``, ``longest_run`` and ``opponent_blocked_rolls`` are
filled for long nardy only.

Columns
-------
file : str
    The match file (missing for a match parsed from text).
match_id : str
    The ``Match ID`` header tag, else the file's stem (``stem:N`` for the N-th of several
    matches in one file).
match_length : int
    Points to win the match; 0 for a money session.
game : int
    Game number as written in the file.
turn : int
    The roll's order in the game, 1, 2, ...
move : Int64
    The ``N)`` label of the line (both players' rolls on a line share it).
player, opponent : str
    Names from the file (the ``Player 1``/``Player 2`` tags, else the first score line);
    a player who appears in many files is followed by name.
side : int
    The player's column: 0 left, 1 right.
dice : str
    The roll, larger die first (``"52"``, ``"33"``).
roll_high, roll_low : int
    The dice, 1..6.
play : str
    The play in normalised notation (``str(Play)``: ``"13/11(2) 6/4*"``, ``"Cannot Move"``);
    missing when unknown.
cube_value : Int64
    Cube value when the roll was thrown; ``<NA>`` for long nardy (no cube).
cube_owner : Int64
    Side owning the cube (0 or 1); ``<NA>`` when centred.
pips_before, opponent_pips_before : int
    Pip counts (pips) of the player and of the opponent before the roll.
pips_after, opponent_pips_after : Int64
    The same after the play.
pip_lead : int
    ``opponent_pips_before - pips_before`` in pips: positive when the player leads the race.
bar, opponent_bar, off, opponent_off : Int64
    Checkers on the bar and borne off, of the player and of the opponent, after the play
    (``bar`` and ``opponent_bar`` ``<NA>`` for long nardy: there is no bar).
phase : str
    ``"contact"`` or ``"race"`` before the roll; see :func:`phase`.
blots : Int64
    The player's blots (points 1..24 holding one checker) after the play.
blot_points : list of int
    Their points, ascending (empty list for none).
opponent_shots : Int64
    Rolls out of 36 on which the opponent's next roll can hit at least one of those blots
    (``shots(after).count``, exact, through the legal plays: :mod:`nardy_analysis.shots`).
opponent_hit : boolean
    Whether the opponent's next play hit; ``<NA>`` when there is no next play in the game
    or it is unknown.
opponent_roll_hits : boolean
    Whether the opponent's next roll is a hitting roll: one of the ``opponent_shots`` rolls,
    whether or not the opponent chose to hit with it (a fact of the dice alone); False when
    the player left no blot, ``<NA>`` when there is no next roll in the game or the play is
    unknown.
hits : Int64
    Opposing checkers this play hit (sent to the bar).
position_id_before, position_id_after : str
    gnubg Position IDs of the position before the roll (player on roll) and after the play
    (opponent on roll); for long nardy its position notation
    (:meth:`~nardy_analysis.game.long.LongPosition.notation`).
home : Int64
    Long nardy: the player's checkers on points 1..6 after the play (borne-off ones not
    counted).
longest_run : Int64
    Long nardy: the most points in a row the player holds after the play (a point with
    any of the player's checkers is closed to the opponent), along the opponent's path.
opponent_blocked_rolls : Int64
    Long nardy: of the 36 rolls, how many leave the opponent unable to play the whole roll
    on the next turn (:func:`~nardy_analysis.game.long.blocked_rolls`, exact, through the
    legal plays).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import groupby
from os import PathLike
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Sequence, cast

import numpy as np
import pandas as pd

from ..errors import InvalidArgument
from ..game.long import LongPosition, blocked_rolls
from ..game.moves import Move, Play
from ..game.position import Position
from ..game.rules import BAR, OFF
from ..replay import LoadedFile, ReplayedMatch
from .shots import shots

Source = ReplayedMatch | LoadedFile | Iterable[ReplayedMatch | LoadedFile]
"""What the analyses take: replayed matches, files loaded (:mod:`nardy_analysis.load`), or an
iterable of them."""
MatchId = str | None
"""A match's id in the frames (:func:`identified_matches`)."""

DTYPES = {
    "file": "object", "match_id": "object", "match_length": "int64", "game": "int64",
    "turn": "int64", "move": "Int64", "player": "object", "opponent": "object",
    "side": "int64", "dice": "object", "roll_high": "int64", "roll_low": "int64",
    "play": "object", "cube_value": "Int64", "cube_owner": "Int64",
    "pips_before": "int64", "opponent_pips_before": "int64", "pips_after": "Int64",
    "opponent_pips_after": "Int64", "pip_lead": "int64", "bar": "Int64",
    "opponent_bar": "Int64", "off": "Int64", "opponent_off": "Int64", "phase": "object",
    "blots": "Int64", "blot_points": "object", "opponent_shots": "Int64",
    "opponent_hit": "boolean", "opponent_roll_hits": "boolean", "hits": "Int64",
    "position_id_before": "object", "position_id_after": "object", "home": "Int64",
    "longest_run": "Int64", "opponent_blocked_rolls": "Int64",
}
"""The columns of :func:`turns_frame` in order, with their pandas dtypes."""


def phase(position: Position) -> str:
    """``"race"`` when no checker of either side can meet one of the other, else ``"contact"``.

    A race is a position where every checker of one player has passed every checker of the
    other (no checker has an opposing one ahead of it on its way home): the rearmost checker
    of the player on roll is nearer home than the opponent's rearmost one, seen along the
    same path. A checker on the bar is the rearmost possible; a finished game is a race.
    Short nardy only (the turns frame leaves it missing for long nardy).

    Parameters
    ----------
    position : Position

    Returns
    -------
    str
    """
    # Each side's rearmost checker: the highest of its points 1..25 holding one (0: none).
    mine = len(bytes(position.on_roll[1:]).rstrip(b"\0"))
    theirs = len(bytes(position.opponent[1:]).rstrip(b"\0"))
    # Seen from my side the opponent's point q is my 25 - q (their bar is my 0).
    return "race" if mine < (25 - theirs if theirs else BAR + 1) else "contact"


def longest_run(position: Position, player: int) -> int:
    """The most points in a row that ``player`` holds in a long nardy position, along the
    opponent's path (from the opponent's 1-point up to its head: the run that blocks it).

    A point holds when any of the player's checkers is on it (RULES.md, "Long nardy": a
    single checker closes a point). Six in a row is a six-point block.

    Parameters
    ----------
    position : LongPosition
    player : int
        0 or 1.

    Returns
    -------
    int
        0..24 points.
    """
    side, run, best = position.board[player], 0, 0
    for point in range(1, 25):  # the opponent's numbering: 1 up to its head
        run = run + 1 if side[position.facing(point)] else 0
        best = max(best, run)
    return best


def turns_frame(source: Source) -> pd.DataFrame:
    """One row per turn of the matches in ``source`` (columns: the module docstring).

    Parameters
    ----------
    source : ReplayedMatch or LoadedFile, or an iterable of them
        Replayed matches, or files loaded with :func:`nardy_analysis.load.load_files`.

    Returns
    -------
    pandas.DataFrame
        Columns and dtypes as in :data:`DTYPES`; turns in file, game and roll order.

    Raises
    ------
    ValueError
        ``source`` holds something else (such as a path: load it first).
    """
    return columns_frame(turn_columns(source))


def turn_columns(source: Source) -> dict[str, tuple[Any, ...]]:
    """The columns of :func:`turns_frame` before they become a frame, for a writer that needs
    no pandas (``nardy stats --parquet``).

    Parameters
    ----------
    source : ReplayedMatch or LoadedFile, or an iterable of them
        As for :func:`turns_frame`.

    Returns
    -------
    dict of str to tuple
        For each column of :data:`DTYPES`, in order, its values, one per turn: int, bool, str
        or list (``blot_points``), None or NaN where missing.

    Raises
    ------
    ValueError
        As for :func:`turns_frame`.
    """
    rows = _turn_rows(source)
    columns = dict(zip(_ROW, zip(*rows))) if rows else dict.fromkeys(_ROW, ())
    return {column: columns[column] for column in DTYPES}


def columns_frame(columns: Mapping[str, Sequence[Any]]) -> pd.DataFrame:
    """The turns frame of :func:`turn_columns` (of one source, or of several joined column by
    column, in order): one frame built at once, rather than a frame per file and a
    ``pandas.concat``.

    Parameters
    ----------
    columns : dict of str to sequence
        Each column of :data:`DTYPES`, in order, with one value per turn.

    Returns
    -------
    pandas.DataFrame
        As :func:`turns_frame` of the turns.
    """
    index = pd.RangeIndex(len(columns["turn"]))
    return pd.DataFrame({column: _column(values, DTYPES[column], index)
                         for column, values in columns.items()}, index=index, copy=False)


def _column(values: Sequence[Any] | np.ndarray, dtype: str, index: pd.RangeIndex) -> Any:
    """One column of :func:`turns_frame`, of ``dtype``, from its :func:`turn_columns`
    values: what ``pandas.DataFrame(rows).astype(DTYPES)`` makes of them, built once,
    without inferring a type."""
    if dtype == "int64":
        return np.array(values, dtype=np.int64)
    if dtype == "object":
        if None in values:  # pandas decides None or NaN, as for a frame
            values = pd.Series(values).astype(object).to_numpy()
        return pd.Series(values, index=index, dtype=object, copy=False)
    numbers = np.array(values, dtype=float)  # Int64 or boolean: None and NaN are missing
    missing = np.isnan(numbers)
    data = np.where(missing, 0, numbers)
    return (pd.arrays.BooleanArray(data.astype(bool), missing) if dtype == "boolean"
            else pd.arrays.IntegerArray(data.astype(np.int64), missing))


HIT_KINDS = {"played": "opponent_hit", "dice": "opponent_roll_hits"}
"""What :func:`hit_rates` counts: hits the opponent played, or the opponent's hitting rolls
(the dice alone), with the turns-frame column that says which."""


def hit_rates(frame: pd.DataFrame, bins: int | None = None, confidence: float = 0.95, *,
              kind: str = "played", by: str = "shots") -> pd.DataFrame:
    """Observed against expected hits of exposed blots, grouped by hit probability or place.

    An exposure is a turn after which the player had blots and the opponent's next roll
    (``kind="dice"``) or play (``kind="played"``) is known. The expected chance is the
    opponent's shots / 36, the chance that the next throw *can* hit. With ``kind="dice"`` the
    event is that the next roll was one of those hitting rolls (whether or not the opponent
    hit): with fair dice its frequency is the expected chance, each exposure being one
    Bernoulli trial. With ``kind="played"`` the event is that the opponent hit: players may
    choose not to, so it mixes the dice with the players' choices.

    Parameters
    ----------
    frame : pandas.DataFrame
        A turns frame (:func:`turns_frame`).
    bins : int, optional
        With ``by="shots"``: group by the exact shot count (0..36 rolls) when None, else into
        this many equal-width bins of the probability over [0, 1].
    confidence : float
        Confidence level (0..1) of the intervals.
    kind : {"played", "dice"}
        Count the hits played, or the hitting rolls thrown (:data:`HIT_KINDS`).
    by : {"shots", "point"}
        Group by hit probability, or by the point (1..24, from the side of the player who
        left it) of the blot in exposures that left a single blot (exposures with several
        blots are left out: their hit cannot be placed on one point).

    Returns
    -------
    pandas.DataFrame
        One row per non-empty group: ``group`` (shot count, probability interval or point),
        ``expected`` (mean probability, 0..1), ``exposures``, ``hits`` (the events counted),
        ``observed`` (hits / exposures) and ``ci_low``, ``ci_high``: the exact
        (Clopper-Pearson) binomial interval of
        ``scipy.stats.binomtest(hits, exposures).proportion_ci(confidence)``.

    Raises
    ------
    InvalidArgument
        An unknown ``kind`` or ``by``.
    """
    from scipy.stats import binomtest  # here: scipy.stats takes a second to import

    if kind not in HIT_KINDS or by not in ("shots", "point"):
        raise InvalidArgument(f"hit_rates: kind must be one of {sorted(HIT_KINDS)} and by one "
                              f"of ['point', 'shots'], got kind={kind!r}, by={by!r}")
    event = HIT_KINDS[kind]
    exposed = frame[(frame["blots"].fillna(0) > 0) & frame[event].notna()]
    if by == "point":
        exposed = exposed[exposed["blots"] == 1]
        group = exposed["blot_points"].str[0].astype(int)
    else:
        shots_ = exposed["opponent_shots"].astype(int)
        group = shots_ if bins is None else pd.cut(
            shots_ / 36, np.linspace(0, 1, bins + 1).tolist(), include_lowest=True)
    rows = []
    for key, rows_ in exposed.groupby(group, observed=True):
        n, k = len(rows_), int(rows_[event].sum())
        interval = binomtest(k, n).proportion_ci(confidence_level=confidence)
        rows.append({"group": key, "expected": rows_["opponent_shots"].mean() / 36,
                     "exposures": n, "hits": k, "observed": k / n,
                     "ci_low": interval.low, "ci_high": interval.high})
    return pd.DataFrame(rows, columns=["group", "expected", "exposures", "hits", "observed",
                                       "ci_low", "ci_high"])


def replayed_matches(source: Source) -> list[ReplayedMatch]:
    """The replayed matches of ``source``, in order.

    Parameters
    ----------
    source : ReplayedMatch or LoadedFile, or an iterable of them
        A file loaded by :mod:`nardy_analysis.load` gives the matches it replayed.

    Raises
    ------
    InvalidArgument
        An item is neither (the analyses take matches, not paths or frames).
    """
    if isinstance(source, pd.DataFrame):  # iterating it would give its column names
        raise InvalidArgument(f"expected replayed matches, got a DataFrame (columns "
                              f"{', '.join(map(str, source.columns[:4]))}, ...): the analyses "
                              "start from the matches, nardy_analysis.load_files(paths)")
    single = (ReplayedMatch, LoadedFile, str, PathLike)  # a path is quoted whole in the error
    items = [source] if isinstance(source, single) else source
    matches: list[ReplayedMatch] = []
    for item in items:
        if isinstance(item, LoadedFile):
            matches += item.matches
        elif isinstance(item, ReplayedMatch):
            matches.append(item)
        else:
            raise InvalidArgument(f"expected replayed matches, got {item!r}; read files with "
                             "nardy_analysis.load_files(paths) first")
    return matches


def refuse_long_nardy(analysis: str, long_matches: Sequence[MatchId]) -> None:
    """The one check of the analyses that apply to short nardy only: blot exposure (nothing
    is hit in long nardy; RULES.md, "Long nardy"). In a turns frame, the long nardy rows are
    those without a ``cube_value``.

    Parameters
    ----------
    analysis : str
        What does not apply, for the message: ``"blot exposure"``.
    long_matches : sequence of str
        The ids of the long nardy matches found (empty: nothing to refuse).

    Raises
    ------
    InvalidArgument
        ``long_matches`` is not empty: ``blot exposure does not apply to long nardy (match
        NAME): only to short nardy``.
    """
    if len(long_matches):
        raise InvalidArgument(f"{analysis} does not apply to long nardy (match "
                              f"{', '.join(map(str, long_matches))}): only to short nardy")


def identified_matches(source: Source) -> Iterator[tuple[MatchId, ReplayedMatch]]:
    """``(match id, replayed match)`` for each match of ``source`` (as for
    :func:`replayed_matches`), in order. The id is the ``Match ID`` tag, else the stem of the
    match's file (``stem:N`` for the N-th of several matches in a row from one file), else
    None."""
    for file, group in groupby(replayed_matches(source), lambda m: m.record.file):
        matches = list(group)
        for number, match in enumerate(matches, 1):
            match_id = match.record.tags.get("Match ID")
            if not match_id and file:
                stem = Path(file).stem
                match_id = stem if len(matches) == 1 else f"{stem}:{number}"
            yield match_id, match


# The row of one turn, as _turn_rows makes it: the columns of DTYPES in the order below,
# grouped by what they need (missing values: None or NaN, as turns_frame reads them).
_BASE = ("file", "match_id", "match_length", "game", "turn", "move", "player", "opponent",
         "side", "dice", "roll_high", "roll_low", "play", "cube_value", "cube_owner",
         "pips_before", "opponent_pips_before", "pip_lead", "position_id_before")
_CONTACT = ("phase", "opponent_hit")  # short nardy
_AFTER = ("pips_after", "opponent_pips_after", "bar", "opponent_bar", "off", "opponent_off",
          "position_id_after")  # a known play
_BLOTS = ("blots", "blot_points", "opponent_shots", "opponent_roll_hits", "hits")  # short
_LONG = ("home", "longest_run", "opponent_blocked_rolls")  # long nardy, a known play
_ROW = _BASE + _CONTACT + _AFTER + _BLOTS + _LONG
_NO_AFTER = (np.nan,) * len(_AFTER + _BLOTS + _LONG)
_NO_BLOTS = (np.nan,) * len(_BLOTS)
_NO_LONG = (np.nan,) * len(_LONG)


def _turn_rows(source: Source) -> list[tuple[Any, ...]]:
    """The rows of :func:`turns_frame`, tuples in :data:`_ROW` order."""
    rows: list[tuple[Any, ...]] = []
    for match_id, match in identified_matches(source):
        _add_match(rows, match, match_id)
    return rows


@lru_cache(maxsize=1 << 14)
def _play_text(moves: tuple[Move, ...]) -> str:
    """``str(Play(moves))``, kept for the plays most often made (a match repeats few; a
    corpus of 211,218 plays has 25,797 distinct ones)."""
    return str(Play(moves))


def _add_match(rows: list[tuple[Any, ...]], match: ReplayedMatch, match_id: MatchId) -> None:
    """Append the rows of one match to ``rows``."""
    record, rules = match.record, match.rules
    names, long = record.players, rules.game == "long"
    seen: _Seen = {}  # a turn's position after is the next one's before: computed once
    for game in match.games:
        turns = game.turns
        hits: list[Any] = [None if turn.play is None else sum(move.hit for move in turn.play.moves)
                for turn in turns]
        rolled: set[int] = set()
        for index, turn in enumerate(turns):
            side, before, after, roll, play = (turn.player, turn.before, turn.after,
                                               turn.roll, turn.play)
            following = turns[index + 1] if index + 1 < len(turns) else None
            opponent_first = 1 - side not in rolled  # the head rule's first turn
            rolled.add(side)
            id_before, pips_before = _facts(before, seen)
            pips, opponent_pips = pips_before[side], pips_before[1 - side]
            row: tuple[Any, ...] = (record.file, match_id, record.length, game.number, index + 1,
                   turn.record.move, names[side], names[1 - side], side, str(roll), roll.high,
                   roll.low, None if play is None else _play_text(play.moves),
                   None if long else turn.cube_value, turn.cube_owner, pips, opponent_pips,
                   opponent_pips - pips, id_before)
            row += (np.nan, np.nan) if long else (
                phase(before), None if following is None or following.play is None
                else hits[index + 1] > 0)
            if after is None:
                rows.append(row + _NO_AFTER)
                continue
            mine, theirs = after.board[side], after.board[1 - side]
            id_after, pips_after = _facts(after, seen)
            row += (pips_after[side], pips_after[1 - side], None if long else mine[BAR],
                    None if long else theirs[BAR], mine[OFF], theirs[OFF], id_after)
            if long:
                rows.append(row + _NO_BLOTS + (
                    sum(mine[1:7]), longest_run(after, side),
                    blocked_rolls(cast(LongPosition, after), rules, opponent_first)))
                continue
            blots = [p for p in range(1, BAR) if mine[p] == 1] if 1 in mine[1:BAR] else []
            hitting: Any = shots(after, rules) if blots else None
            rows.append(row + (len(blots), blots, hitting.count if blots else 0,
                               None if following is None
                               else bool(blots) and following.roll in hitting.rolls,
                               hits[index]) + _NO_LONG)


_Seen = dict[int, tuple[str, tuple[int, int]]]
"""Position ID and both pip counts, by position object (:func:`_facts`)."""


def _facts(position: Position, seen: _Seen) -> tuple[str, tuple[int, int]]:
    """The Position ID of ``position`` and the pip counts of players 0 and 1, kept in
    ``seen`` by object (the positions of one match, alive while its rows are made)."""
    key = id(position)
    if key not in seen:
        seen[key] = position.id(), (position.pip_count(0), position.pip_count(1))
    return seen[key]
