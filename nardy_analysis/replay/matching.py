"""Matching a written play to the legal plays of its roll.

A written move such as ``24/13`` or ``13/7*/5`` is read as hops (:class:`Hop`), each one
checker's journey; :func:`realise` finds every play of the roll's dice that makes those
journeys, with the position it reaches and whether it agrees with the ``*`` marks
(:class:`Reading`). Most turns are answered without a search (:func:`as_written`), the others
by a depth-first search over the orders of the steps and the dice (:func:`all_readings`).
The rules of movement are RULES.md's ("Movement", "Bearing off"); the forced-play rules are
not applied here (the replayer applies them to the readings). Long nardy hops are read as
single-die steps by :func:`long_readings`, for :func:`~nardy_analysis.game.long.check_play`.
When written hops have no reading, :func:`why_illegal` says why in plain words; when they have
several, :func:`by_next_turn` keeps those the next written play can follow.
"""

from __future__ import annotations

from itertools import islice
from typing import Iterator, NamedTuple, Sequence

from ..game.moves import Move, Play, Roll
from ..game.position import Position, apply_step, undo_step
from ..game.rules import BAR, OFF, Rules
from ..notation.records import Action, TurnRecord, WrittenMove

__all__ = ["Hop", "LongReading", "Reading", "all_readings", "as_written", "by_next_turn",
           "hops_of", "long_readings", "point_name", "realise", "why_illegal"]


class Hop(NamedTuple):
    """One checker's journey as a move writes it (``13/8``; ``24/13`` of a merged move).

    Attributes
    ----------
    start, end : int
        Points from the mover's side (25 the bar, 0 off).
    marked : bool
        Written with ``*`` (a hit) at its end.
    """

    start: int
    end: int
    marked: bool


class Reading(NamedTuple):
    """A way of playing written hops with the dice.

    Attributes
    ----------
    play : Play
        The steps, in the order played.
    used : int
        The dice used (fewer than the roll's when the hops do not need them all).
    agrees : bool
        Every hit is where a ``*`` says and every ``*`` marks a hit.
    """

    play: Play
    used: int
    agrees: bool


def realise(position: Position, dice: tuple[int, ...], hops: Sequence[Hop],
            rules: Rules) -> dict[Position, Reading]:
    """Every way of playing the written hops with the dice.

    Each hop is one checker's journey, taken by one or more single-die steps; journeys may
    interleave (a merged ``9/off`` may wait for ``5/off``). Legality of each step is
    checked; the forced-play rules are not (see :meth:`Position.legal_plays`).

    Parameters
    ----------
    position : Position
        Before the play, the mover on roll.
    dice : tuple of int
        The roll's dice (four for a double).
    hops : sequence of Hop
        The written journeys (:func:`hops_of`).
    rules : Rules

    Returns
    -------
    dict
        {resulting position: :class:`Reading`}; empty when the hops cannot be played with
        the dice.

    Notes
    -----
    Most turns are answered by playing the hops as written (:func:`as_written`, and
    :func:`_merged` for merged moves); the others by a search over the orders of the steps
    and the dice (:func:`all_readings`).
    """
    found = as_written(position, dice, hops, rules)
    if found is None:
        return all_readings(position, dice, hops, rules)
    after, play, agrees = found
    return {after: Reading(play, len(play), agrees)}


def all_readings(position: Position, dice: tuple[int, ...], hops: Sequence[Hop],
                 rules: Rules) -> dict[Position, Reading]:
    """:func:`realise`'s answer, by a depth-first search.

    The search goes over the journeys (in the order written) and the dice (smaller first);
    it stops at the first play found when :func:`_one_reading` says every other reaches the
    same.

    Parameters
    ----------
    position, dice, hops, rules
        As for :func:`realise`.

    Returns
    -------
    dict
        As :func:`realise`; where two readings reach one position, one that agrees with the
        marks is kept.
    """
    me, opp = position.lists()
    turn = position.turn
    found: dict[Position, Reading] = {}
    steps: list[Move] = []
    first = _one_reading(opp, dice, hops)  # then the first play found is the answer

    def search(remaining: tuple[int, ...], journeys: tuple[Hop, ...], agrees: bool) -> None:
        if not journeys:
            after = Position.after(me, opp, turn)
            old = found.get(after)
            if old is None or (agrees and not old.agrees):
                found[after] = Reading(Play(tuple(steps)), len(steps), agrees)
            return
        for j, (point, end, marked) in enumerate(journeys):
            if first and found:
                return
            if (point, end, marked) in journeys[:j]:
                continue
            for die in set(remaining):
                if end > 0 and point - die < end:
                    continue
                move = apply_step(me, opp, point, die, rules)
                if move is None:
                    continue
                steps.append(move)
                i = remaining.index(die)
                rest = remaining[:i] + remaining[i + 1:]
                if move.end == end:
                    search(rest, journeys[:j] + journeys[j + 1:], agrees and move.hit == marked)
                else:
                    search(rest, journeys[:j] + (Hop(move.end, end, marked),)
                           + journeys[j + 1:], agrees and not move.hit)
                steps.pop()
                undo_step(me, opp, move)

    search(tuple(dice), tuple(hops), True)
    return found


def as_written(position: Position, dice: tuple[int, ...], hops: Sequence[Hop],
               rules: Rules) -> tuple[Position, Play, bool] | None:
    """:func:`realise`'s one answer for the common turn, found without a search.

    The common turn (merged moves: :func:`_merged`): one hop per die, each hop one die's
    step (a board hop's length, or, bearing off, the smallest die left that takes the
    checker off), played in the order written; None when the hops are not such, cannot be
    played so, or two different hops end on one of the opponent's blots and either is
    marked with ``*``.

    Parameters
    ----------
    position, dice, hops, rules
        As for :func:`realise`.

    Returns
    -------
    (after, play, agrees) or None
        The position reached, the play (every die used) and whether it agrees with the
        ``*`` marks.

    Notes
    -----
    The answer is the search's (:func:`all_readings`): with as many hops as dice every journey
    is one step, so every order reaches one position with the same marks agreeing (see
    :func:`_one_reading`); and the search, which tries the hops in order and the smaller
    dice first, finds this reading first (a smaller die would leave a journey unfinished
    with no die for another). A hop from beyond the bar is not such a hop (the search's
    caller reports it).
    """
    if len(hops) != len(dice):
        return _merged(position, dice, hops, rules)
    me, opp = position.lists()
    remaining = list(reversed(dice))  # smaller first, as the search tries them
    hitting: dict[int, Hop] = {}  # point: the hop that hit a blot there
    steps: list[Move] = []
    agrees = True
    for hop in hops:
        start, end, marked = hop
        if end:
            die = start - end
            if die not in remaining or start > BAR:
                return None
        else:
            for die in remaining:
                if die >= start:
                    break
            else:
                return None
        if hitting and end in hitting and hitting[end] != hop and (marked
                                                                   or hitting[end].marked):
            return None
        remaining.remove(die)
        move = apply_step(me, opp, start, die, rules)
        if move is None:
            return None
        if move.hit:
            hitting[end] = hop
        if move.hit != marked:
            agrees = False
        steps.append(move)
    return Position.after(me, opp, position.turn), Play(tuple(steps)), agrees


def _merged(position: Position, dice: tuple[int, ...], hops: Sequence[Hop],
            rules: Rules) -> tuple[Position, Play, bool] | None:
    """:func:`as_written`'s answer for merged moves (fewer hops than dice: ``24/13`` with
    65, ``8/2(2)`` with 33): each hop played to its end in the order written, a double's
    die by die, a roll of two dice's one hop the smaller die first, else the larger first;
    None when that does not play every die, a step of it is not allowed, or
    :func:`_one_reading` does not hold.

    Notes
    -----
    The answer is the search's (:func:`all_readings`): when :func:`_one_reading` holds, its
    first play found is its answer, and this is the path it tries first (the journey written
    first until it ends, then the next, the smaller die first).
    """
    if len(dice) == 2 and (len(hops) != 1 or hops[0].start - hops[0].end != sum(dice)) \
            or not _one_reading(position.opponent, dice, hops):
        return None
    for order in [dice] if len(dice) == 4 else [dice[::-1], dice]:
        found = _played(position, order, hops, rules)
        if found is not None:
            return found
    return None


def _played(position: Position, order: tuple[int, ...], hops: Sequence[Hop],
            rules: Rules) -> tuple[Position, Play, bool] | None:
    """The hops played one after another, each to its end, with the dice in ``order``:
    ``(after, play, agrees)`` (as :func:`as_written`), or None when that does not use every
    die or a step of it is not allowed."""
    me, opp = position.lists()
    dice = iter(order)
    steps: list[Move] = []
    agrees = True
    for start, end, marked in hops:
        point = start
        while point != end:
            die = next(dice, None)
            if die is None or end and point - die < end:
                return None
            move = apply_step(me, opp, point, die, rules)
            if move is None:
                return None
            steps.append(move)
            point = move.end
            if move.hit != (marked and point == end):  # only a journey's end may be marked
                agrees = False
    if len(steps) < len(order):
        return None  # fewer dice than the roll's: the forced-play rules decide
    return Position.after(me, opp, position.turn), Play(tuple(steps)), agrees


def _one_reading(opp: Sequence[int], dice: tuple[int, ...], hops: Sequence[Hop]) -> bool:
    """Whether every way of playing all the ``hops`` with ``dice`` (the search's leaves)
    reaches one position, with the same dice used and the same agreement with the ``*``
    marks, so that the first way found is :func:`all_readings`'s answer.

    Each journey moves one checker from its start to its end, so the mover's checkers end
    alike; the opponent's differ only by the blots hit. None is hit on the way when no
    journey of more than one step passes over a blot (a one-step journey lands only on its
    end: every journey does when there are as many hops as dice), and each blot at a
    journey's end is hit by the first to arrive: the marks agree alike unless two different
    hops end on it and one of them is marked (unmarked, every order disagrees). The dice
    used are the same when each journey's steps are: a double's are (its length in steps
    of one die), and a journey ending on the board takes the dice that sum to its length
    (with two different dice, at most one way); a bear-off with two different dice takes one
    or two (``5/off`` with 62: the 6, or 2 then 6) unless there are as many hops as dice.
    ``opp`` is the opponent's checkers (``Position.opponent`` or ``Position.lists()[1]``).
    """
    each_one_step = len(hops) == len(dice)
    if not (len(dice) == 4 or each_one_step or all(end > OFF for _, end, _ in hops)):
        return False
    hitting: dict[int, Hop] = {}
    for hop in hops:
        start, end, marked = hop
        if not OFF <= end < start <= BAR:
            return False
        if end > OFF and opp[25 - end] == 1:
            first = hitting.setdefault(end, hop)
            if first != hop and (marked or first.marked):
                return False
        one_step = each_one_step or (start - end in dice if end > OFF else start <= min(dice))
        if not one_step and 1 in opp[26 - start:25 - end]:  # a blot on the way
            return False
    return True


class LongReading(NamedTuple):
    """Long nardy hops read as single-die steps (:func:`long_readings`).

    Attributes
    ----------
    steps : list of (int, int)
        The ``(start, die)`` pairs, in order, as
        :func:`~nardy_analysis.game.long.check_play` takes them.
    owners : list of int
        The index of the hop each step belongs to.
    """

    steps: list[tuple[int, int]]
    owners: list[int]


def long_readings(hops: Sequence[Hop], dice: tuple[int, ...],
                  limit: int = 100) -> Iterator[LongReading]:
    """The readings of long nardy hops as single-die steps (RULES.md, "Long nardy").

    A hop takes dice whose sum is its length, or, bearing off, at least its length with
    every step but the last landing on the board; the hops need not use every die. The
    journeys may interleave (``10/off(2)`` with 55: both checkers reach 5 before either
    bears off). The first reading plays each hop to its end in the order written, larger
    dice first; a depth-first search over the journeys and the dice gives the others.

    Parameters
    ----------
    hops : sequence of Hop
    dice : tuple of int
    limit : int
        At most this many readings.

    Yields
    ------
    LongReading
    """
    steps: list[tuple[int, int]] = []
    owners: list[int] = []

    def search(journeys: tuple[tuple[int, int], ...],
               remaining: tuple[int, ...]) -> Iterator[LongReading]:
        if all(point == end for point, end in journeys):
            yield LongReading(list(steps), list(owners))
            return
        for j, (point, end) in enumerate(journeys):
            if point == end or (point, end) in journeys[:j]:
                continue
            for die in sorted(set(remaining), reverse=True):
                if point - die < end != OFF:
                    continue
                i = remaining.index(die)
                steps.append((point, die))
                owners.append(j)
                yield from search(journeys[:j] + ((max(point - die, end), end),)
                                  + journeys[j + 1:], remaining[:i] + remaining[i + 1:])
                steps.pop()
                owners.pop()

    return islice(search(tuple((start, end) for start, end, _ in hops), tuple(dice)), limit)



def hops_of(moves: Sequence[WrittenMove]) -> tuple[list[Hop], Sequence[WrittenMove]]:
    """The hops of written moves, repeats expanded.

    Parameters
    ----------
    moves : sequence of WrittenMove
        A turn's moves as read (``13/8``, ``24/13``, ``13/7*/5``, ``8/2(2)``).

    Returns
    -------
    (hops, sources)
        The :class:`Hop` of each step between the points a move names, each repeat of a
        move with ``(n)`` its own; and for each hop the WrittenMove it comes from (``moves``
        itself when each is one hop).
    """
    hops = [Hop._make(written.points + written.hits) for written in moves
            if written.count == 1 and len(written.hits) == 1]  # the common move, 13/8
    if len(hops) == len(moves):
        return hops, moves
    hops, sources = [], []
    for written in moves:
        for _ in range(written.count):
            for i, marked in enumerate(written.hits):
                hops.append(Hop(written.points[i], written.points[i + 1], marked))
                sources.append(written)
    return hops, sources


def by_next_turn(candidates: dict[Position, Reading], following: Sequence[Action],
                 rules: Rules) -> dict[Position, Reading]:
    """The readings of a play after which the opponent's next written play can be played.

    Parameters
    ----------
    candidates : dict
        Position reached -> :class:`Reading`, the readings of one written play.
    following : sequence of Action
        The game's records after that play; the first roll among them is the next play.
    rules : Rules

    Returns
    -------
    dict
        The candidates from whose position the next written play has a reading
        (:func:`realise`); empty when no roll follows or its play is unknown (``???``).
    """
    for action in following:
        if isinstance(action, TurnRecord):
            if action.moves is None:
                return {}
            hops, _ = hops_of(action.moves)
            return {p: c for p, c in candidates.items()
                    if realise(p.with_turn(action.player), action.roll.dice, hops, rules)}
    return {}


def point_name(point: int) -> str:
    """A point in words, for messages: ``the bar`` (25), ``off`` (0) or ``point N``."""
    return "the bar" if point == BAR else "off" if point == OFF else f"point {point}"


def why_illegal(position: Position, roll: Roll, hops: Sequence[Hop],
                rules: Rules) -> tuple[str, int | None]:
    """Why written hops that have no reading cannot be played with the roll.

    Parameters
    ----------
    position : Position
        Before the play, the mover on roll.
    roll : Roll
    hops : sequence of Hop
        The play's hops (:func:`hops_of`).
    rules : Rules

    Returns
    -------
    (str, int or None)
        A reason in plain words (RULES.md, "Movement", "Bearing off") and the index of the hop
        to blame (None when no single hop is).
    """
    me, opp = position.on_roll, position.opponent
    for index, (start, end, _) in enumerate(hops):
        move = f"{point_name(start)} to {point_name(end)}"
        if me[start] == 0 and all(hop.end != start for hop in hops):
            return f"no checker on {point_name(start)} to move", index
        if me[BAR] and start != BAR and not any(hop.start == BAR for hop in hops):
            return f"a checker on the bar must enter before {move} is played", index
        if end > 0 and opp[25 - end] >= 2:
            return (f"{point_name(end)} is closed (the opponent has {opp[25 - end]} "
                    "checkers there)"), index
        if end > 18 and opp[25 - end] == 1 and rules.home_safe:
            return (f"{point_name(end)} is closed: the opponent's checker there is in its "
                    f"own home board and cannot be hit ({rules.name} rules)"), index
        if end == OFF and sum(me[7:26]) > sum(s > 6 and 0 < e <= 6 for s, e, _ in hops):
            return "cannot bear off while checkers are outside the home board", index
        if start <= end:
            return f"checkers move towards home; {move} goes the wrong way", index
    needed = sum(start - end for start, end, _ in hops if end != OFF)
    if needed > sum(roll.dice):
        return f"the moves take {needed} pips but {roll} gives {sum(roll.dice)}", None
    return (f"the moves cannot be played with {roll} (no order of single-die steps lands "
            "only on open points)"), None
