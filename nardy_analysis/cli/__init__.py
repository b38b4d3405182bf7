"""The ``nardy`` command line: a click group whose commands load only when used."""

from __future__ import annotations

import gc
import os
from importlib import import_module

import click

# BLAS on one thread for every command unless the user sets otherwise, before numpy loads:
# OpenBLAS starts its threads when it loads (about 0.1 s of CPU on 2 cores, a twentieth of a
# `nardy luck` of 563 rolls), and the commands' matrix products are too small for threads to
# speed up (analysis/blas.py).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

GC_THRESHOLD = 5_000
"""The garbage collector's first threshold (allocations between young collections) while a
command runs, instead of Python's 700; worker processes that fork inherit it. Reading and
replaying a file makes many small objects and few cycles, so fewer collections find as much
(measured in benchmarks/README.md, "replay_corpus.py")."""


class _Commands(click.Group):
    """The command group; each command is in its own module, imported only when used, so
    that ``nardy replay`` does not wait for pandas and matplotlib to load."""

    COMMANDS = ("audit", "board", "convert", "eval", "hint", "luck", "plot", "replay", "report",
                "shots", "simulate", "skill", "stats")

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.COMMANDS and name not in self.commands:
            self.add_command(getattr(import_module(f".{name}", __package__), name), name)
        return super().get_command(ctx, name)


@click.group(cls=_Commands)
@click.version_option(package_name="nardy-analysis")
def main() -> None:
    """Read, replay and analyse nardy match records: short nardy (backgammon) and long
    nardy (--rules long, or a Variation "LongNardy" tag; shots and the blot exposure chart
    are for short nardy only)."""
    gc.set_threshold(GC_THRESHOLD)
