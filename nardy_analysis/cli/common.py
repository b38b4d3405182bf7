"""What the commands share: output-file parameters, the progress bar, reports on stderr."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterable, Iterator

import click
from tqdm import tqdm

from ..load import PATTERNS, LoadedFile, load_file, match_files


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


def found_files(paths: Iterable[str]):
    """:func:`~nardy_analysis.load.match_files`, each folder without a match file reported
    on stderr."""
    found = match_files(paths)
    for folder in found.empty:
        click.echo(f"{folder}: no {' or '.join(PATTERNS)} files", err=True)
    return found


def progress_bar(items: Iterable, progress: bool | None, total: int):
    """``items`` with a progress bar on stderr: as ``progress`` asks, by default when there
    are several files and stderr is a terminal."""
    show = progress if progress is not None else total > 1 and sys.stderr.isatty()
    return tqdm(items, total=total, disable=not show, unit="file", file=sys.stderr)


def loaded_files(paths: Iterable[str], progress: bool | None,
                 **options) -> Iterator[LoadedFile]:
    """:func:`~nardy_analysis.load.load_file` with ``options`` for every match file named
    (see :func:`found_files`), with a progress bar."""
    files = found_files(paths).files
    for path in progress_bar(files, progress, len(files)):
        yield load_file(path, **options)


def skipped(loaded: LoadedFile) -> bool:
    """Whether a file could not be read; if so says so on stderr, with its first error."""
    if loaded.errors:
        click.echo(f"skipped {loaded.path}: {loaded.errors[0]}", err=True)
    return bool(loaded.errors)


def warn_violations(matches, consequence: str) -> None:
    """Each rule violation of replayed ``matches`` on stderr, with ``consequence``."""
    for error in (e for match in matches for e in match.errors):
        click.echo(f"warning: {error}; {consequence}", err=True)
