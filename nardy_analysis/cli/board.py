"""``nardy board``: draw a position given by its ID, as text, SVG or PNG."""

from __future__ import annotations

from pathlib import Path

import click

from ..game.ids import MatchState
from ..game.position import Position
from ..game.svg import board_svg
from .common import OutputFile, parse_position, quiet_option, write_output


def board_png(svg: str, scale: float = 2) -> bytes:
    """A PNG picture of an SVG document (:func:`~nardy_analysis.game.svg.board_svg`).

    Rendered by resvg (the ``resvg-py`` package) on white, with matplotlib's DejaVu Sans
    for the text, so that the picture does not depend on the fonts of the machine.

    Parameters
    ----------
    svg : str
    scale : float
        Pixels per SVG pixel.

    Returns
    -------
    bytes
    """
    import matplotlib  # only for the path of the fonts it ships
    import resvg_py

    fonts = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    return bytes(resvg_py.svg_to_bytes(svg_string=svg, background="white", zoom=scale,
                                       font_dirs=[str(fonts)], skip_system_fonts=True,
                                       sans_serif_family="DejaVu Sans"))


def state_lines(position: Position, state: MatchState | None) -> list[str]:
    """The lines printed under the ASCII board.

    Parameters
    ----------
    position : Position
    state : MatchState or None
        From the Match ID or XGID; None for a bare Position ID.

    Returns
    -------
    list of str
        Who is on roll (X, as :class:`~nardy_analysis.game.position.Position`'s ``str``
        draws it), then, with a state: the dice, a double on offer, the cube (value and
        owner) and the score (points of each player and the match length in points), or
        that it is a money game. Players are numbered 1 (side 0 of the ID, the light
        checkers of the SVG board) and 2, as a record numbers unnamed players.
    """
    lines = [f"X (player {position.turn + 1}) is on roll; O is player {2 - position.turn}."]
    if state is None:
        return lines
    if state.dice:
        lines.append(f"dice: {state.dice[0]}{state.dice[1]}")
    if state.doubled:
        lines.append(f"player {state.player + 1} doubles to {state.cube * 2}; "
                     f"player {(state.player if state.turn is None else state.turn) + 1} "
                     "to take or drop")
    owner = ("centred" if state.cube_owner is None
             else f"owned by player {state.cube_owner + 1}")
    lines.append(f"cube: {state.cube}, {owner}")
    if state.match_length:
        crawford = ", Crawford game" if state.crawford else ""
        lines.append(f"score: player 1 {state.score[0]}, player 2 {state.score[1]} "
                     f"in a {state.match_length}-point match{crawford}")
    else:
        lines.append("money game" + (", Jacoby rule" if state.jacoby else ""))
    return lines


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("position_id", metavar="ID", type=click.UNPROCESSED)
@click.option("--svg", "svg_file", type=OutputFile(), default=None,
              help="Write the board as SVG to this file.")
@click.option("--png", "png_file", type=OutputFile(), default=None,
              help="Write the board as PNG to this file.")
@quiet_option
def board(position_id: str, svg_file: str | None, png_file: str | None) -> None:
    """Draw a position given by its ID, as text, SVG or PNG.

    ID is a gnubg Position ID (player 1 on roll), a gnubg PositionID:MatchID, an XGID
    (with or without its `XGID=` prefix; one that starts with '-' is not taken for an
    option) or a long nardy position's notation (`24x15/24x15/0`: player 1's checkers,
    player 2's, who is on roll: 0 for player 1, 1 for player 2; the replay's errors quote
    it), drawn with both heads.
    Prints an ASCII board from the side of the player on roll (X), with both pip counts,
    and, when the Match ID or XGID gives them, the dice, the cube and the score. --svg and
    --png write a picture instead, seen from the same side, with the same facts (the cube
    on its owner's side). A bad ID, malformed or of a position no game reaches, is a usage
    error (exit status 2).
    """
    position, state = parse_position(position_id)
    if not (svg_file or png_file):
        click.echo(str(position))
        click.echo("\n".join(state_lines(position, state)))
        return
    svg = board_svg(position, state=state)
    if svg_file:
        write_output(svg_file, lambda path: Path(path).write_text(svg, encoding="utf-8"))
    if png_file:
        write_output(png_file, lambda path: Path(path).write_bytes(board_png(svg)))
