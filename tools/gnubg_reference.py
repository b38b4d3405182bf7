"""Record GNU Backgammon's own dice luck for match files, as test data for ``nardy luck``.

Usage::

    python tools/gnubg_reference.py --gnubg-python /work/gnubgvenv/bin/python \\
        --out tests/data/luck FILE.mat...

``--gnubg-python`` is a Python interpreter that has the full ``gnubg`` package from PyPI
(GPL-3; install it into a separate venv: ``python3 -m venv /work/gnubgvenv &&
/work/gnubgvenv/bin/pip install gnubg==1.1.0a16``). gnubg runs in a subprocess: it imports each
``.mat`` file, runs ``analyse match`` with one thread (``set threads 1`` first, or the analysis
never returns) and the luck analysis set to cubeless 0-ply (``--plies`` to change the ply),
saves the match as SGF and prints its match and game statistics. From the SGF every roll's
``LU[...]`` (gnubg's luck of that roll, normalised equity, 5 decimals) goes to ``NAME.luck.tsv``
with the columns ``game``, ``roll`` (1-based index of the roll in the game), ``player``
(0 = left column of the file), ``dice`` and ``luck`` (a roll whose play is not recorded,
``???``, gnubg does not analyse: it has no row); the per-player luck lines of gnubg's
match and game statistics go to ``NAME.stats.json`` (see :func:`parse_statistics`).

gnubg's importer silently repairs plays it finds illegal, so only files that our replayer
accepts without a violation are recorded, and the tool checks that gnubg saw the same games
and the same dice in the same order.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from nardy_analysis import Roll, replay_file

_GNUBG_SCRIPT = r"""
import sys, gnubg
mat, sgf, plies, games = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
for command in ["set threads 1", "set analysis chequerplay evaluation plies 0",
                "set analysis cubedecision evaluation plies 0",
                f"set analysis luckanalysis plies {plies}",
                "set analysis luckanalysis cubeful off",
                f"import mat {mat}", "analyse match", f"save match {sgf}"]:
    gnubg.command(command)
print("@@MATCH@@", flush=True)
gnubg.command("show statistics match")
gnubg.command("first game")
for game in range(games):
    print("@@GAME@@", flush=True)
    gnubg.command("show statistics game")
    gnubg.command("next game")
print(f"@@VERSION@@ {gnubg.__version__}", flush=True)
"""

_STAT_LINES = {
    "Rolls marked very lucky": "very_lucky",
    "Rolls marked lucky": "lucky",
    "Rolls unmarked": "unmarked",
    "Rolls marked unlucky": "unlucky",
    "Rolls marked very unlucky": "very_unlucky",
    "Luck total EMG": "luck_total",
    "Luck rate mEMG": "luck_rate",
    "Luck rating": "rating",
    "Actual result": "actual_result",
    "Luck adjusted result": "luck_adjusted_result",
    "Luck based FIBS rating diff.": "fibs_rating_difference",
}


def run_gnubg(gnubg_python: str, mat: Path, plies: int, games: int) -> tuple[str, list, str]:
    """Analyse ``mat`` with gnubg; returns (SGF text, [match statistics text, statistics
    text of each game], gnubg version)."""
    with tempfile.TemporaryDirectory() as tmp:
        sgf = Path(tmp) / "match.sgf"
        done = subprocess.run([gnubg_python, "-c", _GNUBG_SCRIPT, str(mat.resolve()), str(sgf),
                               str(plies), str(games)], capture_output=True, text=True,
                              timeout=3600, cwd=tmp, check=True)
        text = sgf.read_text(encoding="utf-8")
    output, version = done.stdout.split("@@MATCH@@", 1)[1].split("@@VERSION@@")
    return text, output.split("@@GAME@@"), version.strip()


def sgf_rolls(text: str) -> list[list[tuple[int, Roll, float]]]:
    """Per game, every roll of the SGF: (player 0/1 for W/B, roll, its ``LU`` luck)."""
    games = []
    for game in text.split("(;FF[4]")[1:]:
        rolls = []
        for node in game.split("\n;")[1:]:
            move = re.match(r"([WB])\[(\d)(\d)[a-z]*\]", node)
            if move is None:
                continue  # a cube action or a resignation
            luck = re.search(r"LU\[([-+0-9.eE]+)\]", node)
            if luck is None:
                raise ValueError(f"no LU[] in SGF node {node[:60]!r}")
            rolls.append(("WB".index(move[1]), Roll(int(move[2]), int(move[3])),
                          float(luck[1])))
        games.append(rolls)
    return games


def parse_statistics(text: str) -> dict:
    """The luck lines of gnubg's statistics: {key: [player 0, player 1]}.

    ``luck_total`` and ``luck_rate`` are in normalised equity (EMG; the rate in thousandths
    per roll); ``luck_total_mwc`` and ``luck_rate_mwc`` (match play, percent) or
    ``luck_total_points`` and ``luck_rate_points`` (money play, points) are gnubg's figures in
    brackets; results are percent of match-winning chance in match play, points in money play;
    ``fibs_rating_difference`` (match play) has the first player's number alone, as gnubg
    prints it.
    """
    found = {}
    for line in text.splitlines():
        for label, key in _STAT_LINES.items():
            if not line.startswith(label) or key in found:
                continue
            rest = line[len(label):]
            unit = re.match(r" \((MWC|Points)\)", rest)
            rest = rest[unit.end():] if unit else rest
            if key == "rating":
                found[key] = [part.strip() for part in re.split(r"\s{2,}", rest.strip())]
                continue
            numbers = [float(n) for n in re.findall(r"[-+]?\d+\.?\d*", rest)]
            if unit and len(numbers) == 4:
                found[key] = numbers[0::2]
                found[f"{key}_{unit[1].lower()}"] = numbers[1::2]
            else:
                found[key] = numbers
    return found


def record(path: Path, out: Path, gnubg_python: str, plies: int) -> int:
    """Write ``NAME.luck.tsv`` and ``NAME.stats.json`` for one file; returns rolls written."""
    matches = replay_file(path)
    if len(matches) != 1 or matches[0].errors:
        raise SystemExit(f"{path}: does not replay cleanly; gnubg would repair it silently")
    match = matches[0]
    text, statistics, version = run_gnubg(gnubg_python, path, plies, len(match.games))
    games = sgf_rolls(text)
    ours = [[(t.player, t.roll) for t in g.turns if t.play is not None] for g in match.games]
    theirs = [[(p, r) for p, r, _ in g] for g in games]
    if ours != theirs:
        raise SystemExit(f"{path}: gnubg saw other games or dice than our replay")
    lines = [f"# gnubg {version}: analyse match, luck analysis {plies}-ply cubeless, "
             f"from {path.name}",
             "game\troll\tplayer\tdice\tluck"]
    for game, rolls in zip(match.games, games):
        for index, (player, roll, luck) in enumerate(rolls, 1):
            lines.append(f"{game.number}\t{index}\t{player}\t{roll}\t{luck:.5f}")
    stem = path.stem
    (out / f"{stem}.luck.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    stats = {"gnubg": version, "plies": plies, "file": path.name,
             "match": parse_statistics(statistics[0]),
             "games": [parse_statistics(game) for game in statistics[1:]]}
    (out / f"{stem}.stats.json").write_text(json.dumps(stats) + "\n", encoding="utf-8")
    return sum(len(g) for g in games)


def reference_parser(doc: str) -> argparse.ArgumentParser:
    """The arguments every reference tool takes: the files, ``--gnubg-python``, ``--out``."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--gnubg-python", required=True,
                        help="a Python interpreter with the gnubg package installed")
    parser.add_argument("--out", type=Path, required=True, help="folder for the reference files")
    return parser


def main(argv=None) -> None:
    parser = reference_parser(__doc__)
    parser.add_argument("--plies", type=int, default=0, help="luck analysis ply (default 0)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for path in args.files:
        count = record(path, args.out, args.gnubg_python, args.plies)
        print(f"{path.name}: {count} rolls", file=sys.stderr)


if __name__ == "__main__":
    main()
