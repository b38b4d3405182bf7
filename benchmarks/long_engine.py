"""The long nardy engine's figures (docs/LONG_ENGINE.md): strength against random play and
against its own earlier checkpoints (0-ply, 1,000 single games each, sides alternating, 95%
intervals, points per game), and the speed of evaluating every play of the 21 rolls of
100 positions. The games are played by the training tools' compiled generator with the
same weights (tools/long_engine, needs gcc).

    python benchmarks/long_engine.py [--games N]
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools" / "long_engine"))
import native  # noqa: E402
import train  # noqa: E402

from nardy_analysis.analysis.long_engine import NET_FILE, LongEvaluator  # noqa: E402
from nardy_analysis.game.long import LongPosition  # noqa: E402
from nardy_analysis.game.position import ALL_ROLLS  # noqa: E402


def line(name: str, points: np.ndarray) -> str:
    won = (points > 0).mean()
    half = 1.96 * np.sqrt(won * (1 - won) / len(points))
    return f"{name}: won {won:.3f} +- {half:.3f}, points per game {points.mean():+.3f}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    games = parser.parse_args().games
    final = train.load(NET_FILE)[0]
    print(line(f"against random play ({games} games)", native.match(final, None, games, 1)))
    for path in train.checkpoints()[1::8]:
        print(line(f"against {path.stem} ({games} games)",
                   native.match(final, train.load(path)[0], games, 2)))
    evaluator = LongEvaluator(cache_size=0)
    boards = native.random_positions(100, 7)
    positions = [LongPosition(([*map(int, b[0])] + [0], [*map(int, b[1])] + [0])) for b in boards]
    start = time.process_time()
    for where in positions:
        if not where.is_over:
            evaluator.best_equities(where, ALL_ROLLS)
    print(f"every play of the 21 rolls of 100 positions: {time.process_time() - start:.2f} s CPU")


if __name__ == "__main__":
    main()
