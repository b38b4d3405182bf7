"""The notation layer: match text read into records and written back (.mat, SGF); no rules."""

from typing import Any

from lark import Lark

GRAMMAR_PATHS = ("grammars", "../grammars")
"""Where the Lark grammars are, from the package's folder: ``nardy_analysis/grammars`` once
installed, ``grammars/`` beside the package in a source checkout that is not installed."""


def open_grammar(name: str, **options: Any) -> Lark:
    """The Lark parser of the grammar ``name`` (``"mat.lark"``, ``"sgf.lark"``) with Lark's
    ``options``, read with :meth:`lark.Lark.open_from_package` from :data:`GRAMMAR_PATHS`."""
    return Lark.open_from_package("nardy_analysis", name, GRAMMAR_PATHS, **options)
