"""Speed of the World class analysis, ``nardy skill --ply 2``, against GNU Backgammon's own,
in one run.

Usage: python benchmarks/world_class_speed.py [MATCH.mat ...]

Default matches: those of tests/data/skill/ply2 (three matches of 137, 134 and 219 rolls and
a money session of 151). For each match, taken in turn, whole processes in CPU seconds
(start-up included, one run each): ``nardy skill --ply 2 MATCH``, after one untimed run that
fills the bear-off cache, and gnubg's own
process with its World class settings (those of tools/gnubg_skill_reference.py, which made
the references of tests/data/skill/ply2), ``import mat`` and ``analyse match``
(benchmarks/gnubg_peer.py).
"""

import sys
from pathlib import Path

from gnubg_peer import available, gnubg_process_seconds, process_seconds

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from gnubg_skill_reference import settings  # noqa: E402

from nardy_analysis import replay_file  # noqa: E402


def main() -> None:
    paths = [Path(a) for a in sys.argv[1:] if a.endswith(".mat")] or \
        sorted((ROOT / "tests" / "data" / "skill" / "ply2").glob("*.mat"))
    ours = [sys.executable, "-m", "nardy_analysis", "skill", "--ply", "2"]
    process_seconds([*ours, str(paths[0])])
    for path in paths:
        rolls = sum(len(game.turns) for match in replay_file(path) for game in match.games)
        mine = process_seconds([*ours, str(path)])
        line = f"{path.name}: {rolls} rolls; nardy skill --ply 2 {mine:6.1f} s"
        if available():
            theirs = gnubg_process_seconds([*settings(2), f'import mat "{path}"',
                                            "analyse match"])
            line += f", gnubg World class analyse match {theirs:6.1f} s, ratio {mine / theirs:.2f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
