"""Random legal matches with fair or loaded dice, as match records.

What an audit's power is tested on and what the benchmarks feed on: every play is drawn from
the legal plays of the roll (:meth:`~nardy_analysis.game.position.Position.legal_plays`, so the
records replay without an error), or chosen by a bot for each side
(:mod:`~nardy_analysis.analysis.bots`, any callable of :data:`Chooser`'s form), the dice from a
:class:`Dice` model, the cube turned now and then. Matches are independent and reproducible:
match ``i`` of seed ``s`` is the same whatever else is simulated.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable, Iterator

import numpy as np

from .errors import InvalidArgument
from .game.long import LongPosition
from .game.moves import Play, Roll
from .game.position import LegalPlay, Position, apply_step, ending, movable_points
from .game.rules import STANDARD, Rules
from .notation.records import (
    Action,
    CubeRecord,
    GameRecord,
    MatchRecord,
    ResultRecord,
    TurnRecord,
    WrittenMove,
    variation_tag,
)

Chooser = Callable[[np.random.Generator, Position, Roll, Rules, bool], LegalPlay]
"""Who chooses a side's plays: ``choose(rng, position, roll, rules, first_turn)`` returns one
of the legal plays of ``roll`` for the player on roll (``first_turn``: that player's first
roll of the game, which long nardy's head rule needs)."""

_PAIRS = [(a, b) for a in range(1, 7) for b in range(1, 7)]
_ROLLS = [Roll(a, b) for a, b in _PAIRS]


@dataclass(frozen=True)
class Dice:
    """A model of two dice: fair, doubles at a given rate, or faces with given weights.

    Attributes
    ----------
    doubles : float or None
        Probability 0..1 of a double; the other rolls (and the face of a double) stay uniform.
        Fair dice: 1/6.
    faces : tuple of 6 float or None
        Relative weights of the faces 1..6 of each die, thrown independently.

    ``str()`` is the spec :meth:`from_str` reads: ``fair``, ``doubles=0.25``,
    ``faces=1,1,1,1,1,2``.
    """

    doubles: float | None = None
    faces: tuple[float, ...] | None = None

    def __post_init__(self) -> None:
        if self.doubles is not None and self.faces is not None:
            raise InvalidArgument("dice take doubles= or faces=, not both")
        if self.doubles is not None and not 0 <= self.doubles <= 1:
            raise InvalidArgument(f"doubles={_number(self.doubles)} is not a probability 0..1")
        if self.faces is not None and (len(self.faces) != 6 or min(self.faces) < 0
                                       or sum(self.faces) <= 0):
            written = ",".join(map(_number, self.faces))
            raise InvalidArgument(f"faces={written} is not six weights >= 0 with a "
                                  "positive sum")

    @classmethod
    def from_str(cls, text: str) -> "Dice":
        """Read a spec: ``fair``, ``doubles=P`` or ``faces=W1,...,W6``.

        Raises
        ------
        InvalidArgument
            Any other text; the message quotes it.
        """
        key, _, value = text.strip().partition("=")
        if key == "fair" and not value:
            return cls()
        try:
            numbers = tuple(float(number) for number in value.split(","))
        except ValueError:
            numbers = ()
        if key == "doubles" and len(numbers) == 1:
            return cls(doubles=numbers[0])
        if key == "faces" and numbers:
            return cls(faces=numbers)
        raise InvalidArgument(f"dice {text!r}: expected 'fair', 'doubles=P' or "
                              "'faces=W1,W2,W3,W4,W5,W6'")

    def __str__(self) -> str:
        if self.doubles is not None:
            return f"doubles={_number(self.doubles)}"
        if self.faces is not None:
            return "faces=" + ",".join(map(_number, self.faces))
        return "fair"

    def probabilities(self) -> np.ndarray:
        """Shape (36,): the probability of each ordered roll ``(a, b)``, index
        ``6 * (a - 1) + (b - 1)``."""
        if self.faces is not None:
            face = np.asarray(self.faces, float) / sum(self.faces)
            return np.outer(face, face).ravel()
        doubles = 1 / 6 if self.doubles is None else self.doubles
        return np.array([doubles / 6 if a == b else (1 - doubles) / 30 for a, b in _PAIRS])

    def roll(self, rng: np.random.Generator, opening: bool = False) -> Roll:
        """One roll; ``opening``: thrown again until the dice differ (the opening throw)."""
        cumulative = self._cumulative[opening]
        if not cumulative[-1]:
            raise InvalidArgument(f"dice {self} never throw two different numbers")
        return _ROLLS[int(np.searchsorted(cumulative, rng.random() * cumulative[-1],
                                          side="right"))]

    @cached_property
    def _cumulative(self) -> tuple[np.ndarray, np.ndarray]:
        """Cumulative probabilities of the 36 rolls: any roll, and an opening roll (no
        double; not normalised)."""
        probabilities = self.probabilities()
        opening = np.where([a == b for a, b in _PAIRS], 0, probabilities)
        return np.cumsum(probabilities), np.cumsum(opening)


def _number(value: float) -> str:
    """``value`` as short as it reads back exactly: ``0.25``, ``2``."""
    short = f"{value:g}"
    return short if float(short) == value else repr(value)


def simulate_match(rng: np.random.Generator, *, length: int = 5, games: int = 1,
                   dice: tuple[Dice, Dice] = (Dice(), Dice()),
                   names: tuple[str, str] = ("Player 1", "Player 2"), cube: bool = True,
                   rules: Rules = STANDARD, tags: dict[str, str] | None = None,
                   bots: tuple[Chooser, Chooser] | None = None,
                   first: int | None = None) -> MatchRecord:
    """One random legal match, or one played by bots.

    Parameters
    ----------
    rng : numpy.random.Generator
    length : int
        Match length in points; 0 for a money session of ``games`` games.
    games : int
        Games of a money session (ignored in match play, which goes on until a player has
        ``length`` points).
    dice : (Dice, Dice)
        Each player's dice (the opening throw uses the first's).
    names : (str, str)
    cube : bool
        Turn the cube now and then (about once in 20 turns a player who may double does; the
        opponent takes three times in four). Never in the Crawford game (RULES.md, "Doubling
        cube, matches, house rules").
    rules : Rules
        Gammons, backgammons, Crawford; the opening throw differs unless
        ``rules.opening_doubles``. Long nardy (``rules.game == "long"``) starts from
        :meth:`~nardy_analysis.game.long.LongPosition.start`, draws each play from its legal
        plays (the first turn of each player with the head rule's exception) and has no cube.
    tags : dict, optional
        The header tags; a match under rules other than standard (long nardy, Caucasian,
        ...) gets a ``Variation`` tag too
        (:func:`~nardy_analysis.notation.records.variation_tag`) unless it has one.
    bots : (Chooser, Chooser), optional
        Who chooses the plays of player 0 and player 1 (:data:`Chooser`, e.g. the bots of
        :mod:`~nardy_analysis.analysis.bots`); by default each play is a random legal play.
        The cube is turned as ``cube`` says whoever plays.
    first : int, optional
        The player (0 or 1) who throws the opening roll of every game; by default drawn at
        random for each game.

    Returns
    -------
    MatchRecord
        Records as a reader would give them (no line numbers); every play legal.
    """
    if first not in (None, 0, 1):
        raise InvalidArgument(f"first={first!r}: the player who starts is 0 or 1")
    score, crawford_done = [0, 0], False
    played: list[GameRecord] = []
    while len(played) < (games if length == 0 else 10 ** 6):
        crawford = (rules.crawford and length > 0 and not crawford_done
                    and max(score) == length - 1 and min(score) < length - 1)
        crawford_done |= crawford
        actions, (winner, points) = _game(rng, dice, cube and rules.cube and not crawford,
                                          rules, length == 0, score, length,
                                          bots or (_random_play, _random_play), first)
        played.append(GameRecord(len(played) + 1, names, (score[0], score[1]), tuple(actions),
                                  0, 0, 0, 0))
        score[winner] += points
        if 0 < length <= score[winner]:
            break
    tags = dict(tags or {})
    if rules.name != STANDARD.name:
        tags.setdefault("Variation", variation_tag(rules))
    return MatchRecord(length, tags, tuple(played), 0, 0)


def _game(rng: np.random.Generator, dice: tuple[Dice, Dice], cube: bool, rules: Rules,
          money: bool, score: list[int], length: int, bots: tuple[Chooser, Chooser],
          first: int | None) -> tuple[list[Action], tuple[int, int]]:
    """The actions of one game and its (winner, points)."""
    roll = dice[0].roll(rng, opening=not rules.opening_doubles)
    turn = int(rng.integers(2)) if first is None else first
    start = LongPosition.start if rules.game == "long" else Position.start
    position, value, owner, moved = start(turn), 1, None, set()
    actions: list[Action] = []
    while True:
        if actions and cube and owner in (None, turn) and rng.random() < 0.05:
            actions.append(CubeRecord(turn, "double", 2 * value, None, 0, 0, ""))
            if rng.random() >= 0.75:
                actions.append(CubeRecord(1 - turn, "drop", None, None, 0, 0, ""))
                return _result(actions, turn, value, score, length)
            actions.append(CubeRecord(1 - turn, "take", None, None, 0, 0, ""))
            value, owner = 2 * value, 1 - turn
        play, position = bots[turn](rng, position, roll, rules, turn not in moved)
        moved.add(turn)
        moves = tuple(WrittenMove((m.start, m.end), (m.hit,), 1, 0, 0, "") for m in play.moves)
        actions.append(TurnRecord(turn, roll, moves, None, 0, 0, ""))
        if position.is_over:
            multiple = ending(position, rules, money=money, cube=value)[1]
            return _result(actions, turn, value * multiple, score, length)
        turn = 1 - turn
        roll = dice[turn].roll(rng)


def _random_play(rng: np.random.Generator, position: Position, roll: Roll, rules: Rules,
                 first_turn: bool) -> LegalPlay:
    """A random legal play: a random walk of steps, which is legal when it uses every die
    (RULES.md, "Forced plays": only a play that cannot use them all is restricted); when the
    walk gets stuck, one of :meth:`Position.legal_plays` (a dance is its one empty play).
    Long nardy: one of :meth:`LongPosition.legal_plays` (``first_turn``: the player's first
    roll of the game), each distinct position alike."""
    if isinstance(position, LongPosition):
        plays = position.legal_plays(roll, rules, first_turn=first_turn)
        return plays[int(rng.integers(len(plays)))]
    for _ in range(3):
        me, opp = position.lists()
        dice = list(roll.dice)
        rng.shuffle(dice)
        moves = []
        for die in dice:
            starts = list(movable_points(me))
            rng.shuffle(starts)
            move = next((m for m in (apply_step(me, opp, start, die, rules) for start in starts)
                         if m is not None), None)
            if move is None:
                break
            moves.append(move)
        else:
            return LegalPlay(Play(tuple(moves)), Position.after(me, opp, position.turn))
    plays = position.legal_plays(roll, rules)
    return plays[int(rng.integers(len(plays)))]


def _result(actions: list[Action], winner: int, points: int, score: list[int],
            length: int) -> tuple[list[Action], tuple[int, int]]:
    won = 0 < length <= score[winner] + points
    actions.append(ResultRecord(winner, points, True, won, None, 0, 0, ""))
    return actions, (winner, points)


def simulate_matches(count: int, *, seed: int = 0, start: int = 0, players: int = 2,
                     dice: Dice = Dice(), loaded: str | None = None,
                     bots: tuple[Chooser, Chooser] | None = None,
                     **options: Any) -> Iterator[MatchRecord]:
    """``count`` random legal matches, one at a time (nothing is kept).

    Parameters
    ----------
    count : int
    seed : int
        Match ``i`` is drawn from ``numpy.random.default_rng([seed, i])``: the same match for
        the same seed, however many are simulated and in whatever order.
    start : int
        Index of the first match (to split a run into parts).
    players : int
        Size of the pool of names (``player 1`` ... ``player N``); each match draws two, the
        first of the pool on the left (player 0: the first name of every score line, as a
        match file's ``Player 1`` tag), whoever throws first in each game.
    dice : Dice
        The dice of every player, or only of ``loaded``.
    loaded : str, optional
        The one player (a name of the pool) whose dice are ``dice``; the others' are fair.
    bots : (Chooser, Chooser), optional
        Who chooses the plays (:data:`Chooser`): the first for ``player 1``, the second for
        every other player; by default random legal plays.
    **options
        As :func:`simulate_match` (``names`` and ``dice`` come from the arguments above).

    Yields
    ------
    MatchRecord
        With tags ``Site`` (``nardy simulate``), ``Event`` (``simulated match i``), ``Dice``
        (the spec, ``player 1: doubles=0.25`` when only one player's are loaded), ``Seed``
        and, with ``bots``, ``Bots`` (``player 1: heuristic, player 2: random``, each bot's
        ``str()``).
    """
    if players < 2:
        raise InvalidArgument(f"players={players}: a match needs two")
    width = len(str(players))
    pool = [f"player {number:0{width}d}" for number in range(1, players + 1)]
    if loaded is not None and loaded not in pool:
        raise InvalidArgument(f"loaded={loaded!r} is not one of the players "
                              f"{pool[0]!r} .. {pool[-1]!r}")
    spec = str(dice) if loaded is None else f"{loaded}: {dice}"
    played_by = {}
    if bots is not None:
        others = pool[1] if players == 2 else "the others"
        played_by["Bots"] = f"{pool[0]}: {bots[0]}, {others}: {bots[1]}"
    for index in range(start, start + count):
        rng = np.random.default_rng([seed, index])
        one, other = sorted(rng.choice(players, 2, replace=False))
        names = (pool[one], pool[other])
        sides = (dice if loaded in (None, names[0]) else Dice(),
                 dice if loaded in (None, names[1]) else Dice())
        tags = {"Site": "nardy simulate", "Event": f"simulated match {index + 1}",
                "Dice": spec, "Seed": str(seed), **played_by}
        chosen = None if bots is None else (bots[names[0] != pool[0]], bots[names[1] != pool[0]])
        yield simulate_match(rng, names=names, dice=sides, tags=tags, bots=chosen, **options)
