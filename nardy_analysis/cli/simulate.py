"""``nardy simulate``: write random legal matches with fair or loaded dice."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import click

from ..analysis.bots import BOTS, bot
from ..errors import EngineError, InvalidArgument, path_text, plural
from ..game.rules import VARIANTS
from ..notation.writer import write_mat
from ..simulate import Chooser, Dice, simulate_matches
from .common import (
    CannotWrite,
    OutputFolder,
    UsageLine,
    note,
    progress_bar,
    progress_option,
    quiet_option,
)


class DiceSpec(click.ParamType[Dice]):
    """A :class:`~nardy_analysis.simulate.Dice` spec: ``fair``, ``doubles=P``, ``faces=...``."""

    name = "dice"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Dice:
        try:
            return value if isinstance(value, Dice) else Dice.from_str(value)
        except InvalidArgument as error:
            self.fail(str(error), param, ctx)


class BotPair(click.ParamType[tuple[Chooser, Chooser]]):
    """Two bot names, ``A,B`` (:data:`~nardy_analysis.analysis.bots.BOTS`), as the bots."""

    name = "bots"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> tuple[Chooser, Chooser]:
        if isinstance(value, tuple):
            return value
        names = value.split(",")
        if len(names) != 2:
            self.fail(f"{value!r} is not two bots A,B, each one of {', '.join(BOTS)}",
                      param, ctx)
        try:
            return bot(names[0].strip()), bot(names[1].strip())
        except InvalidArgument as error:
            self.fail(f"{value!r}: {error}", param, ctx)


def _write_part(out: Path, start: int, count: int, width: int, seed: int,
                options: dict[str, Any]) -> None:
    """Write matches ``start .. start + count - 1``, one file each (run in worker processes)."""
    for index, match in enumerate(simulate_matches(count, seed=seed, start=start, **options),
                                  start):
        write_mat(match, out / f"sim_{index + 1:0{width}d}.mat")


@click.command()
@click.argument("count", type=click.IntRange(1))
@click.option("--out", "out", required=True,
              type=OutputFolder(),
              help="Folder to write sim_0001.mat ... into (made if missing).")
@click.option("--dice", type=DiceSpec(), default="fair", show_default=True,
              help="fair, doubles=P (a double with probability P) or faces=W1,...,W6 "
                   "(each die's face weights).")
@click.option("--loaded", metavar="NAME", default=None,
              help="Only this player's dice follow --dice (names are 'player 1' .. "
                   "'player N'; the others' dice are fair).")
@click.option("--length", type=click.IntRange(0), default=5, show_default=True,
              help="Match length in points; 0 for money sessions.")
@click.option("--games", type=click.IntRange(1), default=1, show_default=True,
              help="Games per money session (--length 0).")
@click.option("--players", type=click.IntRange(2), default=2, show_default=True,
              help="Pool of player names ('player 1' .. 'player N') each match draws two "
                   "from, the first of the pool on the left of the score lines.")
@click.option("--cube/--no-cube", default=True, show_default=True,
              help="Turn the cube now and then.")
@click.option("--rules", type=click.Choice(sorted(VARIANTS)), default="standard",
              show_default=True, help="Rule variant.")
@click.option("--bots", type=BotPair(), default=None, metavar="A,B",
              help="Bots choose the plays instead: 'player 1' plays A, the others B, each "
                   "of random (any legal play, each alike), heuristic (the best play by a "
                   "rule of thumb, below) and engine (the best 0-ply play of gnubg-nn for "
                   "short nardy, which needs the engine extra, of the long nardy engine for "
                   "long nardy). The cube is still turned as --cube says.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Match i is the same for the same seed, whatever COUNT is.")
@click.option("--jobs", type=click.IntRange(1), default=1, show_default=True,
              help="Worker processes.")
@progress_option
@quiet_option
def simulate(count: int, out: Path, dice: Dice, loaded: str | None, length: int, games: int,
             players: int, cube: bool, rules: str, bots: tuple[Chooser, Chooser] | None,
             seed: int, jobs: int, progress: bool | None) -> None:
    """Write COUNT random legal matches, one .mat file each, into the folder --out.

    Every play is a random legal play of the roll, or the choice of a bot (--bots A,B;
    the files get a Bots tag); the dice are fair or loaded as --dice says, for both players
    or one (--loaded). --rules long (or long-federation) simulates long nardy: no cube, and
    each file gets its Variation tag. Useful to test an audit's power and for benchmarks:
    `nardy simulate 200 --out loaded --dice doubles=0.25 && nardy audit loaded`,
    `nardy simulate 100 --out bots --rules long --length 0 --bots engine,heuristic`.

    The heuristic bot plays the legal play whose position after it scores best, in pips:
    long nardy: the race (the opponent's pip count minus its own), +2 for each point held,
    +3 n^2 for each run of n points in a row held in front of opposing checkers still to
    pass it (the opponent's such runs in front of its own checkers count against it),
    -4 for each checker left on the head beyond one, -3 for each checker beyond the third
    on a point; short nardy: the race, minus each blot's chance of being hit (its exact
    hitting rolls) times the pips it would lose plus 4, +4 for each home board point made,
    +2 for the bar point, +2 for each point of the longest prime, +2 for each anchor in the
    opponent's home board, +3 for each opposing checker on the bar for each home point
    made, -2 for each checker beyond the third on a point.

    Exit status: 0, or 2 for usage errors (a missing engine extra among them).
    """
    options: dict[str, Any] = dict(length=length, games=games, players=players, cube=cube,
                                   rules=VARIANTS[rules], dice=dice, loaded=loaded, bots=bots)
    try:
        next(simulate_matches(1, **options))  # arguments checked before any work
    except InvalidArgument as error:
        raise click.BadParameter(str(error))
    except EngineError as error:
        raise UsageLine(str(error)) from None
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:  # the check before the work cannot see everything
        raise CannotWrite(str(out), error.strerror or str(error)) from None
    width = max(4, len(str(count)))
    size = max(1, min(100, count // (4 * jobs)))
    parts = [(start, min(size, count - start)) for start in range(0, count, size)]
    arguments = ([out] * len(parts), [s for s, _ in parts], [n for _, n in parts],
                 [width] * len(parts), [seed] * len(parts), [options] * len(parts))
    pool = ProcessPoolExecutor(jobs) if jobs > 1 else None
    try:
        done = (pool.map if pool else map)(_write_part, *arguments)
        for _ in progress_bar(done, progress, len(parts)):
            pass
    finally:
        if pool:
            pool.shutdown()
    note(f"wrote {plural(count, 'match')} to {path_text(out)}")
