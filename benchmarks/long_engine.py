"""The long nardy engine's figures (docs/LONG_ENGINE.md): strength against random play and
against its own earlier checkpoints (0-ply, 1,000 single games each, sides alternating, 95%
intervals, points per game), and the speed of evaluating every play of the 21 rolls of
100 positions. The games are played by the training tools' compiled generator with the
same weights (tools/long_engine, needs gcc).

With --bots, the bots of ``nardy simulate --bots`` instead (nardy_analysis.analysis.bots,
played by the package's own simulator): heuristic against random (long and short nardy),
engine against heuristic and engine against random (long nardy).

    python benchmarks/long_engine.py [--games N] [--bots]
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools" / "long_engine"))
import native  # noqa: E402
import train  # noqa: E402

from nardy_analysis.analysis.bots import BOTS  # noqa: E402
from nardy_analysis.analysis.long_engine import NET_FILE, LongEvaluator  # noqa: E402
from nardy_analysis.game.long import LongPosition  # noqa: E402
from nardy_analysis.game.position import ALL_ROLLS  # noqa: E402
from nardy_analysis.game.rules import LONG, STANDARD  # noqa: E402
from nardy_analysis.simulate import simulate_match  # noqa: E402

BOT_MATCHES = (("heuristic", "random", LONG), ("heuristic", "random", STANDARD),
               ("engine", "heuristic", LONG), ("engine", "random", LONG))
"""The bot matches of --bots: (A, B, rules)."""


def line(name: str, points: np.ndarray) -> str:
    won = (points > 0).mean()
    half = 1.96 * np.sqrt(won * (1 - won) / len(points))
    return f"{name}: won {won:.3f} +- {half:.3f}, points per game {points.mean():+.3f}"


def bot_match(a: str, b: str, rules, games: int, seed: int = 0) -> np.ndarray:
    """A's points in each of ``games`` single games of the bots ``a`` and ``b`` (names of
    ``BOTS``) under ``rules``, no cube: A is player 0 and throws first in the even games,
    game ``i`` drawn from ``numpy.random.default_rng([seed, i])``."""
    points = np.zeros(games, np.int32)
    for i in range(games):
        match = simulate_match(np.random.default_rng([seed, i]), length=0, games=1,
                               cube=False, rules=rules, bots=(BOTS[a], BOTS[b]), first=i % 2)
        result = match.games[0].actions[-1]
        points[i] = result.points if result.player == 0 else -result.points
    return points


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--bots", action="store_true")
    arguments = parser.parse_args()
    games = arguments.games
    if arguments.bots:
        for a, b, rules in BOT_MATCHES:
            game = "long nardy" if rules.game == "long" else "short nardy"
            print(line(f"{a} against {b}, {game} ({games} games)",
                       bot_match(a, b, rules, games)), flush=True)
        return
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
