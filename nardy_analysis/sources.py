"""Which files a command works on: files as named, folders searched recursively."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterable

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
