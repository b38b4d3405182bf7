"""Replay a folder of match files (default: the shared corpus) and report the speed.

Usage: python benchmarks/replay_corpus.py [FOLDER] [--profile]

Prints files, matches, games, turns, violations, wall time and turns per second on one core;
with --profile, also the top entries of a cProfile run (by internal time).
"""

import cProfile
import pstats
import sys
import time
from pathlib import Path

from nardy_analysis import replay_file

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "mat"


def run(folder: Path) -> dict:
    counts = {"files": 0, "matches": 0, "games": 0, "turns": 0, "violations": 0}
    for path in sorted(folder.glob("*.mat")):
        matches = replay_file(path)
        counts["files"] += 1
        counts["matches"] += len(matches)
        counts["games"] += sum(len(m.games) for m in matches)
        counts["turns"] += sum(len(g.turns) for m in matches for g in m.games)
        counts["violations"] += sum(len(m.errors) for m in matches)
    return counts


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    folder = Path(args[0]) if args else DEFAULT
    if not folder.is_dir():
        sys.exit(f"no folder {folder}: give the folder of .mat files to replay")
    start = time.perf_counter()
    counts = run(folder)
    seconds = time.perf_counter() - start
    print(", ".join(f"{v} {k}" for k, v in counts.items()))
    print(f"{seconds:.2f} s, {counts['turns'] / seconds:,.0f} turns/s")
    if "--profile" in sys.argv:
        profile = cProfile.Profile()
        profile.runcall(run, folder)
        pstats.Stats(profile).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
