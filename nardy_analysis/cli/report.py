"""``nardy report``: the HTML page of a match, to step through in a browser."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import path_text, plural
from ..game.rules import Rules
from ..load import load_file
from ..parallel import cores
from .common import (
    STRICT_STOPS,
    ErrorReport,
    OutputFile,
    file_errors,
    note,
    one_file,
    quiet_option,
    rules_option,
    strict_option,
    write_output,
)


@click.command("report")
@click.argument("path", type=click.Path(exists=True))
@click.option("-o", "--out", type=OutputFile(allow_dash=True), default=None,
              help="The page to write ('-': standard output). Default: the match file's "
                   "name with .html, in the current folder.")
@click.option("--match", "match_number", type=int, default=1, show_default=True,
              help="Which match of the file (1, 2, ...) for files holding several: one page "
                   "shows one match.")
@click.option("--luck/--no-luck", default=True, show_default=True,
              help="Each roll's luck and each decision's error, by the engine (short "
                   "nardy: the engine extra; without it the page says how to install it); "
                   "--no-luck leaves out both.")
@click.option("--jobs", type=click.IntRange(1), default=None,
              help=f"Worker processes for the luck, game by game (default: all cores, "
                   f"{cores()} here); the page is that of --jobs 1.")
@rules_option
@strict_option
@quiet_option
def report(path: str, out: str | None, match_number: int, luck: bool, jobs: int | None,
           rules: Rules | None, strict: bool) -> None:
    """Write the HTML page of a match file (.mat, .txt or .sgf): a board to step through move
    by move (buttons, arrow keys), the scores, each game's pip race and blot exposure, and
    the dice. The page is one self-contained file with no external links.

    Each error of the file is reported on stderr with the game it concerns, and shown on the
    page where that game stops. Exit status: 0 when the page was written and the file had no
    error, 1 when it had any (the page is written if a match can be read), 2 for usage errors
    (a match the file does not hold, a page that cannot be written).
    """
    if out is None:
        out = OutputFile().convert(Path(path).with_suffix(".html").name, None,
                                   click.get_current_context())
    loaded = load_file(one_file(path), strict=strict, rules=rules)
    name = path_text(path)  # for messages
    problems = ErrorReport([path])
    problems.add(file_errors(loaded, "the page shows game {game} up to there"))
    count = len(loaded.matches)
    if not count:
        if strict:
            click.echo(f"{name}: {STRICT_STOPS}; no page is written", err=True)
        problems.exit(failed=True)
    if not 1 <= match_number <= count:
        raise click.BadParameter(f"{name} holds {plural(count, 'match')}", param_hint="--match")
    if count > 1:
        note(f"{name} holds {count} matches; the page shows match {match_number} "
             "(--match N for another)")
    from ..report import match_html  # here: it loads pandas and scipy

    page = match_html(loaded, match_number, luck=luck, jobs=jobs or cores())
    if out == "-":
        click.echo(page, nl=False)
    else:
        write_output(out, lambda name: Path(name).write_text(page, encoding="utf-8"))
    problems.exit()
