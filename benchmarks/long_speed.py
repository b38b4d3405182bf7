"""Long nardy legal plays, blocked rolls and the work of luck, timed against short nardy in
the same run.

Usage: python benchmarks/long_speed.py [--positions N] [--rolls N]

Plays random games of both games from the start (seeded) until N positions (default 2,000)
each, then times ``legal_plays`` of each position's roll for both, and ``blocked_rolls`` of the
long positions against counting the same rolls from their full legal plays. Prints the
times and the ratios (the simulator and the turns frame call these a lot).

Then the work of luck (``--rolls``, default 300): the positions of games the engine plays
against itself at 0-ply (seeded), and for each the equity after the best play of each of
the 21 rolls (``best_equities``, every play of every roll evaluated, caches empty), in CPU
seconds per 100 rolls: long nardy with the package's engine (goal: at most 2 s), short
nardy with gnubg-nn (the engine extra) as the peer.
"""

import random
import sys
import time

from nardy_analysis.analysis.gnubg import GnubgNN
from nardy_analysis.analysis.long_engine import LongEvaluator
from nardy_analysis.game.long import LongPosition, blocked_rolls
from nardy_analysis.game.moves import ALL_ROLLS, Roll
from nardy_analysis.game.position import Position


def positions(cls, count: int, rng: random.Random) -> list:
    """``(position, roll, options)`` from random games of ``cls`` (first turns marked)."""
    out = []
    while len(out) < count:
        position, first = cls.start(), [True, True]
        while not position.is_over and len(out) < count:
            roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
            options = {"first_turn": first[position.turn]} if cls is LongPosition else {}
            first[position.turn] = False
            out.append((position, roll, options))
            position = rng.choice(position.legal_plays(roll, **options)).after
    return out


def seconds(function, items) -> float:
    start = time.perf_counter()
    for item in items:
        function(*item)
    return time.perf_counter() - start


def play(position, roll, options):
    return position.legal_plays(roll, **options)


def counted(position) -> int:
    """Blocked rolls counted from the full legal plays of every roll (the definition)."""
    return sum(1 if roll.is_double else 2 for roll in ALL_ROLLS
               if not any(len(play) == len(roll.dice) or after.is_over
                          for play, after in position.legal_plays(roll)))


def engine_positions(cls, evaluator, count: int, rng: random.Random) -> list:
    """``count`` positions of games ``evaluator`` plays against itself (0-ply best plays)."""
    out = []
    while len(out) < count:
        position = cls.start()
        while not position.is_over and len(out) < count:
            out.append(position)
            roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
            position = evaluator.best_play(position, roll).after
    return out


def luck_seconds(make, positions) -> float:
    """CPU seconds of the equities after the best play of the 21 rolls of each position, on
    a fresh evaluator ``make()`` with no cache."""
    evaluator = make()
    start = time.process_time()
    for position in positions:
        evaluator.best_equities(position, ALL_ROLLS)
    return time.process_time() - start


def main() -> None:
    args = sys.argv[1:]
    count = int(args[args.index("--positions") + 1]) if "--positions" in args else 2000
    rolls = int(args[args.index("--rolls") + 1]) if "--rolls" in args else 300
    rng = random.Random(14)
    long, short = positions(LongPosition, count, rng), positions(Position, count, rng)
    long_s, short_s = seconds(play, long), seconds(play, short)
    print(f"legal_plays: long {long_s / count * 1e3:.3f} ms, short {short_s / count * 1e3:.3f} "
          f"ms a position: long/short {long_s / short_s:.2f}")
    sample = [(position,) for position, _, _ in long[::10]]
    fast, full = seconds(blocked_rolls, sample), seconds(counted, sample)
    print(f"blocked_rolls: {fast / len(sample) * 1e3:.2f} ms a position, from the full legal "
          f"plays {full / len(sample) * 1e3:.2f} ms: {full / fast:.1f} times faster")
    long = engine_positions(LongPosition, LongEvaluator(), rolls, rng)
    short = engine_positions(Position, GnubgNN(), rolls, rng)
    long_s = luck_seconds(lambda: LongEvaluator(cache_size=0), long) * 100 / rolls
    short_s = luck_seconds(lambda: GnubgNN(cache_size=0), short) * 100 / rolls
    print(f"luck's work, 21 rolls of each position: long {long_s:.2f} s CPU per 100 rolls "
          f"(goal <= 2), short (gnubg-nn) {short_s:.2f} s: long/short {long_s / short_s:.2f}")


if __name__ == "__main__":
    main()
