"""Positions per second for the full 36-roll shot computation on real positions.

Usage: python benchmarks/shots_speed.py [FOLDER] [--files N]

Replays N files (default 100) of the folder (default: the shared corpus), collects the
distinct positions before and after every play, and times ``shots()`` over all of them.
Goal (issue 3): 2,000 positions/s on one core.
"""

import sys
import time
from pathlib import Path

from nardy_analysis import replay_file
from nardy_analysis.analysis.shots import shots

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "mat"


def main() -> None:
    args = sys.argv[1:]
    count = int(args[args.index("--files") + 1]) if "--files" in args else 100
    folders = [a for a in args if not a.startswith("--") and not a.isdigit()]
    folder = Path(folders[0]) if folders else DEFAULT
    if not folder.is_dir():
        sys.exit(f"no folder {folder}: give the folder of .mat files to take positions from")
    positions = {}
    for path in sorted(folder.glob("*.mat"))[:count]:
        for match in replay_file(path):
            for game in match.games:
                for turn in game.turns:
                    positions[turn.before] = None
                    if turn.after is not None:
                        positions[turn.after] = None
    start = time.perf_counter()
    with_blots = sum(bool(shots(p).blots) for p in positions)
    seconds = time.perf_counter() - start
    print(f"{len(positions)} positions ({with_blots} with blots to hit) in {seconds:.2f} s: "
          f"{len(positions) / seconds:,.0f} positions/s")


if __name__ == "__main__":
    main()
