"""The dice audit of many match files, counted file by file (:func:`audit_files`)."""

from __future__ import annotations

from os import PathLike
from typing import Any, Iterable

from ..analysis.audit import AuditCounts, DiceAudit, audit_dice, match_counts, merge_counts
from ..load import load_file, match_files
from ..parallel import map_files
from ..replay import LoadedFile


def audit_files(paths: str | PathLike[str] | Iterable[str | PathLike[str]],
                by: str | None = None, include_opening: bool = False, positions: bool = True,
                player: str | None = None, luck: bool = False, *, jobs: int = 1,
                client: Any = None, **options: Any) -> DiceAudit:
    """Audit the dice of match files, counted file by file on worker processes or a Dask
    cluster: only each file's :class:`~nardy_analysis.analysis.audit.AuditCounts` travel
    back, never matches or rolls, and the tests run once on their sum, so the result is that
    of :func:`~nardy_analysis.analysis.audit.audit_dice` of all the files' rolls together
    (the same p-values), whatever ``jobs`` or ``client``.

    Parameters
    ----------
    paths : str or path-like, or an iterable of them
        Files and folders (:func:`nardy_analysis.load.match_files`).
    by, include_opening, positions, player, luck
        As for :func:`~nardy_analysis.analysis.audit.audit_dice` (with ``luck`` each file's
        luck rows travel back too, 40 bytes a roll).
    jobs, client
        As for :func:`nardy_analysis.parallel.map_files`: ``jobs`` worker processes, or the
        workers of a ``distributed.Client``.
    **options
        ``rules``, ``tags``, ``strict``: as for :func:`nardy_analysis.load.load_file`
        (errors are not told here: ``nardy audit`` reports them).

    Returns
    -------
    DiceAudit
        With ``rolls`` None.

    Raises
    ------
    InvalidArgument
        No roll is ``player``'s (the message names the players there are, closest first).
    """
    parts = map_files(file_counts, match_files(paths).files, jobs=jobs, client=client,
                      by=by, include_opening=include_opening, positions=positions,
                      player=player, luck=luck, **options)
    return audit_dice(merge_counts(parts, by, include_opening, player))


def file_counts(source: str | PathLike[str] | LoadedFile, by: str | None = None,
                include_opening: bool = False, positions: bool = True,
                player: str | None = None, luck: bool = False,
                **options: Any) -> AuditCounts:
    """The :class:`~nardy_analysis.analysis.audit.AuditCounts` of one match file (the work
    of a worker process or Dask worker in :func:`audit_files`):
    :func:`~nardy_analysis.analysis.audit.match_counts` of its replayed matches.

    Parameters
    ----------
    source : str or path-like, or LoadedFile
        The file, or the file already loaded.
    by, include_opening, positions, player, luck
        As for :func:`~nardy_analysis.analysis.audit.audit_dice`.
    **options
        For a path: as for :func:`nardy_analysis.load.load_file`.
    """
    loaded = source if isinstance(source, LoadedFile) else load_file(source, **options)
    return match_counts(loaded, by, include_opening, positions, player, luck)
