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
from itertools import islice
from pathlib import Path
from typing import Any, Callable, Generator, Iterable, Iterator, TypeVar

from .errors import InvalidArgument

DASK_BATCH = 16
"""Files per task on Dask by default (:func:`map_files`)."""

_Result = TypeVar("_Result")


def cores() -> int:
    """The cores this process may run on (the default of ``--jobs``)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def map_files(work: Callable[..., _Result], paths: Iterable[Any], *, jobs: int = 1,
              client: Any = None, window: int | None = None, batch: int | None = None,
              **options: Any) -> Generator[_Result, None, None]:
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
        Most tasks in flight at once (default: 4 per worker process or Dask worker thread).
    batch : int, optional
        Files per task (default: :data:`DASK_BATCH` on Dask, 1 on worker processes): a
        task on a cluster costs a few milliseconds of the scheduler's and the client's
        time, more than the work of a small file, so on Dask a task does several files one
        after the other and sends back their results together.
    **options
        Passed to ``work``; picklable.

    Yields
    ------
    object
        What ``work`` returned for each path, in order. An exception raised by ``work`` is
        raised here, at its file; the files still in flight are then cancelled. So are they
        when the iterator is closed before its end (``close()``): with ``client``, close it
        before the client, whose futures cannot be cancelled once it is closed.

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
        workers, pool = sum(client.nthreads().values()) or 1, None
        submit = lambda chunk: client.submit(  # noqa: E731
            _each, work, [_absolute(path) for path in chunk], options, pure=False)
    else:
        workers, pool = jobs, ProcessPoolExecutor(jobs)
        submit = lambda chunk: pool.submit(_each, work, chunk, options)  # noqa: E731
    pending: deque[Any] = deque()  # futures of the pool or of Dask
    try:
        files, size = iter(paths), batch or (DASK_BATCH if client is not None else 1)
        for chunk in iter(lambda: list(islice(files, size)), []):
            pending.append(submit(chunk))
            if len(pending) >= (window or 4 * workers):
                yield from _results(pending.popleft())
        while pending:
            yield from _results(pending.popleft())
    finally:
        for future in pending:
            future.cancel()
        if pool:
            pool.shutdown(cancel_futures=True)


def _each(work: Callable[..., _Result], paths: list[Any],
          options: dict[str, Any]) -> tuple[list[_Result], Exception | None]:
    """``work(path, **options)`` for each of ``paths`` in turn (one task): the results, and
    the exception of the first path that raised one (the paths after it are not done)."""
    done = []
    try:
        for path in paths:
            done.append(work(path, **options))
    except Exception as error:  # sent back with the results before it, raised at its file
        return done, error
    return done, None


def _results(future: Any) -> Iterator[Any]:
    """The results of one task of :func:`_each` (a future of the pool or of Dask), then the
    exception it met, if any."""
    done, error = future.result()
    yield from done
    if error is not None:
        raise error


def _absolute(path: object) -> object:
    """``path`` made absolute when it is a relative file path (a ``str`` or a ``Path``, kept
    so); any other item as it is."""
    if isinstance(path, str):
        return os.path.abspath(path)
    return path.absolute() if isinstance(path, Path) else path
