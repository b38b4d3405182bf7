"""Time and memory of reading large and hostile .mat text grow linearly with its size.

Usage: python benchmarks/hostile_input.py [--size N] [--huge]

Three inputs of about N characters (default 100,000): one real game written again and again
(a money session), the same with a broken move in every game (read leniently, each game
dropped), and one move line N characters long. For each: the time ratio of reading
4N against N characters (best of three reads; about 4 to 6 when linear, as caches fill, 16
when quadratic; limit 10) and the peak memory (tracemalloc) of N against N/4 characters
(limit 8), and bytes per character of text (limit 100: the records are kept).
``--huge`` also reads a 50 MB file from disk (about 90 s and 1.2 GB of memory; its time at
most 8 times that of a quarter of it) and checks a 1 MB line. Exits 1 past a limit.
These checks were timed unit tests in tests/test_hostile_input.py.
"""

import argparse
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from nardy_analysis import parse_mat, read_mat

SAMPLES = Path(__file__).resolve().parents[1] / "sample_games"
HEADER = " 3 point match\n\n Game 1\n a : 0                           b : 0\n"


def repeated_games(size: int) -> str:
    """A money session of about ``size`` characters: one real game written again and again."""
    source = (SAMPLES / "BackgammonStudio_6783333.mat").read_text("utf-8")
    game = source[source.index(" Game 1"):]
    return " 0 point match\n\n" + game * max(1, size // len(game))


def broken_games(size: int) -> str:
    """:func:`repeated_games` with a broken move token in every game."""
    return repeated_games(size).replace("13/5*", "13/x5*")


def long_line(size: int) -> str:
    """A file whose one move line is about ``size`` characters long."""
    return HEADER + "  1) 31: " + "8/5 " * (size // 4) + "\n"


def seconds(text: str, strict: bool) -> float:
    """Best time of three reads, in seconds."""
    times = []
    for _ in range(3):
        start = time.perf_counter()
        parse_mat(text, strict=strict)
        times.append(time.perf_counter() - start)
    return min(times)


def peak_memory(text: str, strict: bool) -> int:
    """Peak memory of a read, in bytes."""
    tracemalloc.start()
    try:
        parse_mat(text, strict=strict)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def linear(name: str, make, size: int, strict: bool = True) -> bool:
    """Print the ratios for one input; True when all are within the limits."""
    time_ratio = seconds(make(4 * size), strict) / seconds(make(size), strict)
    small, large = make(size // 4), make(size)
    memory_ratio = peak_memory(large, strict) / peak_memory(small, strict)
    per_char = peak_memory(large, strict) / len(large)
    ok = time_ratio < 10 and memory_ratio < 8 and per_char < 100
    print(f"{name:<28} time x{time_ratio:4.1f} for 4x the text (limit 10), memory "
          f"x{memory_ratio:4.1f} for 4x (limit 8), {per_char:5.1f} bytes/char (limit 100)"
          f"{'' if ok else '  OVER THE LIMIT'}")
    return ok


def huge() -> bool:
    """Read a 50 MB file; its time against a quarter of it; a 1 MB line."""
    with tempfile.TemporaryDirectory(prefix="nardy-huge-") as folder:
        path = Path(folder) / "huge.mat"
        path.write_text(repeated_games(50_000_000), "utf-8")
        start = time.perf_counter()
        (match,) = read_mat(path, strict=True).matches
        whole = time.perf_counter() - start
    start = time.perf_counter()
    parse_mat(repeated_games(12_500_000))
    quarter = time.perf_counter() - start
    ok = len(match.games) > 20_000 and whole < 8 * quarter
    print(f"50 MB file: {len(match.games):,} games in {whole:.1f} s, x{whole / quarter:.1f} "
          f"the time of a quarter (limit 8){'' if ok else '  OVER THE LIMIT'}")
    return linear("a 1 MB line", long_line, 1_000_000) and ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000, help="characters (default 100,000)")
    parser.add_argument("--huge", action="store_true", help="also a 50 MB file and a 1 MB line")
    args = parser.parse_args()
    results = [linear("repeated games", repeated_games, args.size),
               linear("a broken move in every game", broken_games, args.size, strict=False),
               linear("one long line", long_line, args.size)]
    if args.huge:
        results.append(huge())
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
