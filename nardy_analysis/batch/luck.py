"""The luck frame of each of many match files (:func:`luck_frames`), and the luck and errors
of one match game by game (:func:`luck_and_skill`)."""

from __future__ import annotations

from os import PathLike
from pathlib import Path
from typing import Any, Iterable, Iterator

import pandas as pd

from ..analysis.evaluator import Evaluator
from ..analysis.luck import luck_frame
from ..analysis.skill import skill_frame
from ..load import load_file, match_files
from ..parallel import map_files
from ..replay import ReplayedMatch


def luck_frames(paths: str | PathLike[str] | Iterable[str | PathLike[str]], *, ply: int = 0,
                engine: str = "gnubg-nn", jobs: int = 1, client: Any = None,
                **options: Any) -> Iterator[pd.DataFrame]:
    """The :func:`~nardy_analysis.analysis.luck.luck_frame` of each match file that ``paths``
    name, file by file, on worker processes or a Dask cluster (each loads the engine once):
    only the frames travel back, never the matches.

    Parameters
    ----------
    paths, jobs, client, **options
        As for :func:`~nardy_analysis.batch.turns_frames`.
    ply, engine
        As for :func:`~nardy_analysis.analysis.engine.default_evaluator`.

    Yields
    ------
    pandas.DataFrame
        One frame per file, in the order of ``match_files`` (empty for a file without a
        match that can be read; errors are not told here: ``nardy luck`` reports them), the
        same whatever ``jobs`` or ``client``.

    Raises
    ------
    EngineError
        The engine is not installed, at the first file.
    NardyError
        A match longer than 25 points, at its file.
    """
    yield from map_files(_file_luck, match_files(paths).files, jobs=jobs, client=client,
                         ply=ply, engine=engine, **options)


def _file_luck(path: Path, ply: int, engine: str, **options: Any) -> pd.DataFrame:
    return luck_frame(load_file(path, **options), ply=ply, engine=engine)


def luck_and_skill(match: ReplayedMatch, evaluator: Evaluator | None = None, *,
                   jobs: int = 1) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The :func:`~nardy_analysis.analysis.luck.luck_frame` and
    :func:`~nardy_analysis.analysis.skill.skill_frame` of one match; with ``jobs`` > 1 game
    by game on that many worker processes (the default engine only): the same frames,
    sooner, since a game's luck and errors do not depend on the other games.

    Parameters
    ----------
    match : ReplayedMatch
    evaluator : Evaluator, optional
        As for ``luck_frame`` and ``skill_frame``; one given runs in this process.
    jobs : int
        Worker processes.

    Returns
    -------
    luck, skill : pandas.DataFrame
        The two frames, games in order.

    Raises
    ------
    EngineError
        The engine is not installed.
    NardyError
        A match longer than 25 points.
    """
    if jobs > 1 and evaluator is None and len(match.games) > 1:
        parts = list(map_files(_game_luck, [ReplayedMatch(match.record, match.rules, [game])
                                            for game in match.games], jobs=jobs))
        return (pd.concat([luck for luck, _ in parts], ignore_index=True),
                pd.concat([skill for _, skill in parts], ignore_index=True))
    return luck_frame(match, evaluator), skill_frame(match, evaluator)


def _game_luck(game: ReplayedMatch) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The luck and skill frames of a match of one game (the work of a worker process)."""
    return luck_frame(game), skill_frame(game)
