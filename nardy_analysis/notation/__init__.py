"""The notation layer: match text read into records and written back (.mat, SGF); no rules."""

import os
from pathlib import Path
from typing import Any

from lark import Lark

GRAMMAR_PATHS = ("grammars", "../grammars")
"""Where the Lark grammars are, from the package's folder: ``nardy_analysis/grammars`` once
installed, ``grammars/`` beside the package in a source checkout that is not installed."""


def open_grammar(name: str, **options: Any) -> Lark:
    """The Lark parser of the grammar ``name`` (``"mat.lark"``, ``"sgf.lark"``) with Lark's
    ``options``, read with :meth:`lark.Lark.open_from_package` from :data:`GRAMMAR_PATHS`.

    Building it (Lark's analysis of the grammar) takes about 0.1 s of CPU, most of the time
    of reading a small file, so Lark keeps it in the user's cache folder
    (``$XDG_CACHE_HOME/nardy-analysis``, else ``~/.cache/nardy-analysis``, a file per
    grammar) and later processes read it back; Lark builds it again when the grammar, the
    options, Lark's version or Python's differ, and when the file cannot be read. Without a
    cache folder that can be made it is built every time."""
    try:
        folder = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "nardy-analysis"
        folder.mkdir(parents=True, exist_ok=True)
    except (OSError, RuntimeError):  # no home folder, or one that cannot be written
        return Lark.open_from_package("nardy_analysis", name, GRAMMAR_PATHS, **options)
    return Lark.open_from_package("nardy_analysis", name, GRAMMAR_PATHS,
                                  cache=str(folder / name), **options)
