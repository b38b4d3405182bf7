"""Record GNU Backgammon's own 0-ply chances of races, as test data for the race checks of
``nardy_analysis.analysis.gnubg``.

Usage::

    python tools/gnubg_race_reference.py --gnubg-python /work/gnubgvenv/bin/python \\
        --out tests/data/race/gnubg_race.tsv [--count 400] [--seed 2026]

``--gnubg-python`` is a Python interpreter with the full ``gnubg`` package (GPL-3, 1.1.0a16,
in a venv of its own). gnubg runs in a subprocess: ``set threads 1``, then for each Position
ID ``gnubg.positionfromid`` and ``gnubg.evaluate`` with the cube centred (money) at 0-ply
(``evalcontext(0, 0, 1, 0, 0.0)``: cubeless, no noise), printed to 8 decimals. The positions
are races (no contact, not both sides home) drawn at random (``--seed``): one side has 1 to
15 checkers (15 more often, for gammons) on its points 1..6, or 1..9 or 1..12; the other 1 to
15 on its points 1..6, 1..9, 1..12, 1..15 or 1..18; either may be on roll. One row per
position: ``position_id`` (gnubg's, the player on roll's checkers second) and gnubg's
chances of the player on roll: ``win``, ``win_gammon``, ``win_backgammon``,
``lose_gammon``, ``lose_backgammon``.
"""

from __future__ import annotations

import argparse
import random
import subprocess

from nardy_analysis.game.position import Position
from nardy_analysis.game.rules import BAR, CHECKERS

_GNUBG_SCRIPT = r"""
import sys, gnubg
gnubg.command("set threads 1")
context = gnubg.evalcontext(0, 0, 1, 0, 0.0)
for line in sys.stdin:
    chances = gnubg.evaluate(gnubg.positionfromid(line.strip()), gnubg.cubeinfo(), context)
    print(line.strip(), *(f"{p:.8f}" for p in chances[:5]), sep="\t", flush=True)
print(f"@@VERSION@@ {gnubg.__version__}", flush=True)
"""

COLUMNS = ["position_id", "win", "win_gammon", "win_backgammon", "lose_gammon",
           "lose_backgammon"]


def random_side(rng: random.Random, tops: list[int]) -> tuple[int, ...]:
    """A side's checkers, off first, then points 1..24 and the bar: 1 to 15 checkers (15
    one time in four), each on a random point up to one of ``tops``."""
    count = CHECKERS if rng.random() < 0.25 else rng.randint(1, CHECKERS)
    top, side = rng.choice(tops), [0] * (BAR + 1)
    for _ in range(count):
        side[rng.randint(1, top)] += 1
    side[0] = CHECKERS - count
    return tuple(side)


def random_races(count: int, seed: int) -> list[Position]:
    """``count`` distinct races drawn with ``seed``."""
    rng, found = random.Random(seed), {}
    while len(found) < count:
        sides = [random_side(rng, [6, 9, 12]), random_side(rng, [6, 9, 12, 15, 18])]
        rng.shuffle(sides)
        backs = [max(point for point in range(1, BAR + 1) if side[point]) for side in sides]
        if sum(backs) <= BAR - 1 and max(backs) > 6:
            position = Position(sides, rng.randrange(2))
            found.setdefault(position.id(), position)
    return list(found.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gnubg-python", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--count", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    ids = "".join(f"{p.id()}\n" for p in random_races(args.count, args.seed))
    done = subprocess.run([args.gnubg_python, "-c", _GNUBG_SCRIPT], input=ids,
                          capture_output=True, text=True, check=True, timeout=600)
    rows, version = done.stdout.split("@@VERSION@@")
    rows = [row for row in rows.splitlines() if row.count("\t") == len(COLUMNS) - 1]
    header = (f"# gnubg {version.strip()}: evaluate at 0-ply (cubeless, money) of "
              f"{args.count} random races, seed {args.seed}\n")
    with open(args.out, "w", encoding="utf-8") as out:
        out.write(header + "\t".join(COLUMNS) + "\n" + "\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
