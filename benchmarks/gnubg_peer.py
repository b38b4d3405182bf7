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
import subprocess
import sys
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


def cold_seconds(work, matches) -> tuple[float, int]:
    """CPU seconds for ``work(matches, evaluator=engine)`` on a fresh gnubg-nn engine with
    the luck cache and gnubg-nn's own evaluation cache empty and no two-sided bear-off table
    in memory (read again from the package, as a new process does; gnubg reads its
    ``gnubg_ts0.bd``) (ours, cold: gnubg's run is a new process each time), and the rows of
    the frame it gave."""
    from nardy_analysis.analysis import bearoff
    from nardy_analysis.analysis.engine import GnubgNN
    from nardy_analysis.analysis.luck import _best_equities

    _best_equities.cache_clear()
    bearoff._stored.cache_clear()
    empty_engine_cache()
    engine = GnubgNN()
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


def match_argument(default: Path) -> tuple[Path, int, list[str]]:
    """The benchmark's command line: the match file (the first ``*.mat`` argument, else
    ``default``), ``--repeat N`` (default 3) and all the arguments."""
    args = sys.argv[1:]
    repeat = int(args[args.index("--repeat") + 1]) if "--repeat" in args else 3
    files = [a for a in args if a.endswith(".mat")]
    return (Path(files[0]) if files else default), repeat, args
