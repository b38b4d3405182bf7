"""Shared test helpers: where the samples and the corpus are, and builders several test files use.

Test modules import the names (``from conftest import SAMPLES``; pytest puts ``tests/`` on
``sys.path``) or take the fixtures. The shared corpus is the folder named by the environment
variable ``NARDY_CORPUS``, else ``../shared/corpus/mat`` beside the repository or, in a git
worktree, beside the main checkout (:func:`checkouts`).
"""

from __future__ import annotations

import csv
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from nardy_analysis import ALL_ROLLS, Position
from nardy_analysis.game.rules import LONG

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_games"


def checkouts(root: Path = ROOT) -> list[Path]:
    """The repository's folder ``root`` and the main checkout's, which differs in a git
    worktree (the folder of ``git rev-parse --git-common-dir``); ``root`` alone outside git."""
    try:
        common = subprocess.run(["git", "rev-parse", "--git-common-dir"], cwd=root,
                                capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return [root]
    return [root, (root / common).resolve().parent]


def corpus_folder(root: Path = ROOT) -> Path:
    """``NARDY_CORPUS``, else the first ``shared/corpus/mat`` beside one of the
    :func:`checkouts` of ``root`` that exists (the first place when none does)."""
    if os.environ.get("NARDY_CORPUS"):
        return Path(os.environ["NARDY_CORPUS"])
    places = [folder.parent / "shared" / "corpus" / "mat" for folder in checkouts(root)]
    return next((place for place in places if place.is_dir()), places[0])


CORPUS = corpus_folder()
CORPUS_FILES = sorted(CORPUS.glob("*.mat"))
"""The corpus files in name order (empty when the corpus is absent)."""


@pytest.fixture(scope="session")
def corpus_files() -> list[Path]:
    """The corpus files in name order; skips the test when the corpus is absent."""
    if not CORPUS_FILES:
        pytest.skip(f"the shared corpus is not at {CORPUS} (set NARDY_CORPUS)")
    return CORPUS_FILES


@pytest.fixture(scope="session")
def cluster() -> Iterator[str]:
    """The address of a Dask scheduler with two worker processes, listening on 127.0.0.1 only;
    started once for the tests that take it and stopped at the end of the run. Skips the test
    when ``distributed`` is not installed."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as local:
        yield local.scheduler_address


def read_tsv(path: Path) -> list[dict]:
    """The rows of a tab-separated file with a header line, as dicts of strings."""
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def side(**points: int) -> list[int]:
    """26 counts from keyword points like ``p24=1`` (``bar=1`` or ``p25``: the bar); the rest
    of the 15 checkers borne off (index 0)."""
    counts = [0] * 26
    for name, n in points.items():
        counts[25 if name == "bar" else int(name[1:])] = n
    counts[0] += 15 - sum(counts)
    return counts


def gnubg_board(position: Position) -> list[list[int]]:
    """``[opponent, player_on_roll]`` as gnubg wants it (bar at index 24, no borne-off entry)."""
    return [list(position.opponent[1:26]), list(position.on_roll[1:26])]


def brute_force_shots(position: Position) -> int:
    """Throws out of 36 with a legal play that hits (an oracle built on legal_plays only)."""
    return sum(1 if roll.is_double else 2 for roll in ALL_ROLLS
               if any(move.hit for play, _ in position.legal_plays(roll)
                      for move in play.moves))


def run_in(folder: Path, args: list, monkeypatch, clean=None) -> dict:
    """Run ``nardy ARGS`` in ``folder`` (made here): the exit status, stdout, stderr and every
    file written there by relative path: bytes, or text passed through ``clean`` (with the
    stdout) when given, to take out what differs between runs (a date)."""
    from click.testing import CliRunner

    from nardy_analysis.cli import main

    folder.mkdir()
    monkeypatch.chdir(folder)
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.exception
    read = (lambda p: p.read_bytes()) if clean is None else (lambda p: clean(p.read_text()))
    return {"exit": result.exit_code,
            "stdout": result.stdout if clean is None else clean(result.stdout),
            "stderr": result.stderr,
            "files": {str(p.relative_to(folder)): read(p)
                      for p in sorted(folder.rglob("*")) if p.is_file()}}


@pytest.fixture
def without_gnubg_nn(monkeypatch):
    """As if gnubg-nn were not installed: ``import gnubg_nn`` fails, and the engine of
    short nardy is made anew each time (the cached one may hold gnubg-nn), so that it is
    not found; long nardy's engine, part of the package, stays cached."""
    import sys

    from nardy_analysis.analysis import engine

    cached = engine.default_evaluator

    def uncached_for_short_nardy(ply=0, name="gnubg-nn", rules=LONG):
        chosen = cached if rules.game == "long" else cached.__wrapped__
        return chosen(ply, name, rules)

    monkeypatch.setitem(sys.modules, "gnubg_nn", None)
    monkeypatch.setattr("nardy_analysis.analysis.engine.default_evaluator",
                        uncached_for_short_nardy)
