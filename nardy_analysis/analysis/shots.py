"""Exact hit probabilities ("shots"): the rolls on which the player on roll can hit.

A roll hits when at least one of its legal plays (RULES.md, forced-play rules included) hits
an opposing blot. Counts are out of 36 throws (a double is 1 throw, any other roll 2).
Points are numbered from the side of the player on roll (the hitter); the opposing blot on
my point ``p`` is on the blot owner's point ``25 - p``.

For the exposure of a player's blots after their play, pass the position after the play
(the opponent is then on roll): ``shots(turn.after)``.

The module stays whole: :func:`shots` is one method (rules on sets of points, and a search
of the plays for the rolls those rules cannot tell) whose bit tables and helpers every case
shares, so a split would only make its private parts public.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Sequence

from ..errors import InvalidArgument
from ..game.moves import ALL_ROLLS, Roll
from ..game.position import Position, apply_step, movable_points, undo_step
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
    rules : Rules
        The rules the rolls were played under.
    """

    position: Position
    rolls: tuple[Roll, ...]
    count: int
    blots: dict[int, tuple[Roll, ...]]
    rules: Rules = STANDARD

    @property
    def probability(self) -> float:
        """``count / 36``: the chance (0..1) that the next throw hits."""
        return self.count / 36

    @property
    def double_hits(self) -> tuple[Roll, ...]:
        """Rolls with a legal play that hits two or more blots, in :data:`ALL_ROLLS` order
        (worked out when asked: most uses need only the hitting rolls)."""
        return _rolls(_hitting_rolls(self.position, self.rules, doubles=True)[2])

    def to_dict(self) -> dict[str, Any]:
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


def throws(rolls: Iterable[Roll]) -> int:
    """How many of the 36 throws give one of ``rolls`` (doubles 1 each, others 2)."""
    return sum(1 if r.is_double else 2 for r in rolls)


ROLL_THROWS: tuple[int, ...] = tuple(throws((roll,)) for roll in ALL_ROLLS)
""":func:`throws` of each of ``ALL_ROLLS``: 1 for a double, 2 for any other roll."""


def shots(position: Position, rules: Rules = STANDARD) -> Shots:
    """Hitting rolls of ``position`` for the player on roll.

    Every roll is played through the legal-play rules of RULES.md: a checker on the bar
    enters first, intermediate landing points must be open, and a hitting play counts only if
    it is legal under the forced-play rules (it uses as many dice as the roll allows, the
    larger die when only one can be used). Book tables (e.g. the shot counts of a lone blot
    at 1..24 pips from a lone hitter) cover open boards only; blocked cases are exact here.
    :func:`_hitting_rolls` tells most rolls by rules on sets of points, the others by a
    search of the plays (:func:`_hits`).

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
    by_blot, every, _ = _hitting_rolls(position, rules)
    if not every:
        return Shots(position, (), 0, dict.fromkeys(by_blot, ()), rules)
    return Shots(position, _rolls(every), 2 * every.bit_count() - (every & _DOUBLES).bit_count(),
                 {p: _rolls(rolls) for p, rolls in by_blot.items()}, rules)


_POINT = tuple(1 << 8 * p for p in range(BAR + 1))
"""Sets of points are ints, byte ``p`` (bit ``8p``) standing for point ``p`` of the hitter:
``_POINT[p]`` is the set {p}. Moving a set ``d`` pips towards home is ``>> 8 * d``, away
``<< 8 * d``; ``&`` and ``|`` are intersection and union. Built from a side's 26 counts by
``bytes.translate`` (one byte per point) and ``int.from_bytes``."""
_BOARD = sum(_POINT[1:BAR])  # the points 1..24
_THEIR_HOME = sum(_POINT[19:BAR])  # the opponent's home board, its points 1..6
_SOME = bytes(min(n, 1) for n in range(256))  # a count -> 1 when not 0
_ONE = bytes(int(n == 1) for n in range(256))  # a count -> 1 when exactly 1
_OPEN = bytes(int(n < 2) for n in range(256))  # the opponent's count -> 1 when open to me


def _point_set(counts: bytes, table: bytes) -> int:
    """The points 1..24 whose byte of ``counts`` ``table`` maps to 1."""
    return int.from_bytes(counts.translate(table), "little") & _BOARD


def _points(points: int) -> list[int]:
    """The points (ascending) of a set of points (:data:`_POINT`)."""
    found = []
    while points:
        low = points & -points
        found.append(low.bit_length() >> 3)
        points ^= low
    return found


_ROLL = {roll: 1 << i for i, roll in enumerate(ALL_ROLLS)}
"""Sets of rolls are ints, bit ``i`` standing for ``ALL_ROLLS[i]``."""
_DOUBLES = sum(_ROLL[roll] for roll in ALL_ROLLS if roll.is_double)
_DOUBLE = (0,) + tuple(_ROLL[Roll(d, d)] for d in range(1, 7))  # the double of d
_MIXED = (0,) + tuple(sum(bit for roll, bit in _ROLL.items() if d in roll.dice) & ~_DOUBLES
                      for d in range(1, 7))  # the rolls of two different dice, one of them d
_LOW_ROLLS = tuple(tuple(r for i, r in enumerate(ALL_ROLLS[:11]) if rolls >> i & 1)
                   for rolls in range(1 << 11))
_HIGH_ROLLS = tuple(tuple(r for i, r in enumerate(ALL_ROLLS[11:]) if rolls >> i & 1)
                    for rolls in range(1 << 10))


def _rolls(rolls: int) -> tuple[Roll, ...]:
    """The rolls of a set of rolls (:data:`_ROLL`), in :data:`ALL_ROLLS` order."""
    return _LOW_ROLLS[rolls & 0x7FF] + _HIGH_ROLLS[rolls >> 11]


def _ways(k: int, steps: int = 4, mixed: bool = True) -> tuple[int, dict[int, int]]:
    """The rolls with a journey of one checker over ``k`` pips: the points (counted from
    the end, :data:`_POINT` sets) whose being open matters, and the rolls for each pattern
    of them that is open. A journey of one die ``k`` needs nothing; of two different dice
    ``a + b = k``, the point ``a`` or the point ``b`` before the end open (played in either
    order); of ``j`` steps of a double ``d``, ``j*d = k``, ``j <= steps``, the points ``d``,
    ..., ``(j-1)*d`` before the end open. Without ``mixed``, doubles only."""
    # (roll, alternatives: sets of points, one of which must be all open)
    ways: list[tuple[int, tuple[int, ...]]] = []
    for roll, bit in _ROLL.items():
        a, b = roll.high, roll.low
        if a == b and k % a == 0 and k <= steps * a:
            ways.append((bit, (sum(_POINT[j * a] for j in range(1, k // a)),)))
        elif a != b and mixed and k in (a, b):
            ways.append((bit, (0,)))
        elif a != b and mixed and k == a + b:
            ways.append((bit, (_POINT[a], _POINT[b])))
    relevant = 0
    for _, alternatives in ways:
        for points in alternatives:
            relevant |= points
    table = {}
    for pattern in range(1 << relevant.bit_count()):
        opens = sum(p for i, p in enumerate(map(_POINT.__getitem__, _points(relevant)))
                    if pattern >> i & 1)
        table[opens] = sum(bit for bit, alternatives in ways
                           if any(points & opens == points for points in alternatives))
    return relevant, table


_WAYS = {_POINT[k]: _ways(k) for k in range(1, 25)}
"""``_POINT[k]`` -> :func:`_ways` of ``k`` pips."""
_ENTERED_WAYS = {_POINT[k]: _ways(k, 3, False) for k in range(1, 25)}
"""``_POINT[k]`` -> :func:`_ways` of ``k`` pips in 3 steps of a double (after an entry)."""


def _hitting_rolls(position: Position, rules: Rules,
                   doubles: bool = False) -> tuple[dict[int, int], int, int]:
    """Every opposing blot (its point, ascending) -> the set of rolls (:data:`_ROLL`) with a
    legal play hitting it; the set of rolls hitting any; and, with ``doubles``, the set of
    rolls with a legal play hitting two or more (else 0: telling them is about a fifth of
    the work where there are several blots).

    Every hit ends a journey of one checker over some of the dice (:func:`_ways`), so the
    rolls of the journeys onto each blot (``reach``: :func:`_board_reach`,
    :func:`_bar_reach`) are a superset of its hitting rolls; they are its hitting rolls
    except for the rolls where a forced-play rule may bite (``suspect``), which are told
    one by one (:func:`_roll`). So are the rolls of ``reach`` hitting two blots (``multi``),
    for whether one play hits both: where no rule bites by :func:`_mixed_double`,
    :func:`_journeys` (four steps; three after an entry, as :func:`_double`) or
    :func:`_entry_double`; with two or more on the bar a roll of two dice hitting two
    enters on both, and a double is told by :func:`_double`. Without the forced-play rules
    any sequence of steps is a play, and ``reach`` from the board is exact; with a checker
    on the bar every roll is searched then."""
    me, opp = position.on_roll, position.opponent
    theirs = bytes(opp)  # read backwards ("big"): byte p, the opponent's checkers on my p
    blots = int.from_bytes(theirs.translate(_ONE), "big") & _BOARD
    points = _points(blots)
    safe = blots & _THEIR_HOME if rules.home_safe else 0  # cannot be hit: closed points
    blots ^= safe
    mine = bytes(me)
    board = _point_set(mine, _SOME)
    on_bar = me[BAR]
    double = 0
    if not blots or not on_bar and board < blots & -blots:  # no checker beyond a blot
        return dict.fromkeys(points, 0), 0, double
    opens = int.from_bytes(theirs.translate(_OPEN), "big") & _BOARD & ~safe
    lone = _point_set(mine, _ONE)
    forced = rules.forced_play
    if safe:
        points = _points(blots)
    if not on_bar:
        by_blot = _board_reach(board, opens, points)
        suspect = _board_suspects(board, lone, opens, sum(me[7:BAR])) if forced else 0
    elif forced:
        by_blot, suspect = _bar_reach(board, opens, points, on_bar)
    else:
        by_blot, suspect = dict.fromkeys(points, 0), _EVERY
    every = multi = 0
    for rolls in by_blot.values():
        multi |= every & rolls
        every |= rolls
    if forced and on_bar < 2:  # reach is a superset of the hits
        suspect &= every
    if not doubles:
        multi = 0
    elif forced and on_bar == 1:  # a roll of two dice hits two only with an entry on one
        multi &= _DOUBLES | _MIXED_OF[_ENTERING[(blots >> 8 * 19) & _ENTRY_POINTS]]
    told = suspect | multi
    if multi & ~suspect and forced:
        direct = [(board >> 8 * d) & blots for d in range(7)]  # blots d pips from a checker
    while told:
        bit = told & -told
        told ^= bit
        roll = ALL_ROLLS[bit.bit_length() - 1]
        a, b = roll.high, roll.low
        if bit & suspect or not forced or a == b and on_bar > 1:
            hit, two = _roll(position, rules, roll, board, lone, blots, opens)
            if bit & suspect:
                every = every | bit if hit else every & ~bit
                for t in points:
                    by_blot[t] = by_blot[t] | bit if hit & _POINT[t] else by_blot[t] & ~bit
        elif a == b and on_bar:  # the entry, then 3 steps
            first = _ENTRY[a] & blots
            hit, two = _journeys(_lands(board | _ENTRY[a], opens, 8 * a, 3), blots ^ first,
                                 opens, 8 * a, 3)
            two = two or bool(first and hit)
        elif a == b:  # two blots one step from checkers, or the journeys
            two = bool(direct[a] & (direct[a] - 1)) or \
                _journeys(_lands(board, opens, 8 * a, 4), blots, opens, 8 * a, 4)[1]
        elif on_bar:
            two = on_bar > 1 or _entry_double(board, blots, opens, a, b)
        else:
            two = _mixed_double(lone, blots, a, b, direct[a], direct[b])
        if two:
            double |= bit
    if safe:
        by_blot = {p: by_blot.get(p, 0) for p in _points(blots | safe)}
    return by_blot, every, double if doubles else 0


_EVERY = (1 << len(ALL_ROLLS)) - 1  # the set of all rolls


def _board_reach(board: int, opens: int, points: Iterable[int]) -> dict[int, int]:
    """Each blot of ``points`` -> the rolls with a journey of one checker from the
    ``board`` onto it through ``opens`` (:func:`_ways`); sets as :data:`_POINT` and
    :data:`_ROLL`."""
    by_blot = {}
    for t in points:
        ahead, rel = board >> 8 * t, opens >> 8 * t
        rolls = 0
        while ahead:  # _POINT[k]: a checker k pips from the blot
            low = ahead & -ahead
            relevant, table = _WAYS[low]
            rolls |= table[rel & relevant]
            ahead ^= low
        by_blot[t] = rolls
    return by_blot


def _board_suspects(board: int, lone: int, opens: int, outside: int) -> int:
    """The rolls for which, with no checker on the bar, a forced-play rule may forbid a
    journey of :func:`_board_reach` (sets of points and rolls as :data:`_POINT`,
    :data:`_ROLL`; ``outside``: the hitter's checkers outside the home board). It cannot:

    - for a roll of two dice ``x``, ``y`` when two checkers or more can play each die onto
      an open point of the board (``movers``), as :func:`_two_dice` shows: after a step
      with one die, another checker can play the other die, so every journey is part of a
      play of both dice;
    - for a double ``d`` when no checker can bear off during the play (four checkers or
      more outside the home board), or when four checkers or more can step ``d`` onto an
      open point (the capacity of :func:`_double` is then at least 4): then the legal
      plays play the most steps on the board, ``m = min(4, capacity)``, and a journey of
      ``j`` steps from ``p`` has ``j <= c(p) <= m``; two journeys from two checkers have
      ``j1 + j2 <= min(4, capacity)`` too (:func:`_journeys` of four steps tells the same).

    The checkers are counted at most 2 a point (``movers``, ``many``: a lower bound)."""
    many = board & ~lone
    suspect = 0
    for d in range(1, 7):
        movers = board & (opens << 8 * d)
        checkers = movers.bit_count() + (movers & many).bit_count()
        if checkers < 2:
            suspect |= _MIXED[d]
        if checkers < 4 and outside < 4:
            suspect |= _DOUBLE[d]
    return suspect


def _bar_reach(board: int, opens: int, points: Iterable[int],
               on_bar: int) -> tuple[dict[int, int], int]:
    """With ``on_bar`` checkers of the hitter on the bar (forced-play rules on): each blot
    of ``points`` -> the rolls hitting it, exact except for the rolls returned second
    (``suspect``, told one by one). Sets as :data:`_POINT` and :data:`_ROLL`.

    With two or more on the bar a roll ``x``-``y`` enters what it can and plays nothing
    else (:func:`_entering`): it hits the blots on the entry points ``25 - x`` and
    ``25 - y``; every double with an open entry point is ``suspect`` (one whose entry is
    closed plays no step).

    With one, a roll ``x``-``y`` plays both dice (:func:`_entering`) when an entry point is
    open and each die can be played by a checker on the board onto an open point, and its
    legal plays are every entry followed by any step of the other die: a blot is hit by
    the journeys from the bar (:func:`_ways` over ``25 - t`` pips: an entry on it, or both
    dice through an open entry point) and by the other die ``y`` from a checker ``y`` pips
    behind it after an open entry (``_ENTER_THEN``). The other rolls of two dice are
    ``suspect``; a roll with no open entry hits nothing. A double ``d`` with an open entry
    point enters and plays 3 more steps on the board (nothing bears off: :func:`_double`),
    so every journey of up to 3 steps is part of a legal play (as in
    :func:`_board_suspects`): the journeys from the bar (4 steps, the first an entry) and
    from the board (3 steps, ``_ENTERED_WAYS``). These journeys are a superset of the hits
    of every roll."""
    entering = _ENTERING[(opens >> 8 * 19) & _ENTRY_POINTS]  # dice whose entry is open
    doubles = _DOUBLES_OF[entering]
    by_blot = {}
    if on_bar > 1:
        for t in points:
            by_blot[t] = _MIXED[25 - t] if t >= 19 else 0
        return by_blot, doubles
    suspect = 0
    for d in range(1, 7):
        if not board & (opens << 8 * d):
            suspect |= _MIXED[d]
    for t in points:
        rel = opens >> 8 * t
        relevant, table = _WAYS[_POINT[25 - t]]
        rolls = table[rel & relevant]
        entered = 0  # doubles from the board after an entry
        ahead = board >> 8 * t
        while ahead:  # _POINT[k]: a checker k pips from the blot
            low = ahead & -ahead
            relevant, table = _ENTERED_WAYS[low]
            entered |= table[rel & relevant]
            if low <= _POINT[6]:
                rolls |= _ENTER_THEN[low.bit_length() >> 3][entering]
            ahead ^= low
        by_blot[t] = rolls | entered & doubles
    return by_blot, suspect & (doubles | ~_DOUBLES)


_ENTRY_POINTS = sum(_POINT[0:6])  # the entry points 19..24, shifted down by 19 points
_ENTERING = {sum(_POINT[6 - x] for x in range(1, 7) if dice >> x & 1): dice
             for dice in range(0, 128, 2)}
"""The open entry points (19..24, shifted to 0..5) -> the dice entering on them, as bits."""
_MIXED_OF = tuple(sum(bit for roll, bit in _ROLL.items() if not roll.is_double and
                      dice & (1 << roll.high | 1 << roll.low))
                  for dice in range(128))  # dice (bits 1..6) -> the rolls of two dice with one
_DOUBLES_OF = tuple(sum(_DOUBLE[d] for d in range(1, 7) if dice >> d & 1)
                    for dice in range(128))  # dice (bits 1..6) -> their doubles
_ENTER_THEN = ((),) + tuple(
    tuple(sum(_ROLL[Roll(x, y)] for x in range(1, 7) if x != y and dice >> x & 1)
          for dice in range(128))
    for y in range(1, 7))
"""``_ENTER_THEN[y][dice]``: the rolls ``x``-``y``, ``x != y``, with ``x`` among ``dice``."""


def _entry_double(board: int, blots: int, opens: int, a: int, b: int) -> bool:
    """Whether a legal play of ``a``-``b`` (``a > b``) hits two blots with one checker on
    the bar, for a roll :func:`_bar_reach` leaves out (both dice are played after any open
    entry): an entry hits a blot and the other die another (:func:`_entering`)."""
    for entry, y in ((_ENTRY[a], b), (_ENTRY[b], a)):
        if entry & blots and ((board | entry) >> 8 * y) & blots & ~entry:
            return True
    return False


def _roll(position: Position, rules: Rules, roll: Roll, board: int, lone: int, blots: int,
          opens: int) -> tuple[int, bool]:
    """The blots (a set of points, :data:`_POINT`) some legal play of ``roll`` hits, and
    whether one hits two or more: by :func:`_double`, :func:`_entering` or
    :func:`_two_dice` (forced-play rules), else by the search :func:`_hits`. ``board``,
    ``lone``, ``blots``, ``opens``: the hitter's points, those with one checker, the opposing
    blots and the points open to the hitter."""
    me = position.on_roll
    a, b = roll.high, roll.low
    found = None
    if not rules.forced_play:
        pass
    elif a == b:
        found = _double(me, board, blots, opens, a, me[BAR])
    elif me[BAR]:
        found = _entering(board, blots, opens, a, b, me[BAR])
    else:
        both = (board >> 8 * (a + b)) & blots & ((opens >> 8 * a) | (opens >> 8 * b))
        found = _two_dice(me, position.opponent, rules, board, lone, blots, opens, a, b,
                          (board >> 8 * a) & blots, (board >> 8 * b) & blots, both)
    if found is None:
        mine, theirs = position.lists()
        hit, double = _hits(position, mine, theirs, roll, _points(blots), rules)
        return sum(_POINT[t] for t in hit), double
    return found


def _two_dice(me: Sequence[int], opp: Sequence[int], rules: Rules, board: int, lone: int,
              blots: int, opens: int, a: int, b: int, by_a: int, by_b: int,
              both: int) -> tuple[int, bool] | None:
    """Blots hit by legal plays of the roll ``a``-``b`` (``a > b``) with no checker of the
    roller on the bar (forced-play rules on), and whether one hits two; None when a hit
    cannot be told legal this way (a hitting step after which the other die may not be
    playable, bearing off), where the search answers. Sets of points as :data:`_POINT`:
    ``board`` the roller's points, ``lone`` those with one checker, ``by_a``/``by_b`` the
    blots one die from a checker, ``both`` those reached with both dice through an open
    point.

    With two different dice every play using both is legal, and every step of a hitting
    journey lands on a blot or an open point, which hits leave open. So the blots in
    ``both`` are hit. A blot on ``t`` hit by one die ``x`` from ``t + x`` is hit by a legal
    play when the other die ``y`` can be played after that step: playing ``y`` first instead
    does not help (a checker that could play ``y`` before the hit, other than the hitter,
    still can: the hit leaves every point open and only adds a checker nearer home; the
    hitter playing ``y`` first no longer hits with ``x`` from ``t + x``, and a checker
    reaching ``t + x`` with ``y`` makes a journey of both dice, in ``both``). After the hit,
    ``y`` can be played by the hitter when ``t - y`` is open; or by another checker, on the
    board, when the points that can play ``y`` onto an open point (``movers``) hold two
    checkers or more (one of them is not the hitter), or one that is not on ``t + x``. The
    hits this does not settle are tried step by step (:func:`_can_finish`: bearing off,
    rare).

    A play hits two blots when one die hits one and the other die, after it, the other
    (:func:`_mixed_double`)."""
    hit = both
    for x, y, direct in ((a, b, by_a), (b, a, by_b)):
        if not direct:
            continue
        sx, sy = 8 * x, 8 * y
        legal = direct & ((opens << sy) | hit)  # the hitter goes on, or hit anyway
        rest = direct ^ legal
        if rest:
            movers = board & (opens << sy)
            if movers & (movers - 1) or movers & ~lone:
                legal, rest = direct, 0
            elif movers:  # one lone checker plays y: from anywhere else the hit is legal
                legal |= rest & ~(movers >> sx)
                rest &= movers >> sx
        for t in _points(rest):
            mine, theirs = list(me), list(opp)
            apply_step(mine, theirs, t + x, x, rules)
            if not _can_finish(mine, theirs, (y,), rules):
                return None
            legal |= _POINT[t]
        hit |= legal
    return hit, bool(hit & (hit - 1)) and _mixed_double(lone, blots, a, b, by_a, by_b)


def _mixed_double(lone: int, blots: int, a: int, b: int, by_a: int, by_b: int) -> bool:
    """Whether a play of both dice of ``a``-``b`` (``a > b``) hits two blots (sets of
    points, :data:`_POINT`, as :func:`_two_dice`): the hitter going on (``t1 - y`` a blot),
    or another checker (a blot ``t1`` one die ``a`` ahead of a checker and ``t2 != t1`` the
    other die ``b`` ahead of one, unless both journeys start from one lone checker: pairs
    of ``by_a`` x ``by_b``, less the pairs ``t1 == t2`` and those from a ``lone`` point
    ``t1 + a == t2 + b``)."""
    if (by_a >> 8 * b) & blots or (by_b >> 8 * a) & blots:
        return True
    shared = by_a & (by_b >> 8 * (a - b)) & (lone >> 8 * a)
    return by_a.bit_count() * by_b.bit_count() > \
        (by_a & by_b).bit_count() + shared.bit_count()


_ENTRY = tuple(_POINT[25 - d] if d else 0 for d in range(7))  # a die d enters on 25 - d


def _entering(board: int, blots: int, opens: int, a: int, b: int,
              on_bar: int) -> tuple[int, bool]:
    """Blots hit by legal plays of the roll ``a``-``b`` (``a > b``) with ``on_bar`` checkers
    of the roller on the bar (forced-play rules on), and whether one hits two; sets of
    points as :data:`_POINT` (``board``: the roller's points 1..24).

    A die ``x`` enters on the point ``25 - x`` when it is open (a blot there is hit). With two
    or more on the bar each die that can enter does, and nothing else can move: the play is
    the entries. With one, entering with ``x`` and then moving the other die ``y`` is a play
    of both dice when a checker can move ``y`` after the entry: the entered one (it stays
    outside the home board, so nothing bears off) or one on the board (a point of ``board``
    ``y`` pips from an open point). When some order is such a play, the legal plays are
    those: the entry hits a blot there, and ``y`` one ``y`` pips ahead of a checker or of
    the entered one; both is a double hit. When neither order is, the legal play is the
    entry of the larger die if it can enter, else of the smaller (RULES.md)."""
    entry_a, entry_b = _ENTRY[a], _ENTRY[b]
    if on_bar > 1:
        hit = (entry_a | entry_b) & blots
        return hit, hit == entry_a | entry_b
    hit = 0
    double = both = False
    for entry, y in ((entry_a, b), (entry_b, a)):
        sy = 8 * y
        if not entry & opens or not ((entry >> sy) & opens or board & (opens << sy)):
            continue
        both = True
        first = entry & blots
        second = ((board | entry) >> sy) & blots & ~entry
        hit |= first | second
        double = double or bool(first and second)
    if not both:
        return (entry_a if entry_a & opens else entry_b) & blots, False
    return hit, double


def _double(me: Sequence[int], board: int, blots: int, opens: int, d: int,
            on_bar: int) -> tuple[int, bool] | None:
    """Blots hit by legal plays of the double ``d`` (forced-play rules on), and whether one
    hits two; None when a checker might bear off during the play, where the search
    answers. Sets of points as :data:`_POINT`; ``me`` the roller's 26 counts.

    While checkers are on the bar every step enters, on the point ``25 - d``: with that
    point closed no step can be played; with four or more on the bar all four steps enter.
    With ``n`` of 1..3 on the bar the first ``n`` steps enter (there is no other step, so
    every legal play starts with them, and the first one hits a blot there), and the
    position they reach plays ``steps = 4 - n`` steps; a play hits two blots when the entry
    hits and the rest hits another. Nothing bears off then: a checker on ``25 - d`` needs
    at least 3 steps of ``d`` to come home (``19 - d > 2d``), and 3 is the most left.

    On the board the checkers move independently: a step lands on a point of the board,
    open or not whatever the other steps do (steps never make or break the opponent's
    points; hits only take blots, which block nothing), so the checker on ``p`` can go
    ``j`` steps exactly when ``j <= c(p)``, the run of open points ``p - d``, ``p - 2d``, ...
    (capped at ``steps``). Any choice of journeys ``j_i <= c(p_i)`` is a play (played from
    the highest start down). ``reach[j - 1]``, the points ``j`` steps from a checker
    through open points, holds the ends of the journeys of ``j`` steps; the checkers behind
    them add up to the capacity ``sum of c``, at least the number of points in all of
    ``reach``. The forced-play rule asks for the most steps, ``m = min(steps, sum of c)``
    (RULES.md). So a blot on ``t`` is hit in a legal play iff it is in ``reach[j - 1]`` for
    some ``j <= m``: the other ``m - j`` steps fit in the capacity left, ``sum of c - j``.
    A legal play hits two blots iff one journey of at most ``m`` steps lands on two (a
    point of ``reach`` reached through a blot: ``passed``), or two checkers reach two
    different blots in ``j1 + j2 <= m`` steps (a blot is hit by the first checker landing
    on it). The second needs no care for the checkers' number: two journeys from one lone
    checker onto ``t1 = p - j1*d`` and ``t2 = p - j2*d``, ``j1 < j2``, make the first
    kind, the longer passing the nearer blot. Steps on the board stay legal whatever else
    is played, so when all ``steps`` fit on the board (``m = steps``), plays that bear off
    change none of this: they too must use all steps, and their hitting journeys obey the
    same bounds; when they do not and the checkers outside the home board need fewer than
    ``steps`` steps to come home, the search tells."""
    steps = 4
    first = 0
    if on_bar:
        entry = _ENTRY[d]
        if not entry & opens:
            return 0, False  # no step at all
        first = entry & blots
        if on_bar >= 4:
            return first, False  # four entries, on one point
        steps -= on_bar
        board |= entry
        blots ^= first
    shift = 8 * d
    reach = _lands(board, opens, shift, steps)
    if not any(lands & blots for lands in reach):
        return first, False
    most = steps if sum(lands.bit_count() for lands in reach) >= steps else \
        min(steps, _capacity(me, reach, d, on_bar))
    if most < steps and sum(me[7:BAR]) < steps and \
            sum(me[p] * -(-(p - 6) // d) for p in range(7, BAR) if me[p]) < steps:
        return None
    hit, double = _journeys(reach[:most], blots, opens, shift, most)
    return hit | first, double or bool(first and hit)


def _lands(board: int, opens: int, shift: int, steps: int) -> list[int]:
    """``reach`` of :func:`_double`: the points 1, 2, ... ``steps`` steps of ``shift / 8``
    pips from a point of ``board`` through open points (sets of points, :data:`_POINT`),
    up to the last that is not empty."""
    reach = []
    for _ in range(steps):
        board = (board >> shift) & opens
        if not board:
            break
        reach.append(board)
    return reach


def _journeys(reach: Sequence[int], blots: int, opens: int, shift: int,
              most: int) -> tuple[int, bool]:
    """The blots hit by the journeys ``reach`` of :func:`_double` (the ends of those of
    ``j`` steps are ``reach[j - 1]``; ``most`` steps or fewer), and whether a legal play of
    ``most`` steps hits two: one journey passes a blot and lands on another (``passed``),
    or the journeys of two checkers, ``j1 + j2 <= most`` steps, end on two blots."""
    hit = double = 0
    passed = 0  # points a journey reaches after hitting a blot
    within = [0]  # within[j]: blots hit in at most j steps
    for lands in reach:
        double = double or passed & blots
        passed = ((passed | (lands & blots)) >> shift) & opens
        hit |= lands & blots
        within.append(hit)
    if hit & (hit - 1) and not double:
        for j in range(1, min(most // 2, len(reach)) + 1):
            near = reach[j - 1] & blots
            pair = near | within[min(most - j, len(reach))]
            if near and pair & (pair - 1):
                return hit, True
    return hit, bool(double)


def _capacity(me: Sequence[int], reach: Sequence[int], d: int, on_bar: int) -> int:
    """The steps of ``d`` the checkers can go on the board, ``sum of c`` of
    :func:`_double`: a checker on ``p`` counts once for each journey end ``p - j*d`` in
    ``reach[j - 1]``; ``on_bar`` checkers are on their entry point ``25 - d``."""
    total = 0
    for j, lands in enumerate(reach, 1):
        for q in _points(lands):
            p = q + j * d
            total += me[p] + (on_bar if p == 25 - d else 0)
    return total


@lru_cache(maxsize=None)
def _reach(dice: tuple[int, ...]) -> tuple[int, ...]:
    """Distances one checker can cover with some of ``dice`` (in either order)."""
    if not dice:
        return ()
    if dice[0] == dice[-1]:
        return tuple(dice[0] * k for k in range(1, len(dice) + 1))
    return dice[0], dice[1], dice[0] + dice[1]


def _hits(position: Position, me: list[int], opp: list[int], roll: Roll, blots: list[int],
          rules: Rules) -> tuple[set[int], bool]:
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

    def search(remaining: tuple[int, ...], hits: frozenset[int]) -> None:
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
            starts: Sequence[int]
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


def _can_finish(me: list[int], opp: list[int], remaining: tuple[int, ...],
                rules: Rules) -> bool:
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

