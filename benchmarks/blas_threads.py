"""The engines' matrix products on BLAS's default threads against one thread, in one run.

Usage: python benchmarks/blas_threads.py [--repeat N]

Run it without ``OPENBLAS_NUM_THREADS`` (the point is BLAS's own default). Times, in CPU
seconds of this process (best of N, default 3): the long nardy net's product
of a 64-row block (``LongEvaluator.net``'s unit of work) as it is and inside
:func:`nardy_analysis.analysis.blas.one_blas_thread`, and ``LongEvaluator.net`` of 4,096
positions of random games both ways. Prints the machine's load average: OpenBLAS's waiting
threads spin, so the default costs most when the other cores are busy.
"""

import contextlib
import os
import sys
import time

import numpy as np

from nardy_analysis.analysis import blas, long_engine
from nardy_analysis.analysis.long_engine import INPUTS, LongEvaluator, sides
from nardy_analysis.game.long import LongPosition
from nardy_analysis.game.position import Roll


def cpu(work, repeat: int) -> float:
    """Best CPU seconds of ``work()`` over ``repeat`` runs."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best


def random_boards(count: int, seed: int = 1) -> np.ndarray:
    """``(count, 2, 25)`` sides of positions of random long nardy games."""
    rng = np.random.default_rng(seed)
    found, position = [], LongPosition.start()
    while len(found) < count:
        if position.is_over:
            position = LongPosition.start()
        found.append(sides(position))
        plays = position.legal_plays(Roll(*rng.integers(1, 7, 2)), first_turn=False)
        position = plays[rng.integers(len(plays))].after
    return np.array(found)


def main() -> None:
    repeat = int(sys.argv[sys.argv.index("--repeat") + 1]) if "--repeat" in sys.argv else 3
    if "OPENBLAS_NUM_THREADS" in os.environ:
        print("note: OPENBLAS_NUM_THREADS is set, so both sides run on its threads")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
          f"BLAS: {blas._controller().info()[0]['num_threads']} threads by default")
    rng = np.random.default_rng(0)
    block, weights = rng.random((64, INPUTS)), rng.random((INPUTS, 128))
    evaluator, boards = LongEvaluator(), random_boards(4096)

    def products() -> None:
        for _ in range(200):
            block @ weights

    def net() -> None:
        evaluator.net(boards)

    for label, work in (("64-row product x 200", products), ("LongEvaluator.net, 4,096", net)):
        with blas.one_blas_thread():
            one = cpu(work, repeat)
        long_engine.one_blas_thread = contextlib.nullcontext  # the default threads
        try:
            default = cpu(work, repeat)
        finally:
            long_engine.one_blas_thread = blas.one_blas_thread
        print(f"{label}: default threads {default:.3f} s, one thread {one:.3f} s, "
              f"ratio {default / one:.1f}")


if __name__ == "__main__":
    main()
