"""Dice fairness audit: are the rolls in a set of match records what fair dice would throw?

The data source and the statistics are separate. :func:`rolls_frame` turns replayed matches
into a tidy frame with one row per roll; :func:`roll_counts` reduces such a frame (from match
files, from :func:`simulate_rolls`, or from anywhere else) to the audit's sufficient
statistics, :class:`AuditCounts`, which add up across files (``+``, ``sum``,
:func:`merge_counts`); :func:`count_tests` runs each test once on counts and returns one row
per test and group (:func:`dice_tests` of a frame is the two together: one way to compute
the tests). :func:`audit_dice` returns a :class:`DiceAudit` report with a text summary (its
charts: :mod:`nardy_analysis.plots.audit`, its HTML page:
:func:`nardy_analysis.report.audit_html`); :func:`match_counts` counts replayed matches
straight from their rolls, and :func:`~nardy_analysis.batch.audit_files` counts each file
so on worker processes or a Dask cluster and tests the sums, with the p-values of the audit
of all rolls together. ``nardy audit`` is the command line. ``audit_dice(..., player=NAME)`` audits one
player's rolls across every file.

Which rolls count: every roll a player threw, dances and unknown (``???``) plays included. The
opening roll of a game is left out by default: under standard rules it cannot be a double
(each player throws one die; RULES.md), so counting it would bias the doubles test. In long
nardy the winner of the opening throw rolls again, an ordinary roll: it always counts. A
``.mat`` file does not say which die is which, so 2-1 and 1-2 are one roll class: 21 classes,
each double 1/36, every other class 2/36.

The tests (``test`` column), each on every group (``all`` rolls, then each player or site):

============== ======================================================================
doubles        Doubles count against 1/6 of the rolls: exact two-sided binomial test
               (``scipy.stats.binomtest``).
roll_classes   The 21 roll classes against 1/36 (doubles) and 2/36 (others): Pearson
               chi-square test of fit, 20 degrees of freedom (``scipy.stats.chisquare``).
faces          Each face of the 2n dice against 1/6: Pearson chi-square, 5 degrees of freedom
               (``scipy.stats.chisquare``); the two dice of a fair roll are independent.
pips           Mean pips per roll (a double counts four times) against 294/36 = 8.1667:
               z-test with the exact variance of one roll, 665/36 = 18.47 pips squared,
               computed from the 36 equally likely throws (``scipy.stats.norm``).
serial         Doubles after doubles: consecutive rolls of the same player in one game,
               2x2 table (previous roll double or not x this roll double or not), Pearson
               chi-square test of independence without continuity correction
               (``scipy.stats.chi2_contingency``), or Fisher's exact test
               (``scipy.stats.fisher_exact``) when an expected count is below 5.
bar_entry      Rolls thrown with checkers on the bar: did at least one checker enter? With
               k of the opponent's home points closed, a roll enters at least one checker
               unless both dice show closed points, probability (36 - k^2)/36, whatever the
               number of checkers on the bar. Poisson-binomial test (below).
hits_on_blots  Rolls thrown while the opponent has a blot: was the roll one that can hit
               (a legal play of it hits)? Probability ``shots(position).count / 36`` from
               :func:`nardy_analysis.shots.shots`. Counting hitting rolls rather than hits
               made keeps the player's choice (not hitting) out of a test of the dice.
============== ======================================================================

Long nardy (RULES.md, "Long nardy") has no bar and no hitting: its rolls count in the first
five tests, and bar_entry and hits_on_blots do not apply to them (an audit of long nardy
rolls only says so in those tests' notes).

With ``luck=True`` (short nardy needs the engine extra: ``pip install
'nardy-analysis[engine]'``) five tests of the dice's luck join them (:data:`LUCK_TESTS`), on
every roll with a replayed position, luck as :mod:`nardy_analysis.analysis.luck` computes it
(GNU Backgammon's: cubeless 0-ply; money play and long nardy in equity per game at cube 1,
short nardy match play in normalised match equity), through each match's own engine (the
long nardy engine for long nardy). Each roll's
luck ``L`` has, under fair dice, a known distribution given its position: the 36 throws and
their best-play equities. Its mean is 0, and its variance ``V`` and fourth central moment
``M4`` are known (:func:`~nardy_analysis.analysis.luck.roll_luck_distribution`). So the
luck of manipulated dice shows even where the counts of every other test are fair ("the
dice give them what they need"):

============== ======================================================================
luck           Z = sum(L) / sqrt(sum(V)), two-sided normal p-value. Each L has
               conditional mean 0 given every roll before it (the position, made by the
               earlier rolls, fixes its distribution): the L are a martingale difference
               sequence, and by the martingale central limit theorem (Hall and Heyde,
               Martingale Limit Theory and Its Application, 1980, Theorem 3.2; McLeish,
               Ann. Probab. 2, 1974) sum(L) / sqrt(sum(V)) is approximately standard
               normal.
luck_spread    Z = sum(D) / sqrt(sum(M4 - V^2)) with D = L^2 - V, two-sided normal
               p-value: D too has conditional mean 0 (V is L's conditional variance), and
               conditional variance M4 - V^2, so the same martingale central limit theorem
               applies; rolls with M4 - V^2 = 0 add nothing. It sees dice too regular (the
               luck's spread below its fair-dice variance) or too wild (above), whatever
               the mean: gnubg's ``set cheat player P roll 11`` gives gnubg's median roll,
               a little below the mean throw, so that the luck test hardly sees it but
               this one does.
lucky_rolls    Rolls marked lucky or very lucky (L > 0.3) against each position's own
               chance of such a throw (the throws of 36 with luck > 0.3): Poisson-binomial
               test (below). Manipulation that avoids extremes (gnubg's
               ``set cheat player P roll 11``, the median roll) shows here as too few.
unlucky_rolls  The same for rolls marked unlucky or very unlucky (L < -0.3).
decisive_luck  The luck test on the decisive rolls: those whose V is in the top decile of
               the group's V (V at least its 0.9 quantile, ``numpy.quantile``), where the
               choice of roll matters most.
============== ======================================================================

The opening roll of standard rules is never in a luck test: it also decides who moves, so
its luck is not one of the roller's 36 throws. Money and match play can be pooled: each L is
measured against its own V.

Poisson-binomial test (bar_entry, hits_on_blots, lucky_rolls, unlucky_rolls): ``n`` rolls
with success probabilities ``p_i``; rolls with ``p_i`` 0 or 1 say nothing and are left out.
Up to 10,000 rolls the exact distribution of the number of successes is computed by
convolving the binomial distributions of the rolls sharing each ``p_i``
(``scipy.stats.binom.pmf``, ``numpy.convolve``) and the two-sided p-value sums the outcomes
no more likely than the one observed (the rule of ``scipy.stats.binomtest``); above 10,000
the normal approximation with continuity correction is used. Each ``p_i`` is fixed by the
position, which earlier rolls shaped, so the sum of ``y_i - p_i`` is a martingale under fair
dice: the normal approximation holds by the martingale central limit theorem, and the exact
distribution treats the ``p_i`` as given.

Columns of the results: ``test``, ``group``, ``n`` (rolls, or dice for ``faces``, or pairs for
``serial``), ``observed`` and ``expected`` (see below), ``statistic``, ``p_value``,
``p_adjusted`` (Benjamini-Hochberg over every p-value of the report,
``scipy.stats.false_discovery_control``), ``effect`` with a 95% confidence interval
``ci_low``..``ci_high``, ``cell``, ``method`` and ``note``. ``effect`` is observed minus
expected per roll (a difference of rates, or of pips per roll), but for luck_spread's ratio:

============== ====================================== =======================================
test           observed / expected                    effect (95% CI)
============== ====================================== =======================================
doubles        doubles                                doubles rate - 1/6 (Clopper-Pearson)
roll_classes   count of the class furthest from its   its rate - 1/36 or 2/36 (Clopper-
               expectation (``cell``, by standardised Pearson, simultaneous over the 21
               residual)                              classes: level 1 - 0.05/21, Bonferroni)
faces          count of the face furthest from 2n/6   its rate per die - 1/6 (Clopper-Pearson,
                                                      simultaneous: level 1 - 0.05/6)
pips           mean pips per roll / 8.1667            mean - 8.1667 (normal, sample s.d.)
serial         doubles after doubles / under          doubles rate after a double - after a
               independence                           non-double (Wald)
bar_entry      rolls that entered / sum of p_i        (observed - expected) / n (normal,
hits_on_blots  hitting rolls / sum of p_i             sample s.d. of the residuals)
luck           sum(L) / 0                             mean luck per roll (normal, sample s.d.)
luck_spread    sum(L^2) / sum(V)                      sum(L^2) / sum(V), a ratio, 1 = fair
                                                      (+- 1.96 sqrt(sum(D^2)) / sum(V))
lucky_rolls    rolls with L > 0.3 / sum of p_i        as bar_entry
unlucky_rolls  rolls with L < -0.3 / sum of p_i       as bar_entry
decisive_luck  sum(L) of the decisive rolls / 0       their mean luck per roll, as luck
============== ====================================== =======================================

The luck effect is in the luck's unit: equity per game at cube 1 (EMG) in money play and long
nardy, and normalised match equity in short nardy match play (where winning the cube's value in points is +1 and
losing it -1; a mix of both in an audit that pools them).

For roll_classes and faces the effect is that of the one cell named in ``cell``, chosen by
the data, while the chi-square p-value tests all cells together. The cell's interval is
therefore simultaneous over the cells (Bonferroni), so that it seldom excludes 0 by chance;
the two remain different questions, and when the interval excludes 0 but the chi-square
test is not significant at 0.05, ``note`` says so. ``method`` names the interval of each row.

Too few rolls: a chi-square test whose expected counts fall below 5 in a cell, or a z-test
on fewer than 30 rolls, gets no p-value, only a ``note`` saying so; an exact test that could
not reach p < 0.05 whatever the dice showed keeps its p-value and says so in ``note``.
"""

from __future__ import annotations

import difflib
import textwrap
from dataclasses import dataclass, field
from datetime import datetime, timezone
from importlib.metadata import PackageNotFoundError, version
from typing import Iterable, Iterator, NoReturn

import numpy as np
import pandas as pd
from scipy import stats

from ..errors import InvalidArgument, NardyError, plural
from ..game.position import ALL_ROLLS, BAR
from ..replay import ReplayedMatch
from .engine import Evaluator
from .luck import LUCKY, luck_frame
from .shots import shots, throws
from .turns import replayed_matches

TESTS = ("doubles", "roll_classes", "faces", "pips", "serial", "bar_entry", "hits_on_blots")
"""The tests, in report order."""

LUCK_TESTS = ("luck", "luck_spread", "lucky_rolls", "unlucky_rolls", "decisive_luck")
"""The tests of the dice's luck (``luck=True``), in report order, after :data:`TESTS`."""

ABOUT = {
    "doubles": "Are doubles 1 roll in 6? Exact binomial test of the doubles count; null: "
               "each roll is a double with probability 1/6.",
    "roll_classes": "Does each of the 21 rolls come up as often as it should? Chi-square "
                    "test of fit; null: each double 1/36, each other roll 2/36.",
    "faces": "Does each face 1..6 show on 1 die in 6? Chi-square test of fit of the 2n "
             "dice; null: every face 1/6 on each die.",
    "pips": "Are the pips per roll 8.17 on average? z-test with the exact variance of "
            "one roll; null: mean 294/36 pips (a double counts four times).",
    "serial": "Does a double make the player's next roll more or less likely a double? "
              "2x2 chi-square (or Fisher) test; null: consecutive rolls independent.",
    "bar_entry": "From the bar, do rolls enter as often as the closed points allow? "
                 "Poisson-binomial test; null: enters with probability (36 - k^2)/36 "
                 "against k closed points.",
    "hits_on_blots": "With a blot to shoot at, is the roll a hitting roll as often as the "
                     "position allows? Poisson-binomial test; null: probability shots/36.",
    "luck": "Is the dice's luck zero on average, given each position? z = sum(luck) / "
            "sqrt(sum(variance)), martingale central limit theorem; null: each roll's luck "
            "has mean 0 and the variance of its position's 36 throws.",
    "luck_spread": "Does the luck vary as much as fair dice make it, neither too regular nor "
                   "too wild? z = sum(luck^2 - variance) / sqrt(sum(fourth moment - "
                   "variance^2)), martingale central limit theorem; null: each roll's squared "
                   "luck has the mean it has over its position's 36 throws (the variance).",
    "lucky_rolls": "Are rolls marked lucky (luck > 0.3) as frequent as the positions allow? "
                   "Poisson-binomial test; null: each position's share of such throws.",
    "unlucky_rolls": "Are rolls marked unlucky (luck < -0.3) as frequent as the positions "
                     "allow? Poisson-binomial test; null: each position's share of such "
                     "throws.",
    "decisive_luck": "Is the luck zero on average where the roll matters most? The luck test "
                     "on the rolls whose variance is in the top decile of the group's.",
}
"""One sentence per test: what it tests, and its null hypothesis (fair dice)."""

EFFECT_UNITS = {
    "doubles": "doubles rate minus 1/6, proportion of rolls",
    "roll_classes": "rate of the cell named minus 1/36 or 2/36, proportion of rolls",
    "faces": "rate of the face named minus 1/6, proportion of dice",
    "pips": "mean pips per roll minus 8.17, pips",
    "serial": "doubles rate after a double minus after a non-double, proportion of rolls",
    "bar_entry": "entering rolls minus expected, per roll from the bar (proportion)",
    "hits_on_blots": "hitting rolls minus expected, per roll at a blot (proportion)",
    "luck": "mean luck per roll: equity per game at cube 1 (money play) or normalised match "
            "equity (match play)",
    "luck_spread": "spread ratio sum(luck^2) / sum(variance): ratio, 1 = fair (below 1 too "
                   "regular, above 1 too wild)",
    "lucky_rolls": "lucky rolls minus expected, per roll (proportion)",
    "unlucky_rolls": "unlucky rolls minus expected, per roll (proportion)",
    "decisive_luck": "mean luck per decisive roll, as for luck",
}
"""What ``effect`` (and its interval) of each test measures, with its unit."""

ROLL_COLUMNS = ("file", "match", "game", "move", "player", "roll_high", "roll_low", "opening")
"""Columns :func:`dice_tests` needs in its rolls frame."""

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

ALPHA = 0.05
"""Level of the notes and of the flags in summaries and plots."""

EXACT_LIMIT = 10_000
"""Largest number of rolls for the exact Poisson-binomial distribution."""

# The 36 equally likely throws, as the 21 classes of ALL_ROLLS.
_CLASS = np.zeros((7, 7), dtype=np.int64)
for _i, _roll in enumerate(ALL_ROLLS):
    _CLASS[_roll.high, _roll.low] = _i
_THROWS = np.array([throws((r,)) for r in ALL_ROLLS])  # throws of 36 per class
CLASS_PROBABILITY = _THROWS / 36
"""Probability (0..1) of each roll class of ``ALL_ROLLS`` with fair dice."""
_DOUBLE = np.array([r.is_double for r in ALL_ROLLS])
_PIPS = np.array([r.pips for r in ALL_ROLLS], dtype=float)
_FACES = np.array([[(r.high == f) + (r.low == f) for f in range(1, 7)] for r in ALL_ROLLS],
                  dtype=float)  # class x face: how many dice of the roll show the face
MEAN_PIPS = float(CLASS_PROBABILITY @ _PIPS)
"""Mean pips per roll with fair dice, 294/36 = 8.1667 (a double counts four times)."""
VAR_PIPS = float(CLASS_PROBABILITY @ (_PIPS - MEAN_PIPS) ** 2)
"""Variance of the pips of one roll with fair dice, 665/36 = 18.47 pips squared."""

_Z = stats.norm.ppf(1 - ALPHA / 2)


# -- the rolls ---------------------------------------------------------------------------------

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
    rows = list(_roll_rows(matches, positions, luck, evaluator))
    return pd.DataFrame(rows, columns=list(dtypes)).astype(dtypes)


def _roll_rows(matches: Iterable[ReplayedMatch], positions: bool, luck: bool,
               evaluator: Evaluator | None) -> Iterator[list]:
    """The rows of :func:`rolls_frame` (the columns of :data:`ROLLS_DTYPES`, then of
    :data:`LUCK_DTYPES` with ``luck``), None where a value is missing."""
    seen_files: dict[str, int] = {}
    caches: dict = {}  # per Rules, by position: the roll-free facts of _position_facts
    unknown = [None] * 5
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


def _position_facts(before, roll, rules, cache) -> list:
    """``on_bar, closed_points, entered, shots, hitting_roll`` for a roll thrown in ``before``
    (None where missing); ``cache`` keeps, by position, the facts that do not depend on the
    roll (for one ``rules``).

    A die ``d`` enters on the roller's point ``25 - d``, the opponent's point ``d``.
    """
    facts = cache.get(before)
    if facts is None:
        facts = cache[before] = _roll_free_facts(before, rules)
    on_bar, closed, count, hitting = facts
    entered = None
    if on_bar:
        opponent = before.opponent
        entered = opponent[roll.high] < 2 or opponent[roll.low] < 2
    if hitting is not None:
        hitting = bool(hitting >> (roll.high * 8 + roll.low) & 1)
    return [on_bar, closed, entered, count, hitting]


def _roll_free_facts(before, rules) -> tuple:
    """``on_bar, closed_points, shots`` of ``before`` and its hitting rolls as a bit mask (bit
    ``8 * high + low``), None where missing."""
    me, opponent = before.on_roll, before.opponent
    closed = sum(opponent[d] >= 2 for d in range(1, 7)) if me[BAR] else None
    if 1 not in opponent[1:25]:
        return me[BAR], closed, None, None
    found = shots(before, rules)
    return me[BAR], closed, found.count, sum(1 << (r.high * 8 + r.low) for r in found.rolls)


def simulate_rolls(n: int, *, players: int = 1, doubles: float | None = None,
                   faces=None, positions: bool = True, seed=None) -> pd.DataFrame:
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
        prob = np.where(_DOUBLE, prob / prob[_DOUBLE].sum() * doubles,
                        prob / prob[~_DOUBLE].sum() * (1 - doubles))
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


# -- the sufficient statistics -----------------------------------------------------------------

# Layout of one group's counts (int64): the 21 roll classes; the serial 2x2 table (previous
# roll double or not x this roll double or not); then, for bar_entry and for hits_on_blots,
# the trials and the successes by success probability j/36, j = 0..36.
_SERIAL = slice(21, 25)
_TRIALS = {"bar_entry": slice(25, 62), "hits_on_blots": slice(99, 136)}
_SUCCESSES = {"bar_entry": slice(62, 99), "hits_on_blots": slice(136, 173)}
_WIDTH = 173
_OF_36 = np.arange(37) / 36


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
    groups: dict
    files: tuple = ()
    players: frozenset = frozenset()
    read: int = 0
    replayed: bool = False
    tests: tuple = TESTS[:5]
    long: bool = False
    luck: dict = field(default_factory=dict)

    @property
    def rolls(self) -> int:
        """The number of rolls counted."""
        return int(self.table("all")[:21].sum())

    def table(self, group: str = "all") -> np.ndarray:
        """The 173 counts of ``group`` (``all``: the sum over the groups)."""
        if group == "all":
            return sum(self.groups.values(), np.zeros(_WIDTH, dtype=np.int64))
        return self.groups[group]

    def luck_rolls(self, group: str = "all") -> np.ndarray:
        """The luck rows of ``group`` (see ``luck``; ``all``: every group's, groups in
        sorted order), shape (rolls, 5); none without the luck tests."""
        parts = ([self.luck[name] for name in sorted(self.luck)] if group == "all"
                 else [self.luck.get(group, _NO_LUCK)])
        return np.concatenate([_NO_LUCK, *parts])

    def __add__(self, other: "AuditCounts") -> "AuditCounts":
        return merge_counts([self, other], self.by, self.include_opening, self.player)

    def __radd__(self, other) -> "AuditCounts":  # sum() starts from 0
        if isinstance(other, int) and other == 0:
            return self
        return NotImplemented

    def __eq__(self, other) -> bool:
        if not isinstance(other, AuditCounts):
            return NotImplemented
        return (self._key() == other._key() and self.groups.keys() == other.groups.keys()
                and all(np.array_equal(v, other.groups[k]) for k, v in self.groups.items())
                and self.luck.keys() == other.luck.keys()
                and all(np.array_equal(v, other.luck[k]) for k, v in self.luck.items()))

    __hash__ = None  # the counts are arrays

    def _key(self) -> tuple:
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
    groups: dict = {}
    luck: dict = {}
    files: dict = {}
    players: set = set()
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
                       longs == {True}, {name: np.concatenate(rolls) for name, rolls in luck.items()})


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
    return _CLASS[rolls["roll_high"].to_numpy(np.int64), rolls["roll_low"].to_numpy(np.int64)]


def _tally(by: str | None, include_opening: bool, player: str | None, read: int,
           rolls: dict) -> AuditCounts:
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
    players = frozenset()
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
    sequence, double, pair_codes = rolls["sequence"][order], _DOUBLE[classes][order], codes[order]
    paired = (sequence[1:] == sequence[:-1]) & (sequence[1:] >= 0)
    cells.append(pair_codes[1:][paired] * _WIDTH + _SERIAL.start
                 + 2 * ~double[:-1][paired] + ~double[1:][paired])
    tests = list(TESTS[:5])
    for test, of_36, success in (("bar_entry", rolls["entry"], rolls["entered"]),
                                 ("hits_on_blots", rolls["shots"], rolls["hitting_roll"])):
        if of_36 is None:
            continue
        tests.append(test)
        used = ~np.isnan(of_36) & ~np.isnan(success)
        trial = codes[used] * _WIDTH + of_36[used].astype(np.int64)
        cells += [trial + _TRIALS[test].start, trial[success[used] == 1] + _SUCCESSES[test].start]
    table = np.bincount(np.concatenate(cells), minlength=len(names) * _WIDTH).reshape(
        len(names), _WIDTH).astype(np.int64, copy=False)
    luck = {}
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


# -- the statistics ----------------------------------------------------------------------------

def dice_tests(rolls: pd.DataFrame, by: str | None = None,
               include_opening: bool = False) -> pd.DataFrame:
    """Run every test of the module docstring on every group of rolls:
    ``count_tests(roll_counts(rolls, by, include_opening))``.

    Parameters
    ----------
    rolls, by, include_opening
        As for :func:`roll_counts`.

    Returns
    -------
    pandas.DataFrame
        See :func:`count_tests`.

    Raises
    ------
    NardyError
        A needed column is missing.
    """
    return count_tests(roll_counts(rolls, by, include_opening))


def count_tests(counts: AuditCounts) -> pd.DataFrame:
    """Run every test of the module docstring on every group of audit counts, once.

    Parameters
    ----------
    counts : AuditCounts
        From :func:`roll_counts`, or the sum of the counts of many files.

    Returns
    -------
    pandas.DataFrame
        One row per test and group, tests in :data:`TESTS` then :data:`LUCK_TESTS` order,
        ``all`` first; columns as in the module docstring.
    """
    names = ["all"] + (sorted(counts.groups) if counts.by else [])
    table = np.array([counts.table(name) for name in names])
    classes = table[:, :21].astype(float)
    parts = [_doubles(classes), _roll_classes(classes), _faces(classes), _pips(classes),
             _serial(table[:, _SERIAL].astype(float))]
    parts += [_poisson_binomial(test, table[:, _TRIALS[test]], table[:, _SUCCESSES[test]],
                                counts.replayed, counts.long)
              for test in counts.tests if test in _TRIALS]
    if "luck" in counts.tests:
        parts += _luck_tests([counts.luck_rolls(name) for name in names])
    frame = pd.concat([part.assign(group=names) for part in parts], ignore_index=True)
    frame["n"] = frame["n"].astype(np.int64)
    frame["p_adjusted"] = np.nan
    tested = frame["p_value"].notna()
    if tested.any():
        frame.loc[tested, "p_adjusted"] = stats.false_discovery_control(
            frame.loc[tested, "p_value"].to_numpy(float), method="bh")
    columns = ["test", "group", "n", "observed", "expected", "statistic", "p_value",
               "p_adjusted", "effect", "ci_low", "ci_high", "cell", "method", "note"]
    return frame[columns]

def _frame(test, n, observed, expected, statistic, p_value, effect, low, high, method,
           note, cell=None) -> pd.DataFrame:
    return pd.DataFrame({"test": test, "n": n, "observed": observed, "expected": expected,
                         "statistic": statistic, "p_value": p_value, "effect": effect,
                         "ci_low": low, "ci_high": high, "cell": cell, "method": method,
                         "note": note})


def clopper_pearson(k, n, alpha: float = ALPHA) -> tuple[np.ndarray, np.ndarray]:
    """Clopper-Pearson interval of a rate k/n (Clopper and Pearson 1934, via beta quantiles).

    Parameters
    ----------
    k, n : array-like of int
        Successes and trials, same shape.
    alpha : float
        1 - the confidence level.

    Returns
    -------
    low, high : numpy.ndarray of float
        The interval of the rate (0..1), NaN where ``n`` is 0; the interval of
        ``scipy.stats.binomtest(k, n).proportion_ci("exact", confidence_level=1 - alpha)``.
    """
    k, n = np.asarray(k, float), np.asarray(n, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        low = np.where(k > 0, stats.beta.ppf(alpha / 2, k, n - k + 1), 0.0)
        high = np.where(k < n, stats.beta.ppf(1 - alpha / 2, k + 1, n - k), 1.0)
    empty = n == 0
    return np.where(empty, np.nan, low), np.where(empty, np.nan, high)


def _rate(k, n):
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 0, k / np.where(n > 0, n, 1), np.nan)


def _binomial_pvalue(k: int, n: int, p: float) -> float:
    return stats.binomtest(int(k), int(n), p).pvalue


def _doubles(counts: np.ndarray) -> pd.DataFrame:
    """Exact binomial test of the doubles count against 1/6 (``scipy.stats.binomtest``)."""
    n = counts.sum(axis=1)
    k = counts[:, _DOUBLE].sum(axis=1)
    p_value, note = np.full(len(n), np.nan), [""] * len(n)
    for g in range(len(n)):
        if n[g] == 0:
            note[g] = "no rolls"
            continue
        p_value[g] = _binomial_pvalue(k[g], n[g], 1 / 6)
        if n[g] < 100 and min(_binomial_pvalue(0, n[g], 1 / 6),
                              _binomial_pvalue(n[g], n[g], 1 / 6)) > ALPHA:
            note[g] = (f"too few rolls: no count of doubles in {plural(int(n[g]), 'roll')} "
                       f"gives p < {ALPHA}")
    low, high = clopper_pearson(k, n)
    rate = _rate(k, n)
    return _frame("doubles", n, k, n / 6, rate, p_value, rate - 1 / 6, low - 1 / 6,
                  high - 1 / 6, "exact binomial test (scipy.stats.binomtest), p = 1/6", note)


def _fit(test: str, counts: np.ndarray, prob: np.ndarray, n: np.ndarray, labels, needed: int,
         method: str) -> pd.DataFrame:
    """Pearson chi-square test of fit of each row of ``counts`` (``scipy.stats.chisquare``).

    ``n`` is the number of trials per row (dice or rolls); rows whose smallest expected
    count is below 5 (fewer than ``needed`` rolls) get a note instead of a p-value.

    The effect is that of one cell, the one furthest from its expectation, while the
    p-value tests all cells together. As that cell is chosen by the data, its interval is
    simultaneous over the ``k`` cells: a Clopper-Pearson interval at confidence
    ``1 - ALPHA / k`` (Bonferroni), said in ``method``. The two still answer different
    questions, so when the interval excludes 0 but the chi-square test does not reject,
    ``note`` says so.
    """
    expected = n[:, None] * prob
    enough = expected.min(axis=1) >= 5
    statistic = np.full(len(n), np.nan)
    p_value = np.full(len(n), np.nan)
    if enough.any():
        result = stats.chisquare(counts[enough], expected[enough], axis=1)
        statistic[enough], p_value[enough] = result.statistic, result.pvalue
    with np.errstate(invalid="ignore", divide="ignore"):
        residual = np.where(expected > 0, (counts - expected) / np.sqrt(expected), 0.0)
    cell = np.abs(residual).argmax(axis=1)
    rows = np.arange(len(n))
    observed = counts[rows, cell]
    k = len(prob)
    low, high = clopper_pearson(observed, n, cell_alpha(k))
    low, high = low - prob[cell], high - prob[cell]
    rate = _rate(observed, n)
    note = ["" if ok else "no rolls" if size == 0 else
            f"too few rolls: an expected count is below 5 (needs at least {needed} rolls)"
            for ok, size in zip(enough, counts.sum(axis=1))]
    note = [text or (f"the interval of the one cell excludes 0, but the test of all {k} "
                     f"cells is not significant at {ALPHA}"
                     if (lo > 0 or hi < 0) and pv >= ALPHA else "")
            for text, lo, hi, pv in zip(note, low, high, p_value)]
    method = (f"{method}; effect: the cell furthest from its expectation, 95% interval "
              f"simultaneous over the {k} cells (Clopper-Pearson at 1 - {ALPHA}/{k}, "
              "Bonferroni)")
    return _frame(test, n, observed, expected[rows, cell], statistic, p_value,
                  rate - prob[cell], low, high, method, note,
                  [labels[c] if size else None for c, size in zip(cell, n)])


def cell_alpha(cells: int) -> float:
    """Level of one cell's interval, simultaneous over ``cells`` cells: ``ALPHA / cells``
    (Bonferroni). The one adjustment of the table's cell intervals and of the charts' ranges
    (:meth:`DiceAudit.cells`)."""
    return ALPHA / cells


def _roll_classes(counts: np.ndarray) -> pd.DataFrame:
    """The 21 roll classes against 1/36 and 2/36: Pearson chi-square, 20 d.f."""
    return _fit("roll_classes", counts, CLASS_PROBABILITY, counts.sum(axis=1),
                [str(r) for r in ALL_ROLLS], 180,
                "Pearson chi-square test of fit, 20 d.f. (scipy.stats.chisquare)")


def _faces(counts: np.ndarray) -> pd.DataFrame:
    """The faces of the 2n dice against 1/6 each: Pearson chi-square, 5 d.f."""
    faces = counts @ _FACES
    return _fit("faces", faces, np.full(6, 1 / 6), faces.sum(axis=1),
                [f"face {f}" for f in range(1, 7)], 15,
                "Pearson chi-square test of fit of the 2n dice, 5 d.f. (scipy.stats.chisquare)")


def _pips(counts: np.ndarray) -> pd.DataFrame:
    """Mean pips per roll: z = (mean - 294/36) / sqrt(665/36 / n), two-sided normal p-value.

    The confidence interval of the mean uses the sample standard deviation.
    """
    n = counts.sum(axis=1)
    total = counts @ _PIPS
    squares = counts @ _PIPS ** 2
    mean = _rate(total, n)
    enough = n >= 30
    with np.errstate(invalid="ignore", divide="ignore"):
        z = np.where(enough, (mean - MEAN_PIPS) / np.sqrt(VAR_PIPS / n), np.nan)
        sd = np.sqrt(np.maximum(squares - n * mean ** 2, 0) / (n - 1))
        half = _Z * sd / np.sqrt(n)
    p_value = 2 * stats.norm.sf(np.abs(z))
    note = ["" if ok else "no rolls" if size == 0 else
            "too few rolls for the normal approximation (fewer than 30)"
            for ok, size in zip(enough, n)]
    effect = mean - MEAN_PIPS
    return _frame("pips", n, mean, np.where(n > 0, MEAN_PIPS, np.nan), z, p_value, effect,
                  effect - half, effect + half,
                  "z-test, exact variance 665/36 of one roll (scipy.stats.norm)", note)


def _serial(tables: np.ndarray) -> pd.DataFrame:
    """Doubles after doubles: 2x2 test of independence of consecutive rolls of one player.

    Pairs are consecutive rolls of one player in one game (``file``, ``match``, ``game``,
    ``player``), in frame order, counted by :func:`roll_counts`; ``tables`` holds one 2x2
    table per group, flattened. Pearson chi-square without continuity correction
    (``scipy.stats.chi2_contingency``), or Fisher's exact test (``scipy.stats.fisher_exact``)
    when an expected count is below 5.
    """
    groups = len(tables)
    n, observed, expected, statistic, p_value, method, note = ([] for _ in range(7))
    after_double = tables[:, 0] + tables[:, 1]
    after_other = tables[:, 2] + tables[:, 3]
    for table in tables.reshape(groups, 2, 2):
        total = table.sum()
        rows, cols = table.sum(axis=1), table.sum(axis=0)
        n.append(total)
        observed.append(table[0, 0])
        if total == 0 or rows.min() == 0 or cols.min() == 0:
            expected.append(rows[0] * cols[0] / total if total else np.nan)
            statistic.append(np.nan)
            p_value.append(np.nan)
            method.append("")
            note.append("no pairs of consecutive rolls" if total == 0 else
                        "too few rolls: no doubles or only doubles, nothing to compare")
            continue
        expect = np.outer(rows, cols) / total
        expected.append(expect[0, 0])
        if expect.min() < 5:
            result = stats.fisher_exact(table)
            method.append("Fisher's exact test, 2x2 (scipy.stats.fisher_exact)")
            note.append("few pairs (an expected count below 5): exact test, little power")
        else:
            note.append("")
            result = stats.chi2_contingency(table, correction=False)
            method.append("Pearson chi-square test of independence, 2x2, 1 d.f. "
                          "(scipy.stats.chi2_contingency)")
        statistic.append(result.statistic)
        p_value.append(result.pvalue)
    rate_d = _rate(tables[:, 0], after_double)
    rate_o = _rate(tables[:, 2], after_other)
    with np.errstate(invalid="ignore", divide="ignore"):
        half = _Z * np.sqrt(rate_d * (1 - rate_d) / after_double
                            + rate_o * (1 - rate_o) / after_other)
    effect = rate_d - rate_o
    return _frame("serial", n, observed, expected, statistic, p_value, effect, effect - half,
                  effect + half, method, note)


def poisson_binomial_test(successes: int, probabilities) -> tuple[float, str]:
    """Two-sided test of a count of successes in independent trials with unequal chances.

    Parameters
    ----------
    successes : int
        Trials that succeeded.
    probabilities : array-like of float
        Success probability (0..1) of each trial.

    Returns
    -------
    p_value : float
    method : str
        ``"exact"`` (up to :data:`EXACT_LIMIT` trials: the distribution of the count is the
        convolution of the binomial distributions of the trials sharing each probability,
        ``scipy.stats.binom.pmf`` and ``numpy.convolve``; the p-value sums the outcomes no
        more likely than the observed one, relative tolerance 1e-7, as
        ``scipy.stats.binomtest`` does) or ``"normal"`` (more trials: normal approximation
        with continuity correction, ``scipy.stats.norm``).
    """
    values, sizes = np.unique(np.asarray(probabilities, float), return_counts=True)
    (p_value,), method = _poisson_binomial_pvalues(values, sizes, [successes])
    return p_value, method


def _poisson_binomial_pvalues(values: np.ndarray, sizes: np.ndarray,
                              counts) -> tuple[list[float], str]:
    """Two-sided p-values of several success counts of ``sizes[i]`` trials of probability
    ``values[i]`` each, ``values`` increasing (see :func:`poisson_binomial_test`)."""
    if sizes.sum() > EXACT_LIMIT:
        mean, sd = sizes @ values, np.sqrt(sizes @ (values * (1 - values)))
        return [min(1.0, 2 * stats.norm.sf(max(abs(k - mean) - 0.5, 0) / sd))
                for k in counts], "normal"
    outcomes = np.concatenate([np.arange(size + 1) for size in sizes])
    parts = stats.binom.pmf(outcomes, np.repeat(sizes, sizes + 1), np.repeat(values, sizes + 1))
    pmf = np.ones(1)
    for part in np.split(parts, np.cumsum(sizes + 1)[:-1]):
        pmf = np.convolve(pmf, part)
    return [min(1.0, pmf[pmf <= pmf[int(k)] * (1 + 1e-7)].sum()) for k in counts], "exact"


_TRIALS_ARE = {"bar_entry": "rolls from the bar", "hits_on_blots": "rolls at an exposed blot",
               "lucky_rolls": "rolls that can be lucky",
               "unlucky_rolls": "rolls that can be unlucky"}


def _poisson_binomial(test: str, trials: np.ndarray, successes: np.ndarray,
                      replayed: bool = True, long: bool = False) -> pd.DataFrame:
    """Observed successes against their exact probabilities, per group (see the module
    docstring), from the trials and successes of each group by probability ``j/36``
    (:class:`AuditCounts`); trials with probability 0 or 1 are left out. ``replayed``
    False: no roll has a position (``positions=False``); ``long``: every roll is long
    nardy's, where the test does not apply; the note says which."""
    what = _TRIALS_ARE[test]
    rows = []
    for t, s in zip(trials[:, 1:36], successes[:, 1:36]):
        n = int(t.sum())
        if n == 0:
            rows.append((0, 0.0, 0.0, np.nan, np.nan, np.nan, np.nan, np.nan, "",
                         "does not apply to long nardy (no bar, no hitting)" if long
                         else f"no {what}" if replayed else
                         "not computed: no positions (--no-positions)"))
            continue
        p, used = _OF_36[1:36], t > 0
        observed, expected = float(s.sum()), float(t @ p)
        (p_value, *extremes), how = _poisson_binomial_pvalues(p[used], t[used],
                                                              [observed, 0, n])
        note = f"too few {what}: no count gives p < {ALPHA}" if min(extremes) > ALPHA else ""
        residual = observed - expected  # sum of y_i - p_i; then their sum of squares
        squares = s @ (1 - p) ** 2 + (t - s) @ p ** 2
        half = (_Z * np.sqrt(max(squares - residual ** 2 / n, 0) / (n - 1)) / np.sqrt(n)
                if n > 1 else np.nan)
        effect = residual / n  # the interval kept within what n rolls can give:
        low, high = max(effect - half, -expected / n), min(effect + half, 1 - expected / n)
        rows.append((n, observed, expected, residual / np.sqrt(t @ (p * (1 - p))),
                     p_value, effect, low, high,
                     f"Poisson-binomial test, {how}", note))
    return _frame(test, *zip(*rows))


def _luck_tests(rolls: list[np.ndarray]) -> list[pd.DataFrame]:
    """The luck tests (:data:`LUCK_TESTS`) of each group's luck rows (see
    :class:`AuditCounts`)."""
    parts = [_luck_z("luck", rolls, ""), _luck_spread(rolls)]
    for test, column, sign in (("lucky_rolls", 2, 1), ("unlucky_rolls", 3, -1)):
        trials, successes = np.zeros((2, len(rolls), 37), dtype=np.int64)
        for g, group in enumerate(rolls):
            j = group[:, column].astype(np.int64)
            np.add.at(trials[g], j, 1)
            np.add.at(successes[g], j, sign * group[:, 0] > LUCKY)
        parts.append(_poisson_binomial(test, trials, successes))
    decisive = [group[group[:, 1] >= np.quantile(group[:, 1], 0.9)] if len(group) else group
                for group in rolls]
    parts.append(_luck_z("decisive_luck", decisive,
                         "; the rolls with variance in the top decile of the group's"))
    return parts


def _luck_z(test: str, rolls: list[np.ndarray], what: str) -> pd.DataFrame:
    """z = sum(L) / sqrt(sum(V)) per group, two-sided normal p-value; the effect is the mean
    luck per roll with a normal 95% interval from the sample s.d. (see the module
    docstring)."""
    rows = []
    for group in rolls:
        n, luck, variance = len(group), group[:, 0], group[:, 1]
        total, spread = luck.sum(), np.sqrt(variance.sum())
        note = _luck_note(n, spread, "no roll could change the equity (variance 0)")
        z = np.nan if note else total / spread
        effect = total / n if n else np.nan
        half = _Z * luck.std(ddof=1) / np.sqrt(n) if n > 1 else np.nan
        rows.append((n, total, 0.0 if n else np.nan, z, 2 * stats.norm.sf(abs(z)), effect,
                     effect - half, effect + half,
                     "z-test, z = sum(luck) / sqrt(sum(variance)), martingale central limit "
                     f"theorem (scipy.stats.norm){what}", note))
    return _frame(test, *zip(*rows))


def _luck_note(n: int, spread: float, constant: str) -> str:
    """The note of a luck z-test of ``n`` rolls whose sum has s.d. ``spread`` under fair
    dice (``constant`` when it is 0): why there is no p-value, or ``""``."""
    return ("no rolls" if n == 0 else
            "too few rolls for the normal approximation (fewer than 30)" if n < 30 else
            constant if spread == 0 else "")


def _luck_spread(rolls: list[np.ndarray]) -> pd.DataFrame:
    """z = sum(D) / sqrt(sum(M4 - V^2)), D = L^2 - V, per group, two-sided normal p-value;
    the effect is the spread ratio sum(L^2) / sum(V) with the self-normalised 95% interval
    +- 1.96 sqrt(sum(D^2)) / sum(V) (see the module docstring)."""
    rows = []
    for group in rolls:
        n, squares, variance = len(group), group[:, 0] ** 2, group[:, 1]
        deviation, spread = squares - variance, np.sqrt((group[:, 4] - variance ** 2).sum())
        note = _luck_note(n, spread, "no roll's squared luck could vary (fourth moment = "
                                     "variance^2)")
        z = np.nan if note else deviation.sum() / spread
        total = variance.sum()
        effect = squares.sum() / total if n and total > 0 else np.nan
        half = _Z * np.sqrt((deviation ** 2).sum()) / total if n and total > 0 else np.nan
        rows.append((n, squares.sum(), total, z, 2 * stats.norm.sf(abs(z)), effect,
                     effect - half, effect + half,
                     "z-test, z = sum(luck^2 - variance) / sqrt(sum(fourth moment - "
                     "variance^2)), martingale central limit theorem (scipy.stats.norm)",
                     note))
    return _frame("luck_spread", *zip(*rows))


# -- the report --------------------------------------------------------------------------------

def _version() -> str:
    """This package's version, as ``nardy_analysis.__version__`` gives it."""
    try:
        return version("nardy-analysis")
    except PackageNotFoundError:  # run from a source checkout that is not installed
        return "unknown"


@dataclass
class DiceAudit:
    """The result of :func:`audit_dice`.

    Attributes
    ----------
    frame : pandas.DataFrame
        One row per test and group (see the module docstring), in :data:`TESTS` order.
    rolls : pandas.DataFrame or None
        The rolls tested (opening rolls already removed unless included); None for an audit
        of counts (:func:`~nardy_analysis.batch.audit_files`, or :func:`audit_dice` of
        :class:`AuditCounts`).
    by : str or None
        The grouping column.
    include_opening : bool
    player : str or None
        The one player whose rolls were audited (all players when None).
    created : datetime.datetime
        When the audit was run (UTC).
    version : str
        The nardy_analysis version that ran it.
    counts : AuditCounts
        The counts the tests ran on (default: :func:`roll_counts` of ``rolls``).
    """

    frame: pd.DataFrame
    rolls: pd.DataFrame | None = None
    by: str | None = None
    include_opening: bool = False
    player: str | None = None
    created: datetime = field(default_factory=lambda: datetime.now(timezone.utc))
    version: str = field(default_factory=_version)
    counts: AuditCounts | None = None

    def __post_init__(self):
        if self.counts is None:
            self.counts = roll_counts(self.rolls, self.by, self.include_opening, self.player)

    def __repr__(self) -> str:
        """Short: the rolls, the groups and the results flagged (``str()`` gives the
        summary, :attr:`frame` every result)."""
        groups = f", {plural(self.frame['group'].nunique() - 1, 'group')} by {self.by}" \
            if self.by else ""
        player = f", player {self.player!r}" if self.player is not None else ""
        return (f"<DiceAudit: {plural(self.counts.rolls, 'roll')}{player}{groups}, "
                f"{plural(len(self.frame), 'result')}, {len(self.flagged())} flagged at "
                f"{ALPHA}>")

    @property
    def opening_counted(self) -> bool:
        """The opening rolls were counted: when asked (``include_opening``), and always in
        an audit of long nardy alone, whose first roll is an ordinary one (RULES.md, "Long
        nardy")."""
        return self.include_opening or self.counts.long

    @property
    def files(self) -> list[str]:
        """The files whose rolls were tested, in the order of the rolls."""
        return list(self.counts.files)

    def flagged(self, level: float = ALPHA) -> pd.DataFrame:
        """Rows whose Benjamini-Hochberg adjusted p-value is below ``level``: the one
        decision of the summary, the tables and the red marks of every chart."""
        return self.frame[self.frame["p_adjusted"] < level]

    def sorted(self, rows: pd.DataFrame | None = None) -> pd.DataFrame:
        """``rows`` (default: every result) by adjusted p-value, then raw p-value, smallest
        first; rows without a p-value last, in report order."""
        rows = self.frame if rows is None else rows
        return rows.sort_values(["p_adjusted", "p_value"], na_position="last", kind="stable")

    def about(self) -> dict:
        """What was audited, JSON-ready: ``files`` (names), ``rolls``, ``player``, ``by``,
        ``include_opening`` (:attr:`opening_counted`), ``date`` (ISO 8601, UTC),
        ``version``, ``level`` (of the flags), ``adjustment``, and ``tests``: per test its
        sentence (:data:`ABOUT`) and the unit of its effect (:data:`EFFECT_UNITS`)."""
        return {"files": self.files, "rolls": self.counts.rolls, "player": self.player,
                "by": self.by, "include_opening": self.opening_counted,
                "date": self.created.isoformat(timespec="seconds"), "version": self.version,
                "level": ALPHA, "adjustment": "Benjamini-Hochberg over every p-value",
                "tests": {test: {"about": ABOUT[test], "effect": EFFECT_UNITS[test]}
                          for test in dict.fromkeys(self.frame["test"])}}

    def cells(self, test: str = "roll_classes", group: str = "all") -> pd.DataFrame:
        """Observed and expected counts of each roll class or face for one group, with the
        range of fair dice and the cells a chart marks.

        Parameters
        ----------
        test : {"roll_classes", "faces"}
        group : str
            ``all`` or a group of ``by``.

        Returns
        -------
        pandas.DataFrame
            ``cell`` (``11`` ... ``66``, or the face ``1`` ... ``6``), ``observed`` and
            ``expected`` (counts of rolls, or of dice for faces), ``low``/``high``: the
            central range of the count with fair dice (binomial quantiles,
            ``scipy.stats.binom.ppf``) at the level of the table's cell interval,
            ``1 - 0.05/k`` over the ``k`` cells (:func:`cell_alpha`; a count is outside it
            exactly when that interval of its rate excludes the fair rate), and
            ``significant``: the test is significant after adjustment (:meth:`flagged`) and
            the count is outside its range; the cells both charts of the page mark. A
            flagged test may have no cell outside (the chi-square test of all cells rejects
            while no one cell's simultaneous interval excludes its fair rate).

        Raises
        ------
        InvalidArgument
            Another test, or a group the audit does not have.
        """
        if test not in ("roll_classes", "faces"):
            raise InvalidArgument(f"cells are counted for roll_classes and faces, not {test!r}")
        result = self.frame[(self.frame["test"] == test) & (self.frame["group"] == group)]
        if result.empty:
            groups = ", ".join(dict.fromkeys(self.frame["group"].astype(str)))
            raise InvalidArgument(f"no group {group!r} in the audit; groups: {groups}")
        counts = self.counts.table(group)[:21].astype(float)
        if test == "faces":
            counts, prob, labels = counts @ _FACES, np.full(6, 1 / 6), list("123456")
        else:
            prob, labels = CLASS_PROBABILITY, [str(r) for r in ALL_ROLLS]
        n, alpha = counts.sum(), cell_alpha(len(prob))
        low = stats.binom.ppf(alpha / 2, n, prob)
        high = stats.binom.ppf(1 - alpha / 2, n, prob)
        (row,) = result.itertuples()
        significant = (row.p_adjusted < ALPHA) & ((counts < low) | (counts > high))
        return pd.DataFrame({"cell": labels, "observed": counts, "expected": n * prob,
                             "low": low, "high": high, "significant": significant})

    def summary(self, level: float = ALPHA) -> str:
        """A plain-text report: what was audited, when and by which version; the tests over
        all rolls, smallest adjusted p first; each group's rolls and doubles (n, observed,
        expected, interval); the flagged results; what each test means and the unit of its
        effect."""
        frame = self.frame
        tested = int(frame["p_value"].notna().sum())
        lines = [f"Dice audit: {self.scope()}.",
                 f"Run {self.created:%Y-%m-%d %H:%M} UTC by nardy_analysis {self.version}; "
                 f"p adj.: Benjamini-Hochberg over {tested} p-values.", ""]
        lines += _table(self.sorted(frame[frame["group"] == "all"]))
        if self.by:
            lines += ["", *_groups(frame, self.by)]
        flagged = self.sorted(self.flagged(level))
        lines.append("")
        if len(flagged) == 0:
            lines.append(f"No test is significant at {level} after adjustment.")
        else:
            lines.append(f"Significant at {level} after adjustment ({len(flagged)}):")
            lines += _table(flagged)
        lines += ["", "The tests (null hypothesis: fair dice, every roll independent):"]
        for test in dict.fromkeys(frame["test"]):
            lines += textwrap.wrap(ABOUT[test], 92, initial_indent=f"  {test:<15}",
                                   subsequent_indent=" " * 17, break_on_hyphens=False)
            lines.append(f"{'':17}effect: {EFFECT_UNITS[test]}.")
        return "\n".join(lines)

    def scope(self, shown: int = 3) -> str:
        """What was audited, in words: the rolls, the files (the first ``shown`` named), the
        player, the groups."""
        files = self.files
        names = ", ".join(files[:shown]) + (f" and {len(files) - shown} more"
                                            if len(files) > shown else "")
        opening = ("opening rolls included: in long nardy they are ordinary rolls"
                   if self.counts.long else
                   f"opening rolls {'included' if self.include_opening else 'excluded'}")
        rolls = self.counts.rolls
        text = (f"{rolls:,} roll{'s' * (rolls != 1)} ({opening}) from {len(files):,} "
                f"file{'s' * (len(files) != 1)}" + (f" ({names})" if files else ""))
        if self.player is not None:
            text += f", player {self.player}"
        if self.by:
            groups = self.frame["group"].nunique() - 1
            text += f", {groups:,} group{'s' * (groups != 1)} by {self.by}"
        return text


_DASH = "\u2013"


def _table(frame: pd.DataFrame) -> list[str]:
    """Rows of the text summary; a row without a result shows a dash and its note."""
    def number(value: float) -> str:
        return (f"{_DASH:>11}" if np.isnan(value) else f"{value:>11,.0f}"
                if abs(value) >= 1000 else f"{value:>11.4g}")

    def p(value: float) -> str:
        return f"{_DASH:>10}" if np.isnan(value) else f"{value:>10.3g}"

    lines = [f"  {'test':<14}{'group':<16}{'n':>8}{'observed':>11}{'expected':>11}"
             f"{'p':>10}{'p adj.':>10}  effect [95% CI]"]
    for row in frame.itertuples():
        if row.n == 0:
            lines.append(f"  {row.test:<14}{str(row.group)[:15]:<16}{row.n:>8,}  "
                         f"{row.note or 'no data'}")
            continue
        sign = "" if row.test == "luck_spread" else "+"  # a ratio, not a difference
        effect = (_DASH if np.isnan(row.effect) else
                  f"{row.effect:{sign}.4f} [{row.ci_low:{sign}.4f}, {row.ci_high:{sign}.4f}]"
                  .replace("+nan", _DASH).replace("nan", _DASH))
        lines.append(f"  {row.test:<14}{str(row.group)[:15]:<16}{row.n:>8,}"
                     f"{number(row.observed)}{number(row.expected)}{p(row.p_value)}"
                     f"{p(row.p_adjusted)}  {effect}"
                     + (f" ({row.cell})" if isinstance(row.cell, str) else "")
                     + (f"  {row.note}" if row.note else ""))
    return lines


def _groups(frame: pd.DataFrame, by: str, shown: int = 20) -> list[str]:
    """One line per group: its rolls (n), doubles observed and expected, the doubles rate
    with its 95% interval, and its smallest adjusted p-value with the test; smallest
    adjusted p first; at most ``shown`` groups, then how many more there are."""
    rows = frame[frame["group"] != "all"]
    doubles = rows[rows["test"] == "doubles"].set_index("group")
    if doubles.empty:
        return []
    tested = rows[rows["p_adjusted"].notna()]
    best = tested.loc[tested.groupby("group")["p_adjusted"].idxmin()].set_index("group")
    smallest = best["p_adjusted"].reindex(doubles.index)
    order = smallest.sort_values(na_position="last", kind="stable").index
    low, high = clopper_pearson(doubles["observed"], doubles["n"])
    interval = pd.DataFrame({"low": low, "high": high}, index=doubles.index)
    lines = [f"Groups by {by} ({len(order)}), smallest adjusted p first; doubles "
             "(observed, expected, rate [95% CI]):",
             f"  {by:<31}{'n':>8}{'observed':>10}{'expected':>10}  {'rate [95% CI]':<22}"
             "smallest p adj."]
    for group in order[:shown]:
        n, observed = doubles.at[group, "n"], doubles.at[group, "observed"]
        rate = (f"{observed / n:.3f} [{interval.at[group, 'low']:.3f}, "
                f"{interval.at[group, 'high']:.3f}]" if n else _DASH)
        low_p = (f"{smallest[group]:.3g} ({best.at[group, 'test']})"
                 if pd.notna(smallest[group]) else "no test has enough rolls")
        lines.append(f"  {str(group)[:30]:<31}{n:>8,}{observed:>10,.0f}"
                     f"{doubles.at[group, 'expected']:>10,.1f}  {rate:<22}{low_p}")
    if len(order) > shown:
        lines.append(f"  ... and {len(order) - shown} more groups (all in --json and --html)")
    return lines


def audit_dice(source, by: str | None = None, include_opening: bool = False,
               positions: bool = True, player: str | None = None,
               luck: bool = False) -> DiceAudit:
    """Audit the dice of replayed matches, of a rolls frame or of audit counts.

    Parameters
    ----------
    source : pandas.DataFrame, AuditCounts, or ReplayedMatch or LoadedFile, or an iterable of them
        A rolls frame (see :func:`rolls_frame`), counts (:func:`roll_counts`, summed over
        files: ``by``, ``include_opening`` and ``player`` are then those they were counted
        with), or replayed matches, or files loaded with
        :func:`nardy_analysis.load.load_files`.
    by : {None, "player", "site"}
        Test each player or site as well as all rolls together.
    include_opening : bool
        Count the opening roll of each game.
    positions : bool
        Replay positions for the bar_entry and hits_on_blots tests (slower).
    player : str, optional
        Audit only this player's rolls, across every file (the name as the files write it).
    luck : bool
        Run the luck tests as well (:data:`LUCK_TESTS`; matches only: a rolls frame or
        counts have them when they hold the luck). Needs the engine extra.

    Returns
    -------
    DiceAudit
        ``rolls`` is the frame of the rolls tested, None for counts.

    Raises
    ------
    InvalidArgument
        ``source`` holds something else (such as a path: load it first, or use
        :func:`~nardy_analysis.batch.audit_files`), counts made with other
        ``by``/``include_opening``/``player``, or no roll is ``player``'s (the message names
        the players there are, closest first).
    EngineError
        ``luck`` without the engine extra.
    """
    rolls = None
    if isinstance(source, AuditCounts):
        counts = source
        asked = (by, include_opening, player)
        if asked != (None, False, None) and asked != (counts.by, counts.include_opening,
                                                      counts.player):
            raise InvalidArgument(f"the counts were made with (by, include_opening, player) "
                                  f"= {(counts.by, counts.include_opening, counts.player)!r}, "
                                  f"not {asked!r}")
    else:
        rolls = source if isinstance(source, pd.DataFrame) else rolls_frame(
            replayed_matches(source), positions, luck)
        counts = roll_counts(rolls, by, include_opening, player)
        if player is not None:
            rolls = rolls[(rolls["player"].astype(str) == player).to_numpy()]
        if not include_opening:
            rolls = rolls[~rolls["opening"].to_numpy(bool)]
    if counts.player is not None and counts.player not in counts.players:
        _no_such_player(counts)
    return DiceAudit(count_tests(counts), rolls, counts.by, counts.include_opening,
                     counts.player, counts=counts)


def match_counts(source, by: str | None = None, include_opening: bool = False,
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
    rows = list(_roll_rows(replayed_matches(source), positions, luck, None))
    names = list(ROLLS_DTYPES | (LUCK_DTYPES if luck else {}))
    columns = dict(zip(names, zip(*rows))) if rows else dict.fromkeys(names, ())

    def values(column: str) -> np.ndarray:  # floats, NaN where missing (None)
        return np.array(columns[column], dtype=float)

    keys: dict = {}
    sequence = [keys.setdefault(key, len(keys)) for key in
                zip(columns["file"], columns["match"], columns["game"], columns["player"])]
    return _tally(by, include_opening, player, len(set(columns["file"])), {
        "file": np.array(columns["file"], dtype=object),
        "player": np.array(columns["player"], dtype=object),
        "group": _factorize(columns[by]) if by else None,
        "class": _CLASS[np.array(columns["roll_high"], dtype=np.int64),
                        np.array(columns["roll_low"], dtype=np.int64)],
        "sequence": np.array(sequence, dtype=np.int64),
        "opening": np.array(columns["opening"], dtype=bool),
        "entry": 36 - values("closed_points") ** 2, "entered": values("entered"),
        "shots": values("shots"), "hitting_roll": values("hitting_roll"),
        "replayed": np.array([bar is not None for bar in columns["on_bar"]], dtype=bool),
        "long": np.array(columns["long"], dtype=bool),
        "luck": (np.column_stack([values(column) for column in LUCK_DTYPES]) if luck
                 else None)})


def _factorize(values) -> tuple[np.ndarray, np.ndarray]:
    """``pandas.factorize(values, sort=True)`` of the str values of one file's rolls (about
    120), in a third of its time: codes into the sorted distinct values."""
    uniques = sorted(set(values))
    index = {value: code for code, value in enumerate(uniques)}
    return (np.array([index[value] for value in values], dtype=np.int64),
            np.array(uniques, dtype=object))


def _no_such_player(counts: AuditCounts, shown: int = 10) -> NoReturn:
    """InvalidArgument: no roll is ``counts.player``'s; the message names the players there
    are, closest to it first (``difflib.SequenceMatcher``, ignoring case)."""
    player = counts.player
    players = sorted(sorted(counts.players), key=lambda name: -difflib.SequenceMatcher(
        None, player.casefold(), name.casefold()).ratio())
    files = counts.read
    listed = ", ".join(map(repr, players[:shown])) + (f" and {len(players) - shown} more"
                                           if len(players) > shown else "")
    raise InvalidArgument(f"no rolls of player {player!r} in {files} file"
                          f"{'s' * (files != 1)}; the players are (closest first): "
                          f"{listed or 'none'}")
