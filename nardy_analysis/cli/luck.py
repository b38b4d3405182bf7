"""``nardy luck``: dice luck of match files, as GNU Backgammon measures it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Iterable

import click
import pandas as pd

from ..analysis.engine import ENGINES
from ..analysis.luck import ROLL_DTYPES, luck_by_player, luck_frame, luck_summary
from ..errors import plural
from ..game.rules import Rules
from ..replay import ReplayedMatch
from .common import (
    ErrorReport,
    OutputFile,
    ParquetOutput,
    analysed_file,
    close_parquet,
    dask_option,
    file_results,
    found_files,
    jobs_option,
    needing_engine,
    parquet_parts,
    progress_bar,
    progress_option,
    quiet_option,
    rules_option,
    strict_option,
    worker_count,
    write_output,
)


def _analyse_file(path: Path, ply: int, engine: str, strict: bool, rules: Rules | None,
                  rolls_bar: bool | None) -> dict[str, Any]:
    """Per-roll frame, summary and errors of one file (:func:`analysed_file`), with a
    progress bar per roll as ``rolls_bar`` asks (``progress`` of :func:`progress_bar`;
    False: none, the work of a worker process)."""
    def bar(rolls: list[Any]) -> Iterable[Any]:
        return progress_bar(rolls, rolls_bar, len(rolls), unit="roll")

    def analyse(matches: tuple[ReplayedMatch, ...]) -> tuple[pd.DataFrame, pd.DataFrame]:
        frame = luck_frame(matches, ply=ply, engine=engine,
                           progress=None if rolls_bar is False else bar)
        return frame, luck_summary(matches, frame)

    return analysed_file(path, strict, analyse, rules)


def _sign(value: float, digits: int) -> str:
    return "" if pd.isna(value) else f"{value:+.{digits}f}"


def _units(unit: str) -> dict[str, str]:
    """The units of a :func:`luck_summary` row's values, by column, for ``unit`` ``"mwc"``
    (match play) or ``"points"`` (money play); ``--json`` adds them as ``<column>_unit``."""
    equity = ("normalised match equity" if unit == "mwc"
              else "equity, points per game at cube 1")
    other = "match-winning chance (0..1)" if unit == "mwc" else "points"
    return {"luck": equity, "luck_rate": f"{equity} per roll", "luck_total": other,
            "result": other, "luck_adjusted": other,
            "fibs_rating_difference": "FIBS rating points"}


def _with_units(table: pd.DataFrame) -> list[dict[str, Any]]:
    """The rows of ``table`` as JSON objects, each value's unit added (:func:`_units`)."""
    return [{**row, **{f"{key}_unit": text for key, text in _units(row["unit"]).items()
                       if key in row}}
            for row in json.loads(table.to_json(orient="records"))]


def _print_rows(rows: pd.DataFrame, first: str, label: Callable[[pd.Series], str]) -> None:
    """Rows of one unit under a header; ``first`` heads the first column, ``label(row)``
    fills it; every numeric column names its unit."""
    unit = rows["unit"].iloc[0]
    scale, digits, name = (100, 2, "%MWC") if unit == "mwc" else (1, 3, "points")
    fibs = unit == "mwc" and "fibs_rating_difference" in rows  # the match, not --by player
    click.echo(f"  {first:<8}{'player':<20}{'rolls':>6}{'luck EMG':>15}"
               f"{'mEMG/roll':>13}  {'rating':<20}{f'luck ({name})':>15}"
               f"{f'result ({name})':>17}{f'adjusted ({name})':>19}"
               + (f"{'FIBS rating diff.':>19}" if fibs else ""))
    for _, row in rows.iterrows():
        click.echo(f"  {label(row):<8}{str(row['player'])[:19]:<20}{row['rolls']:>6}"
                   f"{_sign(row['luck'], 3):>15}{_sign(row['luck_rate'] * 1000, 1):>13}  "
                   f"{row['rating']:<20}{_sign(row['luck_total'] * scale, digits):>15}"
                   f"{_sign(row['result'] * scale, digits):>17}"
                   f"{_sign(row['luck_adjusted'] * scale, digits):>19}"
                   + (f"{_sign(row['fibs_rating_difference'], 2):>19}" if fibs else ""))


def _print_table(summary: pd.DataFrame) -> None:
    """Each match's rows (:func:`luck_summary`)."""
    for match_id, rows in summary.groupby("match_id", sort=False):
        click.echo(f"match {match_id}")
        _print_rows(rows, "", lambda row: "match" if row["scope"] == "match"
                    else f"game {row['game']}")


def _print_players(table: pd.DataFrame, files: int) -> None:
    """Each player's totals (:func:`luck_by_player`), match play and money play apart."""
    for unit, title in (("mwc", "match play"), ("points", "money play")):
        rows = table[table["unit"] == unit]
        if len(rows):
            click.echo(f"players, {title} (all matches of {plural(files, 'file')}; luck, "
                       "result and adjusted summed over the matches)")
            _print_rows(rows, "matches", lambda row: str(row["matches"]))


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--csv", "csv_file", type=OutputFile(),
              help="Write one row per roll (file order, dances included) to this CSV file; "
                   "with --by player one row per player and unit.")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object per file (per player with --by player) on stdout "
                   "instead of the tables.")
@click.option("--by", type=click.Choice(["player"]), default=None,
              help="Each player's totals over all files and matches (players by name; "
                   "match and money play apart) instead of the per-match tables; --csv then "
                   "writes one row per player and unit.")
@click.option("--ply", type=click.IntRange(0, 3), default=0, show_default=True,
              help="Look-ahead of the engine's evaluations: 0 as gnubg's luck analysis; with "
                   "gnubg-nn 1 and 2 as gnubg's luck analysis at that ply (its default move "
                   "filters, no pruning nets; 3 through its 3-ply filters, whose best plays "
                   "agree with gnubg's but whose luck is not checked against it); long nardy "
                   "0 or 1. Each ply costs far more, in "
                   "CPU time per roll on one core: gnubg-nn about 0.003 s at 0-ply, 0.3 to 0.5 s "
                   "at 1-ply, 2 to 5 s at 2-ply (2.3 to 2.8 times gnubg's own), minutes at "
                   "3-ply; long nardy 0.02 s and 0.6 s (a match of 180 rolls: 3 s, and 2 "
                   "minutes at 1-ply). From 1-ply the rolls of a file analysed in this process "
                   "(one file, or --jobs 1) have a progress bar.")
@click.option("--engine", type=click.Choice(list(ENGINES)), default="gnubg-nn",
              show_default=True, help="gnubg-nn matches GNU Backgammon; bgsage is another "
              "engine (pip install 'nardy-analysis[sage]').")
@click.option("--parquet", "parquet_file", type=ParquetOutput(), default=None,
              help="Write one row per roll (as --csv without --by) as Parquet: one file when "
                   "the name ends in .parquet, else a folder of part files (a partitioned "
                   "dataset, written as the files are analysed).")
@jobs_option
@dask_option
@rules_option
@strict_option
@progress_option
@quiet_option
def luck(paths: tuple[str, ...], csv_file: str | None, as_json: bool, by: str | None, ply: int,
         engine: str, parquet_file: str | None, jobs: int | None, dask_address: str | None,
         rules: Rules | None, strict: bool, progress: bool | None) -> None:
    """Dice luck of every roll, as GNU Backgammon measures it, per game and per match.

    PATHS are match files or folders (searched for *.mat, *.txt and *.sgf). Luck is the
    engine's cubeless equity at 0-ply unless --ply says otherwise. For each match: per game
    and for the whole match, each player's rolls, total luck (EMG: normalised equity), luck
    per roll (mEMG: thousandths of EMG; --json and --csv give it in EMG), gnubg's rating of
    it, the luck in match-winning chance (match play, in %) or points (money play), the
    actual result and the luck-adjusted result, and in match play the FIBS rating
    difference that result implies over the match length (the first player's row, as
    gnubg's "Luck based FIBS rating diff."). --by player gives each player's totals over all
    the files instead: matches, rolls, luck, luck per roll and its rating, and luck, result
    and luck-adjusted result summed over the matches (match play and money play in rows of
    their own). Ratings are gnubg's words, its "None" shown as "none (average luck)" (--json
    and --csv give both: rating, and gnubg's own word as rating_gnubg). --json adds the unit
    of each value as <column>_unit. Every game that can be read is analysed; each error is
    reported on stderr with the game it concerns (a game that breaks a rule is analysed up
    to there). Short nardy needs the engine extra: pip install 'nardy-analysis[engine]'
    (without it the command stops at the first short nardy file, exit status 2). Long nardy
    matches are analysed by this project's long nardy engine (--engine is for short nardy;
    --ply 0 or 1): there is no cube, so their luck is in points per game (a mars 2, a home
    mars 3), in match play too, in the money play rows of --by player. Exit status: 0 when
    no file had an error (files in folders that are not match records are only counted), 1
    when any had, 2 for usage errors (and a missing engine extra).
    """

    files = found_files(paths).files
    parts = parquet_parts(parquet_file, ROLL_DTYPES)
    keep = (csv_file and not by) or (parquet_file and not parts)  # written at the end
    frames, summaries, rolled, problems = [], [], 0, ErrorReport(paths)
    in_process = dask_address is None and worker_count(jobs, files) == 1
    with file_results(_analyse_file, files, progress, jobs, dask_address, ply=ply,
                      engine=engine, strict=strict, rules=rules,
                      rolls_bar=progress if ply and in_process else False) as results:
        for result in needing_engine(results):
            problems.add(result["errors"])
            if result["frame"] is None:
                continue
            rolled += 1
            summaries.append(result["summary"])
            if parts:
                parts.write(result["frame"])
            if keep:
                frames.append(result["frame"])
            if by:
                continue
            if as_json:
                click.echo(json.dumps({"file": result["file"], "rolls": len(result["frame"]),
                                       "violations": result["violations"],
                                       "summary": _with_units(result["summary"])},
                                      ensure_ascii=False))
                continue
            unknown = int((~result["frame"]["play_recorded"]).sum())
            click.echo(f"{result['file']}: {plural(len(result['frame']), 'roll')}" + (
                f" ({unknown} whose play is not recorded, left out below as gnubg leaves it "
                "out)" if unknown else ""))
            _print_table(result["summary"])
    frame = pd.concat(frames, ignore_index=True) if frames else luck_frame([])
    close_parquet(parquet_file, parts, frame)
    if by:
        table = luck_by_player(pd.concat(summaries, ignore_index=True) if summaries
                               else luck_summary([]))
        if as_json:
            for row in _with_units(table):
                click.echo(json.dumps(row, ensure_ascii=False))
        else:
            _print_players(table, rolled)
        if csv_file:
            write_output(csv_file, lambda path: table.to_csv(path, index=False), len(table))
    elif csv_file:
        write_output(csv_file, lambda path: frame.to_csv(path, index=False), len(frame))
    problems.exit()
