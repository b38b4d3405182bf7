"""Speed of the dice-luck analysis on one core against GNU Backgammon's own, in one run.

Usage: python benchmarks/luck_speed.py [MATCH.mat] [--repeat N] [--profile] [--ply N]

Default match: tests/data/luck/BackgammonStudio_8518258.mat (13 points, 19 games, 563 rolls).
Ours: the luck of every roll (21 best plays for each position, 0-ply) with the engine's
caches empty (gnubg-nn's C evaluation cache too), replay not counted. The peer: GNU
Backgammon's ``analyse match`` of the same file at 0-ply (chequer play, cube decisions and
luck: it also analyses every play), import not counted (benchmarks/gnubg_peer.py). Each is
the best of N runs (default 3), taken in turn, in CPU seconds. Goal: ours <= 1.5
x gnubg's. The floor: gnubg-nn's ``best_move`` alone for the same rolls
(skill_speed.engine_floor). Then whole processes, ``nardy luck MATCH`` (first run and warm)
against gnubg's own process (:func:`gnubg_peer.process_race`), with the goals of
skill_speed.py. With --profile, the top entries of a cProfile run of ours by internal time.
With --ply N (1 or 2): the luck at N plies against gnubg's with ``set analysis luckanalysis
plies N`` (its chequer play and cube still analysed at 0-ply), and nothing else.
"""

import cProfile
import pstats
from pathlib import Path

from gnubg_peer import (
    cold_seconds,
    empty_engine_cache,
    match_argument,
    print_process_race,
    timed_against_gnubg,
)
from skill_speed import engine_floor

from nardy_analysis import replay_file
from nardy_analysis.analysis.gnubg import GnubgNN
from nardy_analysis.analysis.luck import _best_equities, luck_frame

DEFAULT = Path(__file__).resolve().parents[1] / "tests" / "data" / "luck" / \
    "BackgammonStudio_8518258.mat"
GNUBG_SETUP = ("set analysis chequerplay evaluation plies 0",
               "set analysis cubedecision evaluation plies 0",
               "set analysis luckanalysis plies 0", "set analysis luckanalysis cubeful off")


def main() -> None:
    path, repeat, args = match_argument(DEFAULT)
    ply = int(args[args.index("--ply") + 1]) if "--ply" in args else 0
    setup = (*GNUBG_SETUP[:2], f"set analysis luckanalysis plies {ply}", *GNUBG_SETUP[3:])
    matches = replay_file(path)
    mine, rolls, theirs, version = timed_against_gnubg(
        lambda: cold_seconds(luck_frame, matches, ply), path, setup, repeat)
    if ply:
        depth = f"{ply} {'ply' if ply == 1 else 'plies'}"
        print(f"{path.name}: {rolls} rolls; best of {repeat}; CPU seconds")
        print(f"nardy luck at {depth} {mine:8.1f} s ({mine / rolls:.2f} s a roll)")
        if version:
            print(f"gnubg {version} analyse match, luck at {depth} {theirs:8.1f} s "
                  f"({theirs / rolls:.2f} s a roll); ratio {mine / theirs:.2f}")
        return
    print(f"{path.name}: {rolls} rolls; best of {repeat}")
    print(f"nardy luck      {mine:6.2f} s ({rolls / mine:,.0f} rolls/s), CPU seconds")
    floor, listed = engine_floor(matches, repeat), engine_floor(matches, repeat, True)
    print(f"gnubg-nn best_move alone, 21 rolls of each position {floor:6.2f} s (list=0), "
          f"{listed:6.2f} s (list=1)")
    if version:
        print(f"gnubg {version} analyse match, 0-ply  {theirs:6.2f} s")
        print(f"ratio nardy / gnubg  {mine / theirs:.2f} (goal <= 1.5); gnubg-nn's "
              f"best_move alone {floor / theirs:.2f} (list=0), {listed / theirs:.2f} (list=1)")
    else:
        print("gnubg: not installed (see benchmarks/gnubg_peer.py); no ratio")
    print_process_race("luck", path, GNUBG_SETUP, repeat, rolls)
    if "--profile" in args:
        _best_equities.cache_clear()
        empty_engine_cache()
        profile = cProfile.Profile()
        profile.runcall(luck_frame, matches, GnubgNN())
        pstats.Stats(profile).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
