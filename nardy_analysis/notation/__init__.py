"""The notation layer: match text read into records and written back (.mat, SGF); no rules."""

from importlib.resources import files
from pathlib import Path


def grammar(name: str) -> str:
    """The text of the Lark grammar ``name`` (``"mat.lark"``, ``"sgf.lark"``): from the
    installed package (``nardy_analysis.grammars``), or from ``grammars/`` beside the package
    in a source checkout that is not installed."""
    try:
        return files("nardy_analysis.grammars").joinpath(name).read_text("utf-8")
    except ModuleNotFoundError:
        return (Path(__file__).resolve().parents[2] / "grammars" / name).read_text("utf-8")
