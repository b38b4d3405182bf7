"""``nardy stats``: the per-turn table of match files as CSV or Parquet."""

from __future__ import annotations

import sys

import click
import pandas as pd

from ..analysis.turns import turns_frame
from .common import OutputFile, loaded_files, skipped, warn_violations


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--csv", "csv_file", type=OutputFile(),
              help="Write the per-turn table as CSV (blot_points as a [..] list).")
@click.option("--parquet", "parquet_file", type=OutputFile(),
              help="Write the per-turn table as Parquet (needs pyarrow).")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: when there are several files).")
def stats(paths, csv_file, parquet_file, progress):
    """Per-turn statistics of match files (or folders of *.mat and *.txt files).

    One row per turn; the nardy_analysis.analysis.turns docstring describes the columns. Without
    --csv or --parquet the CSV goes to stdout. A file that cannot be read is skipped with a
    message on stderr. Exit status: 0 when every file was read, 1 when any was skipped,
    2 for usage errors.
    """
    frames, failed = [], 0
    for loaded in loaded_files(paths, progress, whole=True):
        if skipped(loaded):
            failed += 1
            continue
        warn_violations(loaded.matches, "the rest of that game is left out")
        frames.append(turns_frame(loaded))
    frame = pd.concat(frames, ignore_index=True) if frames else turns_frame([])
    if parquet_file:
        frame.to_parquet(parquet_file, index=False)
    if csv_file or not parquet_file:
        frame.to_csv(csv_file or sys.stdout, index=False)
    sys.exit(1 if failed else 0)
