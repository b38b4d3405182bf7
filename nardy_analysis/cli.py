"""The ``nardy`` command line: batch work over files and folders of match records."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from tqdm import tqdm

from .errors import NardyError, NotationError
from .replay import replay_file
from .rules import VARIANTS

_PATTERNS = ("*.mat", "*.txt")


def _files(paths: tuple[str, ...]) -> list[Path]:
    """The match files named: files as given, folders searched recursively."""
    found = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found += sorted({f for pattern in _PATTERNS for f in path.rglob(pattern)
                             if f.is_file()})
        else:
            found.append(path)
    return found


def _replay_one(path: Path, rules, strict: bool) -> dict:
    """Replay one file into the JSON summary object of ``nardy replay --json``."""
    summary = {"file": str(path), "matches": 0, "games": 0, "turns": 0, "errors": []}
    try:
        matches = replay_file(path, rules, strict)
    except NotationError as error:
        summary["errors"].append({"game": None, "move": None, "line": error.line,
                                  "column": error.column, "text": error.source_line.strip(),
                                  "kind": "syntax", "message": error.message,
                                  "position_id": None})
        return summary
    except (NardyError, OSError) as error:
        if hasattr(error, "to_dict"):
            summary["errors"].append(error.to_dict())
        else:
            summary["errors"].append({"game": None, "move": None, "line": 0, "column": 0,
                                      "text": "", "kind": "io", "message": str(error),
                                      "position_id": None})
        return summary
    summary["matches"] = len(matches)
    summary["games"] = sum(len(m.games) for m in matches)
    summary["turns"] = sum(len(g.turns) for m in matches for g in m.games)
    summary["errors"] = [e.to_dict() for m in matches for e in m.errors]
    for error in summary["errors"]:
        del error["file"]
    return summary


@click.group()
@click.version_option(package_name="nardy-analysis")
def main():
    """Read, replay and analyse nardy (backgammon) match records."""


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--json", "as_json", is_flag=True, help="One JSON object per file on stdout.")
@click.option("--strict", is_flag=True,
              help="Stop each file at its first violation instead of the game's.")
@click.option("--rules", type=click.Choice(sorted(VARIANTS)), default=None,
              help="Rules to apply instead of those the files' header tags state.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: when there are several files).")
def replay(paths, as_json, strict, rules, progress):
    """Replay match files (or folders of *.mat and *.txt files) and check every play.

    Exit status: 0 when every file was read and replayed without a violation, 1 when any
    was not, 2 for usage errors.
    """
    files = _files(paths)
    rules = VARIANTS[rules] if rules else None
    show = progress if progress is not None else len(files) > 1
    failed = 0
    totals = {"files": 0, "matches": 0, "games": 0, "turns": 0, "errors": 0}
    for path in tqdm(files, disable=not show, unit="file", file=sys.stderr):
        summary = _replay_one(path, rules, strict)
        failed += bool(summary["errors"])
        totals["files"] += 1
        for key in ("matches", "games", "turns"):
            totals[key] += summary[key]
        totals["errors"] += len(summary["errors"])
        if as_json:
            click.echo(json.dumps(summary, ensure_ascii=False))
        else:
            _print_summary(summary)
    if not as_json and len(files) > 1:
        click.echo(f"total: {totals['files']} files, {totals['matches']} matches, "
                   f"{totals['games']} games, {totals['turns']} turns, "
                   f"{totals['errors']} errors in {failed} files")
    sys.exit(1 if failed else 0)


def _print_summary(summary: dict) -> None:
    status = "ok" if not summary["errors"] else f"{len(summary['errors'])} error(s)"
    click.echo(f"{summary['file']}: {summary['matches']} match(es), {summary['games']} "
               f"game(s), {summary['turns']} turns: {status}")
    for e in summary["errors"]:
        where = f"game {e['game']}, move {e['move']}, " if e["game"] is not None else ""
        position = f" [position {e['position_id']}]" if e["position_id"] else ""
        click.echo(f"  {e['line']}:{e['column']}: {where}{e['kind']}: {e['message']}\n"
                   f"      {e['text']}{position}")
