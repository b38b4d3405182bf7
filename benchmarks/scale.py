"""Cost growth of the dice audit: time per match and peak memory over 1k, 10k and 100k
simulated matches, serial and on a local Dask cluster.

Usage: python benchmarks/scale.py [--sizes 1000 10000 100000] [--cache DIR] [--jobs N]
                                  [--workers 2]

The matches are ``nardy simulate`` one-game matches (``--length 1``, fair dice), made once
into ``--cache`` (default ``nardy-scale`` in the temporary folder; reused when already
there, made with ``--jobs`` processes); a size of N audits the first N files (the same matches as
``nardy simulate N``). Each run is ``audit_files(files, by="player", positions=True)`` (what
``nardy audit --by player`` does): serial (``jobs=1``), then on a local cluster of
``--workers`` worker processes of one thread each on 127.0.0.1 (its start is not timed).
Every run is a fresh Python process, so its peak memory (``resource.getrusage``,
``ru_maxrss``) is that of the run alone; the workers' peaks are asked of them
(``client.run``). The audit streams: only each file's counts come back, so the client's
memory should not grow with the number of matches, and the time per match stays flat.

What memory does grow is the bounded caches of the process that reads the files (chiefly
the notation reader's play cache): they fill over the first few thousand files and then
stay at their limits, so the peak levels off. The last line gives their entries and limits
at the end of the largest run (tracemalloc, 1,000 simulated files: about 570 bytes a cached
play). Exact shots keep no cache (positions barely repeat).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def peak_mb() -> float:
    """Peak resident memory of this process so far, MB (Linux reports kB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def cache_fill() -> dict:
    """Entries and limit of each lru_cache of the notation reader and of shots, the caches
    that fill as files are read."""
    from nardy_analysis.analysis import shots
    from nardy_analysis.notation import mat, mat_parser

    return {f"{module.__name__.rsplit('.', 1)[-1]}.{name}": [info.currsize, info.maxsize]
            for module in (mat, mat_parser, shots) for name, cached in vars(module).items()
            if callable(getattr(cached, "cache_info", None))
            for info in [cached.cache_info()] if info.currsize > 1}


def one_run(folder: Path, size: int, mode: str, workers: int) -> dict:
    """Audit the first ``size`` files of ``folder``; what it took."""
    from nardy_analysis.batch import audit_files

    files = sorted(folder.glob("*.mat"))[:size]
    if len(files) < size:
        raise SystemExit(f"{folder} holds {len(files)} match files, not {size}")
    worker_mb = None
    if mode == "serial":
        start = time.perf_counter()
        audit = audit_files(files, by="player", positions=True, jobs=1)
        seconds = time.perf_counter() - start
        caches = cache_fill()
    else:
        from distributed import Client, LocalCluster

        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          host="127.0.0.1", dashboard_address=None) as cluster, \
                Client(cluster) as client:
            start = time.perf_counter()
            audit = audit_files(files, by="player", positions=True, client=client)
            seconds = time.perf_counter() - start
            worker_mb = max(client.run(peak_mb).values())
            caches = next(iter(client.run(cache_fill).values()))
    doubles = audit.frame.query("test == 'doubles' and group == 'all'")["p_value"].item()
    return {"size": size, "mode": mode, "seconds": seconds, "client_mb": peak_mb(),
            "worker_mb": worker_mb, "rolls": audit.counts.rolls, "doubles_p": doubles,
            "caches": caches}


def ensure_matches(folder: Path, count: int, jobs: int) -> None:
    """``nardy simulate count`` one-game matches in ``folder``, unless already there."""
    if len(list(folder.glob("*.mat"))) >= count:
        return
    folder.mkdir(parents=True, exist_ok=True)
    print(f"simulating {count:,} matches into {folder} ...", file=sys.stderr, flush=True)
    nardy = Path(sys.executable).parent / "nardy"  # the command of this environment
    subprocess.run([str(nardy), "simulate", str(count),
                    "--out", str(folder), "--length", "1", "--seed", "0", "--jobs", str(jobs),
                    "--quiet"], check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000, 100_000])
    parser.add_argument("--cache", type=Path,
                        default=Path(tempfile.gettempdir()) / "nardy-scale")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="processes that simulate the matches")
    parser.add_argument("--workers", type=int, default=2, help="Dask worker processes")
    parser.add_argument("--modes", nargs="+", default=["serial", "dask"])
    parser.add_argument("--one", nargs=2, metavar=("SIZE", "MODE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    folder = args.cache / "matches"
    if args.one:
        print(json.dumps(one_run(folder, int(args.one[0]), args.one[1], args.workers)))
        return
    ensure_matches(folder, max(args.sizes), args.jobs)
    load = os.getloadavg()[0]
    print(f"{os.cpu_count()} cores, load average {load:.1f} at the start; "
          f"{args.workers} Dask workers of 1 thread")
    print(f"{'matches':>9} {'run':<7}{'seconds':>9}{'ms/match':>10}{'client MB':>11}"
          f"{'worker MB':>11}{'rolls':>11}  doubles p")
    for size in args.sizes:
        for mode in args.modes:
            out = subprocess.run([sys.executable, __file__, "--cache", str(args.cache),
                                  "--workers", str(args.workers), "--one", str(size), mode],
                                 check=True, capture_output=True, text=True).stdout
            row = json.loads(out.splitlines()[-1])
            worker = f"{row['worker_mb']:>11.0f}" if row["worker_mb"] else f"{'-':>11}"
            print(f"{size:>9,} {mode:<7}{row['seconds']:>9.1f}"
                  f"{1000 * row['seconds'] / size:>10.2f}{row['client_mb']:>11.0f}{worker}"
                  f"{row['rolls']:>11,}  {row['doubles_p']:.3g}", flush=True)
    print("caches (entries/limit) at the end of the last run: " + ", ".join(
        f"{name} {used:,}/{limit or 'unbounded'}" for name, (used, limit) in row["caches"].items()))
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
