"""The turns frame of each of many match files (:func:`turns_frames`)."""

from __future__ import annotations

from os import PathLike
from pathlib import Path
from typing import Any, Iterable, Iterator

import pandas as pd

from ..analysis.turns import turns_frame
from ..load import load_file, match_files
from ..parallel import map_files


def turns_frames(paths: str | PathLike[str] | Iterable[str | PathLike[str]], *, jobs: int = 1,
                 client: Any = None, **options: Any) -> Iterator[pd.DataFrame]:
    """The :func:`~nardy_analysis.analysis.turns.turns_frame` of each match file that
    ``paths`` name, file by file, on worker processes or a Dask cluster: only the frames
    travel back, never the matches.

    Parameters
    ----------
    paths : str or path-like, or an iterable of them
        Files and folders (:func:`nardy_analysis.load.match_files`).
    jobs, client
        As for :func:`nardy_analysis.parallel.map_files`: ``jobs`` worker processes, or the
        workers of a ``distributed.Client``.
    **options
        ``rules``, ``tags``, ``strict``: as for :func:`nardy_analysis.load.load_file`.

    Yields
    ------
    pandas.DataFrame
        One frame per file, in the order of ``match_files`` (empty for a file without a
        match that can be read; as ``load_file``, a broken game is left out or used up to
        its violation, and its errors are not told here: ``nardy stats`` reports them),
        the same whatever ``jobs`` or ``client``. Concatenate them, or write each as a part
        of a Parquet dataset, as they come (:class:`~nardy_analysis.parquet.ParquetParts`).
    """
    yield from map_files(_file_frame, match_files(paths).files, jobs=jobs, client=client,
                         **options)


def _file_frame(path: Path, **options: Any) -> pd.DataFrame:
    return turns_frame(load_file(path, **options))
