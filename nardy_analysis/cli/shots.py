"""``nardy shots``: the hitting rolls of positions given by their IDs."""

from __future__ import annotations

import json

import click

from ..analysis.shots import shots as find_shots
from ..analysis.shots import throws
from ..game.rules import VARIANTS
from .common import parse_position, quiet_option


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("positions", nargs=-1, required=True, type=click.UNPROCESSED)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per position.")
@click.option("--rules", type=click.Choice(sorted(VARIANTS)), default="standard",
              help="Rules for the legal plays.")
@quiet_option
def shots(positions: tuple[str, ...], as_json: bool, rules: str) -> None:
    """Hitting rolls (out of 36) for the player on roll of each POSITION.

    POSITION is a gnubg Position ID (the player whose side it is written from is on roll),
    a gnubg PositionID:MatchID, or an XGID (with or without its `XGID=` prefix: one that
    starts with '-' is not taken for an option). Blot points are numbered from the side of
    the player on roll, who is X on the board. A bad ID is a usage error (exit status 2), and
    so is long nardy (--rules long, or a long nardy position), where no checker is hit.
    """
    parsed = [parse_position(text)[0] for text in positions]
    if VARIANTS[rules].game == "long" or any(p.game == "long" for p in parsed):
        raise click.UsageError("shots do not apply to long nardy: no checker is ever hit "
                               "(RULES.md, \"Long nardy\")")
    for position in parsed:
        result = find_shots(position, VARIANTS[rules])
        if as_json:
            click.echo(json.dumps(result.to_dict()))
            continue
        click.echo(str(position))
        click.echo(f"X (player {position.turn + 1}) is on roll.")
        click.echo(f"shots: {result.count}/36 ({result.probability:.1%}): "
                   f"{' '.join(map(str, result.rolls)) or 'none'}")
        for point, rolls in sorted(result.blots.items()):
            click.echo(f"  blot on point {point}: {throws(rolls)}/36 "
                       f"{' '.join(map(str, rolls))}")
        double = result.double_hits  # worked out on each access: once here
        if double:
            click.echo(f"  double hits: {throws(double)}/36 {' '.join(map(str, double))}")
