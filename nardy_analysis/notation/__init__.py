"""The notation layer: match text read into records and written back (.mat, SGF); no rules."""

import os
from importlib.resources import files
from pathlib import Path

from lark import Lark


def grammar(name: str) -> str:
    """The text of the Lark grammar ``name`` (``"mat.lark"``, ``"sgf.lark"``): from the
    installed package (``nardy_analysis.grammars``), or from ``grammars/`` beside the package
    in a source checkout that is not installed."""
    try:
        return files("nardy_analysis.grammars").joinpath(name).read_text("utf-8")
    except ModuleNotFoundError:
        return (Path(__file__).resolve().parents[2] / "grammars" / name).read_text("utf-8")


def parser(name: str, **options) -> Lark:
    """The LALR parser of the grammar ``name`` with Lark's ``options``.

    Building it (Lark's analysis of the grammar) takes about 0.1 s of CPU, most of the time
    of reading a small file, so Lark keeps it in the user's cache folder
    (``$XDG_CACHE_HOME/nardy-analysis``, else ``~/.cache/nardy-analysis``, a file per
    grammar) and later processes read it back; Lark builds it again when the grammar, the
    options, Lark's version or Python's differ, and when the file cannot be read. Without a
    cache folder that can be made it is built every time."""
    try:
        folder = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        (folder / "nardy-analysis").mkdir(parents=True, exist_ok=True)
    except (OSError, RuntimeError):  # no home folder, or one that cannot be written
        return Lark(grammar(name), parser="lalr", **options)
    return Lark(grammar(name), parser="lalr", cache=str(folder / "nardy-analysis" / name),
                **options)
