"""The tests of the dice's counts (doubles, roll classes, faces, pips, serial, bar entry,
hits on blots; the docstring of :mod:`nardy_analysis.analysis.audit`), each on every
group of :class:`~nardy_analysis.analysis.audit.counts.AuditCounts`, and the statistics
they share: Clopper-Pearson intervals and the Poisson-binomial test."""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy import stats

from ...errors import plural
from ...game.moves import ALL_ROLLS
from .counts import SERIAL_CELLS, SUCCESS_CELLS, TRIAL_CELLS, AuditCounts
from .rolls import CLASS_DOUBLE, CLASS_FACES, CLASS_PIPS, CLASS_PROBABILITY, MEAN_PIPS, VAR_PIPS

ALPHA = 0.05
"""Level of the notes and of the flags in summaries and plots."""

EXACT_LIMIT = 10_000
"""Largest number of rolls for the exact Poisson-binomial distribution."""

Z_ALPHA = stats.norm.ppf(1 - ALPHA / 2)
"""The normal quantile of the two-sided intervals at level ``1 - ALPHA`` (1.96)."""


def dice_parts(counts: AuditCounts, names: list[str]) -> list[pd.DataFrame]:
    """The rows of the dice tests (:data:`~nardy_analysis.analysis.audit.counts.TESTS`) of
    the groups ``names`` of ``counts`` (``all`` and the groups of ``by``), one frame per
    test in report order, one row per group; bar_entry and hits_on_blots when the counts
    hold them."""
    table = np.array([counts.table(name) for name in names])
    classes = table[:, :21].astype(float)
    parts = [_doubles(classes), _roll_classes(classes), _faces(classes), _pips(classes),
             _serial(table[:, SERIAL_CELLS].astype(float))]
    parts += [poisson_binomial_rows(test, table[:, TRIAL_CELLS[test]],
                                    table[:, SUCCESS_CELLS[test]], counts.replayed,
                                    counts.long)
              for test in counts.tests if test in TRIAL_CELLS]
    return parts


def result_rows(test: str, n: ArrayLike, observed: ArrayLike, expected: ArrayLike,
                statistic: ArrayLike, p_value: ArrayLike, effect: ArrayLike, low: ArrayLike,
                high: ArrayLike, method: ArrayLike, note: ArrayLike,
                cell: Sequence[str | None] | None = None) -> pd.DataFrame:
    """One test's results, a row per group (each argument a value per group, or one for
    all): the columns of :func:`~nardy_analysis.analysis.audit.count_tests` but ``group``
    and ``p_adjusted``."""
    return pd.DataFrame({"test": test, "n": n, "observed": observed, "expected": expected,
                         "statistic": statistic, "p_value": p_value, "effect": effect,
                         "ci_low": low, "ci_high": high, "cell": cell, "method": method,
                         "note": note})


def clopper_pearson(k: ArrayLike, n: ArrayLike,
                    alpha: float = ALPHA) -> tuple[np.ndarray, np.ndarray]:
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


def _rate(k: np.ndarray, n: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 0, k / np.where(n > 0, n, 1), np.nan)


def _binomial_pvalue(k: int, n: int, p: float) -> float:
    return float(stats.binomtest(int(k), int(n), p).pvalue)


def _doubles(counts: np.ndarray) -> pd.DataFrame:
    """Exact binomial test of the doubles count against 1/6 (``scipy.stats.binomtest``)."""
    n = counts.sum(axis=1)
    k = counts[:, CLASS_DOUBLE].sum(axis=1)
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
    return result_rows("doubles", n, k, n / 6, rate, p_value, rate - 1 / 6, low - 1 / 6,
                       high - 1 / 6, "exact binomial test (scipy.stats.binomtest), p = 1/6", note)


def _fit(test: str, counts: np.ndarray, prob: np.ndarray, n: np.ndarray, labels: Sequence[str],
         needed: int, method: str) -> pd.DataFrame:
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
    return result_rows(test, n, observed, expected[rows, cell], statistic, p_value,
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
    faces = counts @ CLASS_FACES
    return _fit("faces", faces, np.full(6, 1 / 6), faces.sum(axis=1),
                [f"face {f}" for f in range(1, 7)], 15,
                "Pearson chi-square test of fit of the 2n dice, 5 d.f. (scipy.stats.chisquare)")


def _pips(counts: np.ndarray) -> pd.DataFrame:
    """Mean pips per roll: z = (mean - 294/36) / sqrt(665/36 / n), two-sided normal p-value.

    The confidence interval of the mean uses the sample standard deviation.
    """
    n = counts.sum(axis=1)
    total = counts @ CLASS_PIPS
    squares = counts @ CLASS_PIPS ** 2
    mean = _rate(total, n)
    enough = n >= 30
    with np.errstate(invalid="ignore", divide="ignore"):
        z = np.where(enough, (mean - MEAN_PIPS) / np.sqrt(VAR_PIPS / n), np.nan)
        sd = np.sqrt(np.maximum(squares - n * mean ** 2, 0) / (n - 1))
        half = Z_ALPHA * sd / np.sqrt(n)
    p_value = 2 * stats.norm.sf(np.abs(z))
    note = ["" if ok else "no rolls" if size == 0 else
            "too few rolls for the normal approximation (fewer than 30)"
            for ok, size in zip(enough, n)]
    effect = mean - MEAN_PIPS
    return result_rows("pips", n, mean, np.where(n > 0, MEAN_PIPS, np.nan), z, p_value, effect,
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
        half = Z_ALPHA * np.sqrt(rate_d * (1 - rate_d) / after_double
                                 + rate_o * (1 - rate_o) / after_other)
    effect = rate_d - rate_o
    return result_rows("serial", n, observed, expected, statistic, p_value, effect, effect - half,
                       effect + half, method, note)


def poisson_binomial_test(successes: int, probabilities: ArrayLike) -> tuple[float, str]:
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
                              counts: Sequence[float]) -> tuple[list[float], str]:
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
_OF_36 = np.arange(37) / 36  # the success probabilities j/36 of the counts, j = 0..36


def poisson_binomial_rows(test: str, trials: np.ndarray, successes: np.ndarray,
                           replayed: bool = True, long: bool = False) -> pd.DataFrame:
    """Observed successes against their exact probabilities, per group (see the package
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
        half = (Z_ALPHA * np.sqrt(max(squares - residual ** 2 / n, 0) / (n - 1)) / np.sqrt(n)
                if n > 1 else np.nan)
        effect = residual / n  # the interval kept within what n rolls can give:
        low, high = max(effect - half, -expected / n), min(effect + half, 1 - expected / n)
        rows.append((n, observed, expected, residual / np.sqrt(t @ (p * (1 - p))),
                     p_value, effect, low, high,
                     f"Poisson-binomial test, {how}", note))
    return result_rows(test, *zip(*rows))
