"""Have GNU Backgammon write SGF for match files, and read SGF back, as test data for the SGF
reader.

Usage::

    python tools/gnubg_sgf.py save --gnubg-python /work/gnubgvenv/bin/python \\
        --out tests/data/sgf FILE.mat...
    python tools/gnubg_sgf.py check --gnubg /usr/games/gnubg FILE.sgf...

``--gnubg-python`` is a Python interpreter that has the full ``gnubg`` package from PyPI
(GPL-3; install it into a separate venv: ``python3 -m venv /work/gnubgvenv &&
/work/gnubgvenv/bin/pip install gnubg==1.1.0a16``). That package writes SGF but cannot read
it: every ``load match``/``load game`` of an SGF file crashes it (a segmentation fault in
``LoadCollection``, gnubg 1.1.0a16 from PyPI). ``--gnubg`` is therefore gnubg's command-line
program, which reads SGF (Debian's package ``gnubg``, 1.07.001: ``apt-get install
gnubg``; it is ``/usr/games/gnubg``), run as ``gnubg -t -q -r`` with its commands on stdin.
gnubg runs in a subprocess, one per file, with one thread (``set threads 1`` first).

``save`` imports each ``.mat`` (``import mat F``) and saves it as SGF (``save match
NAME.sgf``) into ``--out``, then appends a row to ``--out``/``sgf.tsv``: the SGF file, the
``.mat`` it came from, gnubg's version, and the games, rolls and cube actions of the SGF (as
:func:`nardy_analysis.notation.sgf.parse_sgf` reads them). Only files that our replayer
accepts without a violation are saved (gnubg's importer silently repairs what it finds
illegal).

``check`` loads each SGF (``load match F``), exports it as ``.mat`` (``export match mat``)
and prints that text; :func:`gnubg_mat` does the same for the test suite, which compares its
moves with the SGF's.
"""

from __future__ import annotations

import argparse
import csv
import subprocess
import sys
import tempfile
from pathlib import Path

_SCRIPT = r"""
import sys, gnubg
mat, sgf = sys.argv[1:3]
for command in ["set threads 1", f"import mat {mat}", f"save match {sgf}"]:
    gnubg.command(command)
print(f"@@VERSION@@ {gnubg.__version__}", flush=True)
"""


def gnubg_sgf(gnubg_python: str, mat: Path) -> tuple[str, str]:
    """gnubg's SGF for the ``.mat`` file ``mat`` (``import mat``, ``save match``) with the
    gnubg Python package; returns (SGF text, gnubg version)."""
    with tempfile.TemporaryDirectory() as tmp:
        sgf = Path(tmp) / "match.sgf"
        done = subprocess.run([gnubg_python, "-c", _SCRIPT, str(mat.resolve()), str(sgf)],
                              capture_output=True, text=True, timeout=600, cwd=tmp, check=True)
        return sgf.read_bytes().decode("utf-8"), done.stdout.rsplit("@@VERSION@@", 1)[1].strip()


def gnubg_mat(gnubg: str, sgf: Path) -> str:
    """gnubg's ``.mat`` export of the SGF file ``sgf`` (``load match``, ``export match
    mat``), with gnubg's command-line program ``gnubg``; "" when gnubg writes nothing."""
    with tempfile.TemporaryDirectory() as tmp:
        mat = Path(tmp) / "match.mat"
        commands = f"set threads 1\nload match {sgf.resolve()}\nexport match mat {mat}\n"
        subprocess.run([gnubg, "-t", "-q", "-r"], input=commands, capture_output=True,
                       text=True, timeout=600, cwd=tmp, check=True)
        return mat.read_bytes().decode("utf-8") if mat.exists() else ""


def _counts(text: str, name: str) -> tuple[int, int, int]:
    """Games, rolls and cube actions of the SGF text, as our reader reads them."""
    from nardy_analysis.notation.records import CubeRecord
    from nardy_analysis.notation.sgf import parse_sgf

    match, = parse_sgf(text, name, strict=True).matches
    games = match.games
    return (len(games), sum(len(g.turns) for g in games),
            sum(isinstance(a, CubeRecord) for g in games for a in g.actions))


def save(gnubg_python: str, out: Path, mats: list[Path]) -> None:
    """Write ``NAME.sgf`` for each ``.mat`` into ``out`` and a row for it in ``sgf.tsv``."""
    from nardy_analysis.replay import replay_file

    out.mkdir(parents=True, exist_ok=True)
    table = out / "sgf.tsv"
    rows = {}
    if table.exists():
        with table.open(newline="") as handle:
            rows = {row["sgf"]: row for row in csv.DictReader(handle, delimiter="\t")}
    for mat in mats:
        if any(match.errors for match in replay_file(mat)):
            print(f"{mat}: skipped, it breaks the rules", file=sys.stderr)
            continue
        text, version = gnubg_sgf(gnubg_python, mat)
        name = mat.with_suffix(".sgf").name
        (out / name).write_bytes(text.encode("utf-8"))
        games, rolls, cubes = _counts(text, name)
        rows[name] = {"sgf": name, "mat": mat.name, "gnubg": version, "games": games,
                      "rolls": rolls, "cube_actions": cubes}
        print(f"{name}: {games} games, {rolls} rolls, {cubes} cube actions", file=sys.stderr)
    with table.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, ["sgf", "mat", "gnubg", "games", "rolls",
                                         "cube_actions"], delimiter="\t", lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows[name] for name in sorted(rows))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("command", choices=["save", "check"])
    parser.add_argument("--gnubg-python", help="for save: Python with the gnubg package")
    parser.add_argument("--gnubg", default="/usr/games/gnubg",
                        help="for check: gnubg's command-line program")
    parser.add_argument("--out", type=Path, default=Path("tests/data/sgf"))
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args(argv)
    if args.command == "save":
        save(args.gnubg_python, args.out, args.files)
    else:
        for sgf in args.files:
            print(gnubg_mat(args.gnubg, sgf), end="")


if __name__ == "__main__":
    main()
