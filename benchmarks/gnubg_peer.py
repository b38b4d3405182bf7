"""GNU Backgammon as the peer of a benchmark: its commands timed in a subprocess.

The ``gnubg`` package from PyPI (GPL-3, a full GNU Backgammon; install it into a venv of its
own: ``python3 -m venv /work/gnubgvenv && /work/gnubgvenv/bin/pip install gnubg==1.1.0a16``)
runs in its own interpreter, given by ``$NARDY_GNUBG_PYTHON`` (default
``/work/gnubgvenv/bin/python``). Only the commands asked for are timed, inside that process;
``set threads 1`` comes first (one core, as ours; without it analysis never returns).
Both sides are timed in CPU seconds (``time.process_time``), so that other work on the
machine does not count.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PYTHON = os.environ.get("NARDY_GNUBG_PYTHON", "/work/gnubgvenv/bin/python")

_SCRIPT = r"""
import json, sys, time
import gnubg
gnubg.command("set threads 1")
timed, setup, repeat = json.loads(sys.argv[1])
best = float("inf")
for _ in range(repeat):
    for command in setup:
        gnubg.command(command)
    start = time.process_time()
    for command in timed:
        gnubg.command(command)
    best = min(best, time.process_time() - start)
print("@@SECONDS@@", best, gnubg.__version__)
"""


def available() -> bool:
    """Whether the gnubg interpreter is there."""
    return Path(PYTHON).exists()


def gnubg_seconds(timed: list[str], setup: tuple[str, ...] = (),
                  repeat: int = 1) -> tuple[float, str]:
    """Seconds gnubg takes to run the commands ``timed`` (after the untimed ``setup``, run
    again before each repeat), the best of ``repeat`` runs, and gnubg's version.

    Raises
    ------
    RuntimeError
        gnubg failed; the message has its output.
    """
    argument = json.dumps([timed, list(setup), repeat])
    done = subprocess.run([PYTHON, "-c", _SCRIPT, argument], capture_output=True, text=True)
    for line in done.stdout.splitlines():
        if line.startswith("@@SECONDS@@"):
            _, seconds, version = line.split()
            return float(seconds), version
    raise RuntimeError(f"gnubg failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")


def empty_engine_cache() -> None:
    """Empty gnubg-nn's own evaluation cache (C; it outlives our engine objects): the cache
    lives with the net, and a new copy of the same weights starts with an empty one."""
    import gnubg_nn

    gnubg_nn.net_use(gnubg_nn.net_load(str(Path(gnubg_nn.__file__).parent / "data"
                                           / "gnubg.weights")))


def cold_seconds(work, matches, ply: int = 0) -> tuple[float, int]:
    """CPU seconds for ``work(matches, evaluator=engine)`` on a fresh gnubg-nn engine of
    ``ply`` with
    the luck cache and gnubg-nn's own evaluation cache empty and no two-sided bear-off table
    in memory (read again from the package, as a new process does; gnubg reads its
    ``gnubg_ts0.bd``) (ours, cold: gnubg's run is a new process each time), and the rows of
    the frame it gave."""
    from nardy_analysis.analysis import bearoff
    from nardy_analysis.analysis.gnubg import GnubgNN
    from nardy_analysis.analysis.luck import _best_equities

    _best_equities.cache_clear()
    bearoff._stored.cache_clear()
    empty_engine_cache()
    engine = GnubgNN(ply)
    start = time.process_time()
    frame = work(matches, evaluator=engine)
    return time.process_time() - start, len(frame)


def timed_against_gnubg(ours, path: Path, setup: tuple[str, ...], repeat: int):
    """Best of ``repeat`` runs, taken in turn, of ``ours()`` (returning ``(seconds,
    count)``) and of gnubg's ``analyse match`` of ``path`` after the untimed ``setup`` and
    import: ``(our seconds, count, gnubg's seconds, gnubg's version)``; gnubg's seconds are
    inf and its version None when it is not installed."""
    mine, theirs, version, count = float("inf"), float("inf"), None, 0
    for _ in range(repeat):
        seconds, count = ours()
        mine = min(mine, seconds)
        if available():
            seconds, version = gnubg_seconds(["analyse match"],
                                             (*setup, f'import mat "{path}"'))
            theirs = min(theirs, seconds)
    return mine, count, theirs, version


_PROCESS_SCRIPT = r"""
import json, sys
import gnubg
for command in ["set threads 1", *json.loads(sys.argv[1])]:
    gnubg.command(command)
"""


def process_seconds(argv: list[str], env: dict | None = None) -> float:
    """CPU seconds (user and system) of the whole process ``argv``, start-up included, its
    output thrown away.

    Raises
    ------
    subprocess.CalledProcessError
        The process failed.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                   env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def gnubg_process_seconds(commands: list[str]) -> float:
    """CPU seconds of gnubg's whole process (its import and start-up, ``set threads 1``,
    then ``commands``)."""
    return process_seconds([PYTHON, "-c", _PROCESS_SCRIPT, json.dumps(commands)])


def process_race(command: str, path: Path, setup: tuple[str, ...], repeat: int):
    """Whole processes, CPU seconds, best of ``repeat`` rounds taken in turn: ``nardy
    command path`` (the command this Python's environment installed, as a user runs it, not
    the checkout's sources) run first as a new user would (``HOME`` and ``XDG_CACHE_HOME`` a
    new empty folder) and again at once as the same user (warm), and gnubg's own process (its import
    and start-up, ``set threads 1``, ``setup``, ``import mat``, ``analyse match``): ``(first,
    warm, gnubg's)``, gnubg's inf when it is not installed."""
    ours = [str(Path(sys.executable).with_name("nardy")), command, str(path)]
    first = warm = theirs = float("inf")
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as home:
            env = os.environ | {"HOME": home, "XDG_CACHE_HOME": home}
            first = min(first, process_seconds(ours, env))
            warm = min(warm, process_seconds(ours, env))
        if available():
            theirs = min(theirs, gnubg_process_seconds(
                [*setup, f'import mat "{path}"', "analyse match"]))
    return first, warm, theirs


def print_process_race(command: str, path: Path, setup: tuple[str, ...], repeat: int,
                       rolls: int) -> None:
    """:func:`process_race` printed, with the goals: a first run at most 1.3 x a warm one;
    the warm one at most 2.0 x gnubg's on a match of about 500 rolls, 1.8 x on one of 900
    or more."""
    first, warm, theirs = process_race(command, path, setup, repeat)
    print(f"whole process, nardy {command}: first run {first:6.2f} s, warm {warm:6.2f} s; "
          f"first / warm {first / warm:.2f} (goal <= 1.3)")
    if theirs < float("inf"):
        goal = 1.8 if rolls >= 900 else 2.0
        print(f"whole process, gnubg analyse match {theirs:6.2f} s; nardy / gnubg "
              f"{warm / theirs:.2f} (goal <= {goal} for {rolls} rolls)")


def match_argument(default: Path) -> tuple[Path, int, list[str]]:
    """The benchmark's command line: the match file (the first ``*.mat`` argument, else
    ``default``), ``--repeat N`` (default 3) and all the arguments."""
    args = sys.argv[1:]
    repeat = int(args[args.index("--repeat") + 1]) if "--repeat" in args else 3
    files = [a for a in args if a.endswith(".mat")]
    return (Path(files[0]) if files else default), repeat, args
