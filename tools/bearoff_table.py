"""Make the two-sided bear-off table that ships with the package.

Usage::

    python tools/bearoff_table.py

Computes the exact equities of every pair of the 924 sides (at most six checkers on points
1..6) by :func:`nardy_analysis.analysis.bearoff._table` (about 7 s of CPU) and writes them,
in GNU Backgammon's 16-bit steps, to ``nardy_analysis/analysis/data/bearoff.npz``
(:data:`~nardy_analysis.analysis.bearoff.TABLE_FILE`).
"""

from itertools import product

import numpy as np

from nardy_analysis.analysis.bearoff import (
    BEAROFF_CHECKERS,
    BEAROFF_POINTS,
    TABLE_FILE,
    _reachable,
    _table,
    stored_table,
)


def main() -> None:
    sides = _reachable([side for side in product(range(BEAROFF_CHECKERS + 1),
                                                 repeat=BEAROFF_POINTS)
                        if sum(side) <= BEAROFF_CHECKERS])
    np.savez_compressed(TABLE_FILE, **stored_table(sides, _table(sides)))
    print(f"{TABLE_FILE}: {len(sides)} sides, {TABLE_FILE.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
