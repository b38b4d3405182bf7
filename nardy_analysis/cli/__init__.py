"""The ``nardy`` command line: batch work over files and folders of match records."""

from __future__ import annotations

import json
import sys
from importlib import import_module
from pathlib import Path

import click
from tqdm import tqdm

from ..errors import DecodeError, NardyError, RuleViolation
from ..game.ids import match_from_id, parse_xgid, position_from_id
from ..notation.mat import read_mat
from ..replay import replay_match
from ..game.rules import VARIANTS
from ..analysis.shots import shots as find_shots
from ..analysis.shots import throws
from ..load import match_files, show_progress

def _error(kind: str, message: str, line: int = 0, column: int = 0, text: str = "") -> dict:
    return {"game": None, "move": None, "line": line, "column": column, "text": text,
            "kind": kind, "message": message, "position_id": None}


def _replay_one(path: Path, variant, strict: bool) -> dict:
    """Read and replay one file into the JSON summary object of ``nardy replay --json``.

    Counts come from what the file says (every roll written is a turn), so a game stopped
    by a violation still counts all its rolls.
    """
    summary = {"file": str(path), "matches": 0, "games": 0, "turns": 0, "errors": []}
    errors = summary["errors"]
    try:
        parsed = read_mat(path)
    except OSError as error:
        errors.append(_error("io", f"cannot read the file: {error.strerror or error}"))
        return summary
    for error in parsed.errors:
        kind = "encoding" if isinstance(error, DecodeError) else "syntax"
        errors.append(_error(kind, error.message, error.line, error.column,
                             error.source_line.strip()) | {"game": error.game})
    records = parsed.matches
    if not records and not parsed.errors:
        errors.append(_error("empty", "no match in the file (no 'N point match' line)"))
    summary["matches"] = len(records)
    summary["games"] = sum(len(m.games) for m in records)
    summary["turns"] = sum(len(g.turns) for m in records for g in m.games)
    try:
        for record in records:
            errors += [e.to_dict() for e in replay_match(record, strict=strict,
                                                         variant=variant).errors]
    except RuleViolation as error:
        errors.append(error.to_dict())
    for error in errors:
        error.pop("file", None)
    return summary


class _Commands(click.Group):
    """The command group; commands in other modules are imported only when used, so that
    ``nardy replay`` does not wait for pandas and matplotlib to load."""

    LAZY = {"stats": "..analysis.turns", "plot": "..plots.game", "audit": "..analysis.audit",
            "convert": "..notation.writer", "luck": "..analysis.luck"}

    def list_commands(self, ctx):
        return sorted(set(super().list_commands(ctx)) | set(self.LAZY))

    def get_command(self, ctx, name):
        if name in self.LAZY and name not in self.commands:
            module = import_module(self.LAZY[name], __package__)
            self.add_command(getattr(module, name), name)
        return super().get_command(ctx, name)


@click.group(cls=_Commands)
@click.version_option(package_name="nardy-analysis")
def main():
    """Read, replay and analyse nardy (backgammon) match records."""


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--json", "as_json", is_flag=True, help="One JSON object per file on stdout.")
@click.option("--strict", is_flag=True,
              help="Stop each file at its first violation instead of the game's.")
@click.option("--rules", type=click.Choice(sorted(VARIANTS)), default=None,
              help="Variant to apply instead of the files' Variation tag (their Crawford, "
                   "Jacoby, Beaver and CubeLimit tags still apply).")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: for several files on a terminal).")
def replay(paths, as_json, strict, rules, progress):
    """Replay match files (or folders of *.mat and *.txt files) and check every play.

    Exit status: 0 when every file was read and replayed without a violation, 1 when any
    was not (or a folder held no match file), 2 for usage errors.
    """
    files = match_files(paths)
    variant = VARIANTS[rules] if rules else None
    show = show_progress(progress, len(files))
    empty = [p for p in paths if Path(p).is_dir() and not any(f.is_relative_to(p) for f in files)]
    failed = len(empty)
    totals = {"files": 0, "matches": 0, "games": 0, "turns": 0, "errors": 0}
    for path in tqdm(files, disable=not show, unit="file", file=sys.stderr):
        summary = _replay_one(path, variant, strict)
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
        click.echo(f"total: {_count(totals['files'], 'file')}, "
                   f"{_count(totals['matches'], 'match')}, {_count(totals['games'], 'game')}, "
                   f"{_count(totals['turns'], 'turn')}, {_count(totals['errors'], 'error')}; "
                   f"{failed} of {len(files) + len(empty)} paths failed")
    sys.exit(1 if failed else 0)


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "es" if word.endswith("ch") else "s")


def _print_summary(summary: dict) -> None:
    status = "ok" if not summary["errors"] else _count(len(summary["errors"]), "error")
    click.echo(f"{summary['file']}: {_count(summary['matches'], 'match')}, "
               f"{_count(summary['games'], 'game')}, {_count(summary['turns'], 'turn')}: "
               f"{status}")
    for e in summary["errors"]:
        where = f"{e['line']}:{e['column']}: " if e["line"] else ""
        where += "".join(f"{key} {e[key]}, " for key in ("game", "move") if e[key] is not None)
        position = f" [position {e['position_id']}]" if e["position_id"] else ""
        click.echo(f"  {where}{e['kind']}: {e['message']}")
        if e["text"]:
            click.echo(f"      {e['text']}{position}")


def _position(text: str):
    """A Position from a gnubg Position ID (player 0 on roll), a gnubg ``PositionID:MatchID``
    (the Match ID says who is on roll) or an XGID."""
    if text.startswith("XGID=") or text.count(":") >= 8:
        return parse_xgid(text)[0]
    if text.count(":") == 1:
        position_text, match_text = text.split(":")
        return position_from_id(position_text, match_from_id(match_text).player)
    return position_from_id(text)


@main.command()
@click.argument("positions", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per position.")
@click.option("--rules", type=click.Choice(sorted(VARIANTS)), default="standard",
              help="Rules for the legal plays.")
def shots(positions, as_json, rules):
    """Hitting rolls (out of 36) for the player on roll of each POSITION.

    POSITION is a gnubg Position ID (the player whose side it is written from is on roll),
    a gnubg PositionID:MatchID, or an XGID (put `--` before an XGID given without its
    `XGID=` prefix, as it may start with '-'). Blot points are numbered from the side of the
    player on roll, who is X on the board.
    """
    try:
        parsed = [_position(text) for text in positions]
    except NardyError as error:
        raise click.BadParameter(str(error), param_hint="POSITION") from None
    for position in parsed:
        result = find_shots(position, VARIANTS[rules])
        if as_json:
            click.echo(json.dumps(result.to_dict()))
            continue
        click.echo(str(position))
        click.echo(f"X (player {position.turn}) is on roll.")
        click.echo(f"shots: {result.count}/36 ({result.probability:.1%}): "
                   f"{' '.join(map(str, result.rolls)) or 'none'}")
        for point, rolls in sorted(result.blots.items()):
            click.echo(f"  blot on point {point}: {throws(rolls)}/36 "
                       f"{' '.join(map(str, rolls))}")
        if result.double_hits:
            click.echo(f"  double hits: {result.double_hit_count}/36 "
                       f"{' '.join(map(str, result.double_hits))}")
