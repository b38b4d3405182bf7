"""``nardy shots``: the hitting rolls of positions given by their IDs."""

from __future__ import annotations

import json

import click

from ..analysis.shots import shots as find_shots
from ..analysis.shots import throws
from ..errors import NardyError
from ..game.ids import match_from_id
from ..game.position import Position
from ..game.rules import VARIANTS


def _position(text: str):
    """A Position from a gnubg Position ID (player 0 on roll), a gnubg ``PositionID:MatchID``
    (the Match ID says who is on roll) or an XGID."""
    if text.startswith("XGID=") or text.count(":") >= 8:
        return Position.from_xgid(text)[0]
    if text.count(":") == 1:
        position_text, match_text = text.split(":")
        return Position.from_id(position_text, turn=match_from_id(match_text).player)
    return Position.from_id(text)


@click.command()
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
