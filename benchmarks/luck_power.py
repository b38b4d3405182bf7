"""Calibration, power and cost of the luck tests of the dice audit (``nardy audit --luck``).

Usage::

    python benchmarks/luck_power.py --gnubg-python /work/gnubgvenv/bin/python \\
        --data /tmp/luck_power [--fair 200] [--fair-games 4] [--sessions 20] [--games 8]
    python benchmarks/luck_power.py --long --data /tmp/luck_power_long \\
        [--fair 200] [--fair-games 8] [--sessions 9] [--games 8] [--fraction 0.25]

Data: money sessions that GNU Backgammon plays against itself, written by
tools/gnubg_cheat_matches.py into ``--data`` (kept there: a second run reuses them). Fair
dice: ``--fair`` sessions of ``--fair-games`` games. Manipulated dice, ``--sessions``
sessions of ``--games`` games each: gnubg's ``set cheat player 0 roll N`` (the N-th best of
the 21 rolls, 1 = best) on every turn of player 0 for N = 3 and 11..16, and on a share of
player 0's turns (``--fraction``) for N = 1.

Calibration: per fair session, each player's luck tests (``by="player"``); the share with
p < 0.05 is the false-alarm rate (the aim: 5% +- 2%). Power: per manipulated session,
the share in which the manipulated player's test has p < 0.05 and p < 0.001; "any" is the
share where at least one of the five luck tests has p < 0.001.

Long nardy (``--long``), through this project's long nardy engine: fair money sessions of
``--fair-games`` games from ``nardy_analysis.simulate`` (random legal plays, fair dice), and
``--sessions`` sessions of ``--games`` games with the same random plays in which player 0's
dice are, on each share ``--fraction`` of their turns, the engine's best roll for them (the
roll whose best play leaves them the highest equity), fair otherwise. Calibration as above;
power as the share of sessions in which the manipulated player's luck tests have an adjusted
p-value (Benjamini-Hochberg over the session's whole audit) below 0.001.

Cost: the work of ``nardy audit --luck`` (the rolls frame with positions and luck, and its
counts) against that of ``nardy luck`` (``luck_frame``) on the same replayed sessions, in the
same run, each on a fresh engine with the cache of best-play equities empty.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from gnubg_peer import cold_seconds

from nardy_analysis.analysis.audit import LUCK_TESTS, count_tests, roll_counts, rolls_frame
from nardy_analysis.analysis.engine import default_evaluator
from nardy_analysis.analysis.luck import luck_frame
from nardy_analysis.batch import file_counts
from nardy_analysis.game.long import LongPosition
from nardy_analysis.game.moves import ALL_ROLLS
from nardy_analysis.game.position import ending
from nardy_analysis.game.rules import LONG
from nardy_analysis.load import load_file
from nardy_analysis.notation.records import (
    GameRecord,
    MatchRecord,
    ResultRecord,
    TurnRecord,
    WrittenMove,
    variation_tag,
)
from nardy_analysis.notation.writer import write_mat
from nardy_analysis.parallel import map_files
from nardy_analysis.simulate import Dice, simulate_matches

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
    """The tests of each player of the session ``path``, kept beside it (``.tests.csv``):
    a second run, or one stopped half way, reuses them."""
    kept = path.with_suffix(".tests.csv")
    if kept.exists():
        return pd.read_csv(kept)
    tests = count_tests(file_counts(path, by="player", luck=True)).assign(file=path.name)
    tests.to_csv(kept, index=False)
    return tests


def luck_p_values(files: list[Path], jobs: int) -> pd.DataFrame:
    """The luck tests of each player of each file: file, group, test, p_value, p_adjusted."""
    frames = map_files(_player_tests, files, jobs=jobs)
    frame = pd.concat(frames, ignore_index=True)
    return frame[frame["test"].isin(LUCK_TESTS) & (frame["group"] != "all")][
        ["file", "group", "test", "n", "p_value", "p_adjusted"]]


def rates(tests: pd.DataFrame, level: float, column: str = "p_value") -> pd.Series:
    """Share of (file, player) with ``column`` (a p-value) below ``level``, per luck test
    (NaN p: not counted as a rejection), and for any of them."""
    wide = tests.pivot_table(index=["file", "group"], columns="test", values=column)
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


def helped_session(seed: int, games: int, fraction: float) -> MatchRecord:
    """A long nardy money session of random legal plays in which player 0's dice are the
    engine's best roll for them on ``fraction`` of their turns (fair dice otherwise)."""
    rng, dice, engine = np.random.default_rng([seed]), Dice(), default_evaluator(rules=LONG)
    names, score, played = ("helped", "fair"), [0, 0], []
    for number in range(1, games + 1):
        turn = int(rng.integers(2))
        position, moved, actions = LongPosition.start(turn), set(), []
        while not position.is_over:
            if turn == 0 and rng.random() < fraction:
                roll = ALL_ROLLS[int(np.argmax(engine.best_equities(position, ALL_ROLLS)))]
            else:
                roll = dice.roll(rng)
            plays = position.legal_plays(roll, LONG, first_turn=turn not in moved)
            play, position = plays[rng.integers(len(plays))]
            moved.add(turn)
            actions.append(TurnRecord(turn, roll, tuple(
                WrittenMove((m.start, m.end), (False,), 1, 0, 0, "") for m in play.moves),
                None, 0, 0, ""))
            turn = 1 - turn
        points = ending(position, LONG, money=True)[1]
        actions.append(ResultRecord(1 - turn, points, True, False, None, 0, 0, ""))
        played.append(GameRecord(number, names, tuple(score), tuple(actions), 0, 0, 0, 0))
        score[1 - turn] += points
    return MatchRecord(0, {"Variation": variation_tag(LONG)}, tuple(played), 0, 0)


def long_sessions(data: Path, prefix: str, count: int, make) -> list[Path]:
    """The ``count`` files ``prefix-NNNN.mat`` in ``data``, ``make(i)`` (a MatchRecord)
    written for those missing."""
    files = [data / f"{prefix}-{i:04d}.mat" for i in range(1, count + 1)]
    for i, path in enumerate(files, 1):
        if not path.exists():
            write_mat(make(i), path)
    return files


def long_main(args) -> None:
    """Power and calibration of the luck tests on long nardy (the module docstring)."""
    rows = {}
    for fraction in args.fraction:
        files = long_sessions(args.data, f"best{int(fraction * 100)}-{args.games}",
                              args.sessions,
                              lambda i: helped_session(i, args.games, fraction))
        helped = luck_p_values(files, args.jobs)
        helped = helped[helped["group"] == "helped"]
        label = f"best roll on {fraction:.0%} of turns"
        rows[(label, "p < 0.05")] = rates(helped, 0.05)
        rows[(label, "adjusted p < 0.001")] = rates(helped, 0.001, "p_adjusted")
    print(f"Long nardy power: {args.sessions} sessions of {args.games} games, player "
          "'helped' manipulated; share of sessions flagged")
    print(pd.DataFrame(rows).T.to_string(float_format=lambda v: f"{v:.2f}"), flush=True)
    fair = long_sessions(args.data, f"fair{args.fair_games}", args.fair, lambda i: next(
        simulate_matches(1, seed=i, length=0, games=args.fair_games, rules=LONG)))
    tests = luck_p_values(fair, args.jobs)
    print(f"\nLong nardy calibration: {len(fair)} fair simulated sessions of "
          f"{args.fair_games} games, {len(tests) // len(LUCK_TESTS)} (session, player) data "
          f"sets; median rolls per player "
          f"{tests.loc[tests['test'] == 'luck', 'n'].median():.0f}")
    print("  share with p < 0.05 (false alarms):")
    print(rates(tests, 0.05).to_string(float_format=lambda v: f"{v:.3f}"))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--long", action="store_true", help="long nardy instead")
    parser.add_argument("--gnubg-python")
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--fair", type=int, default=200)
    parser.add_argument("--fair-games", type=int)
    parser.add_argument("--sessions", type=int)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--rolls", type=int, nargs="+", default=[3, 11, 12, 13, 14, 15, 16])
    parser.add_argument("--fraction", type=float, nargs="+")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    args.data.mkdir(parents=True, exist_ok=True)
    if args.long:
        args.fair_games, args.sessions = args.fair_games or 8, args.sessions or 9
        args.fraction = args.fraction or [0.25]
        return long_main(args)
    if not args.gnubg_python:
        parser.error("--gnubg-python is needed (unless --long)")
    args.fair_games, args.sessions = args.fair_games or 4, args.sessions or 20
    args.fraction = args.fraction or [0.25, 0.5]

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
          f"{audit_seconds / luck_seconds:.2f} (the aim: at most 1.2)")


if __name__ == "__main__":
    main()
