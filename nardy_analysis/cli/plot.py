"""``nardy plot``: draw a chart of one game of a match file."""

from __future__ import annotations

from pathlib import Path

import click
from matplotlib.figure import Figure

from ..analysis.turns import turns_frame
from ..load import load_file
from ..plots.game import plot_blot_exposure, plot_pip_race
from ..replay import ReplayedMatch
from .common import ErrorReport, OutputFile, file_errors

_KINDS = {"race": plot_pip_race, "exposure": plot_blot_exposure}


@click.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--game", type=int, required=True, help="The game number, as written in the file.")
@click.option("--match", "match_number", type=int, default=1, show_default=True,
              help="Which match of the file (1, 2, ...) for files holding several.")
@click.option("--kind", type=click.Choice(sorted(_KINDS)), default="race", show_default=True,
              help="race: both pip counts by turn; exposure: blots left and shots at them.")
@click.option("--out", type=OutputFile(), required=True,
              help="The picture file; its suffix picks the format (.png, .svg, .pdf).")
def plot(path, game, match_number, kind, out):
    """Draw a chart of one game of a match file (.mat, .txt or .sgf).

    Each error of the file is reported on stderr with the game it concerns; a game that
    breaks a rule is drawn up to there. Exit status: 0 when the picture was written and the
    file had no error, 1 when it had any (the picture is written if the game can be read),
    2 for usage errors (a game or match the file does not hold).
    """
    formats = Figure().canvas.get_supported_filetypes()
    if Path(out).suffix.lstrip(".").lower() not in formats:
        raise click.BadParameter(f"{out!r}: the suffix must be one of "
                                 f"{', '.join('.' + f for f in sorted(formats))}",
                                 param_hint="--out")
    loaded = load_file(path)
    problems = ErrorReport([path])
    problems.add(file_errors(loaded, "game {game} is drawn up to there"))
    matches = loaded.matches
    if not matches and problems.failed:
        problems.exit()
    if not 1 <= match_number <= len(matches):
        raise click.BadParameter(f"{path} holds {len(matches)} match(es)", param_hint="--match")
    match = matches[match_number - 1]
    # Only the game drawn: the frame's shots are the costly part.
    frame = turns_frame(ReplayedMatch(match.record, match.rules,
                                      [g for g in match.games if g.number == game]))
    if game not in set(frame["game"]):
        if any(getattr(error, "game", None) == game for error in loaded.errors):
            click.echo(f"{path}: game {game} cannot be read; nothing is drawn", err=True)
            problems.exit()
        raise click.BadParameter(f"match {match_number} of {path} has no game {game} with "
                                 "turns", param_hint="--game")
    figure = Figure(figsize=(10, 5), layout="constrained")  # Agg canvas, no pyplot state
    _KINDS[kind](frame, game=game, ax=figure.subplots())
    figure.savefig(out)
    problems.exit()
