"""Speed of the skill analysis on one core against GNU Backgammon's own, in one run.

Usage: python benchmarks/skill_speed.py [MATCH.mat] [--repeat N] [--profile]

(``--profile``: cProfile's top entries of one cold :func:`skill_summary` after the races.)

Default match: tests/data/luck/BackgammonStudio_8518258.mat (13 points, 19 games, 563 rolls).
Two races, each the best of N runs (default 3) taken in turn, in CPU seconds, replay and
import not counted (benchmarks/gnubg_peer.py), the engine's caches empty (gnubg-nn's C
evaluation cache too: gnubg starts each run in a new process):

* skill alone: :func:`skill_frame` (every play of every roll and every cube decision,
  cubeful 0-ply) against GNU Backgammon's ``analyse match`` with chequer play and cube
  decisions at 0-ply and its luck analysis off;
* everything: :func:`skill_summary` (the decisions, then the cubeful luck of every roll for
  the luck-adjusted result) against ``analyse match`` with the luck analysis on as well
  (0-ply, cubeful: gnubg's default, as :func:`skill_summary`).

Goal: ours <= 1.5 x gnubg's. A third line shows the floor under the second race:
gnubg-nn's ``best_move`` alone, called for the 21 rolls of every position (the luck
analysis's evaluations, gnubg's as well), with no work done on its answers
(:func:`engine_floor`): in its cheapest form (the best play only, which money luck uses)
and listing every play (what match-play luck needs: the best play under the match's
equity is not gnubg-nn's pick).

Then whole processes (:func:`gnubg_peer.process_race`): ``nardy skill MATCH`` as a new
user's first run and again warm, against gnubg's own process analysing the match with luck,
in CPU seconds, start-up and imports included. Goals: first run <= 1.3 x warm; warm <= 2.0 x
gnubg's on a match of about 500 rolls, <= 1.8 x on 900 or more (``benchmarks/data/
selfplay_1003.mat``, 1003 rolls).
"""

import cProfile
import pstats
import time
from pathlib import Path

from gnubg_peer import (
    cold_seconds,
    empty_engine_cache,
    match_argument,
    print_process_race,
    timed_against_gnubg,
)

from nardy_analysis import replay_file
from nardy_analysis.analysis.gnubg import GnubgNN
from nardy_analysis.analysis.skill import skill_frame, skill_summary
from nardy_analysis.game.moves import ALL_ROLLS

DEFAULT = Path(__file__).resolve().parents[1] / "tests" / "data" / "luck" / \
    "BackgammonStudio_8518258.mat"
GNUBG_SETUP = ("set analysis chequerplay evaluation plies 0",
               "set analysis cubedecision evaluation plies 0", "set analysis luck off")
GNUBG_WITH_LUCK = (*GNUBG_SETUP[:2], "set analysis luck on",
                   "set analysis luckanalysis plies 0",
                   "set analysis luckanalysis cubeful on")


def engine_floor(matches, repeat: int, every_play: bool = False) -> float:
    """CPU seconds, best of ``repeat`` cold runs, of gnubg-nn's ``best_move`` at 0-ply for
    each of the 21 rolls of the position before every roll of ``matches`` (the evaluations
    of the luck analysis), with nothing done on its answers: ``list=0`` (the best play
    only, its cheapest form; enough for money luck) or, with ``every_play``, ``list=1``
    (every play's chances, what match-play luck needs)."""
    import gnubg_nn

    boards = [GnubgNN.board(turn.before) for match in matches for game in match.games
              for turn in game.turns]
    best = float("inf")
    for _ in range(repeat):
        empty_engine_cache()
        start = time.process_time()
        for board in boards:
            for roll in ALL_ROLLS:
                gnubg_nn.best_move(board, roll.high, roll.low, n=0, list=int(every_play), b=1)
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    path, repeat, args = match_argument(DEFAULT)
    matches = replay_file(path)
    mine, decisions, theirs, version = timed_against_gnubg(
        lambda: cold_seconds(skill_frame, matches), path, GNUBG_SETUP, repeat)
    rolls = sum(len(game.turns) for match in matches for game in match.games)
    print(f"{path.name}: {rolls} rolls, {decisions} decisions; best of {repeat}, CPU seconds")
    print(f"skill_frame            {mine:6.2f} s ({rolls / mine:,.0f} rolls/s)")
    full, _, theirs_full, _ = timed_against_gnubg(
        lambda: cold_seconds(skill_summary, matches), path, GNUBG_WITH_LUCK, repeat)
    print(f"skill_summary (+ luck) {full:6.2f} s")
    floor, listed = engine_floor(matches, repeat), engine_floor(matches, repeat, True)
    print(f"gnubg-nn best_move alone, 21 rolls of each position {floor:6.2f} s (list=0), "
          f"{listed:6.2f} s (list=1)")
    if version:
        print(f"gnubg {version} analyse match 0-ply, no luck {theirs:6.2f} s; "
              f"ratio {mine / theirs:.2f}")
        print(f"gnubg {version} analyse match 0-ply, luck    {theirs_full:6.2f} s; "
              f"ratio {full / theirs_full:.2f} (goal <= 1.5); gnubg-nn's best_move alone "
              f"{floor / theirs_full:.2f} (list=0), {listed / theirs_full:.2f} (list=1)")
    else:
        print("gnubg: not installed (see benchmarks/gnubg_peer.py); no ratio")
    print_process_race("skill", path, GNUBG_WITH_LUCK, repeat, rolls)
    if "--profile" in args:
        empty_engine_cache()
        profile = cProfile.Profile()
        profile.runcall(skill_summary, matches, evaluator=GnubgNN())
        pstats.Stats(profile).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
