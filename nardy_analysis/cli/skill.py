"""``nardy skill``: checker-play and cube errors of match files, as GNU Backgammon measures
them, and its "Match statistics" per player."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import pandas as pd

from ..analysis.match_statistics import NO_RATING, skill_rating
from ..analysis.skill import DECISION_DTYPES, skill_frame, skill_summary
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
    progress_option,
    quiet_option,
    rules_option,
    strict_option,
    write_output,
)

_SUMS = ["total_moves", "unforced_moves", "unmarked_moves", "marked_doubtful", "marked_bad",
         "marked_very_bad", "checker_error_emg", "cube_decisions", "close_cube_decisions",
         "doubles", "takes", "passes", "cube_error_emg", "overall_error_emg"]
"""The summary columns that add up across matches (``--by player``)."""
_COUNTS = [column for column in _SUMS if not column.endswith("_emg")]
"""The counts among them (NaN-able: long nardy has no cube)."""


def _analyse_file(path: Path, ply: int, strict: bool, rules: Rules | None) -> dict[str, Any]:
    """Decision frame, summary and errors of one file (:func:`analysed_file`)."""
    def analyse(matches: tuple[ReplayedMatch, ...]) -> tuple[pd.DataFrame, pd.DataFrame]:
        frame = skill_frame(matches, ply=ply)
        return frame, skill_summary(matches, frame)

    return analysed_file(path, strict, analyse, rules)


def by_player(summary: pd.DataFrame) -> pd.DataFrame:
    """Totals per player name across matches: the counts and errors of ``_SUMS`` added up,
    the error rates (thousandths of EMG per unforced move, per close cube decision, per
    both; 0 when there is none, as in :func:`skill_summary`) and their ratings recomputed
    from them (n/a when there is none), and the matches counted. Long nardy, as in
    :func:`skill_summary`: the cube columns of a player with no short nardy match are NaN
    (the cube rating None), and a player with a long nardy match has no checker or overall
    rating (n/a)."""
    players = summary.groupby("player", sort=True)
    totals = players[_SUMS].sum(min_count=1)  # NaN: no match with the cube
    totals = totals.astype({column: "Int64" for column in _COUNTS})
    totals.insert(0, "matches", players.size())
    short = players["cube_decisions"].count() == totals["matches"]  # every match had a cube
    moves, close = totals["unforced_moves"], totals["close_cube_decisions"]
    for kind, counted, rated in (("checker", moves, short), ("cube", close, close.notna()),
                                 ("overall", moves + close.fillna(0), short)):
        rate = 1000 * totals[f"{kind}_error_emg"] / counted.where(counted > 0)
        none = (counted == 0).fillna(False)  # 0 as skill_summary; NA without the cube
        totals[f"{kind}_error_rate_memg"] = rate.mask(none, 0.0)
        totals[f"{kind}_rating"] = [None if pd.isna(n) else skill_rating(r / 1000)
                                    if n and ok else NO_RATING
                                    for r, n, ok in zip(rate, counted, rated)]
    return totals.reset_index()


def _print_table(summary: pd.DataFrame) -> None:
    """One line per player of each match, or per player with ``--by player`` (a
    ``matches`` column, no Snowie error rate: the opponents' moves are not summed); ``-``
    for the cube of long nardy, which has none. The ratings are gnubg's words: checker
    play, cube decisions and overall (after the overall error total and rate)."""
    totals = "matches" in summary
    click.echo(f"  {'player':<20}" + (f"{'matches':>8}" if totals else "")
               + f"{'moves':>6}{'unforced':>9}{'?!/?/??':>10}{'checker EMG':>12}{'rate':>8}  "
               f"{'checker rating':<18}{'cube':>5}{'close':>6}{'cube EMG':>9}{'rate':>8}  "
               f"{'cube rating':<20}{'overall EMG':>11}{'rate':>8}  "
               + ("overall rating" if totals else f"{'overall rating':<18}{'snowie':>7}"))
    for _, row in summary.iterrows():
        marks = f"{row['marked_doubtful']}/{row['marked_bad']}/{row['marked_very_bad']}"
        cube = (f"{'-':>5}{'-':>6}{'-':>9}{'-':>8}  {'-':<20}" if pd.isna(row["cube_decisions"])
                else f"{row['cube_decisions']:>5}{row['close_cube_decisions']:>6}"
                f"{row['cube_error_emg']:>+9.3f}{row['cube_error_rate_memg']:>+8.1f}  "
                f"{row['cube_rating']:<20}")
        click.echo(f"  {str(row['player'])[:19]:<20}"
                   + (f"{row['matches']:>8}" if totals else "")
                   + f"{row['total_moves']:>6}{row['unforced_moves']:>9}{marks:>10}"
                   f"{row['checker_error_emg']:>+12.3f}{row['checker_error_rate_memg']:>+8.1f}  "
                   f"{row['checker_rating']:<18}" + cube
                   + f"{row['overall_error_emg']:>+11.3f}{row['overall_error_rate_memg']:>+8.1f}  "
                   + (row["overall_rating"] if totals
                      else f"{row['overall_rating']:<18}{row['snowie_error_rate']:>+7.1f}"))


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--csv", "csv_file", type=OutputFile(),
              help="Write one row per decision (checker plays and cube decisions) to this "
                   "CSV file.")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object per player per match on stdout instead of the tables.")
@click.option("--by", "by", type=click.Choice(["player"]),
              help="Totals per player across all the files instead of per match (no Snowie "
                   "error rate: it counts the opponents' moves too).")
@click.option("--parquet", "parquet_file", type=ParquetOutput(), default=None,
              help="Write one row per decision (as --csv) as Parquet: one file when the name "
                   "ends in .parquet, else a folder of part files (a partitioned dataset, "
                   "written as the files are analysed).")
@click.option("--ply", type=click.IntRange(0, 2), default=0, show_default=True,
              help="Look-ahead of the analysis: 0 as GNU Backgammon's \"Expert\" analysis "
                   "(a match in seconds), 2 as its \"World class\" one (cubeful 2-ply with "
                   "its move filter and pruning nets: about 4 times gnubg's own CPU, 30 to 90 "
                   "s for a match of 130 to 220 rolls), 1 the same at 1-ply; 1 and 2 are "
                   "for short nardy only.")
@jobs_option
@dask_option
@rules_option
@strict_option
@progress_option
@quiet_option
def skill(paths: tuple[str, ...], csv_file: str | None, as_json: bool, by: str | None,
          parquet_file: str | None, ply: int, jobs: int | None, dask_address: str | None,
          rules: Rules | None, strict: bool, progress: bool | None) -> None:
    """Checker-play and cube errors of every decision, and GNU Backgammon's "Match
    statistics" per player per match.

    PATHS are match files or folders (searched for *.mat, *.txt and *.sgf). Errors are in
    normalised equity (EMG: points per game at cube 1, or normalised match equity), at
    0-ply (--ply 2: 2-ply, short nardy only) and cubeful as GNU Backgammon's analysis
    measures them; marks, categories and ratings are gnubg's; the luck of the summary is
    gnubg's default cubeful 0-ply luck at any --ply, that of gnubg's Expert analysis and of
    its World class one with its evaluation cache off (with the cache on, gnubg's World
    class luck differs by up to 0.06 EMG a player). The table shows per player: moves,
    unforced moves, moves marked doubtful/bad/very bad, the checker error total and rate
    (thousandths of EMG per unforced move) and rating, cube decisions ("cube") and the close
    or actual ones ("close"), the cube error total, rate (per close decision) and rating, the
    overall error total, rate (per unforced move or close decision) and rating, and the
    Snowie error rate. --json writes every
    column of the summary (one object per player per match, or per player with --by
    player); --csv and --parquet write one row per decision
    (nardy_analysis.analysis.skill.DECISION_COLUMNS).
    Every game that can be read is analysed; each error is reported on stderr with the game
    it concerns. Short nardy needs the engine extra: pip install 'nardy-analysis[engine]'
    (without it the command stops at the first short nardy file, exit status 2). Long nardy
    has no cube: its checker plays are measured by the long nardy engine (part of the
    package) in cubeless money equity per game (a mars 2 points, a home mars 3 or as the
    rules score it), the cube columns are empty (- in the table) and there are no ratings
    (n/a: gnubg's ratings are for backgammon play). Exit status: 0 when no file had an
    error, 1 when any had, 2 for usage errors (and a missing engine extra).
    """
    files = found_files(paths).files
    parts = parquet_parts(parquet_file, DECISION_DTYPES)
    keep = csv_file or (parquet_file and not parts)  # written at the end
    frames, summaries, problems = [], [], ErrorReport(paths)
    with file_results(_analyse_file, files, progress, jobs, dask_address, ply=ply,
                      strict=strict, rules=rules) as results:
        for result in needing_engine(results):
            problems.add(result["errors"])
            if result["frame"] is None:
                continue
            if parts:
                parts.write(result["frame"])
            if keep:
                frames.append(result["frame"])
            summaries.append(result["summary"])
            if by:
                continue
            if as_json:
                for row in json.loads(result["summary"].to_json(orient="records")):
                    click.echo(json.dumps(row, ensure_ascii=False))
                continue
            for match_id, rows in result["summary"].groupby("match_id", sort=False):
                click.echo(f"{result['file']}: match {match_id}")
                _print_table(rows)
    if by:
        totals = by_player(pd.concat(summaries, ignore_index=True) if summaries
                           else skill_summary([], skill_frame([])))
        if as_json:
            for row in json.loads(totals.to_json(orient="records")):
                click.echo(json.dumps(row, ensure_ascii=False))
        elif len(totals):
            _print_table(totals)
    frame = pd.concat(frames, ignore_index=True) if frames else skill_frame([])
    close_parquet(parquet_file, parts, frame)
    if csv_file:
        write_output(csv_file, lambda path: frame.to_csv(path, index=False), len(frame))
    problems.exit()
