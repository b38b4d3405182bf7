"""Long nardy legal plays and blocked rolls, timed against short nardy in the same run.

Usage: python benchmarks/long_speed.py [--positions N]

Plays random games of both games from the start (seeded) until N positions (default 2,000)
each, then times ``legal_plays`` of each position's roll for both, and ``blocked_rolls`` of the
long positions against counting the same rolls from their full legal plays. Prints the
times and the ratios (issue 14: the simulator and the turns frame call these a lot).
"""

import random
import sys
import time

from nardy_analysis.game.long import LongPosition, blocked_rolls
from nardy_analysis.game.position import ALL_ROLLS, Position, Roll


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


def main() -> None:
    args = sys.argv[1:]
    count = int(args[args.index("--positions") + 1]) if "--positions" in args else 2000
    rng = random.Random(14)
    long, short = positions(LongPosition, count, rng), positions(Position, count, rng)
    long_s, short_s = seconds(play, long), seconds(play, short)
    print(f"legal_plays: long {long_s / count * 1e3:.3f} ms, short {short_s / count * 1e3:.3f} "
          f"ms a position: long/short {long_s / short_s:.2f}")
    sample = [(position,) for position, _, _ in long[::10]]
    fast, full = seconds(blocked_rolls, sample), seconds(counted, sample)
    print(f"blocked_rolls: {fast / len(sample) * 1e3:.2f} ms a position, from the full legal "
          f"plays {full / len(sample) * 1e3:.2f} ms: {full / fast:.1f} times faster")


if __name__ == "__main__":
    main()
