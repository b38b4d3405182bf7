"""``nardy stats``: the per-turn table of match files as CSV or Parquet."""

from __future__ import annotations

import sys

import click
import pandas as pd

from ..analysis.turns import turns_frame
from .common import (ErrorReport, OutputFile, file_errors, loaded_files, quiet_option,
                     strict_option, write_output)


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--csv", "csv_file", type=OutputFile(),
              help="Write the per-turn table as CSV (blot_points as a [..] list).")
@click.option("--parquet", "parquet_file", type=OutputFile(),
              help="Write the per-turn table as Parquet (needs pyarrow).")
@strict_option
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: when there are several files).")
@quiet_option
def stats(paths, csv_file, parquet_file, strict, progress):
    """Per-turn statistics of match files (or folders of *.mat, *.txt and *.sgf files).

    One row per turn; the nardy_analysis.analysis.turns docstring describes the columns. Without
    --csv or --parquet the CSV goes to stdout. Every game that can be read is used; each
    error is reported on stderr with the game it concerns (a game that cannot be read is
    left out, one that breaks a rule is used up to there). Exit status: 0 when no file had
    an error (files in folders that are not match records are only counted), 1 when any
    had, 2 for usage errors.
    """
    frames, problems = [], ErrorReport(paths)
    for loaded in loaded_files(paths, progress, strict=strict):
        problems.add(file_errors(loaded, "the rest of game {game} is left out"))
        if loaded.matches:
            frames.append(turns_frame(loaded))
    frame = pd.concat(frames, ignore_index=True) if frames else turns_frame([])
    if parquet_file:
        write_output(parquet_file, lambda path: frame.to_parquet(path, index=False),
                     len(frame))
    if csv_file:
        write_output(csv_file, lambda path: frame.to_csv(path, index=False), len(frame))
    elif not parquet_file:
        frame.to_csv(sys.stdout, index=False)
    problems.exit()
