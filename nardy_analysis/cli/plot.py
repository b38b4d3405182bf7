"""``nardy plot``: draw a chart of one game of a match file."""

from __future__ import annotations

from pathlib import Path

import click
from matplotlib.figure import Figure

from ..analysis.turns import turns_frame
from ..errors import InvalidArgument, path_text, plural
from ..game.rules import Rules
from ..load import load_file
from ..plots.game import plot_blot_exposure, plot_pip_race
from ..replay import ReplayedMatch
from .common import (
    STRICT_STOPS,
    CannotWrite,
    ErrorReport,
    OutputFile,
    UsageLine,
    file_errors,
    one_file,
    quiet_option,
    rules_option,
    strict_option,
    write_output,
)

_KINDS = {"race": plot_pip_race, "exposure": plot_blot_exposure}


@click.command()
@click.argument("path", type=click.Path(exists=True))
@click.option("--game", type=int, required=True, help="The game number, as written in the file.")
@click.option("--match", "match_number", type=int, default=1, show_default=True,
              help="Which match of the file (1, 2, ...) for files holding several.")
@click.option("--kind", type=click.Choice(sorted(_KINDS)), default="race", show_default=True,
              help="race: both pip counts by turn; exposure: blots left and shots at them (short "
                   "nardy only: nothing is hit in long nardy).")
@click.option("--out", type=OutputFile(), required=True,
              help="The picture file; its suffix picks the format (.png, .svg, .pdf).")
@rules_option
@strict_option
@quiet_option
def plot(path: str, game: int, match_number: int, kind: str, out: str, rules: Rules | None,
         strict: bool) -> None:
    """Draw a chart of one game of a match file (.mat, .txt or .sgf).

    Each error of the file is reported on stderr with the game it concerns; a game that
    breaks a rule is drawn up to there. Exit status: 0 when the picture was written and the
    file had no error, 1 when it had any (the picture is written if the game can be read),
    2 for usage errors (a game or match the file does not hold).
    """
    formats = Figure().canvas.get_supported_filetypes()
    if Path(out).suffix.lstrip(".").lower() not in formats:
        raise CannotWrite(out, "the suffix must be one of "
                               + ", ".join("." + f for f in sorted(formats)))
    loaded = load_file(one_file(path), strict=strict, rules=rules)
    name = path_text(path)  # for messages
    problems = ErrorReport([path])
    problems.add(file_errors(loaded, "game {game} is drawn up to there"))
    matches = loaded.matches
    if not matches and problems.failed:
        if strict:
            click.echo(f"{name}: {STRICT_STOPS}; nothing is drawn", err=True)
        problems.exit()
    if not 1 <= match_number <= len(matches):
        raise click.BadParameter(f"{name} holds {plural(len(matches), 'match')}",
                                 param_hint="--match")
    match = matches[match_number - 1]
    # Only the game drawn: the frame's shots are the costly part.
    frame = turns_frame(ReplayedMatch(match.record, match.rules,
                                      [g for g in match.games if g.number == game]))
    if game not in set(frame["game"]):
        if any(getattr(error, "game", None) == game for error in loaded.errors):
            click.echo(f"{name}: game {game} cannot be read; nothing is drawn", err=True)
            problems.exit()
        if any(error.game == game for error in match.errors):
            click.echo(f"{name}: game {game} breaks a rule at its first roll; nothing is "
                       "drawn", err=True)
            problems.exit()
        numbers = [g.number for g in match.games if g.turns]
        where = f"match {match_number} of {name}" if len(matches) > 1 else name
        has = (f"it has game{'s' * (len(numbers) > 1)} {_ranges(numbers)}" if numbers
               else "it has none")
        raise click.BadParameter(f"{where} has no game {game} with turns; {has}",
                                 param_hint="--game")
    figure = Figure(figsize=(10, 5), layout="constrained")  # Agg canvas, no pyplot state
    try:
        _KINDS[kind](frame, game=game, ax=figure.subplots())
    except InvalidArgument as error:  # exposure of a long nardy game
        raise UsageLine(f"{name}: {error}") from None
    write_output(out, figure.savefig)
    problems.exit()


def _ranges(numbers: list[int]) -> str:
    """Game numbers as ranges: ``1-3, 5``."""
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][1] + 1:
            runs[-1][1] = number
        else:
            runs.append([number, number])
    return ", ".join(f"{a}-{b}" if b > a else f"{a}" for a, b in runs)
