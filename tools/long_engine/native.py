"""The compiled long nardy move generator, encoder and self-play trainer (long_engine.c)
through ctypes: built with gcc on first use into ``tools/long_engine/build/`` (git-ignored).

Sides are ``uint8`` arrays of 25 in their owner's numbering (0 borne off, 1..24 the points);
a position is ``(2, 25)``: the side on roll, then the other.
"""

from __future__ import annotations

import ctypes
import hashlib
import shutil
import subprocess
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "long_engine.c"
BUILD = HERE / "build"
MAXPLAYS = 4096

_u8 = np.ctypeslib.ndpointer(np.uint8, flags="C_CONTIGUOUS")
_f32 = np.ctypeslib.ndpointer(np.float32, flags="C_CONTIGUOUS")
_f64 = np.ctypeslib.ndpointer(np.float64, flags="C_CONTIGUOUS")
_i32 = np.ctypeslib.ndpointer(np.int32, flags="C_CONTIGUOUS")
_NET = [_f32, _f32, _f32, _f32, ctypes.c_int]


def build() -> Path:
    """The shared library, compiled when the source changed (raises RuntimeError without
    gcc)."""
    digest = hashlib.sha256(SOURCE.read_bytes()).hexdigest()[:12]
    library = BUILD / f"long_engine_{digest}.so"
    if not library.exists():
        gcc = shutil.which("gcc")
        if gcc is None:
            raise RuntimeError("gcc is needed to build tools/long_engine/long_engine.c")
        BUILD.mkdir(exist_ok=True)
        partial = library.with_suffix(".tmp")
        subprocess.run([gcc, "-O3", "-march=native", "-shared", "-fPIC", "-o", str(partial),
                        str(SOURCE), "-lm"], check=True)
        partial.replace(library)
    return library


_lib = None


def lib():
    """The loaded library with its functions' signatures."""
    global _lib
    if _lib is None:
        found = ctypes.CDLL(str(build()))
        found.n_features.restype = ctypes.c_int
        found.legal_afters.argtypes = [_u8, _u8, ctypes.c_int, ctypes.c_int, ctypes.c_int, _u8,
                                       ctypes.c_int]
        found.encode_many.argtypes = [_u8, ctypes.c_int, _f32]
        found.evaluate_many.argtypes = [*_NET, _u8, ctypes.c_int, _f32]
        found.one_ply_many.argtypes = [*_NET, _u8, ctypes.c_int, _f32]
        found.train.argtypes = [*_NET, ctypes.c_int, ctypes.c_uint64, ctypes.c_float,
                                ctypes.c_float, ctypes.c_float, _f64]
        found.match.argtypes = [*_NET, *_NET, ctypes.c_int, ctypes.c_uint64, _i32]
        found.random_positions.argtypes = [ctypes.c_int, ctypes.c_uint64, _u8]
        _lib = found
    return _lib


def legal_afters(me: np.ndarray, opp: np.ndarray, roll: tuple[int, int],
                 head_limit: int) -> np.ndarray:
    """The mover's side after each legal play of ``roll``, shape (plays, 25)."""
    out = np.zeros((MAXPLAYS, 25), np.uint8)
    n = lib().legal_afters(np.ascontiguousarray(me, np.uint8), np.ascontiguousarray(
        opp, np.uint8), roll[0], roll[1], head_limit, out, MAXPLAYS)
    if n < 0:
        raise RuntimeError("too many plays")
    return out[:n]


def encode(positions: np.ndarray) -> np.ndarray:
    """The inputs of positions (n, 2, 25): float32 (n, features)."""
    positions = np.ascontiguousarray(positions, np.uint8)
    out = np.zeros((len(positions), lib().n_features()), np.float32)
    lib().encode_many(positions, len(positions), out)
    return out


def random_positions(n: int, seed: int) -> np.ndarray:
    """``n`` positions (n, 2, 25) of games of uniformly random legal plays."""
    out = np.zeros((n, 2, 25), np.uint8)
    lib().random_positions(n, seed, out)
    return out


def net_args(weights: dict | None) -> list:
    """The C net arguments of weights ``{"w1t", "b1", "w2", "b2"}`` (None: random play)."""
    if weights is None:
        empty = np.zeros(1, np.float32)
        return [empty, empty, empty, empty, 0]
    return [weights[k] for k in ("w1t", "b1", "w2", "b2")] + [len(weights["b1"])]


def evaluate(weights: dict, positions: np.ndarray) -> np.ndarray:
    """The net's chances (n, 5) of positions (n, 2, 25), for the side on roll."""
    positions = np.ascontiguousarray(positions, np.uint8)
    out = np.zeros((len(positions), 5), np.float32)
    lib().evaluate_many(*net_args(weights), positions, len(positions), out)
    return out


def one_ply(weights: dict, positions: np.ndarray) -> np.ndarray:
    """The net's 1-ply chances (n, 5) of positions (n, 2, 25), for the side on roll: the mean
    over the 21 rolls of the chances after the best 0-ply play (the training target of
    ``train``'s ``outcome`` below 1)."""
    positions = np.ascontiguousarray(positions, np.uint8)
    out = np.zeros((len(positions), 5), np.float32)
    if lib().one_ply_many(*net_args(weights), positions, len(positions), out) < 0:
        raise RuntimeError("too many plays")
    return out


def train(weights: dict, games: int, seed: int, alpha: float, lam: float,
          outcome: float = 1.0) -> np.ndarray:
    """Self-play training on ``games`` games, updating ``weights`` in place: each position
    towards ``outcome`` times its TD(lambda) return plus ``1 - outcome`` times its 1-ply
    chances (1: plain TD(lambda)). The stats: plies, starter's wins, mars, home mars, games
    dropped."""
    stats = np.zeros(5)
    lib().train(*net_args(weights), games, seed, alpha, lam, outcome, stats)
    return stats


def match(a: dict | None, b: dict | None, games: int, seed: int) -> np.ndarray:
    """A's points in each of ``games`` 0-ply games against B (None: random play), sides
    alternating (A starts the even games)."""
    points = np.zeros(games, np.int32)
    lib().match(*net_args(a), *net_args(b), games, seed, points)
    return points
