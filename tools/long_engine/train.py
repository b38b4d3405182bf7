"""Self-play TD(lambda) training of the long nardy net, with checkpoints, resume and export.

Train (resuming from the newest checkpoint when there is one), in the background::

    OPENBLAS_NUM_THREADS=1 nohup python tools/long_engine/train.py --games 5000000 --resume \
        > tools/long_engine/checkpoints/train.log 2>&1 &

Widen a trained net (the package's weights, say) to more hidden units and go on training it
in a new checkpoint folder: the added units start with zero output weights, so the wider net
plays exactly as the narrower one did and training adds what the extra units can learn::

    OPENBLAS_NUM_THREADS=1 nohup python tools/long_engine/train.py --games 3000000 \
        --widen nardy_analysis/analysis/data/long_net.npz --hidden 256 --alpha 0.01 \
        --checkpoints tools/long_engine/checkpoints/wide > wide.log 2>&1 &

Go on training a net towards its own 1-ply values (the mean over the 21 rolls of the
chances after the best play), mixed with a share of the TD(lambda) return, in a new
checkpoint folder (``--widen`` to the net's own size starts from it unchanged)::

    OPENBLAS_NUM_THREADS=1 nohup python tools/long_engine/train.py --games 2000000 \
        --widen nardy_analysis/analysis/data/long_net.npz --hidden 128 --alpha 0.003 \
        --one-ply 0.2 --checkpoints tools/long_engine/checkpoints/ply1 > ply1.log 2>&1 &

Export the newest checkpoint into the package (nardy_analysis/analysis/data/long_net.npz)::

    python tools/long_engine/train.py --export

The game loop, the play choice (0-ply, greedy, by money equity) and the updates are C
(long_engine.c, built with gcc on first use). After each game the weights take one gradient
step (cross-entropy of each of the five sigmoid outputs) per position towards its
lambda-return: ``G_t = swap((1 - lambda) V_{t+1} + lambda G_{t+1})``, the last one the
certain outcome, ``swap`` turning the chances round to the other side; with ``--one-ply W``
towards ``W G_t + (1 - W) V1_t``, ``V1_t`` the position's 1-ply chances by the net as it was
at the game's start (some 20 times the work of a game). A checkpoint
(``checkpoints/long_net_<games>.npz``, all kept) is written every ``--every`` games.
"""

from __future__ import annotations

import argparse
import datetime
import json
import shlex
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import native  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
CHECKPOINTS = Path(__file__).resolve().parent / "checkpoints"
EXPORT = REPO / "nardy_analysis" / "analysis" / "data" / "long_net.npz"
ENCODING = 1
"""Version of the inputs (long_engine.c ``encode``, nardy_analysis.analysis.long_engine)."""
ARRAYS = ("w1t", "b1", "w2", "b2")


def fresh(hidden: int, seed: int) -> dict:
    """Random initial weights: uniform in +-1/sqrt(fan-in), zero biases."""
    rng = np.random.default_rng(seed)
    inputs = native.lib().n_features()
    return {"w1t": (rng.uniform(-1, 1, (inputs, hidden)) / np.sqrt(inputs)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "w2": (rng.uniform(-1, 1, (5, hidden)) / np.sqrt(hidden)).astype(np.float32),
            "b2": np.zeros(5, np.float32)}


def widen(weights: dict, hidden: int, seed: int) -> dict:
    """The same net with ``hidden`` hidden units: the added units' input weights uniform in
    +-1/sqrt(fan-in), their output weights zero, so every output is unchanged."""
    inputs, had = weights["w1t"].shape
    if hidden < had:
        raise SystemExit(f"--hidden {hidden} is fewer than the net's {had} hidden units")
    added = fresh(hidden - had, seed)
    return {"w1t": np.concatenate([weights["w1t"], added["w1t"]], axis=1),
            "b1": np.concatenate([weights["b1"], added["b1"]]),
            "w2": np.concatenate([weights["w2"], np.zeros((5, hidden - had), np.float32)], axis=1),
            "b2": weights["b2"].copy()}


def alpha_at(games: int, start: float, floor: float) -> float:
    """The step size after ``games`` games: ``start / sqrt(1 + games / 100,000)``, at least
    ``floor``."""
    return max(floor, start / np.sqrt(1.0 + games / 100_000))


def checkpoints(folder: Path = CHECKPOINTS) -> list[Path]:
    """The checkpoint files, fewest games first."""
    return sorted(folder.glob("long_net_*.npz"))


def load(path: Path) -> tuple[dict, dict]:
    """(weights, metadata) of a checkpoint or exported file."""
    with np.load(path) as data:
        weights = {k: np.ascontiguousarray(data[k], np.float32) for k in ARRAYS}
        meta = json.loads(str(data["meta"]))
    return weights, meta


def save(path: Path, weights: dict, meta: dict) -> None:
    """Write weights and metadata (as a JSON string) to an .npz file, atomically."""
    partial = path.with_name(path.stem + ".tmp.npz")
    np.savez(partial, meta=np.array(json.dumps(meta, sort_keys=True)), **weights)
    partial.replace(path)


def export(folder: Path = CHECKPOINTS, target: Path = EXPORT) -> Path:
    """Copy the newest checkpoint's weights and metadata into the package file."""
    found = checkpoints(folder)
    if not found:
        raise SystemExit(f"no checkpoint in {folder}")
    weights, meta = load(found[-1])
    meta["exported"] = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    meta["checkpoint"] = found[-1].name
    target.parent.mkdir(parents=True, exist_ok=True)
    save(target, weights, meta)
    return target


def run(games: int, resume: bool, seed: int, hidden: int, alpha: float, floor: float,
        lam: float, every: int, folder: Path, command: str, chunk: int = 500,
        start: Path | None = None, one_ply: float | None = None) -> dict:
    """Train until ``games`` games in all have been played; returns the last metadata. With
    ``start``, the net of that file widened to ``hidden`` units is the first checkpoint, its
    games counted on, trained with a constant step ``alpha``; with ``one_ply`` (the share of
    the TD return, the rest the 1-ply chances), the new checkpoints train towards 1-ply
    targets."""
    folder.mkdir(parents=True, exist_ok=True)
    found = checkpoints(folder)
    if found and not resume:
        raise SystemExit(f"{folder} holds checkpoints: pass --resume or another --checkpoints")
    if found:
        weights, meta = load(found[-1])
        print(f"resuming from {found[-1].name}: {meta['games']} games", flush=True)
    elif start is not None:
        weights, meta = load(start)
        weights = widen(weights, hidden, seed)
        meta = {k: v for k, v in meta.items() if k not in ("checkpoint", "exported")}
        meta.update(hidden=hidden, alpha=alpha, alpha_floor=alpha, seed=seed,
                    started_from={"hidden": meta["hidden"], "games": meta["games"],
                                  "command": meta["command"]}, command=command)
        if one_ply is not None:
            meta["one_ply"] = one_ply
        save(folder / f"long_net_{meta['games']:08d}.npz", weights, meta)
    else:
        weights = fresh(hidden, seed)
        meta = {"encoding": ENCODING, "inputs": native.lib().n_features(), "hidden": hidden,
                "outputs": ["win", "win_mars", "win_home_mars", "lose_mars", "lose_home_mars"],
                "lambda": lam, "alpha": alpha, "alpha_floor": floor, "seed": seed, "games": 0,
                "cpu_seconds": 0.0, "command": command, "plies": 0}
        save(folder / "long_net_00000000.npz", weights, meta)
    started, cpu = time.time(), time.process_time()
    window = [time.time(), meta["games"]]
    while meta["games"] < games:
        n = min(chunk, games - meta["games"], every - meta["games"] % every)
        step = alpha_at(meta["games"], meta["alpha"], meta["alpha_floor"])
        stats = native.train(weights, n, meta["seed"] * 1_000_003 + meta["games"], step,
                             meta["lambda"], meta.get("one_ply", 1.0))
        meta["games"] += n
        meta["plies"] += int(stats[0])
        now = time.process_time()
        meta["cpu_seconds"] += now - cpu
        cpu = now
        if meta["games"] % every == 0 or meta["games"] >= games:
            meta["date"] = datetime.datetime.now(datetime.timezone.utc).isoformat(
                timespec="seconds")
            save(folder / f"long_net_{meta['games']:08d}.npz", weights, meta)
            rate = (meta["games"] - window[1]) / (time.time() - window[0])
            window = [time.time(), meta["games"]]
            print(f"{meta['date']} games {meta['games']} alpha {step:.4f} "
                  f"{rate:.0f} games/s plies/game {stats[0] / n:.1f} "
                  f"starter won {stats[1] / n:.3f} mars {stats[2] / n:.3f} "
                  f"home mars {stats[3] / n:.3f} dropped {int(stats[4])} "
                  f"cpu h {meta['cpu_seconds'] / 3600:.2f}", flush=True)
    print(f"done: {meta['games']} games in {time.time() - started:.0f} s", flush=True)
    return meta


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5_000_000,
                        help="train until this many games in all")
    parser.add_argument("--resume", action="store_true",
                        help="continue from the newest checkpoint")
    parser.add_argument("--export", action="store_true",
                        help="copy the newest checkpoint into the package and stop")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--alpha", type=float, default=0.04)
    parser.add_argument("--alpha-floor", type=float, default=0.008)
    parser.add_argument("--lambda", dest="lam", type=float, default=0.7)
    parser.add_argument("--widen", type=Path, metavar="NPZ",
                        help="start from this net widened to --hidden units (constant --alpha)")
    parser.add_argument("--one-ply", type=float, metavar="W",
                        help="with --widen: train towards W times the TD return plus 1 - W "
                        "times the 1-ply chances")
    parser.add_argument("--every", type=int, default=25_000, help="games between checkpoints")
    parser.add_argument("--checkpoints", type=Path, default=CHECKPOINTS)
    args = parser.parse_args(argv)
    if args.one_ply is not None and args.widen is None:
        parser.error("--one-ply starts a new folder: give the net to start from with --widen")
    if args.export:
        print(export(args.checkpoints))
        return
    command = "python tools/long_engine/train.py " + " ".join(
        shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:]))
    run(args.games, args.resume, args.seed, args.hidden, args.alpha, args.alpha_floor,
        args.lam, args.every, args.checkpoints, command, start=args.widen,
        one_ply=args.one_ply)


if __name__ == "__main__":
    main()
