"""Per-file work over many files: in this process, on a pool of worker processes, or on a
Dask cluster, the results in the order of the files.

Only a bounded number of files is in flight at a time, so a run over a whole site's history
keeps a few results in memory, not all of them; what a worker sends back is what the work
function returns (make it small: counts, a frame of one file, errors as plain data).
"""

from __future__ import annotations

import os
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from .errors import InvalidArgument


def cores() -> int:
    """The cores this process may run on (the default of ``--jobs``)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def map_files(work: Callable[..., Any], paths: Iterable, *, jobs: int = 1, client=None,
              window: int | None = None, **options) -> Iterator[Any]:
    """``work(path, **options)`` for every path, yielded in the order of ``paths``.

    Parameters
    ----------
    work : callable
        A module-level function (worker processes and Dask workers import it by name).
    paths : iterable
        The files (any picklable items).
    jobs : int
        1: in this process, one file after the other; more: a pool of that many worker
        processes on this machine. Ignored with ``client``.
    client : distributed.Client, optional
        Run on this Dask cluster instead (``pip install nardy-analysis[dask]``). Relative
        paths are made absolute first: the workers have working folders of their own, so
        ``work`` sees (and names the files by) absolute paths.
    window : int, optional
        Most files in flight at once (default: 4 per worker process or Dask worker thread).
    **options
        Passed to ``work``; picklable.

    Yields
    ------
    object
        What ``work`` returned for each path, in order. An exception raised by ``work`` is
        raised here, at its file; the files still in flight are then cancelled.

    Raises
    ------
    InvalidArgument
        ``jobs`` < 1.
    """
    if jobs < 1:
        raise InvalidArgument(f"jobs={jobs}: at least one process is needed")
    if client is None and jobs == 1:
        yield from (work(path, **options) for path in paths)
        return
    if client is not None:
        workers = sum(client.nthreads().values()) or 1
        submit = lambda path: client.submit(work, _absolute(path), pure=False,  # noqa: E731
                                            **options)
        pool = None
    else:
        workers, pool = jobs, ProcessPoolExecutor(jobs)
        submit = lambda path: pool.submit(work, path, **options)  # noqa: E731
    pending: deque = deque()
    try:
        for path in paths:
            pending.append(submit(path))
            if len(pending) >= (window or 4 * workers):
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        for future in pending:
            future.cancel()
        if pool:
            pool.shutdown(cancel_futures=True)


def _absolute(path):
    """``path`` made absolute when it is a relative file path (a ``str`` or a ``Path``, kept
    so); any other item as it is."""
    if isinstance(path, str):
        return os.path.abspath(path)
    return path.absolute() if isinstance(path, Path) else path
