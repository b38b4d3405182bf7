"""One BLAS thread for the engines' matrix products.

The nets' products are small: the long nardy net takes blocks of 64 positions, gnubg's
pruning nets 4,096 plays at most, through 16 hidden units. Threads cannot speed them up,
and OpenBLAS's threads spin while they wait for work: on a machine whose other core is
busy, a 64 x 221 by 221 x 128 product took 6.2 ms of CPU with OpenBLAS's default of two
threads and 0.074 ms with one, so that ``nardy luck`` of a 180-roll long nardy match took
12.1 s of CPU instead of 2.4 s (benchmarks/blas_threads.py measures both).
:func:`one_blas_thread` limits BLAS to one thread for the products inside it
(threadpoolctl), and puts back what was set before.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from threadpoolctl import ThreadpoolController


@lru_cache(maxsize=1)
def _controller() -> ThreadpoolController:
    """The thread pools of the BLAS libraries loaded (found once, on first use)."""
    return ThreadpoolController()


def one_blas_thread() -> Any:
    """A context manager in which BLAS (numpy's OpenBLAS) runs on one thread.

    Returns
    -------
    context manager
        ``with one_blas_thread(): ...``; entering and leaving it costs about 7 microseconds.
    """
    return _controller().limit(limits=1, user_api="blas")
