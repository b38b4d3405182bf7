"""Speed of the skill analysis on one core against GNU Backgammon's own, in one run.

Usage: python benchmarks/skill_speed.py [MATCH.mat] [--repeat N] [--profile]

Default match: tests/data/luck/BackgammonStudio_8518258.mat (13 points, 19 games, 563 rolls).
Ours: :func:`skill_frame` (every play of every roll and every cube decision, cubeful 0-ply)
with the engine's caches empty, replay not counted. The peer: GNU Backgammon's ``analyse
match`` of the same file with chequer play and cube decisions at 0-ply and its luck
analysis off, import not counted (benchmarks/gnubg_peer.py). Each is the best of N runs
(default 3), taken in turn. Goal (issue 13): ours <= 1.5 x gnubg's.
"""

import cProfile
import pstats
import sys
import time
from pathlib import Path

from gnubg_peer import available, gnubg_seconds

from nardy_analysis import replay_file
from nardy_analysis.analysis.engine import GnubgNN
from nardy_analysis.analysis.skill import skill_frame

DEFAULT = Path(__file__).resolve().parents[1] / "tests" / "data" / "luck" / \
    "BackgammonStudio_8518258.mat"
GNUBG_SETUP = ("set analysis chequerplay evaluation plies 0",
               "set analysis cubedecision evaluation plies 0", "set analysis luck off")


def ours(matches) -> tuple[float, int]:
    """Seconds for every decision's error with empty caches, and the decisions."""
    engine = GnubgNN()
    start = time.perf_counter()
    frame = skill_frame(matches, engine)
    return time.perf_counter() - start, len(frame)


def main() -> None:
    args = sys.argv[1:]
    repeat = int(args[args.index("--repeat") + 1]) if "--repeat" in args else 3
    files = [a for a in args if a.endswith(".mat")]
    path = Path(files[0]) if files else DEFAULT
    matches = replay_file(path)
    mine, theirs, version = float("inf"), float("inf"), None
    for _ in range(repeat):
        seconds, decisions = ours(matches)
        mine = min(mine, seconds)
        if available():
            seconds, version = gnubg_seconds(["analyse match"],
                                             (*GNUBG_SETUP, f'import mat "{path}"'))
            theirs = min(theirs, seconds)
    rolls = sum(len(game.turns) for match in matches for game in match.games)
    print(f"{path.name}: {rolls} rolls, {decisions} decisions; best of {repeat}")
    print(f"nardy skill     {mine:6.2f} s ({rolls / mine:,.0f} rolls/s)")
    if version:
        print(f"gnubg {version} analyse match, 0-ply, no luck  {theirs:6.2f} s")
        print(f"ratio nardy / gnubg  {mine / theirs:.2f} (goal <= 1.5)")
    else:
        print("gnubg: not installed (see benchmarks/gnubg_peer.py); no ratio")
    if "--profile" in args:
        profile = cProfile.Profile()
        profile.runcall(skill_frame, matches, GnubgNN())
        pstats.Stats(profile).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
