"""Write money sessions that GNU Backgammon plays against itself, with fair or manipulated
dice, as test and benchmark data for the luck tests of ``nardy audit --luck``.

Usage::

    python tools/gnubg_cheat_matches.py --gnubg-python /work/gnubgvenv/bin/python \\
        --out tests/data/cheat --sessions 3 --games 8 --roll 11 --helped 0 --seed 1

``--gnubg-python`` is a Python interpreter that has the full ``gnubg`` package from PyPI
(GPL-3, tests and tools only: it runs in a subprocess, none of its code is copied; see
tools/gnubg_reference.py). In that process gnubg plays both sides (chequer play 0-ply, cube
off, no Jacoby rule, Mersenne Twister dice seeded with ``--seed`` + the session's index):
turn by turn it rolls (``roll``) and plays its own best move (``findbestmove``, ``move``).
With ``--roll N`` the roll of the ``--helped`` player (0: the left column of the ``.mat``
file) is chosen by gnubg's dice manipulation, ``set cheat enable on`` and ``set cheat player
P roll N`` (N-th best of the 21 rolls for the player on roll, 1 = best, 21 = worst), on each of
their turns with probability ``--fraction`` (drawn from ``random.Random(seed)``); every
other roll is gnubg's fair dice (the manipulation is switched off for it). Without
``--roll`` all dice are fair. Each session is exported with ``export match mat`` as
``PREFIX-SEED.mat``; the players are named ``helped`` and ``fair`` (``player0``/``player1``
with fair dice), so the audit can be read by player.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

_GNUBG_SCRIPT = r"""
import random, sys, gnubg
out, prefix = sys.argv[1:3]
first, sessions, games, helped, roll = map(int, sys.argv[3:8])
fraction = float(sys.argv[8])
names = ["helped", "fair"] if helped == 0 else ["fair", "helped"] if helped == 1 else \
    ["player0", "player1"]
for command in ["set threads 1", "set player 0 human", "set player 1 human",
                "set player 0 chequerplay evaluation plies 0",
                "set player 1 chequerplay evaluation plies 0",
                "set cube use off", "set jacoby off", "set automatic roll off",
                "set automatic game off",
                "set rng mersenne", "set cheat enable off"] + (
        [f"set cheat player {helped} roll {roll}"] if helped >= 0 else []):
    gnubg.command(command)


def played(seed):
    turns = random.Random(seed)
    gnubg.command(f"set seed {seed}")
    gnubg.command("new session")
    for player in (0, 1):  # the names of the session's players
        gnubg.command(f"set player {player} name {names[player]}")
    for game in range(games):
        if game:
            gnubg.command("new game")
        for turn in range(2000):  # the manipulation can lock a game (both sides dance)
            if gnubg.posinfo()["gamestate"] != 1:
                break
            player = gnubg.posinfo()["turn"]
            cheat = player == helped and turns.random() < fraction
            for command in (f"set cheat enable {'on' if cheat else 'off'}",
                            f"set player {player} gnubg", "play", f"set player {player} human"):
                gnubg.command(command)
        else:
            return False
    return True


for seed in range(first, first + sessions):
    if played(seed):
        gnubg.command(f"export match mat {out}/{prefix}-{seed}.mat")
        print(f"@@WROTE@@ {prefix}-{seed}.mat", flush=True)
    else:
        print(f"@@LOCKED@@ {prefix}-{seed}", flush=True)
"""


def write_sessions(gnubg_python: str, out: Path, prefix: str, seed: int, sessions: int,
                   games: int, helped: int = -1, roll: int = 0,
                   fraction: float = 1.0) -> list[Path]:
    """Play ``sessions`` money sessions of ``games`` games in one gnubg subprocess and export
    each to ``out/PREFIX-SEED.mat`` (seeds ``seed``, ``seed + 1``, ...); ``helped`` -1: fair
    dice. Returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([gnubg_python, "-c", _GNUBG_SCRIPT, str(out.resolve()), prefix,
                           str(seed), str(sessions), str(games), str(helped), str(roll),
                           str(fraction)], capture_output=True, text=True, timeout=36000,
                          cwd=out, check=True)
    return [out / line.split()[1] for line in done.stdout.splitlines()
            if line.startswith("@@WROTE@@")]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gnubg-python", required=True,
                        help="a Python interpreter with the gnubg package installed")
    parser.add_argument("--out", type=Path, required=True, help="folder for the .mat files")
    parser.add_argument("--prefix", default=None,
                        help="file names PREFIX-SEED.mat (default: fair, or cheatN)")
    parser.add_argument("--sessions", type=int, default=1, help="money sessions to write")
    parser.add_argument("--games", type=int, default=8, help="games per session")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first session")
    parser.add_argument("--roll", type=int, default=0,
                        help="manipulated dice: the N-th best of the 21 rolls (1..21)")
    parser.add_argument("--helped", type=int, default=0, choices=(0, 1),
                        help="the player whose dice are manipulated (0: left column)")
    parser.add_argument("--fraction", type=float, default=1.0,
                        help="share of the helped player's turns manipulated (0..1)")
    args = parser.parse_args(argv)
    helped = args.helped if args.roll else -1
    prefix = args.prefix or (f"cheat{args.roll}" if args.roll else "fair")
    for path in write_sessions(args.gnubg_python, args.out, prefix, args.seed, args.sessions,
                               args.games, helped, args.roll, args.fraction):
        print(path, file=sys.stderr)


if __name__ == "__main__":
    main()
