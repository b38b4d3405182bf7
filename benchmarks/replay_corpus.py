"""Parse and replay a folder of match files (default: the shared corpus) on one core, next to
GNU Backgammon's own importer on the same files, and print the ratio.

Usage: python benchmarks/replay_corpus.py [FOLDER] [--runs N] [--gnubg PYTHON] [--profile]
[--replay-only | --parse-only]
(FOLDER defaults to $NARDY_CORPUS, else the shared corpus next to the checkout.)

nardy reads and replays every ``*.mat`` file (:func:`nardy_analysis.load_file`, in this
process). The peer is GNU Backgammon's C importer (the ``gnubg`` Python package, GPL, run
only as a separate program, ``import mat "FILE"`` per file with one thread), timed inside its
own process by the loop over the files; its Python is ``--gnubg`` (default
``/work/gnubgvenv/bin/python``, or ``$GNUBG_PYTHON``). Without it the peer is skipped, with a
message. The two run in alternation, ``--runs`` times (default 3), and the best time of each
counts; the machine's load average is printed before and after, as other work on the machine
slows both (the CPU times, also printed, less so). With ``--profile``, also the top entries of
a cProfile run of nardy (by internal time). With ``--replay-only``, nardy's time is that of
the replay alone (:func:`nardy_analysis.replay.replay_match` over records parsed before the
clock starts), next to gnubg's whole import of the same files.
With ``--parse-only``, nardy only reads and parses the files into records
(:func:`nardy_analysis.notation.mat.read_mat`, no replay): the parse half of the work,
against the same peer. nardy runs with the garbage collector's threshold of the ``nardy``
command (:data:`nardy_analysis.cli.GC_THRESHOLD`), as ``nardy replay`` does; ``--gc-default``
keeps Python's.
"""

import argparse
import cProfile
import gc
import os
import pstats
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

from nardy_analysis import load_file
from nardy_analysis.cli import GC_THRESHOLD
from nardy_analysis.notation.mat import read_mat
from nardy_analysis.replay import replay_match

DEFAULT = Path(os.environ.get("NARDY_CORPUS") or Path(__file__).resolve().parents[2] / "shared"
               / "corpus" / "mat")
GNUBG_PYTHON = os.environ.get("GNUBG_PYTHON", "/work/gnubgvenv/bin/python")

# Run by gnubg's Python: import every file given on stdin, print the seconds the loop took.
PEER = """
import sys, time
import gnubg
gnubg.command("set threads 1")
files = sys.stdin.read().splitlines()
start, cpu = time.perf_counter(), time.process_time()
for path in files:
    gnubg.command('import mat "%s"' % path)
print("SECONDS", time.perf_counter() - start, time.process_time() - cpu, file=sys.stderr)
"""


def run(files: list[Path], read=load_file) -> dict:
    """Read and replay ``files`` (or only parse them, with ``read=read_mat``); the counts of
    what was read."""
    counts = {"files": 0, "matches": 0, "games": 0, "turns": 0, "errors": 0}
    for path in files:
        loaded = read(path)
        counts["files"] += 1
        counts["matches"] += len(loaded.matches)
        counts["games"] += sum(len(m.games) for m in loaded.matches)
        counts["turns"] += sum(len(g.turns) for m in loaded.matches for g in m.games)
        counts["errors"] += len(loaded.errors)
    return counts


def replay(records: list) -> dict:
    """Replay the match records of :func:`parsed`; the counts of what was replayed."""
    counts = {"files": len(records), "matches": 0, "games": 0, "turns": 0, "errors": 0}
    for matches in records:
        for match in matches:
            replayed = replay_match(match)
            counts["matches"] += 1
            counts["games"] += len(replayed.games)
            counts["turns"] += sum(len(g.turns) for g in replayed.games)
            counts["errors"] += len(replayed.errors)
    return counts


def parsed(files: list[Path]) -> list:
    """The match records of each of ``files`` (for :func:`replay`)."""
    return [read_mat(path).matches for path in files]


def timed(work, data) -> tuple[dict, tuple[float, float]]:
    """The counts of ``work(data)`` (:func:`run` or :func:`replay`) and the (wall, CPU)
    seconds it took."""
    start, cpu = time.perf_counter(), time.process_time()
    counts = work(data)
    return counts, (time.perf_counter() - start, time.process_time() - cpu)


def peer(python: str, files: list[Path]) -> tuple[float, float]:
    """The (wall, CPU) seconds gnubg's importer takes for ``files``, timed in its own process
    (its board printouts go to /dev/null)."""
    done = subprocess.run([python, "-c", PEER], input="\n".join(map(str, files)), text=True,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True)
    wall, cpu = done.stderr.rsplit("SECONDS", 1)[1].split()
    return float(wall), float(cpu)


def _best(name: str, times: list[tuple[float, float]]) -> tuple[float, float]:
    """Print the best wall and CPU time of ``times``; return them."""
    wall, cpu = min(t[0] for t in times), min(t[1] for t in times)
    print(f"{name}: {wall:.2f} s wall, {cpu:.2f} s CPU (best of {len(times)}; wall "
          f"{', '.join(f'{t[0]:.2f}' for t in times)})")
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--gnubg", default=GNUBG_PYTHON)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--gc-default", action="store_true",
                        help="Python's garbage collector threshold, not the nardy command's")
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--replay-only", action="store_true",
                      help="time nardy's replay of records parsed beforehand")
    only.add_argument("--parse-only", action="store_true",
                      help="only read and parse the files into records (no replay)")
    args = parser.parse_args()
    if not args.folder.is_dir():
        sys.exit(f"no folder {args.folder}: give the folder of .mat files to replay")
    files = sorted(args.folder.glob("*.mat"))
    gnubg = Path(args.gnubg).exists()
    if not gnubg:
        print(f"gnubg not found at {args.gnubg} (--gnubg PYTHON): the peer is skipped")
    if not args.gc_default:
        gc.set_threshold(GC_THRESHOLD)
    print(f"load average before: {' '.join(map(str, os.getloadavg()))}; garbage collector "
          f"thresholds {gc.get_threshold()}")
    run(files[:1])  # builds the parser once, as any long-running process does
    work, data, name = ((replay, parsed(files), "nardy replay only") if args.replay_only
                        else (partial(run, read=read_mat), files, "nardy parse only")
                        if args.parse_only else (run, files, "nardy"))
    ours, theirs = [], []
    for _ in range(args.runs):
        counts, seconds = timed(work, data)
        ours.append(seconds)
        if gnubg:
            theirs.append(peer(args.gnubg, files))
    print(f"load average after: {' '.join(map(str, os.getloadavg()))}")
    print(", ".join(f"{v} {k}" for k, v in counts.items()))
    wall, cpu = _best(name, ours)
    print(f"{name}: {counts['turns'] / wall:,.0f} turns/s (wall)")
    if gnubg:
        peer_wall, peer_cpu = _best("gnubg import mat", theirs)
        print(f"ratio {name} / gnubg: {wall / peer_wall:.1f}x wall, {cpu / peer_cpu:.1f}x CPU")
    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(work, data)
        pstats.Stats(profile).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
