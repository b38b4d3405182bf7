"""``nardy eval``: the engine's chances and equity of a position for the player on roll."""

from __future__ import annotations

import json

import click

from ..analysis.bots import money_utility
from ..analysis.engine import default_evaluator
from ..analysis.evaluator import Evaluator, Probabilities
from ..errors import EngineError
from ..game.position import Position
from ..game.rules import LONG, STANDARD, VARIANTS, Rules
from .common import UsageLine, parse_position, quiet_option

position_argument = click.argument("text", metavar="POSITION", type=click.UNPROCESSED)
"""POSITION as ``nardy board`` reads it (:func:`~nardy_analysis.cli.common.parse_position`)."""

ply_option = click.option(
    "--ply", type=click.IntRange(0), default=0, show_default=True,
    help="Look-ahead: 0 the static evaluation; up to 4 for gnubg-nn (short nardy), 1 for the "
         "long nardy engine.")
"""``--ply`` of ``eval`` and ``hint``."""

game_rules_option = click.option(
    "--rules", "rules_name", type=click.Choice(sorted(VARIANTS)), default=None,
    help="Rule variant (default: standard for a gnubg Position ID, PositionID:MatchID or "
         "XGID, long for a long nardy position).")
"""``--rules`` of ``eval`` and ``hint``: a variant of the position's game."""

CHANCE_NAMES = {"short": ("win", "gammon", "backgammon"), "long": ("win", "mars", "home mars")}
"""The words of the three chances of each side, by ``Rules.game``."""


def position_engine(text: str, rules_name: str | None,
                    ply: int) -> tuple[Position, Rules, Evaluator]:
    """The position of ``text``, the rules (``rules_name`` or the position's game's) and
    the game's engine at ``ply``.

    Raises
    ------
    UsageLine
        A malformed position (the message quotes it), rules of the other game, a ply the
        engine does not have, or a missing engine extra.
    """
    position, _ = parse_position(text)
    rules = VARIANTS[rules_name] if rules_name else LONG if position.game == "long" else STANDARD
    if rules.game != position.game:
        raise UsageLine(f"--rules {rules_name} is for {rules.game} nardy; the position "
                        f"{text!r} is {position.game} nardy's")
    try:
        return position, rules, default_evaluator(ply, rules=rules)
    except EngineError as error:
        raise UsageLine(str(error)) from None


def chances_dict(chances: Probabilities) -> dict[str, float]:
    """The five chances by their field names, for JSON."""
    return dict(zip(Probabilities._fields, map(float, chances)))


@click.command(context_settings={"ignore_unknown_options": True})
@position_argument
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout.")
@ply_option
@game_rules_option
@quiet_option
def eval(text: str, as_json: bool, ply: int,
         rules_name: str | None) -> None:  # the command is the module's one `eval`
    """The chances of the game's outcomes and the equity for the player on roll of POSITION.

    POSITION as `nardy board` reads it: a gnubg Position ID (player 1 on roll), a gnubg
    PositionID:MatchID, an XGID, or a long nardy position's notation (`24x15/24x15/0`).
    Prints the cubeless chances of both players (X on roll, O the opponent): win, win a
    gammon (backgammon included) and win a backgammon; for long nardy win, win a mars (home
    mars included) and win a home mars; then the cubeless money equity of X (points per
    game at cube 1, the rules' scoring of gammons and backgammons). The engine is gnubg-nn
    for short nardy (the engine extra: pip install 'nardy-analysis[engine]') and this
    project's own for long nardy. --json gives win, win_gammon, win_backgammon,
    lose_gammon, lose_backgammon (mars and home mars for long nardy) and equity. A bad
    POSITION is a usage error (exit status 2).
    """
    position, rules, evaluator = position_engine(text, rules_name, ply)
    chances = evaluator.evaluate(position)
    equity = money_utility(rules)(chances)
    if as_json:
        click.echo(json.dumps({"position": position.id(), "turn": position.turn,
                               "rules": rules.name, "engine": evaluator.name,
                               **chances_dict(chances), "equity": equity}))
        return
    names = CHANCE_NAMES[rules.game]
    click.echo(f"{position.id()}: X (player {position.turn + 1}) on roll; {evaluator.name}, "
               f"rules {rules.name}")
    click.echo(f"     {names[0]:>10}{names[1]:>10}{names[2]:>12}")
    theirs = chances.swapped()
    for side, row in (("X", chances), ("O", theirs)):
        click.echo(f"  {side}  {row.win:>10.4f}{row.win_gammon:>10.4f}"
                   f"{row.win_backgammon:>12.4f}")
    click.echo(f"equity of X: {equity:+.4f} (cubeless, points per game)")
