"""The long nardy engine's figures (docs/LONG_ENGINE.md): strength against random play and
against its own earlier checkpoints (0-ply, 1,000 single games each, sides alternating, 95%
intervals, points per game), and the speed of evaluating every play of the 21 rolls of
100 positions. The games are played by the training tools' compiled generator with the
same weights (tools/long_engine, needs gcc).

With --bots, the bots of ``nardy simulate --bots`` instead (nardy_analysis.analysis.bots,
played by the package's own simulator): heuristic against random (long and short nardy),
engine against heuristic and engine against random (long nardy), and gnubg-nn against the
heuristic (short nardy; the engine extra).

With --checks, the package's evaluator against itself and against exact values instead:
self-consistency (over positions of its own games at 0-ply, the mean of |V - the mean over
the 36 rolls of V after the best play|, the 0-ply value against the 1-ply one), calibration
(the predicted win chance of the player on roll at each turn of its games against who won,
in 10 bins) and pure races (:func:`races`: against an exact dynamic programme over the races
of up to three checkers a side on the points 1..12, the race database against the exact
two-sided bear-off table, the net against the database in the games' races).

With --against NPZ, each checkpoint named by --match against the weights of NPZ instead
(``native.match``, dice stream 777), e.g. the 1-ply checkpoints against their start.

    python benchmarks/long_engine.py [--games N] [--bots] [--checks] [--positions N]
        [--against NPZ --match NPZ...]
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools" / "long_engine"))
import native  # noqa: E402
import train  # noqa: E402

from nardy_analysis.analysis.bearoff import bearoff_equities, is_two_sided_bearoff  # noqa: E402
from nardy_analysis.analysis.bots import BOTS  # noqa: E402
from nardy_analysis.analysis.evaluator import MONEY  # noqa: E402
from nardy_analysis.analysis.long_engine import NET_FILE, LongEvaluator, is_race  # noqa: E402
from nardy_analysis.analysis.long_engine import sides as sides_of  # noqa: E402
from nardy_analysis.analysis.race import covered, race_chances  # noqa: E402
from nardy_analysis.game.long import LongPosition  # noqa: E402
from nardy_analysis.game.moves import ALL_ROLLS, Roll  # noqa: E402
from nardy_analysis.game.rules import CHECKERS, LONG, STANDARD  # noqa: E402
from nardy_analysis.simulate import simulate_match  # noqa: E402

BOT_MATCHES = (("heuristic", "random", LONG), ("heuristic", "random", STANDARD),
               ("engine", "heuristic", LONG), ("engine", "random", LONG),
               ("engine", "heuristic", STANDARD))
"""The bot matches of --bots: (A, B, rules)."""
WEIGHTS = np.array([1 if roll.is_double else 2 for roll in ALL_ROLLS]) / 36.0
"""Each of ALL_ROLLS' share of the 36 throws."""


def line(name: str, points: np.ndarray) -> str:
    """The share won with its 95% interval (normal; Clopper-Pearson when every game or none
    was won, where the normal one is empty) and the points per game."""
    won, games = (points > 0).mean(), len(points)
    half = 1.96 * np.sqrt(won * (1 - won) / games)
    edge = 0.025 ** (1 / games)  # all won: P(all | p) = p^n = 0.025 at the lower bound
    interval = (f"+- {half:.3f}" if 0 < won < 1 else
                f"({edge:.3f}..1)" if won == 1 else f"(0..{1 - edge:.3f})")
    return f"{name}: won {won:.3f} {interval}, points per game {points.mean():+.3f}"


def bot_match(a: str, b: str, rules, games: int, seed: int = 0) -> np.ndarray:
    """A's points in each of ``games`` single games of the bots ``a`` and ``b`` (names of
    ``BOTS``) under ``rules``, no cube: A is player 0 and throws first in the even games,
    game ``i`` drawn from ``numpy.random.default_rng([seed, i])``."""
    points = np.zeros(games, np.int32)
    for i in range(games):
        match = simulate_match(np.random.default_rng([seed, i]), length=0, games=1,
                               cube=False, rules=rules, bots=(BOTS[a], BOTS[b]), first=i % 2)
        result = match.games[0].actions[-1]
        points[i] = result.points if result.player == 0 else -result.points
    return points


def self_play(games: int, seed: int = 0):
    """The package's engine against itself at 0-ply (sides alternating on the first roll):
    for each game, its turns as ``(position, win chance of the player on roll)`` and the
    winner. The chance is the evaluator's before the roll, from the chances after the
    opponent's best play (as the evaluation of the position, swapped)."""
    evaluator = LongEvaluator(cache_size=0)
    rng = np.random.default_rng(seed)
    for game in range(games):
        position = LongPosition.start(game % 2)
        chance, turns = evaluator.evaluate(position).win, []
        while not position.is_over:
            turns.append((position, chance))
            best = evaluator.best_play(position, Roll(*map(int, rng.integers(1, 7, 2))))
            position, chance = best.after, 1.0 - best.probabilities.win
        yield turns, 1 - position.turn


def calibration(games: list) -> None:
    """The reliability table: the predicted win chance of the player on roll at each turn
    against the share of those turns whose player won, in 10 bins of the prediction."""
    chance = np.array([c for turns, _ in games for _, c in turns])
    won = np.array([p.turn == winner for turns, winner in games for p, _ in turns])
    bins = np.minimum((chance * 10).astype(int), 9)
    print(f"calibration, {len(games)} games, {len(chance)} turns: bin, turns, predicted, "
          "won, difference")
    worst = 0.0
    for b in range(10):
        here = bins == b
        if here.any():
            gap = won[here].mean() - chance[here].mean()
            worst = max(worst, abs(gap))
            print(f"  {b / 10:.1f}-{(b + 1) / 10:.1f}  {here.sum():7d}  {chance[here].mean():.3f}"
                  f"  {won[here].mean():.3f}  {gap:+.3f}")
    print(f"  largest difference {worst:.3f} (goal <= 0.03)")


def self_consistency(games: list, count: int, seed: int = 0) -> None:
    """Mean |V(position) - mean over the 36 rolls of V after the best play| over ``count``
    positions drawn from the games' turns: the 0-ply value against the 1-ply one, as money
    equity and for each of the five chances, for all and for those the net evaluates (not
    the two-sided table nor the race database)."""
    rng = np.random.default_rng(seed)
    turns = [p for game, _ in games for p, _ in game]
    picked = [turns[i] for i in rng.choice(len(turns), count, replace=False)]
    zero, one = LongEvaluator(cache_size=0), LongEvaluator(ply=1)
    gaps = np.array([[MONEY(v0) - MONEY(v1), *np.subtract(v0, v1)] for v0, v1 in
                     ((zero.evaluate(p), one.evaluate(p)) for p in picked)])
    boards = np.array([sides_of(p) for p in picked])
    net = np.array([not (is_two_sided_bearoff(p) or is_race(p)) for p in picked]) | ~(
        covered(boards[:, 0]) & covered(boards[:, 1]))
    names = ("equity", "win", "win mars", "win home mars", "lose mars", "lose home mars")
    for label, rows in ((f"{count} positions of self-play", slice(None)),
                        (f"the {net.sum()} the net evaluates", net)):
        means = np.abs(gaps[rows]).mean(axis=0)
        print(f"self-consistency, {label}: mean |V0 - V1| " + ", ".join(
            f"{name} {m:.4f}" for name, m in zip(names, means)) + " (goal <= 0.02)")


def race_sides(checkers: int, points: int) -> list[tuple[int, ...]]:
    """Every side of at most ``checkers`` checkers on the points 1..``points`` (as counts on
    1..12), fewest pips first, the empty side first."""
    found = [()]
    for _ in range(points):
        found = [side + (n,) for side in found for n in range(checkers + 1 - sum(side))]
    found = [side + (0,) * (12 - points) for side in found]
    return sorted(found, key=lambda side: (sum(p * n for p, n in enumerate(side, 1)), side))


def race_position(mine, theirs) -> LongPosition:
    """The pure race of the sides ``mine`` (on roll) and ``theirs`` (counts on 1..12), the
    other checkers borne off. With a checker on 7..12 no game reaches it (bearing off starts
    with all 15 home), so it is made without the constructor's check: a relaxed race whose
    exact value a small programme gives, the plays from it those of the rules (nothing more
    is borne off until every checker is home)."""
    return LongPosition._make(((CHECKERS - sum(mine), *mine) + (0,) * 13,
                               (CHECKERS - sum(theirs), *theirs) + (0,) * 13), 0)


def exact_races(checkers: int = 3, points: int = 12) -> tuple[list, np.ndarray]:
    """``(sides, win)``: the exact chance that the side on roll wins the pure race of each
    pair of :func:`race_sides`, both playing to win (a dynamic programme in increasing
    order of both sides' pips, over long nardy's legal plays). With at most three checkers
    a side left, each has borne off twelve: no mars."""
    sides = race_sides(checkers, points)
    index = {side: i for i, side in enumerate(sides)}
    pips = np.array([sum(p * n for p, n in enumerate(side, 1)) for side in sides])
    dummy = (0,) * 12                                 # the other side does not matter here
    plays = [[[index[tuple(after[1:13])] for after in race_position(side, dummy)
               .legal_sides(roll)] for roll in ALL_ROLLS] for side in sides[1:]]
    n = len(sides)
    win = np.zeros((n, n))
    a_all, b_all = np.meshgrid(np.arange(1, n), np.arange(1, n), indexing="ij")
    a_all, b_all = a_all.ravel(), b_all.ravel()
    total = pips[a_all] + pips[b_all]
    order = np.argsort(total, kind="stable")
    a_all, b_all, total = a_all[order], b_all[order], total[order]
    for level in np.split(np.arange(len(total)), np.flatnonzero(np.diff(total)) + 1):
        for a, b in zip(a_all[level], b_all[level]):
            win[a, b] = sum(w * max(1.0 if not after else 1.0 - win[b, after]
                                    for after in roll)
                            for w, roll in zip(WEIGHTS, plays[a - 1]))
    return sides, win


def errors(name: str, got: np.ndarray, exact: np.ndarray) -> str:
    """One line: how far the win chances ``got`` are from ``exact``."""
    error = np.abs(got - exact)
    return (f"  {name}: off by {error.mean():.4f} on average, at most {error.max():.4f}, "
            f"{(error > 0.01).mean():.3f} of them by more than 0.01")


def races(evaluator: LongEvaluator, games: list) -> None:
    """Win chances in pure races: the evaluator (the one-sided race database where it
    covers both sides) and the net alone against :func:`exact_races` on every race of up
    to three checkers a side on 1..12 that the two-sided table does not cover; the race
    database against the exact two-sided table on every pair it covers; and the net
    against the database on the races of the games that the database covers and the
    two-sided table does not."""
    sides, win = exact_races()
    pairs = [(a, b) for a in range(1, len(sides)) for b in range(1, len(sides))
             if any(sides[a][6:]) or any(sides[b][6:])]
    positions = [race_position(sides[a], sides[b]) for a, b in pairs]
    exact = np.array([win[a, b] for a, b in pairs])
    boards = np.array([sides_of(p) for p in positions])
    print(f"pure races beyond the two-sided table, up to 3 checkers a side on 1..12 "
          f"({len(pairs)} positions), win chance against the exact (goal <= 0.01):")
    print(errors("the evaluator", evaluator.static(positions)[:, 0], exact))
    print(errors("the net alone", evaluator.net(boards)[:, 0], exact))
    home = [side for side in race_sides(6, 6)[1:]]
    mine, theirs = (np.array([[CHECKERS - sum(s), *s] + [0] * 12 for s in home])
                    for _ in range(2))
    a, b = np.meshgrid(np.arange(len(home)), np.arange(len(home)), indexing="ij")
    a, b = a.ravel(), b.ravel()
    table = np.array([(bearoff_equities(race_position(home[i], home[j]))[0] + 1) / 2
                      for i, j in zip(a.tolist(), b.tolist())])
    print(f"the race database against the exact two-sided table, all {len(a)} pairs of up "
          "to six checkers a side on 1..6:")
    print(errors("the database", race_chances(mine[a], theirs[b])[:, 0], table))
    played = [p for game, _ in games for p, _ in game
              if is_race(p) and not is_two_sided_bearoff(p)]
    boards = np.array([sides_of(p) for p in played])
    if len(boards):
        inside = covered(boards[:, 0]) & covered(boards[:, 1])
        if inside.any():
            got = evaluator.static_sides(boards[inside])
            print(f"the {inside.sum()} turns of the games in races the database covers "
                  f"beyond the two-sided table ({len(played)} race turns in all):")
            print(errors("the net against the database", evaluator.net(boards[inside])[:, 0],
                         got[:, 0]))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--bots", action="store_true")
    parser.add_argument("--checks", action="store_true")
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--against", type=Path)
    parser.add_argument("--match", type=Path, nargs="+", default=[])
    arguments = parser.parse_args()
    games = arguments.games
    if arguments.against:
        against = train.load(arguments.against)[0]
        for path in arguments.match:
            print(line(f"{path.stem} against {arguments.against.stem} ({games} games)",
                       native.match(train.load(path)[0], against, games, 777)), flush=True)
        return
    if arguments.bots:
        for a, b, rules in BOT_MATCHES:
            game = "long nardy" if rules.game == "long" else "short nardy"
            print(line(f"{a} against {b}, {game} ({games} games)",
                       bot_match(a, b, rules, games)), flush=True)
        return
    if arguments.checks:
        played = list(self_play(games))
        races(LongEvaluator(cache_size=0), played)
        calibration(played)
        self_consistency(played, arguments.positions)
        return
    final = train.load(NET_FILE)[0]
    print(line(f"against random play ({games} games)", native.match(final, None, games, 1)))
    for path in train.checkpoints()[1::8]:
        print(line(f"against {path.stem} ({games} games)",
                   native.match(final, train.load(path)[0], games, 2)))
    evaluator = LongEvaluator(cache_size=0)
    boards = native.random_positions(100, 7)
    positions = [LongPosition(([*map(int, b[0])] + [0], [*map(int, b[1])] + [0])) for b in boards]
    start = time.process_time()
    for where in positions:
        if not where.is_over:
            evaluator.best_equities(where, ALL_ROLLS)
    print(f"every play of the 21 rolls of 100 positions: {time.process_time() - start:.2f} s CPU")


if __name__ == "__main__":
    main()
