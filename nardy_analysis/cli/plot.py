"""``nardy plot``: draw a chart of one game of a match file."""

from __future__ import annotations

from pathlib import Path

import click
from matplotlib.figure import Figure

from ..analysis.turns import turns_frame
from ..load import load_file
from ..plots.game import plot_blot_exposure, plot_pip_race
from ..replay import ReplayedMatch
from .common import OutputFile, warn_violations

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
    """Draw a chart of one game of a match file.

    Exit status: 0 when the picture was written, 1 when the file cannot be read, 2 for
    usage errors (a game or match the file does not hold).
    """
    formats = Figure().canvas.get_supported_filetypes()
    if Path(out).suffix.lstrip(".").lower() not in formats:
        raise click.BadParameter(f"{out!r}: the suffix must be one of "
                                 f"{', '.join('.' + f for f in sorted(formats))}",
                                 param_hint="--out")
    loaded = load_file(path, whole=True)
    if loaded.errors:
        raise click.ClickException(str(loaded.errors[0]))
    matches = loaded.matches
    warn_violations(matches, "that game is drawn up to there")
    if not 1 <= match_number <= len(matches):
        raise click.BadParameter(f"{path} holds {len(matches)} match(es)", param_hint="--match")
    match = matches[match_number - 1]
    # Only the game drawn: the frame's shots are the costly part.
    frame = turns_frame(ReplayedMatch(match.record, match.rules,
                                      [g for g in match.games if g.number == game]))
    if game not in set(frame["game"]):
        raise click.BadParameter(f"match {match_number} of {path} has no game {game} with "
                                 "turns", param_hint="--game")
    figure = Figure(figsize=(10, 5), layout="constrained")  # Agg canvas, no pyplot state
    _KINDS[kind](frame, game=game, ax=figure.subplots())
    figure.savefig(out)
