"""``nardy simulate``: write random legal matches with fair or loaded dice."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import click

from ..errors import InvalidArgument, path_text
from ..game.rules import VARIANTS
from ..notation.writer import write_mat
from ..simulate import Dice, simulate_matches
from .common import (CannotWrite, OutputFolder, note, progress_bar, progress_option,
                     quiet_option)


class DiceSpec(click.ParamType):
    """A :class:`~nardy_analysis.simulate.Dice` spec: ``fair``, ``doubles=P``, ``faces=...``."""

    name = "dice"

    def convert(self, value, param, ctx):
        try:
            return value if isinstance(value, Dice) else Dice.from_str(value)
        except InvalidArgument as error:
            self.fail(str(error), param, ctx)


def _write_part(out: Path, start: int, count: int, width: int, seed: int, options) -> None:
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
              help="Pool of player names the matches draw from.")
@click.option("--cube/--no-cube", default=True, show_default=True,
              help="Turn the cube now and then.")
@click.option("--rules", type=click.Choice(sorted(VARIANTS)), default="standard",
              show_default=True, help="Rule variant.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Match i is the same for the same seed, whatever COUNT is.")
@click.option("--jobs", type=click.IntRange(1), default=1, show_default=True,
              help="Worker processes.")
@progress_option
@quiet_option
def simulate(count, out, dice, loaded, length, games, players, cube, rules, seed, jobs,
             progress):
    """Write COUNT random legal matches, one .mat file each, into the folder --out.

    Every play is a random legal play of the roll; the dice are fair or loaded as --dice
    says, for both players or one (--loaded). --rules long (or long-federation) simulates
    long nardy: no cube, and each file gets its Variation tag. Useful to test an audit's
    power and for benchmarks:
    `nardy simulate 200 --out loaded --dice doubles=0.25 && nardy audit loaded`.
    Exit status: 0, or 2 for usage errors.
    """
    options = dict(length=length, games=games, players=players, cube=cube,
                   rules=VARIANTS[rules], dice=dice, loaded=loaded)
    try:
        next(simulate_matches(1, **options))  # arguments checked before any work
    except InvalidArgument as error:
        raise click.BadParameter(str(error))
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
    note(f"wrote {count} matches to {path_text(out)}")
