"""``nardy convert``: rewrite a match file in one canonical style."""

from __future__ import annotations

import sys

import click

from ..errors import NardyError
from ..load import load_file
from ..notation.writer import format_mat
from ..replay import written_record
from .common import OutputFile


@click.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--to", "to", type=click.Choice(["mat"]), default="mat", show_default=True,
              help="Format to write (.mat text in GNU Backgammon's layout).")
@click.option("-o", "--output", type=OutputFile(allow_dash=True),
              default="-", help="File to write (default: standard output).")
@click.option("--numbers", is_flag=True, help="Write the bar as 25 and off as 0.")
def convert(path, to, output, numbers):
    """Rewrite the match file PATH in one canonical style.

    The file is read, every game replayed against the rules of its header tags and written
    again: plays from the board (hits marked, one checker's steps merged), aligned columns,
    one result line per game. A game with a syntax error cannot be written; it is reported
    on stderr and skipped. Exit status: 0 when every game was written, 1 when a game or the
    file could not be read, 2 for usage errors.
    """
    loaded = load_file(path)
    for error in loaded.errors:
        if isinstance(error, OSError):
            raise click.FileError(path, error.strerror or str(error))
        click.echo(str(error), err=True)
    if not loaded.matches:
        sys.exit(1 if loaded.errors else 0)
    try:
        text = format_mat(map(written_record, loaded.matches), bar_off=not numbers)
    except NardyError as error:
        click.echo(f"{path}: {error}", err=True)
        sys.exit(1)
    with click.open_file(output, "w", encoding="utf-8") as handle:
        handle.write(text)
    sys.exit(1 if loaded.errors else 0)
