"""What the commands share: output-file parameters, the progress bar, errors on stderr and
the exit status."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterable, Iterator, NamedTuple, NoReturn

import click
from tqdm import tqdm

from ..errors import NardyError, RecordProblem
from ..load import PATTERNS, LoadedFile, MatchFiles, load_file, match_files


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


def found_files(paths: Iterable[str]) -> MatchFiles:
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


strict_option = click.option(
    "--strict", is_flag=True,
    help="Treat warnings (quirks of a record that the reader resolved) as errors: the first "
         "one stops its file.")
"""The ``--strict`` option of every command that reads match files."""


def loaded_files(paths: Iterable[str], progress: bool | None,
                 **options) -> Iterator[LoadedFile]:
    """:func:`~nardy_analysis.load.load_file` with ``options`` for every match file named
    (see :func:`found_files`), with a progress bar."""
    files = found_files(paths).files
    for path in progress_bar(files, progress, len(files)):
        yield load_file(path, **options)


class FileErrors(NamedTuple):
    """What went wrong in one file, as :func:`file_errors` tells it (plain data, so that
    worker processes can send it).

    Attributes
    ----------
    path : Path
    lines : tuple of str
        One line per error, in file order: ``file:line:column: game N, move M: kind:
        message``, and what was left out.
    not_a_match : bool
        The file is not a match record (a README, binary data): kind ``not_a_match``.
    warnings : tuple of str
        One line per warning (a quirk of the record that the reader resolved), in file order,
        as the error lines with ``kind (warning)``.
    """

    path: Path
    lines: tuple[str, ...]
    not_a_match: bool
    warnings: tuple[str, ...] = ()


def file_errors(loaded: LoadedFile, violation: str) -> FileErrors:
    """The errors of a loaded file, for stderr.

    Parameters
    ----------
    loaded : LoadedFile
    violation : str
        What the command does with the rest of a game whose replay a rule violation
        stopped, with ``{game}`` for its number: ``"the rest of game {game} is left out"``.

    Returns
    -------
    FileErrors
        The errors of reading the file (the file, or one game, skipped; the reader's
        messages say which) and its rule violations, each followed by ``violation``.
    """
    found = []
    for error in loaded.errors:
        if isinstance(error, OSError):
            found.append((0, 0, f"{loaded.path}: io: cannot read the file: "
                                f"{error.strerror or error}"))
        else:
            found.append(_error_line(error, ""))
    for error in (e for match in loaded.matches for e in match.errors):
        found.append(_error_line(error, "; " + violation.format(game=error.game)))
    not_a_match = any(getattr(e, "kind", None) == "not_a_match" for e in loaded.errors)
    warnings = sorted(_error_line(w, "", " (warning)") for w in loaded.warnings)
    return FileErrors(loaded.path, tuple(line for *_, line in sorted(found)), not_a_match,
                      tuple(line for *_, line in warnings))


def _error_line(error: NardyError, consequence: str, label: str = "") -> tuple[int, int, str]:
    where = f"{error.file}:" + (f"{error.line}:{error.column}: " if error.line else " ")
    if error.game is not None:
        where += f"game {error.game}" + (f", move {error.move}" if error.move else "") + ": "
    text = f" in '{error.text}'" if isinstance(error, RecordProblem) and error.text else ""
    return (error.line, error.column,
            f"{where}{error.kind}{label}: {error.message}{text}{consequence}")


class ErrorReport:
    """The errors of a command's files: each file's on stderr as it comes, the files found
    in folders that are not match records counted in one note at the end, and the exit
    status.

    Parameters
    ----------
    paths : iterable of str
        The paths named on the command line: a file named there that is not a match
        record is an error; one found in a folder (a README) is only counted.
    """

    def __init__(self, paths: Iterable[str]):
        self.named = {Path(path) for path in paths}
        self.failed = False
        self.not_matches: list[Path] = []

    def counted(self, path: Path, not_a_match: bool) -> bool:
        """Count ``path`` as a file found in a folder that is not a match record (True);
        False when it is a match record or was named on the command line."""
        if not_a_match and path not in self.named:
            self.not_matches.append(path)
            return True
        return False

    def add(self, errors: FileErrors) -> None:
        """Report one file's errors on stderr (or count it as not a match record)."""
        if self.counted(errors.path, errors.not_a_match):
            return
        for line in errors.lines + errors.warnings:
            click.echo(line, err=True)
        self.failed |= bool(errors.lines)

    def exit(self, failed: bool = False) -> NoReturn:
        """Say which files were not match records, and exit: 1 when any file had an error
        (or ``failed``), else 0."""
        count = len(self.not_matches)
        if count:
            names = ", ".join(str(path) for path in self.not_matches)
            click.echo(f"{count} files are not match records: {names}" if count > 1 else
                       f"1 file is not a match record: {names}", err=True)
        sys.exit(1 if self.failed or failed else 0)
