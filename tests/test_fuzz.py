"""Fuzzing the reader with hypothesis: byte mutations, truncations and line shuffles of real
match files. Whatever the bytes, reading either succeeds or raises the library's own error
with a line and a column; the collecting reader never raises; what it keeps replays and can
be written and read back.

The seeds are the bundled files (sample_games/, tests/malformed/) and, when the shared corpus
is present, a spread of its files. ``NARDY_FUZZ_EXAMPLES=5000`` runs a longer campaign (the
default is a short, derandomized run).
"""

from __future__ import annotations

import os

import pytest
from conftest import CORPUS_FILES, ROOT, SAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nardy_analysis import DecodeError, NotationError, parse_mat, replay_match, written_record
from nardy_analysis.notation.decoding import decode
from nardy_analysis.notation.writer import format_mat

EXAMPLES = int(os.environ.get("NARDY_FUZZ_EXAMPLES", "120"))
SEEDS = [path.read_bytes() for path in
         sorted(SAMPLES.rglob("*.mat"))
         + sorted((ROOT / "tests" / "malformed").glob("*.mat"))[::4]
         + CORPUS_FILES[::100]]
# Pieces of the notation, so that mutations make near-misses rather than only noise.
PIECES = [b"\n", b"\r", b" ", b":", b"/", b"*", b"(2)", b")", b"Game ", b" 3 point match\n",
          b" Game 2\n", b"Doubles => 2", b"Takes", b"Drops", b"Beavers => 4", b"Wins ",
          b"Losses ", b" point", b" and the match", b"bar/", b"/off", b"???", b"Cannot Move",
          b"99", b"0", b"1234567890", b";", b'; [Site "x"]\n', b"\xff", b"\x00", b"\xef\xbb\xbf",
          b"\xd0\x96", b"\t", b"\x0c"]


@st.composite
def mutated(draw) -> bytes:
    data = draw(st.sampled_from(SEEDS))
    how = draw(st.sampled_from(["bytes", "truncate", "lines", "all"]))
    if how in ("truncate", "all"):
        data = data[:draw(st.integers(0, len(data)))]
    if how in ("lines", "all"):
        lines = data.split(b"\n")
        for _ in range(draw(st.integers(1, 4))):
            i = draw(st.integers(0, len(lines) - 1))
            j = draw(st.integers(0, len(lines) - 1))
            action = draw(st.sampled_from(["swap", "move", "drop", "repeat", "shuffle"]))
            if action == "swap":
                lines[i], lines[j] = lines[j], lines[i]
            elif action == "move":
                lines.insert(j, lines.pop(i))
            elif action == "drop" and len(lines) > 1:
                del lines[i]
            elif action == "repeat":
                lines.insert(j, lines[i])
            else:
                window = lines[i:i + 8]
                lines[i:i + 8] = draw(st.permutations(window))
        data = b"\n".join(lines)
    if how in ("bytes", "all"):
        for _ in range(draw(st.integers(1, 6))):
            at = draw(st.integers(0, len(data)))
            action = draw(st.sampled_from(["set", "insert", "piece", "delete", "copy"]))
            if action == "set" and at < len(data):
                data = data[:at] + bytes([draw(st.integers(0, 255))]) + data[at + 1:]
            elif action == "insert":
                data = data[:at] + draw(st.binary(min_size=1, max_size=4)) + data[at:]
            elif action == "piece":
                data = data[:at] + draw(st.sampled_from(PIECES)) + data[at:]
            elif action == "delete":
                data = data[:at] + data[at + draw(st.integers(1, 40)):]
            else:
                end = min(len(data), at + draw(st.integers(1, 200)))
                data = data[:at] + data[at:end] * 2 + data[end:]
    return data


def check_error(error: NotationError, lines: int) -> None:
    assert 1 <= error.line <= lines + 1 and error.column >= 1, error
    assert isinstance(error.message, str) and error.message


def check(data: bytes) -> None:
    """The reader's contract on any bytes."""
    try:
        text = decode(data, "fuzz.mat")
    except DecodeError as error:
        check_error(error, data.count(b"\n") + data.count(b"\r"))
        assert 0 <= error.offset < len(data)
        return
    lines = text.count("\n") + text.count("\r") + 1
    parsed = parse_mat(text, "fuzz.mat")
    for error in parsed.errors:
        check_error(error, lines)
    try:
        strict = parse_mat(text, "fuzz.mat", strict=True).matches
    except NotationError as error:
        check_error(error, lines)
        assert parsed.errors, "the strict reader failed where the collecting one did not"
    else:
        assert parsed.matches == strict and not parsed.errors
    replayed = [replay_match(match) for match in parsed.matches]
    # What was kept can be written and read back to the same positions.
    again = [replay_match(match) for match in
             parse_mat(format_mat(map(written_record, replayed)), strict=True).matches]
    assert [[[t.after for t in g.turns] for g in m.games] for m in again] == \
        [[[t.after for t in g.turns] for g in m.games] for m in replayed]


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=5000, derandomize=EXAMPLES <= 1000,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated())
def test_any_bytes_read_or_raise_a_located_notation_error(data):
    check(data)


def test_the_seeds_themselves():
    for data in SEEDS:
        check(data)
