"""Dice luck as GNU Backgammon measures it, roll by roll, through a real engine.

Definition (GNU Backgammon's luck analysis, as its developers describe it on
rec.games.backgammon, archived at bkgm.com/rgb: "How luck factor is calculated" and "Luck
rate", after Douglas Zare, "A Measure of Luck", bkgm.com/articles): the luck of a roll is the
roller's equity after the best play of the roll thrown minus the average, over all 36
throws, of the equity after the best play of each throw (21 distinct rolls, each non-double
counted twice). How the roll was actually
played does not matter. A dance counts like any other roll: its equity is that of the
unchanged position with the opponent on roll. Equity is the engine's cubeless equity at
0-ply by default, the setting GNU Backgammon's luck analysis uses when told ``set analysis
luckanalysis cubeful off``. The evaluator's ``ply`` changes it; gnubg-nn's best plays at 1
and 2 plies (:class:`~nardy_analysis.analysis.plies.CubelessSearch`) are those of gnubg's
luck analysis at that ply (``set analysis luckanalysis plies N``), and so is the luck
(tests/data/luck/ply1, ply2); at 3 plies the best plays of single rolls are checked against
gnubg's, the luck of whole matches is not.

The first roll of a game is special: it also decides who moves first, so GNU Backgammon
averages over the 30 non-double throws of the opening roll, 15 for each player, the
opponent's counted with the sign turned (their gain is the roller's loss). At equal scores
(and always in money play) that mean is 0 and the luck of an opening roll is simply the
equity after its best play; at unequal match scores the two players' openings are worth
different amounts and the mean is not 0. The rolls are :data:`OPENING_ROLLS`; under rules
that allow an opening double the first roll is treated like any other.

Units. In money play equity is in points per game at cube 1 (GNU Backgammon's "EMG",
equivalent to a money game); ``luck_points`` multiplies it by the cube value. In match play
equity is GNU Backgammon's normalised match equity: the match-winning chance (MWC) mapped
linearly so that winning the cube's value in points is +1 and losing it is -1, from the
Kazaross-XG2 match equity table (:func:`match_winning_chance`); ``luck_mwc`` is the same luck
as a change of the match-winning chance (0..1). These are the numbers GNU Backgammon prints
in its ``LU[...]`` SGF properties and its luck statistics; tests/data/luck holds its numbers
for real matches, and the tests check every roll against them.

Fair dice. The same 21 equities give the distribution of a roll's luck at its position before
it is thrown: the 36 equally likely throws, each with luck ``e_i - mean``. Its mean is 0 by
construction; :func:`roll_luck_distribution` gives its variance (``sum((e_i - mean)^2) / 36``,
equity squared), its fourth central moment (``sum((e_i - mean)^4) / 36``, equity^4) and the
throws of 36 whose luck a roll would be marked lucky (> +0.3) or unlucky (< -0.3), the input
of the fairness tests of :mod:`nardy_analysis.analysis.audit` (``luck``, ``luck_spread``,
``lucky_rolls``, ``unlucky_rolls``, ``decisive_luck``). The opening roll of standard rules
also decides who moves: its luck is not one of the 36 throws of the roller, so it has no such
distribution (NaN).

Marks (the thresholds GNU Backgammon 1.1's ``show analysis`` prints): a roll is ``very
lucky`` above +0.6, ``lucky`` above +0.3, ``unlucky`` below -0.3 and ``very unlucky`` below
-0.6. The rating of a player's luck rate (luck per roll, every roll counted, dances
included) is one of :data:`RATINGS`, as GNU Backgammon rates it (:func:`luck_rating`). The
luck-adjusted result is the actual result minus the player's luck plus the opponent's luck
(in MWC in match play, in points in money play), as in GNU Backgammon's statistics.

Long nardy. The same definition, through this project's long nardy engine
(:class:`~nardy_analysis.analysis.long_engine.LongEvaluator`, chosen by the match's rules):
there is no cube, so equity is always money equity in points per game, a mars counting 2 and
a home mars 3 (or as ``Rules.home_mars`` says; RULES.md, "Long nardy", "Results"), in match
play too (``luck_points`` is the luck, ``luck_mwc`` NaN, the summaries' unit ``points``). Any
roll may open a long nardy game, so the first roll is one of the roller's 36 throws like any
other; a player's first turn plays by the head rule's exception for it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, Iterable, NamedTuple, Sequence

import numpy as np
import pandas as pd

from ..errors import InvalidArgument
from ..game.long import LongPosition
from ..game.moves import ALL_ROLLS, Roll
from ..game.position import Position
from ..game.rules import LONG, STANDARD
from .engine import default_evaluator, match_evaluator
from .evaluator import MONEY, Evaluator, Utility
from .match_equity import (
    GameSituation,
    game_results,
    match_utility,
    match_winning_chance,
    per_game_equity,
)
from .match_statistics import NO_RATING, fibs_rating_difference
from .shots import ROLL_THROWS
from .turns import Source, identified_matches

__all__ = ["LUCKY", "MARKS", "OPENING_ROLLS", "RATINGS", "RATING_SHOWN", "RollLuck",
           "luck_adjusted", "luck_by_player", "luck_frame", "luck_mark",
           "luck_rating", "luck_summary", "match_utility", "match_winning_chance",
           "mean_equity", "roll_luck", "roll_luck_distribution"]

OPENING_ROLLS: tuple[Roll, ...] = tuple(r for r in ALL_ROLLS if not r.is_double)
"""The 15 non-double rolls an opening can be."""

LUCKY = 0.3
"""Luck (equity) above which GNU Backgammon marks a roll lucky; below ``-LUCKY`` unlucky."""

MARKS = ("very lucky", "lucky", "unlucky", "very unlucky")
"""GNU Backgammon's marks of a roll's luck (thresholds: :func:`luck_mark`)."""

RATINGS = ("Go to bed", "Bad dice, man!", "None", "Good dice, man!", "Go to Las Vegas")
"""GNU Backgammon's luck ratings, worst to best (see :func:`luck_rating`), in its words: the
GNU Backgammon manual ("Luck ratings" in its chapter on analysis statistics) lists these five,
and gnubg 1.1.0a16 prints them (tests/data/luck/*.stats.json). ``"None"`` is its word for
average luck (a rate within +-0.03), a string, not Python's None."""

RATING_SHOWN = {"None": "none (average luck)"}
"""The ``rating`` of a summary where gnubg's word could be misread: its "None" (average luck)
reads like a missing value, and ``pandas.read_csv`` reads it as one. The other words are
shown as gnubg writes them; ``rating_gnubg`` keeps gnubg's word in every case."""


@lru_cache(maxsize=50_000)
def _best_equities(evaluator: Evaluator, position: Position,
                   utility: Utility) -> tuple[float, ...]:
    """Equity after the best play of each of the 21 rolls (ALL_ROLLS order)."""
    return evaluator.best_equities(position, ALL_ROLLS, utility)


_OPENINGS = tuple(ALL_ROLLS.index(r) for r in OPENING_ROLLS)


def mean_equity(mine: Sequence[float], theirs: Sequence[float] | None = None) -> float:
    """The mean equity a roll's luck is measured from (the module docstring; GNU
    Backgammon's luck analysis): luck = equity after the roll's best play minus this mean.

    Parameters
    ----------
    mine : sequence of float, length 21
        The roller's equity after the best play of each roll, in ``ALL_ROLLS`` order (any
        equity unit: EMG, normalised match equity).
    theirs : sequence of float, length 15, optional
        For the opening roll of standard rules: the opponent's equity (their own side)
        after the best play of each of :data:`OPENING_ROLLS`.

    Returns
    -------
    float
        The average over the 36 throws (doubles once, other rolls twice); with ``theirs``,
        over the 30 throws of two different dice, each played by the player whose die is
        higher (``mine`` for half of them, ``-theirs`` for the other half).
    """
    if theirs is not None:
        return sum(mine[i] - t for i, t in zip(_OPENINGS, theirs)) / (2 * len(_OPENINGS))
    return sum(e * w for e, w in zip(mine, ROLL_THROWS)) / 36


class RollLuck(NamedTuple):
    """The luck of one roll and the distribution of the luck of its position's 36 throws
    under fair dice (:func:`roll_luck_distribution`).

    Attributes
    ----------
    luck, equity : float
        As :func:`roll_luck` returns them (the roller's equity units).
    variance : float
        Variance of the luck of the 36 equally likely throws (equity squared; their mean is
        0); NaN for the opening roll of standard rules.
    lucky, unlucky : float
        Probability (0..1, a multiple of 1/36) of a throw whose luck exceeds :data:`LUCKY`
        (marked lucky or very lucky), or is below ``-LUCKY``; NaN for a standard opening.
    fourth : float
        Fourth central moment of the luck of the 36 throws (equity^4); the variance of the
        squared luck is ``fourth - variance**2``. NaN for a standard opening.
    """

    luck: float
    equity: float
    variance: float
    lucky: float
    unlucky: float
    fourth: float


def roll_luck_distribution(position: Position, roll: Roll, utility: Utility = MONEY,
                           evaluator: Evaluator | None = None, opening: bool = False,
                           opponent_utility: Utility | None = None) -> RollLuck:
    """The luck of ``roll`` in ``position``, with the variance and fourth central moment of
    the luck of the position's 36 throws and their chances of a lucky or unlucky mark, from
    the same 21 best-play equities (no further evaluation).

    Parameters
    ----------
    position, roll, utility, evaluator, opening, opponent_utility
        As for :func:`roll_luck`.

    Returns
    -------
    RollLuck
        ``variance = sum_i w_i (e_i - m)^2 / 36`` over the 21 rolls ``i`` (``w_i`` their
        throws of 36, ``e_i`` the equity after their best play, ``m = sum_i w_i e_i / 36``);
        ``lucky`` the share of the 36 throws with ``e_i - m > LUCKY``, ``unlucky`` with
        ``e_i - m < -LUCKY`` (GNU Backgammon's marks, :func:`luck_mark`);
        ``fourth = sum_i w_i (e_i - m)^4 / 36``.

    Raises
    ------
    EngineError
        As for :func:`roll_luck`.
    """
    evaluator = evaluator or default_evaluator(
        rules=LONG if isinstance(position, LongPosition) else STANDARD)
    mine = _best_equities(evaluator, position, utility)
    equity = mine[ALL_ROLLS.index(roll)]
    if opening:
        theirs = _best_equities(evaluator, position.with_turn(1 - position.turn),
                                opponent_utility or utility)
        mean = mean_equity(mine, [theirs[i] for i in _OPENINGS])
        nan = float("nan")
        return RollLuck(equity - mean, equity, nan, nan, nan, nan)
    mean = mean_equity(mine)
    lucks = [e - mean for e in mine]
    return RollLuck(equity - mean, equity, sum(w * x * x for x, w in zip(lucks, ROLL_THROWS)) / 36,
                    sum(w for x, w in zip(lucks, ROLL_THROWS) if x > LUCKY) / 36,
                    sum(w for x, w in zip(lucks, ROLL_THROWS) if x < -LUCKY) / 36,
                    sum(w * x ** 4 for x, w in zip(lucks, ROLL_THROWS)) / 36)


def roll_luck(position: Position, roll: Roll, utility: Utility = MONEY,
              evaluator: Evaluator | None = None, opening: bool = False,
              opponent_utility: Utility | None = None) -> tuple[float, float]:
    """The luck of ``roll`` in ``position`` and the equity after its best play.

    Parameters
    ----------
    position : Position
        Before the roll, the roller on roll.
    roll : Roll
    utility : Utility
        The roller's equity (:data:`~nardy_analysis.analysis.evaluator.MONEY` or
        :func:`match_utility`).
    evaluator : Evaluator, optional
        Default: :func:`~nardy_analysis.engine.default_evaluator` at 0-ply, of standard
        rules, or of ``LONG`` for a long nardy position (pass the engine of
        ``LONG_FEDERATION`` for its head rule).
    opening : bool
        The first roll of a game: the mean is over :data:`OPENING_ROLLS` for both players
        (see the module docstring). ``position`` must then be the starting position.
    opponent_utility : Utility, optional
        The opponent's equity, needed with ``opening`` (default: ``utility``).

    Returns
    -------
    (luck, equity) : pair of float
        In the roller's equity units (see the module docstring); the first two fields of
        :func:`roll_luck_distribution`.

    Raises
    ------
    EngineError
        No engine installed (the message names ``pip install nardy-analysis[engine]``), or a
        position the engine cannot take.
    """
    return roll_luck_distribution(position, roll, utility, evaluator, opening,
                                  opponent_utility)[:2]


def luck_mark(luck: float) -> str:
    """GNU Backgammon's mark of a roll's luck (equity): ``very lucky`` (> 0.6), ``lucky``
    (> 0.3, :data:`LUCKY`), ``unlucky`` (< -0.3), ``very unlucky`` (< -0.6), else ``""``."""
    if luck > 2 * LUCKY:
        return "very lucky"
    if luck > LUCKY:
        return "lucky"
    if luck < -2 * LUCKY:
        return "very unlucky"
    if luck < -LUCKY:
        return "unlucky"
    return ""


def luck_rating(rate: float) -> str:
    """GNU Backgammon's rating of a luck rate (equity per roll): one of :data:`RATINGS`.

    Below -0.06 ``Go to bed``; from -0.06 to below -0.03 ``Bad dice, man!``; -0.03 to +0.03
    ``None``; above +0.03 to +0.06 ``Good dice, man!``; above +0.06 ``Go to Las Vegas``
    (the bands of the GNU Backgammon manual's table of luck ratings; which side of each
    boundary belongs to which band as measured with gnubg 1.1.0a16's ``luckrating``).
    """
    if rate < -0.06:
        return RATINGS[0]
    if rate < -0.03:
        return RATINGS[1]
    if rate <= 0.03:
        return RATINGS[2]
    if rate <= 0.06:
        return RATINGS[3]
    return RATINGS[4]


# --- per-roll frame -------------------------------------------------------------------------

ROLL_COLUMNS = {
    "file": "the match file (missing for a match parsed from text)",
    "match_id": "the Match ID header tag, else the file's stem (stem:N for the N-th match)",
    "match_length": "points to win the match; 0 for a money session",
    "game": "game number as written",
    "turn": "order of the roll in the game, 1, 2, ... (dances included)",
    "move": "the N) label of the line the roll is on",
    "player": "the roller's name",
    "side": "the roller's column: 0 left, 1 right",
    "dice": "the roll, larger die first",
    "dance": "True when no part of the roll could be played",
    "play_recorded": "False when the play is not recorded (``???``): GNU Backgammon's "
                     "analysis gives such a roll no luck, and the summaries leave it out",
    "cube_value": "cube value when the roll was thrown (1 in long nardy: no cube)",
    "luck": "luck of the roll in the roller's equity: points per game at cube 1 (money "
            "play and long nardy) or normalised match equity (short nardy match play); "
            "gnubg's LU value",
    "equity": "the roller's equity after the best play of the roll thrown (same unit)",
    "luck_mwc": "match play: the luck as a change of the roller's match-winning chance "
                "(0..1); NaN in money play and long nardy",
    "luck_points": "money play and long nardy: the luck in points (luck times cube value); "
                   "NaN in short nardy match play",
    "mark": "very lucky, lucky, unlucky, very unlucky, or '' (see MARKS)",
    "luck_variance": "variance of the luck of the position's 36 throws under fair dice "
                     "(equity squared; their mean is 0); NaN for a standard opening roll",
    "p_lucky": "probability (0..1) under fair dice of a throw marked lucky or very lucky "
               "(luck > 0.3) in this position; NaN for a standard opening roll",
    "p_unlucky": "probability (0..1) of a throw marked unlucky or very unlucky (luck < -0.3); "
                 "NaN for a standard opening roll",
    "luck_fourth_moment": "fourth central moment of the luck of the position's 36 throws "
                          "(equity^4); NaN for a standard opening roll",
}
"""The columns of :func:`luck_frame`, with their units. ``file``, ``match_id``, ``game`` and
``turn`` are those of :func:`nardy_analysis.analysis.turns.turns_frame`: merge on them to add
the luck to the per-turn frame."""

ROLL_DTYPES = {
    "file": "object", "match_id": "object", "match_length": "int64", "game": "int64",
    "turn": "int64", "move": "Int64", "player": "object", "side": "int64", "dice": "object",
    "dance": "bool", "play_recorded": "bool", "cube_value": "int64", "luck": "float64",
    "equity": "float64", "luck_mwc": "float64", "luck_points": "float64", "mark": "object",
    "luck_variance": "float64", "p_lucky": "float64", "p_unlucky": "float64",
    "luck_fourth_moment": "float64",
}
"""The pandas dtypes of the columns of :func:`luck_frame` (``object``: text), what every part
of a Parquet dataset of luck frames has, also for a file without rolls."""

KEY = ["file", "match_id", "game", "turn"]
"""Columns that identify a roll, shared with the per-turn frame."""



def luck_frame(source: Source, evaluator: Evaluator | None = None, ply: int = 0,
               engine: str = "gnubg-nn",
               progress: Callable[[list[Any]], Iterable[Any]] | None = None) -> pd.DataFrame:
    """Per-roll luck of one or more matches, one row per roll in file order.

    Parameters
    ----------
    source : ReplayedMatch or LoadedFile, or an iterable of them
        Replayed matches, or files loaded with :func:`nardy_analysis.load.load_files`.
    evaluator : Evaluator, optional
        The engine of every match (of its game). Default: each match's own,
        :func:`~nardy_analysis.engine.default_evaluator` of ``ply``, ``engine`` and the
        match's rules (gnubg-nn for short nardy, the long nardy engine for long nardy).
    ply : int
        Ply of the default evaluator (0, as GNU Backgammon's luck analysis).
    engine : str
        The short nardy engine of the default evaluator (a key of
        :data:`~nardy_analysis.analysis.engine.ENGINES`).
    progress : callable, optional
        Given the list of the rolls to analyse, an iterable over it (a progress bar's, as
        ``nardy luck --ply 1`` shows; ``tqdm.tqdm`` is one); default: the list itself.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`ROLL_COLUMNS`. Every roll replayed is a row, dances and unknown
        (``???``) plays included (``play_recorded`` False: the summaries leave them out, as
        GNU Backgammon's statistics do); the rest of a game after a rule violation is not
        replayed and has no rows.

    Raises
    ------
    EngineError
        No engine installed: ``pip install nardy-analysis[engine]`` (short nardy).
    NardyError
        A match longer than 25 points.
    ValueError
        ``source`` holds something else (such as a path: load it first), or ``evaluator``
        is not an engine of a match's game (``InvalidArgument``).
    """
    rolls = []                        # each roll with its match, engine and game situation
    for match_id, match in identified_matches(source):
        chosen = match_evaluator(match.rules, evaluator, ply, engine)
        for game in match.games:
            situation = GameSituation.of(match, game)
            rolls += [(match_id, match, chosen, game, situation, number, turn)
                      for number, turn in enumerate(game.turns, 1)]
    rows = []
    for match_id, match, chosen, game, situation, number, turn in (progress or iter)(rolls):
        money = situation.length == 0
        side, cube = turn.player, turn.cube_value
        utility = situation.utility(side, cube)
        opening = number == 1 and not match.rules.opening_doubles
        other = situation.utility(1 - side, cube) if opening else None
        luck, equity, variance, lucky, unlucky, fourth = roll_luck_distribution(
            turn.before, turn.roll, utility, chosen, opening, other)
        play = turn.play
        if play is None:  # unknown play: a dance if the roll has only the empty play
            play = turn.before.legal_plays(turn.roll, match.rules)[0].play
        scale = float("nan") if money else \
            (situation.mwc(side, cube) - situation.mwc(side, -cube)) / 2
        rows.append((match.record.file, match_id, match.record.length, game.number, number,
                     turn.record.move, match.record.players[side], side, str(turn.roll),
                     len(play) == 0, turn.play is not None, cube, luck, equity, luck * scale,
                     luck * cube if money else float("nan"), luck_mark(luck), variance,
                     lucky, unlucky, fourth))
    frame = pd.DataFrame(rows, columns=list(ROLL_COLUMNS))
    return frame.astype({"move": "Int64", "dance": bool, "play_recorded": bool})


# --- summaries ------------------------------------------------------------------------------

SUMMARY_COLUMNS = {
    "file": "the match file", "match_id": "as in the per-roll frame",
    "scope": "'game' (one game) or 'match' (the whole match or money session)",
    "game": "game number; <NA> for the match",
    "side": "0 left column, 1 right column", "player": "name", "rolls": "rolls thrown",
    "very_lucky": "rolls marked very lucky", "lucky": "rolls marked lucky",
    "unlucky": "rolls marked unlucky", "very_unlucky": "rolls marked very unlucky",
    "luck": "total luck, normalised equity (gnubg's 'Luck total EMG')",
    "luck_rate": "luck per roll, normalised equity",
    "rating": "gnubg's rating of the luck rate in words that cannot be misread "
              "(RATING_SHOWN: 'none (average luck)' for its 'None'); 'n/a' without rolls",
    "rating_gnubg": "gnubg's rating, its exact word (RATINGS); 'n/a' without rolls, as gnubg",
    "unit": "'mwc' (match-winning chance 0..1, match play) or 'points' (money play, long "
            "nardy)",
    "luck_total": "total luck in the unit",
    "result": "actual result in the unit: MWC after minus MWC before, or points won",
    "luck_adjusted": "result - luck_total + the opponent's luck_total",
    "fibs_rating_difference": "match play, side 0: the FIBS rating difference the "
                              "luck-adjusted result implies over the match length (gnubg's "
                              "'Luck based FIBS rating diff.'); NaN otherwise",
}
"""The columns of :func:`luck_summary`. :data:`RESULT_COLUMNS` need the games' results,
which are in the matches: a summary of a luck frame alone has the others."""

RESULT_COLUMNS = ["result", "luck_adjusted", "fibs_rating_difference"]
"""The columns of :func:`luck_summary` that need the matches, not just their luck frame."""

_NEEDED = ["file", "match_id", "match_length", "game", "side", "player", "play_recorded",
           "luck", "luck_mwc", "luck_points", "mark"]



def luck_adjusted(result: float, totals: list[float], side: int) -> float:
    """A player's luck-adjusted result, as GNU Backgammon's statistics give it.

    Parameters
    ----------
    result : float
        The player's actual result (:func:`~nardy_analysis.analysis.match_equity.game_results`,
        summed over the games): MWC or points.
    totals : list of float, length 2
        The luck totals of side 0 and side 1, in the unit of ``result``.
    side : int
        The player's side.

    Returns
    -------
    float
        ``result`` minus the player's luck total plus the opponent's.
    """
    return result - totals[side] + totals[1 - side]


def _ratings(rate: float | None) -> dict[str, str]:
    """The ``rating`` and ``rating_gnubg`` of a luck rate (None: no rolls)."""
    word = NO_RATING if rate is None else luck_rating(rate)  # gnubg's word without rolls
    return {"rating": RATING_SHOWN.get(word, word), "rating_gnubg": word}


def _side_rows(key: dict[str, Any], names: Sequence[str | None], rolls: dict[str, np.ndarray],
               chosen: np.ndarray, money: bool,
               results: list[tuple[float, float]] | None, length: int) -> list[dict[str, Any]]:
    """The two rows (side 0, side 1) of one game or match: ``key`` columns, the luck of the
    rolls ``chosen`` (a mask) of ``rolls`` (columns as numpy arrays)
    and, with the games' ``results`` (pairs by side), the result and in a match to
    ``length`` points the FIBS rating difference. Sums as pandas takes them (``nansum``:
    NaN counts 0)."""
    column = "luck_points" if money else "luck_mwc"
    sides, marks = rolls["side"][chosen], rolls["mark"][chosen]
    luck, unit = rolls["luck"][chosen], rolls[column][chosen]
    totals = [float(np.nansum(unit[sides == side])) for side in (0, 1)]
    rows = []
    for side in (0, 1):
        mine = sides == side
        mine_marks, count = marks[mine], int(mine.sum())
        total = float(np.nansum(luck[mine]))
        rate = total / count if count else float("nan")
        row = {**key, "side": side, "player": names[side], "rolls": count,
               **{m.replace(" ", "_"): int((mine_marks == m).sum()) for m in MARKS},
               "luck": total, "luck_rate": rate,
               **_ratings(rate if count else None),
               "unit": "points" if money else "mwc", "luck_total": totals[side]}
        if results is not None:
            outcome = float(sum(r[side] for r in results)) if results else float("nan")
            adjusted = luck_adjusted(outcome, totals, side)
            row |= {"result": outcome, "luck_adjusted": adjusted,
                    "fibs_rating_difference": fibs_rating_difference(adjusted, length)
                    if length and not money and side == 0 else float("nan")}
        rows.append(row)
    return rows


def _match_rows(key: dict[str, Any], names: Sequence[str | None], rolls: pd.DataFrame,
                money: bool, games: Iterable[int],
                results: list[tuple[float, float]] | None, length: int = 0
                ) -> list[dict[str, Any]]:
    """The rows of one match (to ``length`` points; 0 money play): each game in ``games``
    (numbers, in order), then the match. Rolls whose play is not recorded are left out, as
    in GNU Backgammon's statistics."""
    columns = {c: rolls[c].to_numpy() for c in ("game", "side", "mark")} | {
        c: rolls[c].to_numpy(dtype=float, na_value=np.nan)
        for c in ("luck", "luck_mwc", "luck_points")}
    recorded = rolls["play_recorded"].to_numpy(dtype=bool)
    rows = []
    for index, number in enumerate(games):
        rows += _side_rows({**key, "scope": "game", "game": number}, names, columns,
                           recorded & (columns["game"] == number), money,
                           None if results is None else [results[index]], length)
    return rows + _side_rows({**key, "scope": "match", "game": pd.NA}, names, columns,
                             recorded, money, results, length)


def _frame_summary(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """The rows of :func:`luck_summary` that a luck frame alone gives (no results)."""
    missing = [c for c in _NEEDED if c not in frame.columns]
    if missing:
        raise InvalidArgument(f"expected the matches or their luck frame (luck_frame(matches)), "
                              f"got a frame without the columns {missing}")
    rows = []
    for (file, match_id), rolls in frame.groupby(["file", "match_id"], sort=False,
                                                  dropna=False):
        names = [next(iter(rolls.loc[rolls["side"] == side, "player"]), None)
                 for side in (0, 1)]
        rows += _match_rows({"file": file, "match_id": match_id}, names, rolls,
                            bool(rolls["luck_mwc"].isna().all()), rolls["game"].unique(), None)
    return rows


def luck_summary(source: Source | pd.DataFrame, frame: pd.DataFrame | None = None,
                 evaluator: Evaluator | None = None, ply: int = 0) -> pd.DataFrame:
    """Luck per player per game and per match, as in GNU Backgammon's statistics.

    Parameters
    ----------
    source : ReplayedMatch or LoadedFile, an iterable of them, or a luck frame
        The matches, as for :func:`luck_frame`; or their :func:`luck_frame` alone
        (``luck_summary(frame)``), which gives every column but :data:`RESULT_COLUMNS`: the
        games' results are in the matches, not in the luck frame.
    frame : pandas.DataFrame, optional
        With matches as ``source``: their :func:`luck_frame` (the same matches in the same
        order), if already computed.
    evaluator, ply
        As for :func:`luck_frame`, when it has to be computed.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`SUMMARY_COLUMNS` (without :data:`RESULT_COLUMNS` for a frame alone);
        for each match its games in order, then the match, two rows (side 0, side 1) each.
        The luck rate counts every roll (dances included) but those whose play is not
        recorded (``???``), which gnubg's statistics leave out too; the match's result is
        the MWC at its end minus that at its start (match play) or the points won (money
        play, long nardy).

    Raises
    ------
    InvalidArgument
        ``frame`` is not the luck frame of the matches; a frame as ``source`` lacks a column
        of a luck frame (the message names them); ``source`` is neither matches nor a frame.
    """
    if isinstance(source, pd.DataFrame):
        summary = pd.DataFrame(_frame_summary(source),
                               columns=[c for c in SUMMARY_COLUMNS if c not in RESULT_COLUMNS])
        return summary.astype({"game": "Int64"})
    matches = list(identified_matches(source))
    if frame is None:
        frame = luck_frame([m for _, m in matches], evaluator, ply)
    rows, start = [], 0
    for match_id, match in matches:
        count = sum(len(game.turns) for game in match.games)
        rolls, start = frame.iloc[start:start + count], start + count
        if count and set(rolls["match_id"]) != {match_id}:
            raise InvalidArgument(f"the frame given is not the luck frame of match {match_id}")
        rows += _match_rows({"file": match.record.file, "match_id": match_id},
                            match.record.players, rolls, per_game_equity(match),
                            [g.number for g in match.games], game_results(match),
                            match.record.length)
    summary = pd.DataFrame(rows, columns=list(SUMMARY_COLUMNS))
    return summary.astype({"game": "Int64"})


PLAYER_COLUMNS = {
    "player": "name (the bare name, across files and matches)",
    "unit": "'mwc' (match play) or 'points' (money play, long nardy): each player has a "
            "row per unit",
    "matches": "matches (or money sessions) played", "games": "games in which they rolled",
    "rolls": "rolls thrown", "very_lucky": "rolls marked very lucky",
    "lucky": "rolls marked lucky", "unlucky": "rolls marked unlucky",
    "very_unlucky": "rolls marked very unlucky",
    "luck": "total luck, normalised equity", "luck_rate": "luck per roll, normalised equity",
    "rating": "gnubg's rating of the luck rate, as in luck_summary",
    "rating_gnubg": "gnubg's rating, its exact word (RATINGS)",
    "luck_total": "total luck in the unit (MWC 0..1 summed over matches, or points)",
    "result": "actual result in the unit, summed over matches (NaN if one is unknown)",
    "luck_adjusted": "luck-adjusted result in the unit, summed over matches",
}
"""The columns of :func:`luck_by_player`."""


def luck_by_player(data: pd.DataFrame) -> pd.DataFrame:
    """Each player's luck over all their matches: totals, rate per roll and gnubg's rating.

    Players are grouped by the bare name (as :func:`~nardy_analysis.analysis.audit.dice_tests`
    groups them ``by="player"``), one row per player and unit: match play (normalised match
    equity; MWC 0..1) and money play (points per game at cube 1; points) are kept apart,
    because a point of money equity and a match's normalised equity are not the same
    amount. Within a unit, ``luck`` and the rolls add up over matches and ``luck_rate`` is
    ``luck / rolls``, rated as for one match (:func:`luck_rating`). ``luck_total``,
    ``result`` and ``luck_adjusted`` add up the per-match values (in MWC, each match counts
    its own change of match-winning chance: a sum over matches, not one match's chance).

    Parameters
    ----------
    data : pandas.DataFrame
        A :func:`luck_summary` (its ``match`` rows are used), or a :func:`luck_frame`
        (summarised first, without results).

    Returns
    -------
    pandas.DataFrame
        Columns :data:`PLAYER_COLUMNS` (without ``result`` and ``luck_adjusted`` when
        ``data`` has none), sorted by player then unit.

    Raises
    ------
    InvalidArgument
        ``data`` is neither a luck summary nor a luck frame (the message names what is
        missing).
    """
    summary = data if "scope" in data.columns else luck_summary(data)
    matches = summary[summary["scope"] == "match"]
    games = summary[(summary["scope"] == "game") & (summary["rolls"] > 0)]
    keys = ["player", "unit"]
    sums = ["rolls", *(m.replace(" ", "_") for m in MARKS), "luck", "luck_total"]
    results = [c for c in RESULT_COLUMNS if c in summary.columns and c in PLAYER_COLUMNS]
    grouped = matches.groupby(keys, dropna=False)
    table = grouped[sums].sum()
    table.insert(0, "matches", grouped.size())
    table.insert(1, "games", games.groupby(keys, dropna=False).size()
                 .reindex(table.index, fill_value=0))
    for column in results:  # NaN as soon as one match's result is unknown
        table[column] = grouped[column].agg(lambda values: values.sum(skipna=False))
    table["luck_rate"] = table["luck"] / table["rolls"].where(table["rolls"] > 0)
    ratings = [_ratings(r if n else None) for r, n in zip(table["luck_rate"], table["rolls"])]
    table["rating"] = [r["rating"] for r in ratings]
    table["rating_gnubg"] = [r["rating_gnubg"] for r in ratings]
    columns = [c for c in PLAYER_COLUMNS if c in (*keys, *table.columns)]
    return table.reset_index()[columns]
