"""``nardy stats``: the per-turn table of match files as CSV or Parquet."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from ..analysis.turns import DTYPES, columns_frame, turn_columns
from ..game.rules import Rules
from ..load import load_file
from .common import (
    ErrorReport,
    FileErrors,
    OutputFile,
    ParquetOutput,
    close_parquet,
    dask_option,
    file_errors,
    file_results,
    found_files,
    jobs_option,
    parquet_parts,
    progress_option,
    quiet_option,
    rules_option,
    strict_option,
    write_output,
)


def _stats_file(path: Path, strict: bool,
                rules: Rules | None) -> tuple[FileErrors, dict[str, tuple[Any, ...]] | None]:
    """The errors and the per-turn columns (:func:`turn_columns`; None without a match) of
    one file (the work of a worker process or Dask worker)."""
    loaded = load_file(path, strict=strict, rules=rules)
    return (file_errors(loaded, "the rest of game {game} is left out"),
            turn_columns(loaded) if loaded.matches else None)


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--csv", "csv_file", type=OutputFile(),
              help="Write the per-turn table as CSV (blot_points as a [..] list).")
@click.option("--parquet", "parquet_file", type=ParquetOutput(),
              help="Write the per-turn table as Parquet: one file when the name ends in "
                   ".parquet, else a folder of part files (a partitioned dataset, written "
                   "as the files are read).")
@rules_option
@strict_option
@jobs_option
@dask_option
@progress_option
@quiet_option
def stats(paths: tuple[str, ...], csv_file: str | None, parquet_file: str | None,
          rules: Rules | None, strict: bool, jobs: int | None, dask_address: str | None,
          progress: bool | None) -> None:
    """Per-turn statistics of match files (or folders of *.mat, *.txt and *.sgf files).

    One row per turn; the nardy_analysis.analysis.turns docstring describes the columns. Without
    --csv or --parquet the CSV goes to stdout. Every game that can be read is used; each
    error is reported on stderr with the game it concerns (a game that cannot be read is
    left out, one that breaks a rule is used up to there). --parquet DIR (a name not ending
    in .parquet) writes part-00000.parquet, ... of 100,000 rows or more each, all of one
    schema, which pandas.read_parquet(DIR), dask.dataframe.read_parquet(DIR) and DuckDB read
    as one table. Exit status: 0 when no file had an error (files in folders that are not
    match records are only counted), 1 when any had, 2 for usage errors.
    """
    files = found_files(paths).files
    parts = parquet_parts(parquet_file, {**DTYPES, "blot_points": "list"})
    keep = csv_file or not parts  # the CSV, or one Parquet file, is written at the end
    kept: dict[str, list[Any]] = {column: [] for column in DTYPES}
    read, problems = 0, ErrorReport(paths)
    with file_results(_stats_file, files, progress, jobs, dask_address,
                      strict=strict, rules=rules) as results:
        for errors, columns in results:
            problems.add(errors)
            if columns is None:
                continue
            read += 1
            if parts:
                parts.write(columns)
            if keep:
                for column, values in columns.items():
                    kept[column] += values
    if not read and problems.failed:
        problems.exit()  # no file was a match record: no lone CSV header, no empty dataset
    frame = columns_frame(kept)
    close_parquet(parquet_file, parts, frame)
    if csv_file:
        write_output(csv_file, lambda path: frame.to_csv(path, index=False), len(frame))
    elif not parquet_file:
        frame.to_csv(sys.stdout, index=False)
    problems.exit()
