"""Which files a command works on: files as named, folders searched recursively."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable, Iterable, TypeVar

import click
from tqdm import tqdm

from .errors import NardyError

T = TypeVar("T")

PATTERNS = ("*.mat", "*.txt")
"""File names searched for in folders."""


def match_files(paths: Iterable[str | Path]) -> list[Path]:
    """The match files named by ``paths``.

    A file is kept as given; a folder is searched recursively for ``*.mat`` and ``*.txt``.
    Anything found by name (a folder called ``x.mat``, a dangling link) is kept, so that
    reading it reports the problem. A folder with no such file is reported on stderr.
    """
    found = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            inside = sorted({f for pattern in PATTERNS for f in path.rglob(pattern)})
            if not inside:
                print(f"{path}: no {' or '.join(PATTERNS)} files", file=sys.stderr)
            found += inside
        else:
            found.append(path)
    return found


def show_progress(progress: bool | None, files: int) -> bool:
    """Whether to show a progress bar: as asked, else for several files on a terminal."""
    return progress if progress is not None else files > 1 and sys.stderr.isatty()


def read_each(paths: Iterable[str | Path], build: Callable[[Path], T],
              progress: bool | None = None) -> tuple[list[T], int]:
    """``build(path)`` for every match file named, with a progress bar on stderr.

    A file that cannot be read (``NardyError`` or ``OSError``) is reported on stderr and
    skipped. The bar shows by default when there are several files and stderr is a
    terminal. Returns the results and how many files were skipped.
    """
    files = match_files(paths)
    results, skipped = [], 0
    for path in tqdm(files, disable=not show_progress(progress, len(files)), unit="file",
                     file=sys.stderr):
        try:
            results.append(build(path))
        except (NardyError, OSError) as error:
            skipped += 1
            print(f"skipped {path}: {error}", file=sys.stderr)
    return results, skipped


class OutputFile(click.Path):
    """A click parameter for a file a command writes: its folder must exist (a usage error,
    exit status 2, before any work is done)."""

    def __init__(self, **options):
        super().__init__(dir_okay=False, writable=True, **options)

    def convert(self, value, param, ctx):
        value = super().convert(value, param, ctx)
        if value != "-" and not Path(value).resolve().parent.is_dir():
            self.fail(f"folder {str(Path(value).parent)!r} does not exist", param, ctx)
        return value


def warn_violations(matches, consequence: str) -> None:
    """Print each rule violation of replayed ``matches`` on stderr, with ``consequence``."""
    for error in (e for match in matches for e in match.errors):
        print(f"warning: {error}; {consequence}", file=sys.stderr)
