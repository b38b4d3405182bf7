"""Calibration, power and cost of the luck tests of the dice audit (``nardy audit --luck``).

Usage::

    python benchmarks/luck_power.py --gnubg-python /work/gnubgvenv/bin/python \\
        --data /tmp/luck_power [--fair 200] [--fair-games 4] [--sessions 20] [--games 8]

Data: money sessions that GNU Backgammon plays against itself, written by
tools/gnubg_cheat_matches.py into ``--data`` (kept there: a second run reuses them). Fair
dice: ``--fair`` sessions of ``--fair-games`` games. Manipulated dice, ``--sessions``
sessions of ``--games`` games each: gnubg's ``set cheat player 0 roll N`` (the N-th best of
the 21 rolls, 1 = best) on every turn of player 0 for N = 3 and 11..16, and on a share of
player 0's turns (``--fraction``) for N = 1.

Calibration: per fair session, each player's luck tests (``by="player"``); the share with
p < 0.05 is the false-alarm rate (the issue asks 5% +- 2%). Power: per manipulated session,
the share in which the manipulated player's test has p < 0.05 and p < 0.001; "any" is the
share where at least one of the five luck tests has p < 0.001.

Cost: the work of ``nardy audit --luck`` (the rolls frame with positions and luck, and its
counts) against that of ``nardy luck`` (``luck_frame``) on the same replayed sessions, in the
same run, each on a fresh engine with the cache of best-play equities empty.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from nardy_analysis.analysis.audit import (LUCK_TESTS, count_tests, file_counts, roll_counts,
                                           rolls_frame)
from nardy_analysis.analysis.luck import luck_frame
from nardy_analysis.load import load_file
from nardy_analysis.parallel import map_files

from gnubg_peer import cold_seconds

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
from gnubg_cheat_matches import write_sessions  # noqa: E402


def sessions(gnubg_python: str, data: Path, prefix: str, count: int, games: int,
             helped: int = -1, roll: int = 0, fraction: float = 1.0) -> list[Path]:
    """The ``count`` session files of ``prefix`` in ``data``, written when missing (seeds
    1..count; a session that gnubg's manipulation locked is skipped)."""
    found = sorted(data.glob(f"{prefix}-*.mat"))
    if len(found) < count:
        write_sessions(gnubg_python, data, prefix, len(found) + 1, count - len(found), games,
                       helped, roll, fraction)
        found = sorted(data.glob(f"{prefix}-*.mat"))
    return found[:count]


def _player_tests(path: Path) -> pd.DataFrame:
    return count_tests(file_counts(path, by="player", luck=True)).assign(file=path.name)


def luck_p_values(files: list[Path], jobs: int) -> pd.DataFrame:
    """The luck tests of each player of each file: file, group, test, p_value."""
    frames = map_files(_player_tests, files, jobs=jobs)
    frame = pd.concat(frames, ignore_index=True)
    return frame[frame["test"].isin(LUCK_TESTS) & (frame["group"] != "all")][
        ["file", "group", "test", "n", "p_value"]]


def rates(tests: pd.DataFrame, level: float) -> pd.Series:
    """Share of (file, player) with p below ``level``, per luck test (NaN p: not counted as
    a rejection), and for any of them."""
    wide = tests.pivot_table(index=["file", "group"], columns="test", values="p_value")
    shares = (wide < level).mean()
    shares["any"] = (wide < level).any(axis=1).mean()
    return shares.reindex([*LUCK_TESTS, "any"])


def cost(files: list[Path]) -> tuple[float, float]:
    """Seconds of ``luck_frame`` (the work of ``nardy luck``) and of ``roll_counts`` of
    ``rolls_frame(luck=True)`` (that of ``nardy audit --luck``: the position tests and the
    luck) over the loaded files, each on a fresh engine with the equity cache empty
    (:func:`gnubg_peer.cold_seconds`); loading and replay, the same for both, not timed."""
    matches = [match for path in files for match in load_file(path).matches]
    luck, _ = cold_seconds(luck_frame, matches)
    audit, _ = cold_seconds(lambda found, evaluator: roll_counts(
        rolls_frame(found, True, True, evaluator)).groups, matches)
    return luck, audit


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gnubg-python", required=True)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--fair", type=int, default=200)
    parser.add_argument("--fair-games", type=int, default=4)
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--rolls", type=int, nargs="+", default=[3, 11, 12, 13, 14, 15, 16])
    parser.add_argument("--fraction", type=float, nargs="+", default=[0.25, 0.5])
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    args.data.mkdir(parents=True, exist_ok=True)

    fair = sessions(args.gnubg_python, args.data, f"fair{args.fair_games}", args.fair,
                    args.fair_games)
    tests = luck_p_values(fair, args.jobs)
    print(f"Calibration: {len(fair)} fair gnubg sessions of {args.fair_games} games, "
          f"{tests['group'].nunique()} players each, {len(tests) // len(LUCK_TESTS)} "
          f"(session, player) data sets; median rolls per player "
          f"{tests.loc[tests['test'] == 'luck', 'n'].median():.0f}")
    print("  share with p < 0.05 (false alarms):")
    print(rates(tests, 0.05).to_string(float_format=lambda v: f"{v:.3f}"))

    print(f"\nPower: sessions of {args.games} games, player 0 manipulated "
          f"({args.sessions} sessions each)")
    rows = {}
    cases = [(f"cheat{n}", n, 1.0, f"N = {n}, every turn") for n in args.rolls]
    cases += [(f"cheat1f{int(f * 100)}", 1, f, f"N = 1, {f:.0%} of turns")
              for f in args.fraction]
    for prefix, roll, fraction, label in cases:
        files = sessions(args.gnubg_python, args.data, prefix, args.sessions, args.games, 0,
                         roll, fraction)
        helped = luck_p_values(files, args.jobs)
        helped = helped[helped["group"] == "helped"]
        rows[(label, "p < 0.05")] = rates(helped, 0.05)
        rows[(label, "p < 0.001")] = rates(helped, 0.001)
    print(pd.DataFrame(rows).T.to_string(float_format=lambda v: f"{v:.2f}"))

    luck_seconds, audit_seconds = cost(fair[:20])
    print(f"\nCost on {min(20, len(fair))} fair sessions: nardy luck's work "
          f"{luck_seconds:.1f} s, audit --luck's {audit_seconds:.1f} s: ratio "
          f"{audit_seconds / luck_seconds:.2f} (the issue asks at most 1.2)")


if __name__ == "__main__":
    main()
