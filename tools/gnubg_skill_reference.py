"""Record GNU Backgammon's own skill analysis of match files, as test data for ``nardy skill``.

Usage::

    python tools/gnubg_skill_reference.py --gnubg-python /work/gnubgvenv/bin/python \\
        --out tests/data/skill FILE.mat...

``--gnubg-python`` is a Python interpreter with the full ``gnubg`` package (GPL-3, 1.1.0a16,
in a venv of its own; see tools/gnubg_reference.py). gnubg runs in a subprocess: ``set
threads 1``, chequerplay and cube decisions evaluated at 0 plies (cubeful, gnubg's default;
``--plies 2``: its "World class" preset, cubeful 2-ply with pruning nets and the "Normal"
move filter, :func:`settings`), luck at 0 plies (cubeful too, gnubg's default, as
``skill_summary``'s luck), ``import mat``, ``analyse match``, ``save match`` (SGF, kept as
``NAME.sgf`` with ``--keep-sgf``) and ``show statistics match``; the CPU seconds of gnubg's
process go to the statistics file (``--no-cache``: ``set cache 0`` first, gnubg's evaluation
cache off, which changes its World class luck). For each ``NAME.mat``:

* ``NAME.skill.json``: every line of gnubg's "Match statistics" table as gnubg printed it,
  ``{label: [player 0 text, player 1 text]}`` (player 0 is the left column of the file), with
  the gnubg version, the settings and gnubg's CPU seconds;
* ``NAME.moves.tsv``: one row per move gnubg analysed (from the SGF ``A[...]`` property of
  each move): ``game``, ``roll`` (order of the roll in the game, dances included, as in the
  luck data), ``player``, ``dice``, ``plays`` (candidate plays gnubg listed), ``played``
  (gnubg's cubeful equity of the play made at the analysis' ply, normalised equity), ``best``
  (that of its best play) and ``best_play`` (gnubg's SGF encoding of it);
* ``NAME.cubes.tsv``: one row per cube decision gnubg analysed (from the SGF ``DA[...]``
  property): ``game``, ``roll`` (the roll it comes before), ``player`` (who may double),
  ``no_double`` and ``double_take`` (gnubg's cubeful equities of the player, MWC in match
  play, as it wrote them).

Only files our replayer accepts cleanly (a game's last play may be unknown, ``????``) are
recorded and the tool checks that gnubg saw the
same games and dice (:func:`gnubg_reference.sgf_rolls`).
"""

from __future__ import annotations

import json
import re
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gnubg_reference import reference_parser, sgf_rolls  # noqa: E402

from nardy_analysis import replay_file  # noqa: E402

_GNUBG_SCRIPT = r"""
import json, sys, gnubg
mat, sgf, settings = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
for command in ["set threads 1", *settings, f"import mat {mat}", "analyse match",
                f"save match {sgf}"]:
    gnubg.command(command)
print("@@MATCH@@", flush=True)
gnubg.command("show statistics match")
print(f"@@VERSION@@ {gnubg.__version__}", flush=True)
"""

_EVALUATION = ("cubeful on", "prune on", "noise 0", "deterministic on")
_NORMAL_FILTER = ("1 0 0 8 0.16", "2 0 0 8 0.16", "2 1 -1 0 0", "3 0 0 8 0.16", "3 1 -1 0 0",
                  "3 2 0 2 0.04", "4 0 0 8 0.16", "4 1 -1 0 0", "4 2 0 2 0.04", "4 3 -1 0 0")
"""GNU Backgammon's "Normal" move filter (eval.c, ``MOVEFILTER_NORMAL``), one ``set analysis
movefilter PLY LEVEL ACCEPT EXTRA THRESHOLD`` per line: for 2 plies, the plays within 0.16
of the 0-ply best, at most 8, evaluated again at 2 plies."""


def settings(plies: int) -> list[str]:
    """gnubg's analysis settings: chequerplay and cube decisions at ``plies`` (0: its
    "Expert" preset; 2: "World class", cubeful with pruning nets and the Normal move filter),
    luck at 0 plies cubeful (its default, also in the World class preset)."""
    found = []
    for kind in ("chequerplay", "cubedecision"):
        found += [f"set analysis {kind} evaluation plies {plies}"]
        if plies:
            found += [f"set analysis {kind} evaluation {setting}" for setting in _EVALUATION]
    if plies:
        found += [f"set analysis movefilter {line}" for line in _NORMAL_FILTER]
    return found + ["set analysis luckanalysis plies 0"]


def statistics_table(text: str) -> dict[str, dict[str, list[str]]]:
    """gnubg's statistics table as ``{section: {label: [left column, right column]}}``, the
    sections ``Chequerplay``, ``Luck``, ``Cube`` and ``Overall``, the texts as printed.

    The columns start where the players' names start on the ``Player`` line.
    """
    lines = text.splitlines()
    header = next(line for line in lines if line.startswith("Player "))
    starts = [m.start() for m in re.finditer(r"(?<=\s)\S", header)][:2]
    table, section = {}, None
    for line in lines:
        title = re.fullmatch(r"(\w+) statistics\s*", line)
        if title:
            section = table.setdefault(title[1], {})
            continue
        label = line[:starts[0]].strip()
        values = [line[starts[0]:starts[1]].strip(), line[starts[1]:].strip()]
        if section is not None and label and any(values):
            section[label] = values
    return table


def sgf_moves(text: str) -> list[list[tuple]]:
    """Per game, each analysed move of the SGF: (roll index from 1, candidate plays, the
    played one's equity, the best one's equity, the best play's SGF encoding)."""
    games = []
    for game in text.split("(;FF[4]")[1:]:
        moves, index = [], 0
        for node in game.split("\n;")[1:]:
            if re.match(r"[WB]\[\d\d[a-z]*\]", node) is None:
                continue
            index += 1
            analysis = re.search(r"A\[(\d+)\]((?:\[[^\]]*\])+)", node)
            if analysis is None:
                continue  # a forced or danced roll: gnubg lists no plays
            plays = re.findall(r"\[([a-z]*) E ver \d+ ((?:[-0-9.]+ ){6})", analysis[2])
            equities = [float(p[1].split()[5]) for p in plays]
            moves.append((index, len(plays), equities[int(analysis[1])], equities[0],
                          plays[0][0]))
        games.append(moves)
    return games


def sgf_cubes(text: str) -> list[list[tuple]]:
    """Per game, each cube decision gnubg analysed (the SGF ``DA[...]`` property of the move
    or double that follows it): (index from 1 of the roll it comes before, the player who
    may double, no double, double take), gnubg's cubeful equities (MWC in match play) as it
    wrote them. Player 0 is ``W``, as in :func:`gnubg_reference.sgf_rolls`."""
    games = []
    for game in text.split("(;FF[4]")[1:]:
        cubes, index = [], 0
        for node in game.split("\n;")[1:]:
            move = re.match(r"[WB]\[\d\d[a-z]*\]", node) is not None
            index += move
            found = re.search(r"DA\[E ver \d+ ((?:[-0-9.C]+ ?)+)\]", node)
            if found is not None and (move or node[1:9] == "[double]"):  # not a take's
                fields = found[1].split()  # 2C, cube, ..., 5 chances, cubeless, ND, ..., DT
                cubes.append((index if move else index + 1, "WB".index(node[0]),
                              float(fields[10]), float(fields[17])))
        games.append(cubes)
    return games


def _unknown_last(game) -> bool:
    """The game's only gap is its last roll's play, written ``????`` (gnubg imports the
    roll, not a move)."""
    return not game.errors and bool(game.turns) and game.turns[-1].record.moves is None \
        and all(turn.record.moves is not None for turn in game.turns[:-1])


def record(path: Path, out: Path, gnubg_python: str, plies: int = 0,
           keep_sgf: bool = False, cache: bool = True) -> int:
    """Write ``NAME.skill.json``, ``NAME.moves.tsv`` and ``NAME.cubes.tsv`` for one file
    (and gnubg's SGF, ``NAME.sgf``, with ``keep_sgf``; without ``cache``, gnubg's
    evaluation cache off first, ``set cache 0``); returns moves written."""
    matches = replay_file(path)
    if len(matches) != 1 or matches[0].errors or not all(g.complete or _unknown_last(g)
                                                          for g in matches[0].games):
        raise SystemExit(f"{path}: does not replay cleanly; gnubg would repair it silently")
    match = matches[0]
    commands = settings(plies) if cache else ["set cache 0", *settings(plies)]
    with tempfile.TemporaryDirectory() as tmp:
        sgf = Path(tmp) / "match.sgf"
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
        done = subprocess.run([gnubg_python, "-c", _GNUBG_SCRIPT, str(path.resolve()),
                               str(sgf), json.dumps(commands)], capture_output=True, text=True,
                              timeout=36000, cwd=tmp, check=True)
        seconds = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before
        text = sgf.read_text(encoding="utf-8")
        if keep_sgf:
            (out / f"{path.stem}.sgf").write_text(text, encoding="utf-8")
    output, version = done.stdout.split("@@MATCH@@", 1)[1].split("@@VERSION@@")
    ours = [[(t.player, t.roll) for t in g.turns if t.record.moves is not None]
            for g in match.games]  # gnubg keeps a last ``????`` roll as dice set, no move
    if ours != [[(p, r) for p, r, _ in g] for g in sgf_rolls(text)]:
        raise SystemExit(f"{path}: gnubg saw other games or dice than our replay")
    lines = [f"# gnubg {version.strip()}: analyse match, chequerplay {plies}-ply cubeful, "
             f"from {path.name}", "game\troll\tplayer\tdice\tplays\tplayed\tbest\tbest_play"]
    for game, moves in zip(match.games, sgf_moves(text)):
        for index, plays, played, best, key in moves:
            turn = game.turns[index - 1]
            lines.append(f"{game.number}\t{index}\t{turn.player}\t{turn.roll}\t{plays}\t"
                         f"{played:.6f}\t{best:.6f}\t{key}")
    (out / f"{path.stem}.moves.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    cubes = [f"# gnubg {version.strip()}: analyse match, cube decisions {plies}-ply cubeful, "
             f"from {path.name}", "game\troll\tplayer\tno_double\tdouble_take"]
    for game, found in zip(match.games, sgf_cubes(text)):
        cubes += [f"{game.number}\t{index}\t{player}\t{nd:.6f}\t{dt:.6f}"
                  for index, player, nd, dt in found]
    (out / f"{path.stem}.cubes.tsv").write_text("\n".join(cubes) + "\n", encoding="utf-8")
    stats = {"gnubg": version.strip(),
             "settings": "; ".join(["set threads 1", *commands, "import mat", "analyse match",
                                    "save match", "show statistics match"]),
             "cpu_seconds": round(seconds, 1), "file": path.name,
             "match": statistics_table(output)}
    (out / f"{path.stem}.skill.json").write_text(json.dumps(stats, indent=1) + "\n",
                                                 encoding="utf-8")
    return len(lines) - 2


def main(argv=None) -> None:
    parser = reference_parser(__doc__)
    parser.add_argument("--plies", type=int, choices=(0, 2), default=0,
                        help="chequerplay and cube analysis plies (2: World class)")
    parser.add_argument("--keep-sgf", action="store_true", help="also keep gnubg's SGF")
    parser.add_argument("--no-cache", action="store_true",
                        help="turn gnubg's evaluation cache off first (set cache 0)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for path in args.files:
        count = record(path, args.out, args.gnubg_python, args.plies, args.keep_sgf,
                       not args.no_cache)
        print(f"{path.name}: {count} moves", file=sys.stderr)


if __name__ == "__main__":
    main()
