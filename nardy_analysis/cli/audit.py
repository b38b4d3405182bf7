"""``nardy audit``: test the dice of match files for fairness."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Iterator

import click
import numpy as np
import pandas as pd

from ..analysis.audit import AuditCounts, audit_dice, match_counts, merge_counts
from ..errors import InvalidArgument
from ..game.rules import Rules
from ..load import load_file
from .common import (
    ErrorReport,
    FileErrors,
    OutputFile,
    dask_option,
    file_errors,
    file_results,
    found_files,
    jobs_option,
    needing_engine,
    progress_option,
    quiet_option,
    rules_option,
    strict_option,
    write_output,
)


def _audit_file(path: Path, strict: bool, rules: Rules | None = None,
                **counting: Any) -> tuple[FileErrors, bool, AuditCounts]:
    """The errors, whether a match was read, and the audit counts of one file (the work of
    a worker process or Dask worker: only counts travel back)."""
    loaded = load_file(path, strict=strict, rules=rules)
    return (file_errors(loaded, "every roll of game {game} counts, its positions end there"),
            bool(loaded.matches), match_counts(loaded, **counting))


@click.command("audit")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--by", type=click.Choice(["player", "site"]), default=None,
              help="Test each player or each site as well as all rolls.")
@click.option("--player", default=None, metavar="NAME",
              help="Audit only this player's rolls, across all files (the name as written).")
@click.option("--json", "as_json", is_flag=True,
              help="JSON lines on stdout: first what was audited ({\"audit\": files, date, "
                   "version, what each test means}), then one object per test and group.")
@click.option("--html", "html", type=OutputFile(), default=None,
              help="Write a self-contained HTML report to this file.")
@click.option("--include-opening", is_flag=True,
              help="Count the opening roll of each game (variants with opening doubles).")
@click.option("--positions/--no-positions", default=True,
              help="Replay positions for the bar-entry and hits-on-blots tests (slower).")
@click.option("--luck", is_flag=True,
              help="Also test the dice's luck, as gnubg measures it (cubeless 0-ply): mean "
                   "luck, its spread, lucky and unlucky rolls, and the luck of the decisive "
                   "rolls; long nardy through the long nardy engine (part of the "
                   "package). Short nardy needs the engine extra: pip install "
                   "'nardy-analysis[engine]'.")
@rules_option
@strict_option
@jobs_option
@dask_option
@progress_option
@quiet_option
def audit(paths: tuple[str, ...], by: str | None, player: str | None, as_json: bool,
          html: str | None, include_opening: bool, positions: bool, luck: bool,
          rules: Rules | None, strict: bool, jobs: int | None, dask_address: str | None,
          progress: bool | None) -> None:
    """Audit the dice of match files (or folders of *.mat, *.txt and *.sgf files) for fairness.

    Tests doubles, the 21 roll classes, faces, pips per roll, doubles after doubles, bar
    entry and hits on exposed blots, with Benjamini-Hochberg adjusted p-values; with
    --player, one player's rolls across all the files; with --luck, the luck of the rolls
    against its distribution under fair dice at each position (gnubg's engine; for long
    nardy, the long nardy engine). Every game
    that can be read is used; each error is reported on stderr with the game it concerns (a
    game that cannot be read is left out; every roll of one that breaks a rule counts, its
    positions end there).
    Exit status: 0 on success (files in folders that are not match records are only
    counted), 1 when any file had an error, no roll was found or none is the --player's
    (stderr names the players there are, closest first), 2 for usage errors (and --luck
    at a short nardy file without the engine extra). With --jobs
    or --dask each file is counted apart and the tests run once on the sums: the output is
    that of --jobs 1.
    """
    files, problems = found_files(paths).files, ErrorReport(paths)
    read: list[bool] = []
    counting = {"by": by, "include_opening": include_opening, "positions": positions,
                "player": player, "luck": luck}

    def counted(results: Iterable[tuple[FileErrors, bool, AuditCounts]]
                ) -> Iterator[AuditCounts]:
        for errors, matches, counts in results:
            problems.add(errors)
            read.append(matches)
            yield counts

    with file_results(_audit_file, files, progress, jobs, dask_address, strict=strict,
                      rules=rules, **counting) as results:
        counts = merge_counts(counted(needing_engine(results, "--luck: ")), by,
                              include_opening, player)
    if not any(read):
        problems.exit(failed=True)  # no file was a match record: no table of 0 rolls
    try:
        report = audit_dice(counts)
    except InvalidArgument as error:
        click.echo(f"nardy audit: {error}", err=True)
        problems.exit(failed=True)
    if as_json:
        click.echo(json.dumps({"audit": report.about()}, ensure_ascii=False))
        for record in report.frame.to_dict("records"):
            click.echo(json.dumps({key: _json_value(value) for key, value in record.items()},
                                  ensure_ascii=False))
    else:
        click.echo(report.summary())
    if html:
        from ..report import audit_html  # here: it loads matplotlib

        page = audit_html(report)
        write_output(html, lambda path: Path(path).write_text(page, encoding="utf-8"))
    problems.exit()


def _json_value(value: object) -> object:
    if value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value)):
        return None
    if isinstance(value, np.generic):
        return value.item()
    return value
