"""Paths -> replayed matches: the only module that reads match files.

:func:`match_files` finds the files a list of paths names (folders searched recursively),
:func:`load_file` reads and replays one of them, returning what went wrong as data
(:class:`LoadedFile`), and :func:`load_files` does both for many paths; :func:`replay_file`
is the raising form for one file. The work on one file is a function of its path alone, so
that it can run in worker processes. :func:`sample_folder` is where the sample match files
installed with the package are.
"""

from __future__ import annotations

import warnings
from importlib.resources import files
from os import PathLike
from pathlib import Path
from typing import Any, Iterable, Iterator, NamedTuple

from .errors import EmptyFile, RuleViolation, path_text
from .game.rules import Rules
from .notation.mat import read_mat
from .notation.sgf import read_sgf
from .replay import LoadedFile as LoadedFile  # the replay package's, re-exported
from .replay import ReplayedMatch, replay_match

PATTERNS = ("*.mat", "*.txt", "*.sgf")
"""File names searched for in folders."""


class MatchFiles(NamedTuple):
    """What :func:`match_files` found.

    Attributes
    ----------
    files : list of Path
        The match files, in the order the paths were given (each folder's sorted).
    empty : list of Path
        The folders named that hold no match file.
    """

    files: list[Path]
    empty: list[Path]


def match_files(paths: str | PathLike[str] | Iterable[str | PathLike[str]]) -> MatchFiles:
    """The match files named by ``paths``.

    A file is kept as given; a folder is searched recursively for :data:`PATTERNS`.
    Anything found by name (a folder called ``x.mat``, a dangling link) is kept, so that
    reading it reports the problem.

    Parameters
    ----------
    paths : str or path-like, or an iterable of them

    Returns
    -------
    MatchFiles
        The files, and the folders in which none was found (nothing is reported here).
    """
    files, empty = [], []
    for name in [paths] if isinstance(paths, (str, PathLike)) else paths:
        path = Path(name)
        if path.is_dir():
            inside = sorted({f for pattern in PATTERNS for f in path.rglob(pattern)})
            if not inside:
                empty.append(path)
            files += inside
        else:
            files.append(path)
    return MatchFiles(files, empty)


def load_file(path: str | PathLike[str], *, rules: Rules | None = None, tags: bool = True,
              strict: bool = False) -> LoadedFile:
    """Read and replay every match of one ``.mat`` or gnubg ``.sgf`` file; never raises for
    a bad file.

    Parameters
    ----------
    path : str or path-like
        A file whose name ends in ``.sgf`` (any case) is read as gnubg SGF
        (:func:`~nardy_analysis.notation.sgf.read_sgf`), any other as ``.mat`` text
        (:func:`~nardy_analysis.notation.mat.read_mat`).
    rules, tags, strict
        As for :func:`~nardy_analysis.replay.replay_match`; with ``strict`` the first
        violation, or the first warning (as a violation of its kind), stops the file and is
        its last error.

    Returns
    -------
    LoadedFile
        Every game that can be read: a game with a syntax error is one of its ``errors``,
        the file's other games are kept.
    """
    path, sgf = Path(path), Path(path).suffix.lower() == ".sgf"
    try:
        parsed = read_sgf(path) if sgf else read_mat(path)
    except OSError as error:
        return LoadedFile(path, (), (), (error,))
    records, errors, quirks = parsed.matches, list(parsed.errors), list(parsed.warnings)
    if not records and not errors:
        missing = "SGF game tree" if sgf else "'N point match' line"
        errors.append(EmptyFile(f"no match in the file (no {missing})", 1, 1, file=parsed.file))
    if strict and quirks:
        return LoadedFile(path, tuple(records), (), tuple(errors) + (quirks[0].as_error(),))
    matches = []
    try:
        for record in records:
            matches.append(replay_match(record, rules, strict, tags))
            quirks += matches[-1].warnings
    except RuleViolation as error:
        errors.append(error)
    return LoadedFile(path, tuple(records), tuple(matches), tuple(errors), tuple(quirks))


def load_files(paths: str | PathLike[str] | Iterable[str | PathLike[str]],
               **options: Any) -> Iterator[LoadedFile]:
    """:func:`load_file` for every match file that ``paths`` name (see :func:`match_files`).

    Parameters
    ----------
    paths : str or path-like, or an iterable of them
        Files and folders.
    **options
        ``rules``, ``tags``, ``strict``: as for :func:`load_file`.

    Yields
    ------
    LoadedFile
        One per file, in the order of :func:`match_files`. A folder holding no match file
        gives a ``UserWarning``.
    """
    found = match_files(paths)
    for folder in found.empty:
        warnings.warn(f"{path_text(folder)}: no {' or '.join(PATTERNS)} files", stacklevel=2)
    for path in found.files:
        yield load_file(path, **options)


def replay_file(path: str | PathLike[str], rules: Rules | None = None, strict: bool = False,
                tags: bool = True) -> list[ReplayedMatch]:
    """Read and replay every match in a ``.mat`` or ``.sgf`` file, raising at the first
    problem (:func:`load_file`'s first error).

    Parameters
    ----------
    path : str or path-like
    rules, strict, tags
        As for :func:`~nardy_analysis.replay.replay_match`.

    Raises
    ------
    OSError, DecodeError, NotationError
        The file cannot be read, decoded or parsed (the first part that cannot).
    RuleViolation
        In strict mode, the first record that breaks the rules.
    """
    loaded = load_file(path, rules=rules, tags=tags, strict=strict)
    if loaded.errors:
        raise loaded.errors[0]
    return list(loaded.matches)


def sample_folder() -> Path:
    """The folder of the sample match files installed with the package (the repository's
    ``sample_games``): real and hand-made matches, ``broken/`` (one error each) and
    ``long/`` (long nardy); its ``README.md`` describes each file, ``SOURCES.tsv`` gives
    their origins and licences.

    Returns
    -------
    Path
        The folder, e.g. ``load_files(sample_folder())`` or
        ``sample_folder() / "BackgammonStudio_5407469.mat"``.
    """
    return Path(str(files("nardy_analysis.sample_games")))
