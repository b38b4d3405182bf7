"""CPU seconds of the exact shots of real positions, against an earlier version in one run.

Usage: python benchmarks/shots_speed.py [FOLDER] [--files N] [--against REV] [--repeat N]
       [--profile]

Replays N files (default 150) of the folder (default: the shared corpus, or the folder
named by NARDY_CORPUS; ``nardy simulate`` writes folders of random legal matches, with
many blots), collects the distinct positions before and after every play with a blot to
hit, and times ``shots()`` over all of them (CPU seconds, best of N runs, default 3),
taking turns with the ``nardy_analysis/analysis/shots.py`` of git revision REV (default
6f7680a: main before the sets-of-points rules, which went roll by roll with a rule for
each kind of roll; its cache is bypassed). Both must give the same Shots. Goal:
>= 3x faster than that version. With --profile, the top entries of a cProfile run of ours."""

import cProfile
import importlib.util
import os
import pstats
import subprocess
import sys
import time
from pathlib import Path

from nardy_analysis import load_file
from nardy_analysis.analysis import shots as current

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = Path(os.environ.get("NARDY_CORPUS") or ROOT.parent / "shared" / "corpus" / "mat")
BEFORE = "6f7680a"


def option(args: list[str], name: str, default: str) -> str:
    return args[args.index(name) + 1] if name in args else default


def version_at(revision: str):
    """The module ``analysis/shots.py`` as it was at ``revision`` (git show), imported
    beside the current one."""
    source = subprocess.run(["git", "-C", str(ROOT), "show",
                             f"{revision}:nardy_analysis/analysis/shots.py"],
                            capture_output=True, text=True, check=True).stdout
    name = f"nardy_analysis.analysis._shots_{revision}"
    spec = importlib.util.spec_from_loader(name, loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "nardy_analysis.analysis"
    sys.modules[name] = module
    exec(compile(source, f"{revision}:nardy_analysis/analysis/shots.py", "exec"), module.__dict__)
    return module


def positions_of(folder: Path, count: int) -> list:
    """Distinct ``(position, rules)`` before and after the plays of ``count`` files, with
    an opposing blot."""
    found = {}
    for path in sorted(folder.glob("*.mat"))[:count]:
        for match in load_file(path).matches:
            for game in match.games:
                for turn in game.turns:
                    for position in (turn.before, turn.after):
                        if position is not None and 1 in position.opponent[1:25]:
                            found[position, match.rules] = None
    return list(found)


def cpu_seconds(shots, positions) -> float:
    start = time.process_time()
    for position, rules in positions:
        shots(position, rules)
    return time.process_time() - start


def main() -> None:
    args = sys.argv[1:]
    values = {args[i + 1] for i, a in enumerate(args[:-1])
              if a in ("--files", "--against", "--repeat")}
    folders = [a for a in args if not a.startswith("--") and a not in values]
    folder = Path(folders[0]) if folders else DEFAULT
    if not folder.is_dir():
        sys.exit(f"no folder {folder}: give the folder of .mat files to take positions from")
    files, repeat = int(option(args, "--files", "150")), int(option(args, "--repeat", "3"))
    revision = option(args, "--against", BEFORE)
    before = version_at(revision)
    positions = positions_of(folder, files)
    ours, theirs = current.shots, getattr(before.shots, "__wrapped__", before.shots)
    for position, rules in positions:
        a, b = ours(position, rules), theirs(position, rules)
        if (a.rolls, a.blots, a.double_hits) != (b.rolls, b.blots, b.double_hits):
            sys.exit(f"the shots differ from {revision}'s in {position!r}")
    best_ours = best_theirs = float("inf")
    for _ in range(repeat):
        best_theirs = min(best_theirs, cpu_seconds(theirs, positions))
        best_ours = min(best_ours, cpu_seconds(ours, positions))
    n = len(positions)
    print(f"{n} positions with a blot to hit ({files} files of {folder}), "
          f"CPU seconds, best of {repeat}; load average {os.getloadavg()[0]:.1f}")
    print(f"shots now        {best_ours:6.2f} s ({n / best_ours:,.0f} positions/s)")
    print(f"shots at {revision:7}  {best_theirs:6.2f} s ({n / best_theirs:,.0f} positions/s)")
    print(f"ratio {revision} / now  {best_theirs / best_ours:.1f} (goal >= 3)")
    if "--profile" in args:
        profile = cProfile.Profile()
        profile.runcall(cpu_seconds, ours, positions)
        pstats.Stats(profile).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
