"""The tests of the dice's luck (luck, luck_spread, lucky_rolls, unlucky_rolls,
decisive_luck; the docstring of :mod:`nardy_analysis.analysis.audit`), each on every
group's luck rows of :class:`~nardy_analysis.analysis.audit.counts.AuditCounts`."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ..luck import LUCKY
from .counts import AuditCounts
from .dice import Z_ALPHA, poisson_binomial_rows, result_rows


def luck_parts(counts: AuditCounts, names: list[str]) -> list[pd.DataFrame]:
    """The rows of the luck tests (:data:`~nardy_analysis.analysis.audit.counts.LUCK_TESTS`)
    of the groups ``names`` of ``counts`` from their luck rows
    (:meth:`~nardy_analysis.analysis.audit.counts.AuditCounts.luck_rolls`), one frame per
    test in report order, one row per group."""
    rolls = [counts.luck_rolls(name) for name in names]
    parts = [_luck_z("luck", rolls, ""), _luck_spread(rolls)]
    for test, column, sign in (("lucky_rolls", 2, 1), ("unlucky_rolls", 3, -1)):
        trials, successes = np.zeros((2, len(rolls), 37), dtype=np.int64)
        for g, group in enumerate(rolls):
            j = group[:, column].astype(np.int64)
            np.add.at(trials[g], j, 1)
            np.add.at(successes[g], j, sign * group[:, 0] > LUCKY)
        parts.append(poisson_binomial_rows(test, trials, successes))
    decisive = [group[group[:, 1] >= np.quantile(group[:, 1], 0.9)] if len(group) else group
                for group in rolls]
    parts.append(_luck_z("decisive_luck", decisive,
                         "; the rolls with variance in the top decile of the group's"))
    return parts


def _luck_z(test: str, rolls: list[np.ndarray], what: str) -> pd.DataFrame:
    """z = sum(L) / sqrt(sum(V)) per group, two-sided normal p-value; the effect is the mean
    luck per roll with a normal 95% interval from the sample s.d. (see the package
    docstring)."""
    rows = []
    for group in rolls:
        n, luck, variance = len(group), group[:, 0], group[:, 1]
        total, spread = luck.sum(), np.sqrt(variance.sum())
        note = _luck_note(n, spread, "no roll could change the equity (variance 0)")
        z = np.nan if note else total / spread
        effect = total / n if n else np.nan
        half = Z_ALPHA * luck.std(ddof=1) / np.sqrt(n) if n > 1 else np.nan
        rows.append((n, total, 0.0 if n else np.nan, z, 2 * stats.norm.sf(abs(z)), effect,
                     effect - half, effect + half,
                     "z-test, z = sum(luck) / sqrt(sum(variance)), martingale central limit "
                     f"theorem (scipy.stats.norm){what}", note))
    return result_rows(test, *zip(*rows))


def _luck_note(n: int, spread: float, constant: str) -> str:
    """The note of a luck z-test of ``n`` rolls whose sum has s.d. ``spread`` under fair
    dice (``constant`` when it is 0): why there is no p-value, or ``""``."""
    return ("no rolls" if n == 0 else
            "too few rolls for the normal approximation (fewer than 30)" if n < 30 else
            constant if spread == 0 else "")


def _luck_spread(rolls: list[np.ndarray]) -> pd.DataFrame:
    """z = sum(D) / sqrt(sum(M4 - V^2)), D = L^2 - V, per group, two-sided normal p-value;
    the effect is the spread ratio sum(L^2) / sum(V) with the self-normalised 95% interval
    +- 1.96 sqrt(sum(D^2)) / sum(V) (see the package docstring)."""
    rows = []
    for group in rolls:
        n, squares, variance = len(group), group[:, 0] ** 2, group[:, 1]
        deviation, spread = squares - variance, np.sqrt((group[:, 4] - variance ** 2).sum())
        note = _luck_note(n, spread, "no roll's squared luck could vary (fourth moment = "
                                     "variance^2)")
        z = np.nan if note else deviation.sum() / spread
        total = variance.sum()
        effect = squares.sum() / total if n and total > 0 else np.nan
        half = Z_ALPHA * np.sqrt((deviation ** 2).sum()) / total if n and total > 0 else np.nan
        rows.append((n, squares.sum(), total, z, 2 * stats.norm.sf(abs(z)), effect,
                     effect - half, effect + half,
                     "z-test, z = sum(luck^2 - variance) / sqrt(sum(fourth moment - "
                     "variance^2)), martingale central limit theorem (scipy.stats.norm)",
                     note))
    return result_rows("luck_spread", *zip(*rows))
