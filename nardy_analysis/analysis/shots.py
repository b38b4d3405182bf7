"""Exact hit probabilities ("shots"): the rolls on which the player on roll can hit.

A roll hits when at least one of its legal plays (RULES.md, forced-play rules included) hits
an opposing blot. Counts are out of 36 throws (a double is 1 throw, any other roll 2).
Points are numbered from the side of the player on roll (the hitter); the opposing blot on
my point ``p`` is on the blot owner's point ``25 - p``.

For the exposure of a player's blots after their play, pass the position after the play
(the opponent is then on roll): ``shots(turn.after)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..errors import InvalidArgument
from ..game.position import ALL_ROLLS, Position, Roll, apply_step, movable_points, undo_step
from ..game.rules import BAR, STANDARD, Rules


@dataclass(frozen=True, slots=True)
class Shots:
    """The hitting rolls of a position for the player on roll.

    Attributes
    ----------
    position : Position
    rolls : tuple of Roll
        The distinct rolls (of the 21) with at least one legal hitting play.
    count : int
        Throws out of 36 that hit at least one blot.
    blots : dict
        Opposing blot's point (numbered from the hitter's side, 1..24) -> tuple of the rolls
        that hit that blot; every opposing blot is a key, with () when it cannot be hit.
    double_hits : tuple of Roll
        Rolls with a legal play that hits two or more blots.
    """

    position: Position
    rolls: tuple[Roll, ...]
    count: int
    blots: dict
    double_hits: tuple[Roll, ...]

    @property
    def probability(self) -> float:
        """``count / 36``: the chance (0..1) that the next throw hits."""
        return self.count / 36

    def to_dict(self) -> dict:
        """JSON-ready: ``position_id``, ``hitting_rolls``, ``rolls`` (out of 36), ``blots``
        (``point``, ``hitting_rolls``) and ``double_hits``; points from the hitter's side."""
        return {"position_id": self.position.id(),
                "hitting_rolls": [str(r) for r in self.rolls], "rolls": self.count,
                "blots": [{"point": p, "hitting_rolls": [str(r) for r in rolls]}
                          for p, rolls in sorted(self.blots.items())],
                "double_hits": [str(r) for r in self.double_hits]}

    @property
    def double_hit_count(self) -> int:
        """Throws out of 36 with a legal play hitting two or more blots."""
        return throws(self.double_hits)


def throws(rolls) -> int:
    """How many of the 36 throws give one of ``rolls`` (doubles 1 each, others 2)."""
    return sum(1 if r.is_double else 2 for r in rolls)


@lru_cache(maxsize=20_000)
def shots(position: Position, rules: Rules = STANDARD) -> Shots:
    """Hitting rolls of ``position`` for the player on roll (cached: a position's shots are
    asked for by several analyses, e.g. the match page and its dice audit).

    Every roll is played through the legal-play rules of RULES.md: a checker on the bar
    enters first, intermediate landing points must be open, and a hitting play counts only if
    it is legal under the forced-play rules (it uses as many dice as the roll allows, the
    larger die when only one can be used). Book tables (e.g. the shot counts of a lone blot
    at 1..24 pips from a lone hitter) cover open boards only; blocked cases are exact here.

    Parameters
    ----------
    position : Position
        The position; the player on roll is the hitter.
    rules : Rules
        Rules in force (forced-play enforcement, bear-off variant).

    Returns
    -------
    Shots
    """
    me, opp = position.lists()
    blots = [p for p in range(1, 25) if opp[25 - p] == 1]
    by_blot: dict[int, list[Roll]] = {p: [] for p in blots}
    rolls, double_hits = [], []
    if blots:
        for roll in ALL_ROLLS:
            hit, double = _hits(position, me, opp, roll, blots, rules)
            if hit:
                rolls.append(roll)
                for point in hit:
                    by_blot[point].append(roll)
            if double:
                double_hits.append(roll)
    return Shots(position, tuple(rolls), throws(rolls),
                 {p: tuple(r) for p, r in by_blot.items()}, tuple(double_hits))


@lru_cache(maxsize=None)
def _reach(dice: tuple[int, ...]) -> tuple[int, ...]:
    """Distances one checker can cover with some of ``dice`` (in either order)."""
    if not dice:
        return ()
    if dice[0] == dice[-1]:
        return tuple(dice[0] * k for k in range(1, len(dice) + 1))
    return dice[0], dice[1], dice[0] + dice[1]


def _hits(position, me, opp, roll, blots, rules) -> tuple[set[int], bool]:
    """Blots (hitter's points) hit by some legal play of ``roll``, and whether one legal play
    hits two or more. Explores only steps that hit or move a checker towards a blot it can
    still reach (moving another checker never opens a path: blots do not block); bar
    entries are forced and always explored. A hitting sequence counts once it can be
    completed to use every die; when one cannot be, the exact answer comes from
    :meth:`Position.legal_plays`."""
    hit: set[int] = set()
    double = False
    unsure = False
    seen = set()

    def search(remaining, hits):
        nonlocal double, unsure
        if hits:
            if not rules.forced_play or _can_finish(me, opp, remaining, rules):
                hit.update(hits)
                double = double or len(hits) > 1
            else:
                unsure = True
        if not remaining:
            return
        key = (tuple(me), tuple(opp), remaining)
        if key in seen:
            return
        seen.add(key)
        live = [t for t in blots if opp[25 - t] == 1]
        for i, die in enumerate(remaining):
            if die in remaining[:i]:
                continue
            rest = remaining[:i] + remaining[i + 1:]
            if me[BAR]:
                starts = (BAR,)
            else:
                # Landing on a live blot, or where a live blot stays in reach of the rest.
                good = {t + r for t in live for r in _reach(rest)}.union(live)
                starts = [p for p in range(24, die, -1) if me[p] and p - die in good]
            for start in starts:
                move = apply_step(me, opp, start, die, rules)
                if move is None:
                    continue
                search(rest, hits | {move.end} if move.hit else hits)
                undo_step(me, opp, move)

    search(roll.dice, frozenset())
    if unsure:
        hit, double = set(), False
        for play, _ in position.legal_plays(roll, rules):
            ends = {m.end for m in play.moves if m.hit}
            hit |= ends
            double = double or len(ends) > 1
    return hit, double


def _can_finish(me, opp, remaining, rules) -> bool:
    """Whether every die in ``remaining`` can still be played (in some order)."""
    if not remaining:
        return True
    for i, die in enumerate(remaining):
        if die in remaining[:i]:
            continue
        for start in movable_points(me):
            move = apply_step(me, opp, start, die, rules)
            if move is None:
                continue
            done = _can_finish(me, opp, remaining[:i] + remaining[i + 1:], rules)
            undo_step(me, opp, move)
            if done:
                return True
    return False


def entering_rolls(position: Position, rules: Rules = STANDARD,
                   every_checker: bool = False) -> tuple[Roll, ...]:
    """Rolls on which the player on roll enters a checker from the bar.

    With ``every_checker``, the rolls on which all of their checkers on the bar enter.
    Against ``k`` closed points in the opponent's home board, one checker enters on
    ``36 - k*k`` throws and two checkers both enter on ``(6 - k)**2`` throws (RULES.md, the
    bar; any backgammon book's entry table). ``throws(...)`` counts them out of 36.

    Raises
    ------
    InvalidArgument
        The player on roll has no checker on the bar.
    """
    on_bar = position.on_roll[BAR]
    if not on_bar:
        raise InvalidArgument(f"no checker on the bar in position {position!r}")
    needed = on_bar if every_checker else 1
    return tuple(roll for roll in ALL_ROLLS
                 if any(on_bar - next_bar >= needed
                        for next_bar in {after.board[position.turn][BAR]
                                         for _, after in position.legal_plays(roll, rules)}))

