"""Record GNU Backgammon's own equities of two-sided bear-offs, as test data for
``nardy_analysis.analysis.bearoff``.

Usage::

    python tools/gnubg_bearoff_reference.py --gnubg-python /work/gnubgvenv/bin/python \\
        --out tests/data/bearoff/gnubg_bearoff.tsv [--count 24] [--seed 2026]

``--gnubg-python`` is a Python interpreter with the full ``gnubg`` package (GPL-3, 1.1.0a16,
in a venv of its own). gnubg runs in a subprocess: ``set threads 1``, ``set output digits
5``, ``new session``, then for each position ``set board simple ...`` with the player on roll
to move and ``eval`` three times, the cube centred, owned by the player on roll (``set cube
owner``) and by the opponent. The positions are drawn at random (``--seed``): each side 1 to 6
checkers, each on a point 1..6 at random. One row per position: ``on_roll`` and
``opponent`` (checkers on points 1..6, as ``a-b-c-d-e-f``), gnubg's ``evaluator``, and
gnubg's 0-ply equities for the player on roll as it printed them: ``cubeless``, the
cubeful (no double) ``owned``, ``centred`` and ``opponent_owns``, and ``double_take`` (the
centred cube's "Double, take", twice the equity after doubling).
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess

_GNUBG_SCRIPT = r"""
import sys, gnubg
gnubg.command("set threads 1")
gnubg.command("set output digits 5")
gnubg.command("new session")
for line in sys.stdin:
    board = line.split()
    for owner in ("centred", "0", "1"):
        gnubg.command("set turn 0")
        gnubg.command("set cube center" if owner == "centred" else f"set cube owner {owner}")
        gnubg.command("set board simple " + " ".join(board))
        print(f"@@EVAL@@ {owner}", flush=True)
        gnubg.command("eval")
print(f"@@VERSION@@ {gnubg.__version__}", flush=True)
"""


def random_side(rng: random.Random) -> tuple[int, ...]:
    """Checkers on points 1..6: 1 to 6 checkers, each on a random point."""
    side = [0] * 6
    for _ in range(rng.randint(1, 6)):
        side[rng.randrange(6)] += 1
    return tuple(side)


def simple_board(on_roll, opponent) -> str:
    """gnubg's ``set board simple`` numbers: the bar, points 1..24 of the player on roll
    (the opponent's negative, their point p is 25 - p), the opponent's bar."""
    points = [0] * 26
    for point, n in enumerate(on_roll, 1):
        points[point] = n
    for point, n in enumerate(opponent, 1):
        points[25 - point] = -n
    return " ".join(map(str, points))


def parse(text: str) -> list[dict]:
    """gnubg's ``eval`` outputs, three per position, as rows of numbers."""
    rows, row = [], {}
    for block in text.split("@@EVAL@@ ")[1:]:
        owner = block.split()[0]
        static = re.search(r"static:\s+(\S+\s+){5}(\S+)\s+(\S+)", block)
        cubeless, cubeful = float(static.group(2)), float(static.group(3))
        row["evaluator"] = re.search(r"Evaluator:\s+(\S+)", block).group(1)
        row["cubeless"] = cubeless
        row[{"centred": "centred", "0": "owned", "1": "opponent_owns"}[owner]] = cubeful
        if owner == "centred":
            row["double_take"] = float(re.search(r"Double, take\s+(\S+)", block).group(1))
        if owner == "1":
            rows.append(row)
            row = {}
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gnubg-python", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--count", type=int, default=24)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    pairs = [(random_side(rng), random_side(rng)) for _ in range(args.count)]
    done = subprocess.run([args.gnubg_python, "-c", _GNUBG_SCRIPT], check=True, text=True,
                          capture_output=True,
                          input="".join(simple_board(*pair) + "\n" for pair in pairs))
    version = done.stdout.rsplit("@@VERSION@@", 1)[1].strip()
    rows = parse(done.stdout.rsplit("@@VERSION@@", 1)[0])
    columns = ["evaluator", "cubeless", "owned", "centred", "opponent_owns", "double_take"]
    with open(args.out, "w", encoding="utf-8") as out:
        out.write(f"# gnubg {version}: eval at 0-ply (set output digits 5), "
                  f"tools/gnubg_bearoff_reference.py --count {args.count} --seed {args.seed}\n")
        out.write("\t".join(["on_roll", "opponent", *columns]) + "\n")
        for (mine, theirs), row in zip(pairs, rows, strict=True):
            out.write("\t".join(["-".join(map(str, mine)), "-".join(map(str, theirs)),
                                 *(str(row[c]) for c in columns)]) + "\n")


if __name__ == "__main__":
    main()
