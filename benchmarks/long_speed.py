"""Long nardy legal plays, blocked rolls and luck, timed against their peers in the same run.

Usage: python benchmarks/long_speed.py [--positions N] [--luck-games N]

Plays random games of both games from the start (seeded) until N positions (default 2,000)
each, then times ``legal_plays`` of each position's roll for both, and ``blocked_rolls`` of the
long positions against counting the same rolls from their full legal plays. Prints the
times and the ratios (the simulator and the turns frame call these a lot).

Luck: ``luck_frame`` of ``--luck-games`` (default 3) simulated long nardy games, in CPU
seconds per 100 rolls, each game on a fresh engine (no cached evaluation; the weights and the
bear-off table, loaded once per process, are loaded before the clock starts), against the
same 21 best-play equities of each position found roll by roll (one matrix product per
roll, ``Evaluator.best_equities``), and the share of the time spent in ``legal_plays`` of
the 21 rolls, the floor of both.
"""

import random
import sys
import time

from nardy_analysis.analysis.engine import Evaluator
from nardy_analysis.analysis.long_engine import LongEvaluator
from nardy_analysis.analysis.luck import luck_frame
from nardy_analysis.game.long import LongPosition, blocked_rolls
from nardy_analysis.game.position import ALL_ROLLS, Position, Roll
from nardy_analysis.game.rules import LONG
from nardy_analysis.replay import replay_match
from nardy_analysis.simulate import simulate_matches


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


def cpu(function, *args) -> float:
    """CPU seconds of ``function(*args)`` in this process."""
    start = time.process_time()
    function(*args)
    return time.process_time() - start


def roll_by_roll(match, engine: LongEvaluator) -> None:
    """The 21 best-play equities of every position of ``match``'s game, roll by roll."""
    for turn in match.games[0].turns:
        Evaluator.best_equities(engine, turn.before, ALL_ROLLS)


def luck_speed(games: int) -> None:
    """The luck figures of the module docstring."""
    matches = [replay_match(record) for record in simulate_matches(
        games, seed=24, length=0, games=1, rules=LONG)]
    positions = [turn.before for match in matches for turn in match.games[0].turns]
    LongEvaluator().best_equities(LongPosition.start(), ALL_ROLLS)  # weights, bear-off table
    batched = sum(cpu(luck_frame, match, LongEvaluator()) for match in matches)
    single = sum(cpu(roll_by_roll, match, LongEvaluator()) for match in matches)
    plays = cpu(lambda: [p.legal_plays(r, LONG, first_turn=p.on_roll[24] == 15)
                         for p in positions for r in ALL_ROLLS])
    per = 100 / len(positions)
    print(f"luck of {len(positions)} long nardy rolls ({games} games): {batched * per:.2f} s "
          f"CPU per 100 rolls, batched; roll by roll {single * per:.2f} s: "
          f"{single / batched:.2f} times as long; legal_plays of the 21 rolls alone "
          f"{plays * per:.2f} s per 100 rolls, {plays / batched:.0%} of the batched luck")


def main() -> None:
    args = sys.argv[1:]
    count = int(args[args.index("--positions") + 1]) if "--positions" in args else 2000
    luck_speed(int(args[args.index("--luck-games") + 1]) if "--luck-games" in args else 3)
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
