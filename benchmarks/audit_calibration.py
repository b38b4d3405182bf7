"""Calibration and speed of the dice audit (nardy_analysis.analysis.audit).

Usage: python benchmarks/audit_calibration.py [--replicates N] [--seed S]

Calibration: many independent simulated data sets (each a "player" of simulate_rolls, tested
with by="player"); for each test the share of data sets with p < 0.05. On fair dice that share
is the false-alarm rate (should be about 5%; exact discrete tests a little under); on loaded
dice it is the power. "any (BH)" is the share of data sets where at least one of the seven
tests is significant after Benjamini-Hochberg over those seven p-values: the false-alarm rate
of a whole one-source report.

Speed: one million simulated rolls (with the position columns), dice_tests over all rolls and
by 1,000 players; building the rolls is not timed (it stands for parsing and replaying).
"""

import argparse
import time

import numpy as np
import pandas as pd
from scipy import stats

from nardy_analysis.analysis.audit import TESTS, dice_tests, simulate_rolls

SCENARIOS = [  # (label, rolls per data set, doubles rate or None for fair dice)
    ("fair dice, 1,000 rolls", 1000, None),
    ("fair dice, 5,000 rolls", 5000, None),
    ("doubles 20%, 5,000 rolls", 5000, 0.20),
    ("doubles 9% (2009 bug), 1,000 rolls", 1000, 0.09),
]


def rejection_rates(rolls: int, doubles, replicates: int, seed: int) -> pd.Series:
    """Share of data sets with p < 0.05, per test and for any test after BH."""
    rng = np.random.default_rng(seed)
    chunks = []
    for start in range(0, replicates, 200):
        players = min(200, replicates - start)
        frame = dice_tests(simulate_rolls(rolls, players=players, doubles=doubles, seed=rng),
                           by="player")
        frame = frame[frame["group"] != "all"]
        chunks.append(frame.assign(group=frame["group"] + f"/{start}"))
    results = pd.concat(chunks)
    rates = results.groupby("test")["p_value"].apply(lambda p: (p < 0.05).mean())
    any_bh = results.groupby("group")["p_value"].apply(
        lambda p: (stats.false_discovery_control(p.dropna()) < 0.05).any())
    return pd.concat([rates.reindex(TESTS), pd.Series({"any (BH)": any_bh.mean()})])


def speed(seed: int) -> tuple[float, float]:
    rolls = simulate_rolls(1000, players=1000, seed=seed)
    start = time.perf_counter()
    dice_tests(rolls)
    overall = time.perf_counter() - start
    start = time.perf_counter()
    dice_tests(rolls, by="player")
    return overall, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicates", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    table = pd.DataFrame({label: rejection_rates(n, doubles, args.replicates, args.seed + i)
                          for i, (label, n, doubles) in enumerate(SCENARIOS)})
    print(f"Share of {args.replicates} simulated data sets with p < 0.05 "
          f"(seed {args.seed}; Monte Carlo s.e. about "
          f"{np.sqrt(0.05 * 0.95 / args.replicates):.3f} at 5%):\n")
    print(table.round(3).to_string())
    overall, grouped = speed(args.seed)
    print(f"\nSpeed, 1,000,000 rolls: {overall:.2f} s over all rolls, {grouped:.2f} s with "
          "1,000 players (plus all), not counting building the rolls.")


if __name__ == "__main__":
    main()
