"""Bots: players that choose a legal play for a position and a roll, for short and long nardy.

* :class:`RandomBot` (``random``): any legal play, each alike.
* :class:`HeuristicBot` (``heuristic``): the legal play whose position scores best under a
  fixed rule of thumb, one ply deep (:func:`heuristic_score`).
* :class:`EngineBot` (``engine``): the legal play of the highest 0-ply cubeless money equity
  by the game's engine (:func:`~nardy_analysis.analysis.engine.default_evaluator`: gnubg-nn
  for short nardy, the long nardy engine for long nardy).

A bot is called as ``bot(rng, position, roll, rules, first_turn)`` and returns one of
``position.legal_plays(...)`` (:func:`legal_plays`): the player-callable that
:func:`~nardy_analysis.simulate.simulate_match` takes for each side. Bots choose checker
plays only. Bots hold no state (an engine is loaded when first used, once per process), so
they pickle for worker processes.

:func:`ranked_plays` gives every legal play of a roll with its chances and equity by an
evaluator, best first (``nardy hint``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, NamedTuple, Sequence

import numpy as np

from ..errors import InvalidArgument
from ..game.long import HEAD, LongPosition
from ..game.moves import Roll
from ..game.position import LegalPlay, Position
from ..game.rules import BAR, CHECKERS, STANDARD, Rules
from .engine import default_evaluator
from .evaluator import Evaluator, Probabilities, Utility
from .long_engine import LongEvaluator
from .luck import match_utility
from .shots import shots as find_shots
from .shots import throws


def legal_plays(position: Position, roll: Roll, rules: Rules = STANDARD,
                first_turn: bool = False) -> tuple[LegalPlay, ...]:
    """The legal plays of ``roll`` under ``rules`` (:meth:`Position.legal_plays`, or
    :meth:`LongPosition.legal_plays` with ``first_turn``, the player's first roll of the
    game, for long nardy).

    Raises
    ------
    InvalidArgument
        The position is not of the game ``rules`` are for, or the game is over.
    """
    if (rules.game == "long") != isinstance(position, LongPosition):
        raise InvalidArgument(f"the rules {rules.name!r} do not apply to the position "
                              f"{position!r}")
    if position.is_over:
        raise InvalidArgument(f"the game is over in {position!r}; there is nothing to play")
    if isinstance(position, LongPosition):
        return position.legal_plays(roll, rules, first_turn=first_turn)
    return position.legal_plays(roll, rules)


def money_utility(rules: Rules) -> Utility:
    """Cubeless money equity under ``rules`` (points per game at cube 1; a gammon or mars
    counts 2, a backgammon or home mars 3, less when the rules score them lower):
    :func:`~nardy_analysis.analysis.luck.match_utility` of money play."""
    return match_utility(0, 0, 0, rules=rules)


class RankedPlay(NamedTuple):
    """A legal play with the mover's chances after it (cubeless, the opponent then on roll),
    the mover's equity (points per game at cube 1) and its difference to the best play's
    (0 for the best, negative for the others)."""

    play: LegalPlay
    probabilities: Probabilities
    equity: float
    difference: float


def ranked_plays(evaluator: Evaluator, position: Position, roll: Roll,
                 rules: Rules = STANDARD, first_turn: bool | None = None) -> list[RankedPlay]:
    """Every legal play of ``roll`` (:func:`legal_plays`), best first, by ``evaluator``'s
    chances of the position after it and the cubeless money equity of ``rules``
    (:func:`money_utility`). Equal equities keep the order of the legal plays.

    Parameters
    ----------
    evaluator : Evaluator
        At its ply; the long nardy engine's 0-ply chances of all plays come in one matrix
        product.
    position : Position
        The player on roll is the mover; the game not over.
    roll : Roll
    rules : Rules
        The legal plays and what a gammon (mars) and backgammon (home mars) score.
    first_turn : bool, optional
        Long nardy: the mover's first roll of the game (the head rule); by default, when all
        15 checkers are on the head.

    Returns
    -------
    list of RankedPlay
        One for each distinct position a legal play reaches; a dance is its one empty play.
    """
    if first_turn is None:
        first_turn = position.on_roll[HEAD] == CHECKERS and rules.game == "long"
    plays = legal_plays(position, roll, rules, first_turn)
    afters = [legal.after for legal in plays]
    if isinstance(evaluator, LongEvaluator) and not evaluator.ply:
        theirs = evaluator.static(afters)
    else:
        theirs = np.array([evaluator.evaluate(after) for after in afters], dtype=float)
    equities = money_utility(rules).of_opponent(theirs.reshape(-1, 5))
    order = np.argsort(-equities, kind="stable")
    best = equities[order[0]]
    return [RankedPlay(plays[i], Probabilities(*theirs[i].tolist()).swapped(),
                       float(equities[i]), float(equities[i] - best)) for i in order]


@dataclass(frozen=True)
class RandomBot:
    """``random``: a legal play drawn uniformly from :func:`legal_plays` with ``rng`` (the
    same generator state gives the same play)."""

    name = "random"

    def __call__(self, rng: np.random.Generator, position: Position, roll: Roll,
                 rules: Rules = STANDARD, first_turn: bool = False) -> LegalPlay:
        plays = legal_plays(position, roll, rules, first_turn)
        return plays[int(rng.integers(len(plays)))]

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class EngineBot:
    """``engine``: the legal play of the highest 0-ply cubeless money equity by the game's
    engine (gnubg-nn for short nardy, the long nardy engine for long nardy;
    :func:`ranked_plays`). Under short nardy's variants the plays are those of the variant,
    each judged by gnubg-nn's nets. ``rng`` is not used.

    Raises
    ------
    EngineError
        gnubg-nn is not installed (short nardy).
    """

    name = "engine"

    def __call__(self, rng: np.random.Generator, position: Position, roll: Roll,
                 rules: Rules = STANDARD, first_turn: bool = False) -> LegalPlay:
        evaluator = default_evaluator(0, rules=rules)
        return ranked_plays(evaluator, position, roll, rules, first_turn)[0].play

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class HeuristicBot:
    """``heuristic``: the legal play whose position after it scores best under
    :func:`heuristic_score` (ties: the first of the legal plays). ``rng`` is not used."""

    name = "heuristic"

    def __call__(self, rng: np.random.Generator, position: Position, roll: Roll,
                 rules: Rules = STANDARD, first_turn: bool = False) -> LegalPlay:
        plays = legal_plays(position, roll, rules, first_turn)
        scores = [heuristic_score(legal.after, position.turn, rules) for legal in plays]
        return plays[scores.index(max(scores))]

    def __str__(self) -> str:
        return self.name


BOTS: dict[str, RandomBot | HeuristicBot | EngineBot] = {
    "random": RandomBot(), "heuristic": HeuristicBot(), "engine": EngineBot()}
"""The bots by name."""


def bot(name: str) -> RandomBot | HeuristicBot | EngineBot:
    """The bot called ``name`` (a key of :data:`BOTS`).

    Raises
    ------
    InvalidArgument
        Another name; the message quotes it.
    """
    if name not in BOTS:
        raise InvalidArgument(f"unknown bot {name!r}; choose from {', '.join(BOTS)}")
    return BOTS[name]


def heuristic_score(after: Position, mover: int, rules: Rules = STANDARD) -> float:
    """The heuristic bot's score, in pips, of the position ``after`` a play of ``mover``
    (higher is better for ``mover``): this project's own rule of thumb, its weights set by
    hand and measured in play (``benchmarks/long_engine.py --bots``, docs/LONG_ENGINE.md).

    Long nardy (:func:`_long_score`): the race (the opponent's pip count minus the mover's),
    plus 2 pips for each point held, plus the blocks: each run of ``n`` points in a row held
    in front of opposing checkers that have yet to pass it is worth ``3 n^2`` pips to its
    owner (the mover's add, the opponent's subtract: passing them pays), minus 4 pips for
    each of the mover's checkers left on the head beyond one and 3 for each checker stacked
    on a point beyond the third.

    Short nardy (:func:`_short_score`): the race, minus the expected pips the mover loses
    to the opponent's next roll (each blot's chance of being hit, from the exact hitting
    rolls, :func:`~nardy_analysis.analysis.shots.shots`, times the pips it has travelled,
    plus 4), plus 4 pips for each point made in the home board and 2 on the bar point, 2 for
    each point of the longest run of made points (a prime), 2 for each point made in the
    opponent's home board (an anchor), 3 for each of the opponent's checkers on the bar for
    each point closed in the home board, minus 2 for each checker stacked beyond the third.
    """
    me, opp = after.board[mover], after.board[1 - mover]
    if rules.game == "long":
        return _long_score(me, opp)
    return _short_score(after, me, opp, rules)


def _blocks(me: Sequence[int], opp: Sequence[int]) -> int:
    """Sum of ``n^2`` over the runs of ``n`` points in a row ``me`` holds along the path of
    ``opp`` (its points 1..24) with a checker of ``opp`` still to pass them (long nardy)."""
    total, run, behind = 0, 0, 0
    for q in range(24, 0, -1):                    # the way opp travels: from its head down
        held = me[LongPosition.facing(q)] > 0     # my number of its point q
        if held:
            run += 1
        if run and (not held or q == 1):
            total += run * run if behind else 0
            run = 0
        behind += opp[q]
    return total


def _long_score(me: Sequence[int], opp: Sequence[int]) -> float:
    """:func:`heuristic_score` of long nardy from the two sides' counts."""
    race = sum(p * n for p, n in enumerate(opp[:25])) - sum(p * n for p, n in enumerate(me[:25]))
    points = sum(1 for n in me[1:25] if n)
    stacked = sum(n - 3 for n in me[1:HEAD] if n > 3)
    return (race + 2 * points + 3 * (_blocks(me, opp) - _blocks(opp, me))
            - 4 * max(me[HEAD] - 1, 0) - 3 * stacked)


def _longest_run(points: Iterable[bool]) -> int:
    """The longest run of True in ``points``."""
    best = run = 0
    for held in points:
        run = run + 1 if held else 0
        best = max(best, run)
    return best


def _short_score(after: Position, me: Sequence[int], opp: Sequence[int], rules: Rules) -> float:
    """:func:`heuristic_score` of short nardy from the position after the play and the two
    sides' counts (``me`` the mover's)."""
    race = sum(p * n for p, n in enumerate(opp)) - sum(p * n for p, n in enumerate(me))
    exposure = 0.0
    if not after.is_over:
        for point, rolls in find_shots(after, rules).blots.items():
            # the opponent's point ``point`` is the mover's 25 - point: ``point`` pips lost
            exposure += throws(rolls) / 36 * (point + 4)
    made = [n >= 2 for n in me[:BAR]]
    home = sum(made[1:7])
    anchors = sum(made[19:25])
    stacked = sum(n - 3 for n in me[1:BAR] if n > 3)
    return (race - exposure + 4 * home + 2 * made[7] + 2 * _longest_run(made[1:12])
            + 2 * anchors + 3 * opp[BAR] * home - 2 * stacked)
