"""The result of a dice audit: :func:`audit_dice`, the tests of counts
(:func:`count_tests`), the :class:`DiceAudit` report with its text summary, and what each
test means (:data:`ABOUT`, :data:`EFFECT_UNITS`)."""

from __future__ import annotations

import difflib
import textwrap
from dataclasses import dataclass, field
from datetime import datetime, timezone
from importlib.metadata import PackageNotFoundError, version
from typing import NoReturn

import numpy as np
import pandas as pd
from scipy import stats

from ...errors import InvalidArgument, plural
from ...game.moves import ALL_ROLLS
from ..turns import Source, replayed_matches
from .counts import AuditCounts, roll_counts
from .dice import ALPHA, cell_alpha, clopper_pearson, dice_parts
from .luck import luck_parts
from .rolls import CLASS_FACES, CLASS_PROBABILITY, rolls_frame

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


def dice_tests(rolls: pd.DataFrame, by: str | None = None,
               include_opening: bool = False) -> pd.DataFrame:
    """Run every test of the package docstring on every group of rolls:
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
    """Run every test of the package docstring on every group of audit counts, once.

    Parameters
    ----------
    counts : AuditCounts
        From :func:`roll_counts`, or the sum of the counts of many files.

    Returns
    -------
    pandas.DataFrame
        One row per test and group, tests in :data:`TESTS` then :data:`LUCK_TESTS` order,
        ``all`` first; columns as in the package docstring.
    """
    names = ["all"] + (sorted(counts.groups) if counts.by else [])
    parts = dice_parts(counts, names)
    if "luck" in counts.tests:
        parts += luck_parts(counts, names)
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
        One row per test and group (see the package docstring), in :data:`TESTS` order.
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

    Raises
    ------
    InvalidArgument
        Neither ``rolls`` nor ``counts`` is given.
    """

    frame: pd.DataFrame
    rolls: pd.DataFrame | None = None
    by: str | None = None
    include_opening: bool = False
    player: str | None = None
    created: datetime = field(default_factory=lambda: datetime.now(timezone.utc))
    version: str = field(default_factory=_version)
    counts: AuditCounts | None = None

    def __post_init__(self) -> None:
        if self.counts is None:
            if self.rolls is None:
                raise InvalidArgument("a DiceAudit needs the rolls or the counts it tested")
            self.counts = roll_counts(self.rolls, self.by, self.include_opening, self.player)

    @property
    def _counts(self) -> AuditCounts:
        """:attr:`counts`, set by ``__post_init__`` when not given."""
        assert self.counts is not None
        return self.counts

    def __repr__(self) -> str:
        """Short: the rolls, the groups and the results flagged (``str()`` gives the
        summary, :attr:`frame` every result)."""
        groups = f", {plural(self.frame['group'].nunique() - 1, 'group')} by {self.by}" \
            if self.by else ""
        player = f", player {self.player!r}" if self.player is not None else ""
        return (f"<DiceAudit: {plural(self._counts.rolls, 'roll')}{player}{groups}, "
                f"{plural(len(self.frame), 'result')}, {len(self.flagged())} flagged at "
                f"{ALPHA}>")

    @property
    def opening_counted(self) -> bool:
        """The opening rolls were counted: when asked (``include_opening``), and always in
        an audit of long nardy alone, whose first roll is an ordinary one (RULES.md, "Long
        nardy")."""
        return self.include_opening or self._counts.long

    @property
    def files(self) -> list[str]:
        """The files whose rolls were tested, in the order of the rolls."""
        return list(self._counts.files)

    def flagged(self, level: float = ALPHA) -> pd.DataFrame:
        """Rows whose Benjamini-Hochberg adjusted p-value is below ``level``: the one
        decision of the summary, the tables and the red marks of every chart."""
        return self.frame[self.frame["p_adjusted"] < level]

    def sorted(self, rows: pd.DataFrame | None = None) -> pd.DataFrame:
        """``rows`` (default: every result) by adjusted p-value, then raw p-value, smallest
        first; rows without a p-value last, in report order."""
        rows = self.frame if rows is None else rows
        return rows.sort_values(["p_adjusted", "p_value"], na_position="last", kind="stable")

    def about(self) -> dict[str, object]:
        """What was audited, JSON-ready: ``files`` (names), ``rolls``, ``player``, ``by``,
        ``include_opening`` (:attr:`opening_counted`), ``date`` (ISO 8601, UTC),
        ``version``, ``level`` (of the flags), ``adjustment``, and ``tests``: per test its
        sentence (:data:`ABOUT`) and the unit of its effect (:data:`EFFECT_UNITS`)."""
        return {"files": self.files, "rolls": self._counts.rolls, "player": self.player,
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
        counts = self._counts.table(group)[:21].astype(float)
        if test == "faces":
            counts, prob, labels = counts @ CLASS_FACES, np.full(6, 1 / 6), list("123456")
        else:
            prob, labels = CLASS_PROBABILITY, [str(r) for r in ALL_ROLLS]
        n, alpha = counts.sum(), cell_alpha(len(prob))
        low = stats.binom.ppf(alpha / 2, n, prob)
        high = stats.binom.ppf(1 - alpha / 2, n, prob)
        (p_adjusted,) = result["p_adjusted"].to_numpy(float)
        significant = (p_adjusted < ALPHA) & ((counts < low) | (counts > high))
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
                   if self._counts.long else
                   f"opening rolls {'included' if self.include_opening else 'excluded'}")
        rolls = self._counts.rolls
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
    for row in frame.to_dict("records"):
        if row['n'] == 0:
            lines.append(f"  {row['test']:<14}{str(row['group'])[:15]:<16}{row['n']:>8,}  "
                         f"{row['note'] or 'no data'}")
            continue
        sign = "" if row['test'] == "luck_spread" else "+"  # a ratio, not a difference
        effect = (_DASH if np.isnan(row['effect']) else
                  f"{row['effect']:{sign}.4f} [{row['ci_low']:{sign}.4f}, "
                  f"{row['ci_high']:{sign}.4f}]"
                  .replace("+nan", _DASH).replace("nan", _DASH))
        lines.append(f"  {row['test']:<14}{str(row['group'])[:15]:<16}{row['n']:>8,}"
                     f"{number(row['observed'])}{number(row['expected'])}{p(row['p_value'])}"
                     f"{p(row['p_adjusted'])}  {effect}"
                     + (f" ({row['cell']})" if isinstance(row['cell'], str) else "")
                     + (f"  {row['note']}" if row['note'] else ""))
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
    groups = doubles.assign(low=low, high=high, smallest=smallest,
                            best=best["test"].reindex(doubles.index)).to_dict("index")
    lines = [f"Groups by {by} ({len(order)}), smallest adjusted p first; doubles "
             "(observed, expected, rate [95% CI]):",
             f"  {by:<31}{'n':>8}{'observed':>10}{'expected':>10}  {'rate [95% CI]':<22}"
             "smallest p adj."]
    for group in order[:shown]:
        row = groups[group]
        n, observed = row["n"], row["observed"]
        rate = f"{observed / n:.3f} [{row['low']:.3f}, {row['high']:.3f}]" if n else _DASH
        low_p = (f"{row['smallest']:.3g} ({row['best']})" if pd.notna(row["smallest"])
                 else "no test has enough rolls")
        lines.append(f"  {str(group)[:30]:<31}{n:>8,}{observed:>10,.0f}"
                     f"{row['expected']:>10,.1f}  {rate:<22}{low_p}")
    if len(order) > shown:
        lines.append(f"  ... and {len(order) - shown} more groups (all in --json and --html)")
    return lines


def audit_dice(source: pd.DataFrame | AuditCounts | Source, by: str | None = None,
               include_opening: bool = False, positions: bool = True, player: str | None = None,
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
        _no_such_player(counts, counts.player)
    return DiceAudit(count_tests(counts), rolls, counts.by, counts.include_opening,
                     counts.player, counts=counts)


def _no_such_player(counts: AuditCounts, player: str, shown: int = 10) -> NoReturn:
    """InvalidArgument: no roll is ``player``'s (``counts.player``); the message names the
    players there are, closest to it first (``difflib.SequenceMatcher``, ignoring case)."""
    players = sorted(sorted(counts.players), key=lambda name: -difflib.SequenceMatcher(
        None, player.casefold(), name.casefold()).ratio())
    files = counts.read
    listed = ", ".join(map(repr, players[:shown])) + (f" and {len(players) - shown} more"
                                           if len(players) > shown else "")
    raise InvalidArgument(f"no rolls of player {player!r} in {files} file"
                          f"{'s' * (files != 1)}; the players are (closest first): "
                          f"{listed or 'none'}")
