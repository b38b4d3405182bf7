"""Speed of the dice-luck analysis on one core: one long match, cold caches.

Usage: python benchmarks/luck_speed.py [MATCH.mat] [--profile]

Default match: tests/data/luck/BackgammonStudio_8518258.mat (13 points, 19 games, 563 rolls).
Prints the time to load the engine, to replay the file and to compute the luck of every roll
(21 best plays for each position, 0-ply, the engine's caches empty), and rolls per second.
Goal (issue 5): a 500-roll match in under 2 s. With --profile, the top entries of a cProfile
run by internal time.
"""

import cProfile
import pstats
import sys
import time
from pathlib import Path

from nardy_analysis import replay_file
from nardy_analysis.analysis.engine import GnubgNN
from nardy_analysis.analysis.luck import luck_frame

DEFAULT = Path(__file__).resolve().parents[1] / "tests" / "data" / "luck" / \
    "BackgammonStudio_8518258.mat"


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    path = Path(args[0]) if args else DEFAULT
    start = time.perf_counter()
    engine = GnubgNN()
    loaded = time.perf_counter()
    matches = replay_file(path)
    replayed = time.perf_counter()
    frame = luck_frame(matches, engine)
    done = time.perf_counter()
    print(f"{path.name}: {len(frame)} rolls")
    print(f"engine {loaded - start:.2f} s, replay {replayed - loaded:.2f} s, "
          f"luck {done - replayed:.2f} s ({len(frame) / (done - replayed):,.0f} rolls/s)")
    if "--profile" in sys.argv:
        profile = cProfile.Profile()
        profile.runcall(luck_frame, matches, GnubgNN())
        pstats.Stats(profile).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
