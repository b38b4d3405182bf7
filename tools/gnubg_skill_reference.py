"""Record GNU Backgammon's own skill analysis of match files, as test data for ``nardy skill``.

Usage::

    python tools/gnubg_skill_reference.py --gnubg-python /work/gnubgvenv/bin/python \\
        --out tests/data/skill FILE.mat...

``--gnubg-python`` is a Python interpreter with the full ``gnubg`` package (GPL-3, 1.1.0a16,
in a venv of its own; see tools/gnubg_reference.py). gnubg runs in a subprocess: ``set
threads 1``, chequerplay and cube decisions evaluated at 0 plies (cubeful, gnubg's default),
luck at 0 plies (cubeful too, gnubg's default, as ``skill_summary``'s luck), ``import mat``,
``analyse match``, ``save match`` (SGF) and ``show statistics match``. For each
``NAME.mat``:

* ``NAME.skill.json``: every line of gnubg's "Match statistics" table as gnubg printed it,
  ``{label: [player 0 text, player 1 text]}`` (player 0 is the left column of the file), with
  the gnubg version and the settings;
* ``NAME.moves.tsv``: one row per move gnubg analysed (from the SGF ``A[...]`` property of
  each move): ``game``, ``roll`` (order of the roll in the game, dances included, as in the
  luck data), ``player``, ``dice``, ``plays`` (candidate plays gnubg listed), ``played``
  (gnubg's cubeful 0-ply equity of the play made, normalised equity), ``best`` (that of its
  best play) and ``best_play`` (gnubg's SGF encoding of it).

Only files our replayer accepts cleanly (a game's last play may be unknown, ``????``) are
recorded and the tool checks that gnubg saw the
same games and dice (:func:`gnubg_reference.sgf_rolls`).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gnubg_reference import reference_parser, sgf_rolls  # noqa: E402

from nardy_analysis import replay_file  # noqa: E402

_GNUBG_SCRIPT = r"""
import sys, gnubg
mat, sgf = sys.argv[1], sys.argv[2]
for command in ["set threads 1", "set analysis chequerplay evaluation plies 0",
                "set analysis cubedecision evaluation plies 0",
                "set analysis luckanalysis plies 0", f"import mat {mat}", "analyse match",
                f"save match {sgf}"]:
    gnubg.command(command)
print("@@MATCH@@", flush=True)
gnubg.command("show statistics match")
print(f"@@VERSION@@ {gnubg.__version__}", flush=True)
"""

SETTINGS = ("set threads 1; set analysis chequerplay evaluation plies 0; set analysis "
            "cubedecision evaluation plies 0; set analysis luckanalysis plies 0; import mat; "
            "analyse match; save match; show statistics match")


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


def _unknown_last(game) -> bool:
    """The game's only gap is its last roll's play, written ``????`` (gnubg imports the
    roll, not a move)."""
    return not game.errors and bool(game.turns) and game.turns[-1].record.moves is None \
        and all(turn.record.moves is not None for turn in game.turns[:-1])


def record(path: Path, out: Path, gnubg_python: str) -> int:
    """Write ``NAME.skill.json`` and ``NAME.moves.tsv`` for one file; returns moves written."""
    matches = replay_file(path)
    if len(matches) != 1 or matches[0].errors or not all(g.complete or _unknown_last(g)
                                                          for g in matches[0].games):
        raise SystemExit(f"{path}: does not replay cleanly; gnubg would repair it silently")
    match = matches[0]
    with tempfile.TemporaryDirectory() as tmp:
        sgf = Path(tmp) / "match.sgf"
        done = subprocess.run([gnubg_python, "-c", _GNUBG_SCRIPT, str(path.resolve()),
                               str(sgf)], capture_output=True, text=True, timeout=3600,
                              cwd=tmp, check=True)
        text = sgf.read_text(encoding="utf-8")
    output, version = done.stdout.split("@@MATCH@@", 1)[1].split("@@VERSION@@")
    ours = [[(t.player, t.roll) for t in g.turns if t.record.moves is not None]
            for g in match.games]  # gnubg keeps a last ``????`` roll as dice set, no move
    if ours != [[(p, r) for p, r, _ in g] for g in sgf_rolls(text)]:
        raise SystemExit(f"{path}: gnubg saw other games or dice than our replay")
    lines = [f"# gnubg {version.strip()}: analyse match, chequerplay 0-ply cubeful, "
             f"from {path.name}", "game\troll\tplayer\tdice\tplays\tplayed\tbest\tbest_play"]
    for game, moves in zip(match.games, sgf_moves(text)):
        for index, plays, played, best, key in moves:
            turn = game.turns[index - 1]
            lines.append(f"{game.number}\t{index}\t{turn.player}\t{turn.roll}\t{plays}\t"
                         f"{played:.6f}\t{best:.6f}\t{key}")
    (out / f"{path.stem}.moves.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    stats = {"gnubg": version.strip(), "settings": SETTINGS, "file": path.name,
             "match": statistics_table(output)}
    (out / f"{path.stem}.skill.json").write_text(json.dumps(stats, indent=1) + "\n",
                                                 encoding="utf-8")
    return len(lines) - 2


def main(argv=None) -> None:
    args = reference_parser(__doc__).parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for path in args.files:
        print(f"{path.name}: {record(path, args.out, args.gnubg_python)} moves",
              file=sys.stderr)


if __name__ == "__main__":
    main()
