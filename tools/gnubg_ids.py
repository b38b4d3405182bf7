"""Record the Position and Match IDs GNU Backgammon prints for every position of match files.

Usage::

    python tools/gnubg_ids.py --gnubg-python /work/gnubgvenv/bin/python \\
        --out tests/data/gnubg_ids.tsv FILE.mat...

``--gnubg-python`` is an interpreter with the full ``gnubg`` package from PyPI (GPL-3, in a venv
of its own: ``python3 -m venv /work/gnubgvenv && /work/gnubgvenv/bin/pip install
gnubg==1.1.0a16``). gnubg runs in a subprocess: ``set threads 1``, ``import mat FILE``, then it
steps through every record of every game (``gnubg.navigate``) and prints, for each position,
``gnubg.matchid()``, ``gnubg.positionid()`` and the state gnubg itself reports for it
(``gnubg.posinfo()``: dice, player on roll, resignation, double offered, game state;
``gnubg.cubeinfo()``: cube, its owner, the player on move, match length, score, Crawford,
Jacoby). One TSV row per distinct (settings, file, Match ID, Position ID), in match order;
``settings`` are the ``--command`` lines given to gnubg before the import (e.g. ``set jacoby
off``).
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
from pathlib import Path

_GNUBG_SCRIPT = r"""
import json, sys, gnubg
gnubg.command("set threads 1")
for command in sys.argv[2:]:
    gnubg.command(command)
gnubg.command(f"import mat {sys.argv[1]}")
games = gnubg.match()["games"]
for game, record in enumerate(games):
    gnubg.navigate()
    if game:
        gnubg.navigate(game=game)
    for _ in range(len(record["game"]) + 1):
        try:
            row = {"match_id": gnubg.matchid(), "position_id": gnubg.positionid(),
                   "game": game + 1, **gnubg.posinfo(), **gnubg.cubeinfo()}
        except (ValueError, RuntimeError):
            row = None
        if row:
            row.pop("gammonprice", None)
            print("@@ROW@@", json.dumps(row), flush=True)
        gnubg.navigate(next=1)
"""

COLUMNS = ["settings", "file", "game", "match_id", "position_id", "dice", "turn", "resigned",
           "doubled", "gamestate", "cube", "cubeowner", "move", "matchto", "score", "crawford",
           "jacoby", "beavers", "bgv"]


def ids_of(gnubg_python: str, path: Path, commands: list[str]) -> list[dict]:
    """gnubg's rows for one file, with ``commands`` given to gnubg before the import."""
    out = subprocess.run([gnubg_python, "-c", _GNUBG_SCRIPT, str(path), *commands],
                         capture_output=True, text=True, timeout=600, check=True).stdout
    rows = [json.loads(line[8:]) for line in out.splitlines() if line.startswith("@@ROW@@ ")]
    for row in rows:
        row["file"] = path.name
        row["settings"] = "; ".join(commands)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gnubg-python", required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--command", action="append", default=[],
                        help="a gnubg command to give before the import (repeatable)")
    parser.add_argument("--append", action="store_true", help="add rows to an existing --out")
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args()
    old = list(csv.DictReader(args.out.open(), delimiter="\t")) if args.append else []
    seen = {(row["settings"], row["file"], row["match_id"], row["position_id"]) for row in old}
    rows = []
    for path in args.files:
        for row in ids_of(args.gnubg_python, path, args.command):
            key = (row["settings"], row["file"], row["match_id"], row["position_id"])
            if key not in seen:
                seen.add(key)
                rows.append(row)
    with args.out.open("a" if args.append else "w", newline="") as handle:
        writer = csv.DictWriter(handle, COLUMNS, delimiter="\t", extrasaction="ignore",
                                lineterminator="\n")
        if not args.append:
            writer.writeheader()
        for row in rows:
            writer.writerow({k: " ".join(map(str, v)) if isinstance(v, (list, tuple)) else v
                             for k, v in row.items()})
    print(f"{len(rows)} rows from {len(args.files)} files", file=sys.stderr)


if __name__ == "__main__":
    main()
