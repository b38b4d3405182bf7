"""``nardy replay``: check every play of match files against the rules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from ..errors import RuleViolation, path_text, plural
from ..game.rules import Rules
from ..load import load_file
from ..replay import LoadedFile, ReplayedMatch
from .common import (
    ErrorReport,
    dask_option,
    file_results,
    found_files,
    jobs_option,
    progress_option,
    quiet,
    quiet_option,
    rules_option,
)


def _error(kind: str, message: str) -> dict[str, Any]:
    """An ``errors`` object for a file as a whole (no place in it)."""
    return {"game": None, "move": None, "line": 0, "column": 0, "text": "", "kind": kind,
            "message": message, "position_id": None}


def _summary(loaded: LoadedFile) -> dict[str, Any]:
    """The JSON summary object of ``nardy replay --json`` of one file.

    Counts come from what the file says (every roll written is a turn), so a game stopped
    by a violation still counts all its rolls. ``warnings`` are objects of the same shape as
    ``errors``: quirks the reader or the replay resolved. ``results`` has one object per
    replayed match (:func:`_result`).
    """
    records = loaded.records
    errors: list[dict[str, Any]] = []
    summary: dict[str, Any] = {
        "file": path_text(loaded.path), "matches": len(records),
        "games": sum(len(m.games) for m in records),
        "turns": sum(len(g.turns) for m in records for g in m.games), "errors": errors,
        "warnings": [w.to_dict() for w in loaded.warnings]}
    for error in loaded.errors:
        if isinstance(error, OSError):
            errors.append(_error("io", f"cannot read the file: {error.strerror or error}"))
        elif not isinstance(error, RuleViolation):
            errors.append(error.to_dict())
    summary["results"] = [_result(match) for match in loaded.matches]
    errors += [e.to_dict() for m in loaded.matches for e in m.errors]
    # the violation that stopped the file in strict mode comes after the games' own
    errors += [e.to_dict() for e in loaded.errors if isinstance(e, RuleViolation)]
    for error in errors + summary["warnings"]:
        error.pop("file", None)
    return summary


def _replay_file(path: Path, rules: Rules | None, strict: bool) -> dict[str, Any]:
    """The :func:`_summary` of one file (the work of a worker process or Dask worker)."""
    return _summary(load_file(path, rules=rules, strict=strict))


def _result(match: ReplayedMatch) -> dict[str, Any]:
    """How a replayed match ended, from its replayed games' results.

    Returns
    -------
    dict
        ``players`` (the two names), ``length`` (points, 0 for a money session), ``score``
        (each player's points after the last game replayed: the score line before it plus
        the points it gave), ``finished`` (a player reached the length; in a money session,
        the last game has a result), ``winner`` (the name of the player ahead when
        finished, else None) and ``points`` (by how many points, when finished).
    """
    names, score = list(match.record.players), list(match.score)
    return {"players": names, "length": match.record.length, "score": score,
            "finished": match.finished,
            "winner": None if match.winner is None else names[match.winner],
            "points": abs(score[0] - score[1]) if match.finished else None}


def _result_line(result: dict[str, Any]) -> str:
    """``alice 5 - bob 3 (5-point match): alice wins by 2 points``."""
    (first, second), (a, b) = result["players"], result["score"]
    kind = f"{result['length']}-point match" if result["length"] else "money session"
    outcome = ("unfinished" if not result["finished"] else "even" if not result["points"]
               else f"{first if a > b else second} wins by {plural(result['points'], 'point')}")
    return f"{first} {a} - {second} {b} ({kind}): {outcome}"


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--json", "as_json", is_flag=True, help="One JSON object per file on stdout.")
@click.option("--strict", is_flag=True,
              help="Stop each file at its first violation instead of the game's, and take "
                   "warnings for violations.")
@rules_option
@jobs_option
@dask_option
@progress_option
@quiet_option
def replay(paths: tuple[str, ...], as_json: bool, strict: bool, rules: Rules | None,
           jobs: int | None, dask_address: str | None, progress: bool | None) -> None:
    """Replay match files (or folders of *.mat, *.txt and *.sgf files) and check every play.

    For each file: its matches, games and turns, then each match's final score and who won
    by how many points (from the replayed games), then each error and warning. With
    --quiet, only the files with errors. Exit status: 0 when every file was read and
    replayed without a violation (warnings allowed), 1 when any was not (or a folder held
    no match file), 2 for usage errors.
    """
    files, empty = found_files(paths)
    failed = len(empty)
    report = ErrorReport(paths)
    totals = {"files": 0, "matches": 0, "games": 0, "turns": 0, "errors": 0, "warnings": 0}
    with file_results(_replay_file, files, progress, jobs, dask_address, rules=rules,
                      strict=strict) as summaries:
        for summary in summaries:
            if report.counted(summary["file"], any(e["kind"] == "not_a_match"
                                                   for e in summary["errors"])):
                continue
            failed += bool(summary["errors"])
            totals["files"] += 1
            for key in ("matches", "games", "turns"):
                totals[key] += summary[key]
            totals["errors"] += len(summary["errors"])
            totals["warnings"] += len(summary["warnings"])
            if as_json:
                click.echo(json.dumps(summary, ensure_ascii=False))
            elif summary["errors"] or not quiet():
                _print_summary(summary)
    if not as_json and not quiet() and len(files) > 1:
        click.echo(f"total: {plural(totals['files'], 'file')}, "
                   f"{plural(totals['matches'], 'match')}, {plural(totals['games'], 'game')}, "
                   f"{plural(totals['turns'], 'turn')}, {plural(totals['errors'], 'error')}, "
                   f"{plural(totals['warnings'], 'warning')}; "
                   f"{failed} of {totals['files'] + len(empty)} "
                   f"{'files and empty folders' if empty else 'files'} failed")
    report.exit(failed=bool(failed))


def _print_summary(summary: dict[str, Any]) -> None:
    errors, warnings = summary["errors"], summary["warnings"]
    status = ", ".join([plural(len(errors), "error") if errors else "ok"]
                       + [plural(len(warnings), "warning")] * bool(warnings))
    click.echo(f"{summary['file']}: {plural(summary['matches'], 'match')}, "
               f"{plural(summary['games'], 'game')}, {plural(summary['turns'], 'turn')}: "
               f"{status}")
    for result in summary["results"]:
        click.echo(f"  {_result_line(result)}")
    for e, label in [(e, "") for e in errors] + [(w, " (warning)") for w in warnings]:
        where = f"{e['line']}:{e['column']}: " if e["line"] else ""
        where += "".join(f"{key} {e[key]}, " for key in ("game", "move") if e[key] is not None)
        position = f" [position {e['position_id']}]" if e["position_id"] else ""
        click.echo(f"  {where}{e['kind']}{label}: {e['message']}")
        if e["text"]:
            click.echo(f"      {e['text']}{position}")
