"""``nardy convert``: rewrite a match file in one canonical style, as .mat or gnubg SGF."""

from __future__ import annotations

import click

from ..errors import NardyError, NotationError, path_text
from ..game.rules import Rules
from ..load import load_file
from ..notation.sgf_writer import format_sgf
from ..notation.writer import format_mat
from ..replay import written_record
from .common import (
    ErrorReport,
    OutputFile,
    file_errors,
    one_file,
    quiet_option,
    rules_option,
    strict_option,
    write_output,
)


@click.command()
@click.argument("path", type=click.Path(exists=True))
@click.option("--to", "to", type=click.Choice(["mat", "sgf"]), default="mat",
              show_default=True, help="Format to write: .mat text in GNU Backgammon's "
              "layout, or GNU Backgammon's SGF.")
@click.option("-o", "--output", type=OutputFile(allow_dash=True),
              default="-", help="File to write (default: standard output).")
@click.option("--numbers", is_flag=True, help="Write the bar as 25 and off as 0 (.mat).")
@rules_option
@strict_option
@quiet_option
def convert(path: str, to: str, output: str, numbers: bool, rules: Rules | None,
            strict: bool) -> None:
    """Rewrite the match file PATH (.mat, .txt or .sgf) in one canonical style.

    The file is read, every game replayed against the rules of its header tags and written
    again from the board: in .mat, hits marked, one checker's steps merged, aligned
    columns, one result line per game; in SGF, one step per die, as gnubg writes it. Each
    error is reported on stderr: a game with a line that cannot be read is written up to
    the line before it (skipped when that is its first), one that breaks a rule is written
    from the board up to there and as recorded after. What SGF cannot hold
    (an unknown play, ???, that the game goes on after; a beaver) ends its game there: the
    game is written up to the roll before it, without its result, and stderr says what was
    left out. Exit status: 0 when the file had no error and nothing was left out, 1 when it
    had an error or something was left out, 2 for usage errors.
    """
    loaded = load_file(one_file(path), strict=strict, rules=rules)
    for error in loaded.errors:
        if isinstance(error, OSError):
            raise click.FileError(path, error.strerror or str(error))
    problems = ErrorReport([path])
    problems.add(file_errors(loaded, "the rest of game {game} is written as recorded"))
    if not loaded.matches:
        problems.exit()
    left_out: list[NotationError] = []
    try:
        text = (format_sgf([written_record(m, merge=False) for m in loaded.matches],
                           left_out=left_out) if to == "sgf"
                else format_mat(map(written_record, loaded.matches), bar_off=not numbers))
    except NardyError as error:
        click.echo(f"{path_text(path)}: {error}", err=True)
        problems.exit(failed=True)
    for omitted in left_out:
        click.echo(f"{path_text(path)}:{omitted.line}:{omitted.column}: {omitted.message}",
                   err=True)
    write_output(output, lambda path: _write(path, text))
    problems.exit(failed=bool(left_out))


def _write(path: str, text: str) -> None:
    with click.open_file(path, "w", encoding="utf-8") as handle:
        handle.write(text)
