"""What the commands share: output-file parameters and writing them, the progress bar,
``--quiet``, errors on stderr and the exit status."""

from __future__ import annotations

import os
import sys
import tempfile
import threading
from collections.abc import Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Generator,
    Iterable,
    Iterator,
    NamedTuple,
    NoReturn,
    TypeVar,
)

import click

from .. import parquet
from ..errors import EngineError, NardyError, RecordProblem, path_text
from ..game.ids import MatchState
from ..game.position import Position
from ..game.rules import VARIANTS, Rules
from ..load import MatchFiles, load_file, match_files
from ..notation import positions
from ..parallel import cores, map_files
from ..replay import LoadedFile, ReplayedMatch

if TYPE_CHECKING:
    import pandas as pd

T = TypeVar("T")

_QUIET = "nardy_analysis.quiet"
"""The key of ``--quiet`` in the click context's ``meta``."""


def _set_quiet(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    ctx.meta[_QUIET] = value
    return value


quiet_option = click.option(
    "-q", "--quiet", is_flag=True, expose_value=False, callback=_set_quiet, is_eager=True,
    help="No progress bar, notes, warnings or 'wrote' lines on stderr; errors are still "
         "shown, and results asked for on stdout and the exit status are unchanged.")
"""The ``--quiet`` option of every command (the command does not take it as a parameter:
:func:`quiet` tells it)."""


def quiet() -> bool:
    """True when the running command was given ``--quiet``."""
    ctx = click.get_current_context(silent=True)
    return bool(ctx and ctx.meta.get(_QUIET))


def note(message: str) -> None:
    """Print ``message`` on stderr unless ``--quiet``: for notes and warnings, not errors."""
    if not quiet():
        click.echo(message, err=True)


class UsageLine(click.ClickException):
    """A usage error told in one line on stderr (``Error: ...``), exit status 2, without
    click's usage text: the message names the argument and what is wrong with it."""

    exit_code = 2


class CannotWrite(UsageLine):
    """A file a command was asked to write cannot be written, before any work when it can
    be seen in advance: the path and the reason."""

    def __init__(self, path: str | os.PathLike[str], reason: str):
        super().__init__(f"cannot write {quoted(path)}: {reason}")


def quoted(path: str | os.PathLike[str]) -> str:
    """``path`` in quotes for a message, as :func:`~nardy_analysis.errors.path_text` writes
    it: ``'out/bad\\xffname.csv'``."""
    return f"'{path_text(path)}'"


def parse_position(text: str) -> tuple[Position, MatchState | None]:
    """:func:`~nardy_analysis.notation.positions.parse_position`, for a command's argument.

    Raises
    ------
    UsageLine
        ``text`` is no position: the message quotes it and says what is wrong.
    """
    try:
        return positions.parse_position(text)
    except NardyError as error:
        raise UsageLine(str(error)) from None


def _unwritable(path: Path) -> str | None:
    """Why ``path`` cannot be written, or None when it looks writable: a new file is created
    and removed again to be sure (the write may still fail: root may write a read-only
    file, a disk may fill up)."""
    folder = path.absolute().parent
    if path.is_dir():
        return "it is a folder"
    if not folder.exists():
        return f"folder {quoted(path.parent)} does not exist"
    if not folder.is_dir():
        return f"{quoted(path.parent)} is not a folder"
    if path.exists():
        return None if os.access(path, os.W_OK) else "it is a read-only file"
    if not os.access(folder, os.W_OK):
        return f"folder {quoted(path.parent)} is not writable"
    try:  # a trial: /proc and the like take no new file, whatever access() says
        path.open("x").close()
    except OSError as error:
        return error.strerror or str(error)
    path.unlink()
    return None


class OutputFile(click.Path):
    """A click parameter for a file a command writes, checked before any work is done:
    :class:`CannotWrite` when it is a folder, its folder is missing or not writable, or it
    is a read-only file. ``-`` (standard output) only with ``allow_dash=True``."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        value = super().convert(value, param, ctx)
        reason = None if value == "-" and self.allow_dash else _unwritable(Path(value))
        if reason:
            raise CannotWrite(value, reason)
        return value


class OutputFolder(click.Path):
    """A click parameter for a folder a command writes files into, made (with its missing
    parents) by the command: :class:`CannotWrite` before any work when it is a file, a
    part of its path is a file, or the nearest folder of it that exists takes no new folder
    (read-only, /proc: a trial folder is made and removed). The value is a ``Path``."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Path:
        path = Path(os.fsdecode(super().convert(value, param, ctx)))
        existing = next(p for p in (path, *path.absolute().parents) if p.exists())
        if not existing.is_dir():
            reason = "it is a file" if existing == path else f"{quoted(existing)} is a file"
        elif not os.access(existing, os.W_OK):
            reason = f"folder {quoted(existing)} is not writable"
        else:
            try:  # a trial: /proc and the like take no new folder, whatever access() says
                os.rmdir(tempfile.mkdtemp(dir=existing))
                reason = None
            except OSError as error:
                reason = error.strerror or str(error)
        if reason:
            raise CannotWrite(value, reason)
        return path


class ParquetOutput(OutputFile):
    """A click parameter for ``--parquet``: a path ending in ``.parquet`` is one file (as
    :class:`OutputFile` checks it), any other a folder for a partitioned dataset
    (:class:`ParquetParts`), created when missing; a folder that exists must be writable
    and hold no ``.parquet`` file (a reader of the folder would mix them in)."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        if value.lower().endswith(".parquet"):
            return super().convert(value, param, ctx)
        path = Path(value)
        reason: str | bool | None
        if not path.is_dir():
            reason = _unwritable(path) or (path.exists() and "it is a file (the name of one "
                                           "Parquet file ends in .parquet)")
        elif any(path.glob("*.parquet")):
            reason = "the folder holds .parquet files already: name a new folder or one without any"
        else:
            reason = None if os.access(path, os.W_OK) else "the folder is not writable"
        if reason:
            raise CannotWrite(value, reason)
        return value


class ParquetParts(parquet.ParquetParts):
    """:class:`~nardy_analysis.parquet.ParquetParts` for a command: a part that cannot be
    written is :class:`CannotWrite` (one line, exit status 2), and :meth:`close` says on
    stderr what was written: ``wrote DIR (8,412 rows in 1 part)``."""

    def write(self, part: pd.DataFrame | Mapping[str, Sequence[Any]]) -> None:
        try:
            super().write(part)
        except OSError as error:
            raise CannotWrite(self.next_part, error.strerror or str(error)) from None

    def close(self) -> None:
        try:
            super().close()
        except OSError as error:
            raise CannotWrite(self.next_part, error.strerror or str(error)) from None
        note(f"wrote {path_text(self.folder)} ({self.written:,} rows in {self.parts} "
             f"part{'s' * (self.parts != 1)})")


def parquet_parts(path: str | None, dtypes: dict[str, str]) -> ParquetParts | None:
    """The dataset that a :class:`ParquetOutput` value asks for, or None when it names one
    file (or no ``--parquet`` was given)."""
    if path and not path.lower().endswith(".parquet"):
        return ParquetParts(path, dtypes)
    return None


def close_parquet(path: str | None, parts: ParquetParts | None, frame: pd.DataFrame) -> None:
    """End a command's ``--parquet`` output: close the dataset ``parts`` (of
    :func:`parquet_parts`), else write ``frame`` (a pandas DataFrame) to the one file
    ``path`` names; nothing without ``--parquet``."""
    if parts:
        parts.close()
    elif path:
        write_output(path, lambda file: frame.to_parquet(file, index=False), len(frame))


def write_output(path: str, write: Callable[[str], object], rows: int | None = None) -> None:
    """Write a command's output file and say so on stderr (unless ``--quiet``).

    Parameters
    ----------
    path : str
        An :class:`OutputFile` value; ``-`` is standard output (nothing is said).
    write : callable
        Writes the file, given ``path``.
    rows : int, optional
        Rows written, for ``wrote out.csv (8,412 rows)``; without it the size in bytes.

    Raises
    ------
    CannotWrite
        The write failed (``OSError``): one line naming the path and the reason, exit 2.
    """
    try:
        write(path)
    except OSError as error:
        raise CannotWrite(path, error.strerror or str(error)) from None
    if path != "-":
        size = f"{rows:,} rows" if rows is not None else f"{Path(path).stat().st_size:,} bytes"
        note(f"wrote {path_text(path)} ({size})")


def found_files(paths: Iterable[str]) -> MatchFiles:
    """:func:`~nardy_analysis.load.match_files`, each folder without a match file reported
    on stderr (``no match files found in PATH``); when no path names a match file, that
    ends the command with exit status 1 (before any output)."""
    found = match_files(paths)
    if not found.files:
        for folder in found.empty:
            click.echo(f"no match files found in {path_text(folder)}", err=True)
        sys.exit(1)
    for folder in found.empty:
        note(f"no match files found in {path_text(folder)}")
    return found


def one_file(path: str) -> str:
    """``path``, the one match file a command reads: a folder is a usage error, or, when
    it holds no match file, ends the command with exit status 1 (:func:`found_files`)."""
    found_files([path])
    if Path(path).is_dir():
        raise click.BadParameter(f"{quoted(path)} is a folder: name one match file in it",
                                 param_hint="PATH")
    return path


def progress_bar(items: Iterable[T], progress: bool | None, total: int,
                 unit: str = "file") -> Generator[T, None, None]:
    """``items`` with a progress bar on stderr: as ``progress`` asks, by default when there
    are several items (files) and stderr is a terminal; never with ``--quiet``.

    The bar is drawn while the next item is made (a generator's work) and cleared while the
    caller handles it, so that lines the caller prints (stdout or stderr, the same terminal)
    are never mixed with the bar. A bar of another ``unit`` than files (the rolls of one
    file) goes when it is done, since it is drawn beneath the files' bar. tqdm is imported
    only to draw one (0.02 s of CPU).
    """
    show = not quiet() and (progress if progress is not None
                            else total > 1 and sys.stderr.isatty())
    if not show:
        yield from items
        return
    from tqdm import tqdm

    with tqdm(total=total, unit=unit, file=sys.stderr, leave=unit == "file",
              mininterval=0) as bar:  # redrawn after each item: it was cleared
        for item in items:
            bar.clear()
            yield item
            bar.update()


progress_option = click.option(
    "--progress/--no-progress", default=None,
    help="Progress bar on stderr (default: for several files when stderr is a terminal).")
"""The ``--progress`` option of every command that works through many files
(:func:`progress_bar`)."""

jobs_option = click.option(
    "--jobs", type=click.IntRange(1), default=None,
    help=f"Worker processes over the files (default: all cores, {cores()} here); the "
         "output is that of --jobs 1.")
"""The ``--jobs`` option of every command that reads many files (:func:`file_results`)."""

dask_option = click.option(
    "--dask", "dask_address", metavar="ADDRESS", default=None,
    help="Run the work on each file on this dask.distributed scheduler (tcp://host:8786) "
         "instead of --jobs processes; the output is the same (pip install "
         "nardy-analysis[dask]).")
"""The ``--dask`` option of every command that reads many files (:func:`file_results`)."""

DASK_TIMEOUT = 5
"""How long ``--dask`` tries to reach the scheduler and waits for its answer, in seconds
(each at most: a peer that takes the connection and never answers fails at twice that)."""


def worker_count(jobs: int | None, files: list[Path]) -> int:
    """The worker processes of :func:`file_results`: ``jobs``, by default all cores, never
    more than the files (1: the work is done in this process)."""
    return jobs or max(1, min(cores(), len(files)))


@contextmanager
def file_results(work: Callable[..., T], files: list[Path], progress: bool | None,
                 jobs: int | None, dask_address: str | None,
                 **options: Any) -> Iterator[Iterator[T]]:
    """The results of ``work(path, **options)`` for each of ``files``, in order, with a
    progress bar: :func:`~nardy_analysis.parallel.map_files` on ``jobs`` processes (default
    all cores, never more than the files), or on the Dask cluster at ``dask_address``. On
    leaving, even early (an error while the results are handled), the files still in
    flight are cancelled, then the client is closed.

    Raises
    ------
    UsageLine
        ``dask_address`` without the dask extra installed, or a scheduler that cannot be
        reached within :data:`DASK_TIMEOUT` or does not answer (one line, exit status 2;
        :func:`_dask_client`).
    """
    client = _dask_client(dask_address) if dask_address else None
    results = map_files(work, files, jobs=worker_count(jobs, files), client=client, **options)
    bar = progress_bar(results, progress, len(files))
    try:
        yield bar
    finally:
        # Closed here, not when collected: the files in flight are cancelled (and the
        # worker processes shut down) while the client still runs.
        bar.close()
        results.close()
        if client is not None:
            client.close()


def needing_engine(results: Iterable[T], what: str = "") -> Generator[T, None, None]:
    """``results`` (of :func:`file_results`), a missing engine extra told as one usage line.

    Only short nardy needs the extra (gnubg-nn, or bgsage); long nardy's engine ships with
    the package. So an engine analysis works through the files and stops at the first
    short nardy file that finds no engine, not before any work.

    Parameters
    ----------
    results : iterable
        The files' results; the work on a file raises ``EngineError`` without the engine.
    what : str
        Put before the error's message: the option that asked for the engine (``--luck: ``).

    Raises
    ------
    UsageLine
        The ``EngineError``'s message (naming the ``pip install`` command), exit status 2.
    """
    try:
        yield from results
    except EngineError as error:
        raise UsageLine(f"{what}{error}") from None


def _dask_client(address: str) -> Any:
    """A ``distributed.Client`` of the scheduler at ``address``, or a UsageLine.

    distributed's own ``timeout`` bounds the connection, not the handshake after it
    (dask/distributed pull request 7698), so the client is made in a thread of its own
    that is waited for at most twice :data:`DASK_TIMEOUT`: a peer that takes the connection
    and never answers (not a scheduler) is one line too, not a wait for ever.
    """
    try:
        from distributed import Client
    except ImportError:
        raise UsageLine("--dask needs dask.distributed: pip install "
                        "nardy-analysis[dask]") from None
    made: dict[str, Any] = {}

    def connect() -> None:
        try:
            made["client"] = Client(address, timeout=DASK_TIMEOUT)
        except Exception as error:  # raised in the caller's thread
            made["error"] = error

    thread = threading.Thread(target=connect, name="Dask client", daemon=True)
    thread.start()
    thread.join(2 * DASK_TIMEOUT)
    error = f"no answer within {2 * DASK_TIMEOUT} s" if thread.is_alive() else \
        made.get("error")
    if isinstance(error, (str, OSError, ValueError)):  # TimeoutError is an OSError
        raise UsageLine(f"cannot reach the Dask scheduler {address!r}: {error}")
    if error is not None:
        raise error
    return made["client"]


rules_option = click.option(
    "--rules", type=click.Choice(sorted(VARIANTS)), default=None,
    callback=lambda ctx, param, name: VARIANTS[name] if name else None,
    help="Variant to apply instead of the files' Variation tag (their Crawford, Jacoby, "
         "Beaver and CubeLimit tags still apply): long (= longnardy) or long-federation for "
         "long nardy; caucasian for Caucasian short nardy (no hit in the owner's home "
         "board); backgammon and standard are the same rules.")
"""The ``--rules`` option of every command that reads match files: the
:class:`~nardy_analysis.game.rules.Rules` named, or None (the files' tags choose)."""

strict_option = click.option(
    "--strict", is_flag=True,
    help="Treat warnings (quirks of a record that the reader resolved) as errors: the first "
         "one stops its file.")
"""The ``--strict`` option of every command that reads match files."""


class FileErrors(NamedTuple):
    """What went wrong in one file, as :func:`file_errors` tells it (plain data, so that
    worker processes can send it).

    Attributes
    ----------
    path : Path
    lines : tuple of str
        One line per error, in file order: ``file:line:column: game N, move M: kind:
        message``, and what is left out or used.
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
        messages say which) and its rule violations, each followed by ``violation`` when it
        stopped its game's replay, else by ``the rest of game N is used all the same`` (a
        score line that disagrees with the results before it, a cube action out of place,
        an opening double).
    """
    found = []
    for error in loaded.errors:
        if isinstance(error, OSError):
            found.append((0, 0, f"{path_text(loaded.path)}: io: cannot read the file: "
                                f"{error.strerror or error}"))
        else:
            found.append(_error_line(error, ""))
    for game in (game for match in loaded.matches for game in match.games):
        for error in game.errors:
            stopped = game.stopped and error is game.errors[-1]
            found.append(_error_line(error, "; " + (
                violation if stopped else "the rest of game {game} is used all the same"
            ).format(game=error.game)))
    not_a_match = any(getattr(e, "kind", None) == "not_a_match" for e in loaded.errors)
    warnings = sorted(_error_line(w, "", " (warning)") for w in loaded.warnings)
    return FileErrors(loaded.path, tuple(line for *_, line in sorted(found)), not_a_match,
                      tuple(line for *_, line in warnings))


def analysed_file(path: Path, strict: bool,
                  analyse: Callable[[tuple[ReplayedMatch, ...]], tuple[Any, Any]],
                  rules: Rules | None = None) -> dict[str, Any]:
    """One file through an engine analysis (the work of a worker process or Dask worker):
    ``file``, ``frame`` and ``summary`` (None without a match, or when the analysis
    refused the file), ``errors`` (:class:`FileErrors`; a refusal is one more line) and
    ``violations`` (rule violations in the file).

    ``analyse(matches)`` returns ``(frame, summary)``; an ``EngineError`` (no engine)
    is raised, any other ``NardyError`` (a match longer than 25 points, long nardy)
    refuses the file. ``rules`` as for :func:`~nardy_analysis.load.load_file`.
    """
    loaded = load_file(path, strict=strict, rules=rules)
    errors = file_errors(loaded, "the rest of game {game} is not analysed")
    result = {"file": path_text(path), "frame": None, "summary": None, "errors": errors,
              "violations": sum(len(m.errors) for m in loaded.matches)}
    if loaded.matches:
        try:
            frame, summary = analyse(loaded.matches)
        except EngineError:
            raise
        except NardyError as error:
            return result | {"errors": errors._replace(lines=(*errors.lines,
                                                              f"{result['file']}: {error}"))}
        result |= {"frame": frame, "summary": summary}
    return result


def _error_line(error: NardyError, consequence: str, label: str = "") -> tuple[int, int, str]:
    where = f"{error.file}:" + (f"{error.line}:{error.column}: " if error.line else " ")
    if error.game is not None:
        where += f"game {error.game}" + (f", move {error.move}" if error.move else "") + ": "
    text = f" in '{error.text}'" if isinstance(error, RecordProblem) and error.text else ""
    return (error.line, error.column,
            f"{where}{error.kind}{label}: {getattr(error, 'message', error)}{text}"
            f"{consequence}")


STRICT_STOPS = "--strict stops the file at its first error or warning, so no match is read"
"""Why ``report`` and ``plot`` show nothing of a file that ``--strict`` stopped (the file's
error says what it is; without ``--strict`` a file with no match says so itself)."""


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
        self.named = {path_text(Path(path)) for path in paths}
        self.failed = False
        self.not_matches: list[Path | str] = []

    def counted(self, path: Path | str, not_a_match: bool) -> bool:
        """Count ``path`` (a Path, or its :func:`~nardy_analysis.errors.path_text`) as a
        file found in a folder that is not a match record (True); False when it is a match
        record or was named on the command line."""
        if not_a_match and path_text(Path(path)) not in self.named:
            self.not_matches.append(path)
            return True
        return False

    def add(self, errors: FileErrors) -> None:
        """Report one file's errors on stderr, and its warnings unless ``--quiet`` (or count
        it as not a match record)."""
        if self.counted(errors.path, errors.not_a_match):
            return
        for line in errors.lines:
            click.echo(line, err=True)
        for line in errors.warnings:
            note(line)
        self.failed |= bool(errors.lines)

    def exit(self, failed: bool = False) -> NoReturn:
        """Say which files were not match records (unless ``--quiet``), and exit: 1 when
        any file had an error (or ``failed``), else 0."""
        count = len(self.not_matches)
        if count:
            names = ", ".join(map(path_text, self.not_matches))
            note(f"{count} files are not match records: {names}" if count > 1 else
                 f"1 file is not a match record: {names}")
        sys.exit(1 if self.failed or failed else 0)
