"""``nardy hint``: the legal plays of a roll ranked by the engine's equity."""

from __future__ import annotations

import json
from typing import Any

import click

from ..analysis.bots import ranked_plays
from ..errors import InvalidArgument
from ..game.moves import Roll
from .common import UsageLine, quiet_option
from .eval import (
    CHANCE_NAMES,
    chances_dict,
    game_rules_option,
    ply_option,
    position_argument,
    position_engine,
)


@click.command(context_settings={"ignore_unknown_options": True})
@position_argument
@click.argument("roll", metavar="ROLL")
@click.option("--top", type=click.IntRange(1), default=10, show_default=True,
              help="How many of the best plays to show.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
@ply_option
@game_rules_option
@quiet_option
def hint(text: str, roll: str, top: int, as_json: bool, ply: int,
         rules_name: str | None) -> None:
    """The legal plays of ROLL for the player on roll of POSITION, best first.

    POSITION as `nardy board` and `nardy eval` read it (a gnubg Position ID, a
    PositionID:MatchID, an XGID or a long nardy position's notation); ROLL the two dice,
    `31` or `13`. Each play (written as in .mat files, `8/5 6/5`) with the cubeless money
    equity of the mover after it (points per game at cube 1), its difference to the best
    play (0 for the best) and the mover's chances: win, gammon (mars) and backgammon (home
    mars) won, and lost. In long nardy the head rule of the mover's first turn applies when
    all 15 checkers are on the head. --json gives the plays in a list `plays`. A bad
    POSITION or ROLL, or a finished game, is a usage error (exit status 2).
    """
    position, rules, evaluator = position_engine(text, rules_name, ply)
    try:
        dice = Roll.from_str(roll)
        ranked = ranked_plays(evaluator, position, dice, rules)[:top]
    except InvalidArgument as error:
        raise UsageLine(str(error)) from None
    rows: list[dict[str, Any]] = [
        {"play": str(row.play.play), "equity": row.equity, "difference": row.difference,
         **chances_dict(row.probabilities)} for row in ranked]
    if as_json:
        click.echo(json.dumps({"position": position.id(), "turn": position.turn,
                               "roll": str(dice), "rules": rules.name,
                               "engine": evaluator.name, "plays": rows}))
        return
    names = CHANCE_NAMES[rules.game]
    width = max(len(row["play"]) for row in rows) + 2
    click.echo(f"{position.id()}: X (player {position.turn + 1}) to play {dice}; "
               f"{evaluator.name}, rules {rules.name}")
    click.echo(f"{'':4}{'play':<{width}}{'equity':>8}{'diff':>8}   {names[0]:>6}"
               f"{names[1]:>11}{names[2]:>11}   lose{names[1]:>11}{names[2]:>11}")
    for rank, row in enumerate(rows, 1):
        click.echo(f"{rank:>3} {row['play']:<{width}}{row['equity']:>+8.3f}"
                   f"{row['difference']:>+8.3f}   {row['win']:>6.3f}{row['win_gammon']:>11.3f}"
                   f"{row['win_backgammon']:>11.3f}   {1 - row['win']:>4.3f}"
                   f"{row['lose_gammon']:>11.3f}{row['lose_backgammon']:>11.3f}")
