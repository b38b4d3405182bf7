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
    # A checker hits the blot on t only by covering s - t pips from its point s: rolls
    # that cover none of these distances (bit s - t of the mask) hit nothing.
    points = sum(1 << s for s in range(1, BAR + 1) if me[s])
    distances = 0
    for t in blots:
        distances |= points >> t
    if distances:
        opens = _open_points(opp)
    for roll, reach in _ROLLS if distances else ():
        if not distances & reach:
            continue
        found = _fast(me, opp, roll, blots, rules, opens)
        hit, double = found or _hits(position, me, opp, roll, blots, rules)
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


_ROLLS = tuple((roll, sum(1 << n for n in _reach(roll.dice))) for roll in ALL_ROLLS)
"""The 21 rolls, each with the distances it can cover as a bit mask (bit ``n``: ``n`` pips)."""


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


def _open_points(opp) -> frozenset[int]:
    """The points (1..24, from the mover's side) the opponent ``opp`` has not closed."""
    return frozenset(q for q in range(1, 25) if opp[25 - q] < 2)


def _board_step(me, opens, die, leaving=0) -> bool:
    """Whether a checker of ``me`` on the board (one fewer on the point ``leaving``) can move
    ``die`` pips to one of the ``opens`` points."""
    for p in range(die + 1, 25):
        if me[p] > (p == leaving) and p - die in opens:
            return True
    return False


def _fast(me, opp, roll, blots, rules, opens) -> tuple[set[int], bool] | None:
    """:func:`_hits` without a search where a rule below tells (forced-play rules on), else
    None. ``opens`` is :func:`_open_points`."""
    if not rules.forced_play:
        return None
    if roll.high == roll.low:
        return _double_hits(me, roll.high, blots, opens)
    if me[BAR]:
        return _entering_hits(me, roll, blots, opens)
    return _two_dice_hits(me, opp, roll, blots, rules, opens)


def _two_dice_hits(me, opp, roll, blots, rules, opens) -> tuple[set[int], bool] | None:
    """:func:`_hits` for a roll of two different dice with no checker of the roller on the
    bar (forced-play rules on), without a search; None when a hit cannot be told legal
    this way (a hitting step after which the other die cannot be played).

    With two different dice every play using both is legal, and every step of a hitting
    journey lands on a blot or an open point, which hits leave open. A blot on ``t`` is hit
    by one die ``x`` from ``t + x`` (legal when the other die can be played after it: by
    any checker; playing it first instead does not help, as the hit only adds a checker
    nearer home), or by both dice from ``t + a + b`` through an open point. The other die
    can be played after the hit when the hitter can go on to an open point, or another
    checker can move it to one (:func:`_board_step`: a hit leaves every point as open);
    else a step after the hit is looked for (bearing off). A play hits two blots when one
    die hits one and the other die, after it, the other (the second hitter may be the
    first one going on)."""
    a, b = roll.high, roll.low
    hit: set[int] = set()
    direct = []  # (blot, die, other die, from)
    for t in blots:
        for x, y in ((a, b), (b, a)):
            s = t + x
            if s <= 24 and me[s]:
                direct.append((t, x, y, s))
        s = t + a + b
        if s <= 24 and me[s] and (t + b in opens or t + a in opens):
            hit.add(t)
    for t, x, y, s in direct:
        if t in hit or t - y in opens or _board_step(me, opens, y, s):
            hit.add(t)
            continue
        move = apply_step(me, opp, s, x, rules)
        finish = _can_finish(me, opp, (y,), rules)
        undo_step(me, opp, move)
        if not finish:
            return None
        hit.add(t)
    if len(hit) > 1:
        for t1, x, y, s1 in direct:
            for t2 in blots:
                s2 = t2 + y
                if t2 != t1 and s2 <= 24 and me[s2] - (s2 == s1) + (s2 == t1) > 0:
                    return hit, True
    return hit, False


def _entering_hits(me, roll, blots, opens) -> tuple[set[int], bool]:
    """:func:`_hits` for a roll of two different dice with checkers of the roller on the
    bar (forced-play rules on), without a search.

    A die ``x`` enters on the point ``25 - x`` when it is open (a blot there is hit). With two
    or more on the bar each die that can enter does, and nothing else can move: the play is
    the entries. With one, entering with ``x`` and then moving the other die ``y`` is a play
    of both dice when a checker can move ``y`` after the entry: the entered one (it stays
    outside the home board, so nothing bears off) or one on the board
    (:func:`_board_step`). When some order is such a play, the legal plays are those; when
    neither is, the legal play is the entry of the larger die if it can enter, else of the
    smaller (RULES.md)."""
    a, b = roll.high, roll.low
    if me[BAR] > 1:
        hit = {25 - x for x in (a, b) if 25 - x in blots}
        return hit, len(hit) > 1
    hit: set[int] = set()
    double = False
    both = False
    for x, y in ((a, b), (b, a)):
        entry = 25 - x
        if entry not in opens or (entry - y not in opens and not _board_step(me, opens, y)):
            continue
        both = True
        entry_hits = entry in blots
        if entry_hits:
            hit.add(entry)
        for t in blots:
            s = t + y
            if t != entry and s <= 24 and (me[s] or s == entry):
                hit.add(t)
                double = double or entry_hits
    if not both:
        entry = next((25 - x for x in (a, b) if 25 - x in opens), None)
        return ({entry} if entry in blots else set()), False
    return hit, double


def _double_hits(me, d, blots, opens) -> tuple[set[int], bool] | None:
    """:func:`_hits` for a double (forced-play rules on), without a search; None when it
    cannot tell (a checker might bear off during the play: :func:`_free_double`).

    While checkers are on the bar every step enters, on the point ``25 - d``: with that
    point closed no step can be played; with four or more on the bar all four steps enter.
    With ``n`` of 1..3 on the bar the first ``n`` steps enter (there is no other step, so
    every legal play starts with them, and the first one hits a blot there), and the
    position they reach plays ``4 - n`` steps as :func:`_free_double` finds; a play hits two
    blots when the entry hits and the rest hits another."""
    on_bar = me[BAR]
    if not on_bar:
        return _free_double(me, d, 4, blots, opens)
    entry = 25 - d
    if entry not in opens:
        return set(), False  # no step at all
    entry_hits = entry in blots
    if on_bar >= 4:
        return ({entry} if entry_hits else set()), False  # four entries, on one point
    entered = list(me)
    entered[BAR], entered[entry] = 0, me[entry] + on_bar
    found = _free_double(entered, d, 4 - on_bar, [t for t in blots if t != entry], opens)
    if found is None or not entry_hits:
        return found
    hit, double = found
    return hit | {entry}, double or bool(hit)


def _free_double(me, d, steps, blots, opens) -> tuple[set[int], bool] | None:
    """Blots hit by some legal play of ``steps`` (1..4) steps of ``d`` pips for ``me`` with
    no checker on the bar, and whether one legal play hits two or more; None when fewer
    than ``steps`` steps can be played on the board and a checker might bear off during the
    play (the checkers outside the home board need fewer than ``steps`` steps to come home),
    where the search answers.

    On the board the checkers move independently: a step lands on a point of the
    board, open or not whatever the other steps do (steps never make or break the
    opponent's points; hits only take blots, which block nothing), so the checker on ``p``
    can go ``j`` steps exactly when ``j <= c(p)``, the run of open points ``p - d``,
    ``p - 2d``, ... (capped at ``steps``). Any choice of journeys ``j_i <= c(p_i)`` is a play
    (played from the highest start down). The forced-play rule asks for the most steps,
    ``m = min(steps, sum of c)`` (RULES.md). So a blot on ``t`` is hit in a legal play iff a
    checker on ``t + j*d`` has ``j <= min(c, m)``: the other ``m - j`` steps fit in the
    capacity left, ``sum of c - j``. A legal play hits two blots iff one journey of at most
    ``m`` steps lands on two, or two checkers reach two different blots in ``j1 + j2 <= m``
    steps (a blot is hit by the first checker landing on it). Steps on the board stay legal
    whatever else is played, so when all ``steps`` fit on the board (``m = steps``), plays
    that bear off change none of this: they too must use all steps, and their hitting
    journeys obey the same bounds."""
    most = 0  # m, counted up to steps
    for p in range(24, 0, -1):
        if me[p]:
            run, q = 0, p - d
            while run < steps and q in opens:
                run, q = run + 1, q - d
            most += me[p] * run
            if most >= steps:
                most = steps
                break
    if most < steps and sum(me[7:25]) < steps and \
            sum(me[p] * -(-(p - 6) // d) for p in range(7, 25) if me[p]) < steps:
        return None
    reach = []  # (steps, start, blot) of the journeys of at most m steps onto each blot
    hit: set[int] = set()
    double = False
    for t in blots:
        passed = False  # a blot between t and the start: the journey hits both
        for j in range(1, most + 1):
            p = t + j * d
            if p not in opens:  # closed, or off the board
                break
            if me[p]:
                reach.append((j, p, t))
                hit.add(t)
                double = double or passed
            passed = passed or p in blots
    if len(hit) > 1 and not double:
        double = any(t1 < t2 and j1 + j2 <= most and (p1 != p2 or me[p1] > 1)
                     for j1, p1, t1 in reach for j2, p2, t2 in reach)
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

