"""Long nardy (длинные нарды): positions, legal plays, the check of a written play, and blocked
rolls.

The rules are those of ``RULES.md``, "Long nardy" (from the rule page "Игра в длинные нарды"): 15
checkers each start on the player's own 24-point, the head; both players move the same way
round, so my point ``p`` is the opponent's point ``((p + 11) mod 24) + 1``
(:meth:`LongPosition.facing`) and the opponent's head is my 12-point. There is no hitting and
no bar: a point holding any opposing checker is closed. At most one checker leaves the head
per turn (two on a player's first turn, with any roll or, in the federation variant, only with
the doubles ``Rules.head_doubles``). Six points in a row may be held only when an opposing
checker has already passed them, checked on the position after the whole play. Bearing off,
the dice and the forced-play rules are those of short nardy.

The value types (:class:`~nardy_analysis.game.moves.Roll`, ``Move``, ``Play``,
``LegalPlay``) and the board layout (``board[player][point]``, 26 entries, 0 borne off, 25 the
bar, always empty here) are short nardy's. A position's text is its notation
(:meth:`LongPosition.notation`, documented in RULES.md, "Long nardy position notation"), never
a gnubg Position ID, which is a backgammon format.
"""

from __future__ import annotations

import re
from typing import Iterable, Literal, Self, Sequence

from ..errors import IllegalPlayError, InvalidArgument, PositionIdError, plural
from .ids import Board, MatchState
from .moves import ALL_ROLLS, Move, Play, Roll, point_str
from .position import LegalPlay, Position
from .rules import BAR, CHECKERS, LONG, OFF, Rules

HEAD = 24
"""The head: the point every checker starts on, from its owner's side."""

_FACING = (0,) + tuple((point + 11) % 24 + 1 for point in range(1, 25))
"""``_FACING[p]``: the opponent's number of my point p (1..24)."""

_PATH = _FACING[1:]
"""The mover's points in the order the opponent passes them, from the opponent's 1-point
(my 13) up to its head (my 12): index ``q - 1`` is the opponent's point q."""


def _head_limit(roll: Roll, rules: Rules, first_turn: bool) -> int:
    """How many checkers may leave the head this turn (RULES.md, "Long nardy", head rule)."""
    if first_turn and (rules.head_doubles is None
                       or (roll.is_double and roll.high in rules.head_doubles)):
        return 2
    return 1


def _head_reason(rules: Rules, first_turn: bool, limit: int) -> str:
    """Why :func:`_head_limit` gives ``limit``, for the head rule's message."""
    if limit == 2:
        return "two on the player's first turn"
    if not first_turn or rules.head_doubles is None:   # (None: two on any first turn)
        return "two only on the player's first turn of the game"
    *others, last = [f"{d}{d}" for d in rules.head_doubles]
    return f"on the first turn only {', '.join(others)} and {last} allow two: the federation rule"


def _land(me: list[int], opp: list[int], start: int, die: int,
          rules: Rules) -> int | Literal["empty", "closed", "not_home", "higher"]:
    """Where a checker of ``me`` from ``start`` lands with ``die`` (0 when borne off), or why it
    cannot: ``empty`` (no checker there), ``closed`` (an opposing checker holds the point),
    ``not_home`` (bearing off with a checker outside 1..6) or ``higher`` (a larger die while a
    checker stands higher). The head rule is the caller's."""
    if not 1 <= start <= 24 or not me[start]:
        return "empty"
    end = start - die
    if end > 0:
        return "closed" if opp[_FACING[end]] else end
    if any(me[7:25]):
        return "not_home"
    if end < 0 and not rules.bear_off_any_with_larger and any(me[start + 1:7]):
        return "higher"
    return OFF


def _unpassed_block(me: Sequence[int], opp: Sequence[int]) -> int | None:
    """The lowest point, in the opponent's numbering, of six points in a row that ``me`` holds
    with no checker of ``opp`` past them (on a lower point of its own, or borne off); None when
    there is none (RULES.md, "Long nardy", six-point block)."""
    if me[1:25].count(0) > 18:                 # fewer than six points held
        return None
    run = 0
    for q, point in enumerate(_PATH, 1):
        if me[point]:
            run += 1
            if run == 6 and not any(opp[:q - 5]):
                return q - 5
        else:
            run = 0
    return None


def _block_points(block: int) -> str:
    """The points of the block :func:`_unpassed_block` found at ``block``, in its holder's
    numbering, highest first: ``"18, 17, 16, 15, 14, 13"``."""
    return ", ".join(str(_FACING[q]) for q in range(block + 5, block - 1, -1))


class LongPosition(Position):
    """A long nardy position: both players' checkers and who is on roll. Immutable, hashable,
    pickles.

    Parameters
    ----------
    board : pair of 26-tuples of int
        ``board[player][point]``: checkers of ``player`` (0 or 1) on ``point``, numbered from
        that player's side, 1..24, 0 borne off; 25 (the bar) is always 0. 15 checkers each.
    turn : int
        The player on roll (0 or 1).

    Raises
    ------
    InvalidArgument
        Wrong shape, negative counts, not 15 checkers, both players on one point (my point p
        is the opponent's ``((p + 11) mod 24) + 1``), or a board no game reaches
        (:meth:`unreachable`: a checker on 25, checkers borne off with others outside home,
        an unpassed six-point block, both players finished).

    Notes
    -----
    ``str()`` is an ASCII board and ``_repr_svg_`` an SVG board (both heads show: mine on my
    24-point, top right, the opponent's on my 12-point, bottom left); :meth:`id` is the
    position's notation, :meth:`notation`, and ``repr()`` is
    ``LongPosition.from_notation('24x15/24x15/0')``.
    """

    __slots__ = ()
    game = "long"
    """The game the position belongs to (``Rules.game``)."""

    @staticmethod
    def unreachable(board: Board) -> str | None:
        """Why no long nardy game reaches ``board``, or None when one may; ``board`` as
        :meth:`Position.unreachable` takes it (RULES.md, "Long nardy", "Positions no game
        reaches"): a checker on 25 (there is no bar); a player with checkers borne off and
        others outside home (bearing off starts with all 15 home, and no checker leaves home:
        there is no hitting); six points in a row that no opposing checker has passed (no
        play may leave them, and a checker, once past, stays past); both players with all 15
        borne off."""
        if board[0][BAR] or board[1][BAR]:
            return f"no bar in long nardy: checkers on 25 in {board}"
        for player, (me, opp) in enumerate((board, board[::-1])):
            outside = sum(me[7:25])
            if me[OFF] and outside:
                return (f"player {player + 1} has borne off {plural(me[OFF], 'checker')} with "
                        f"{outside} still outside home (points 7..24): bearing off starts "
                        "with all 15 home")
            block = _unpassed_block(me, opp)
            if block is not None:
                return (f"player {player + 1} holds six points in a row "
                        f"({_block_points(block)}) that no checker of player {2 - player} has "
                        "passed")
        return Position.unreachable(board)

    @classmethod
    def start(cls, turn: int = 0) -> Self:
        """The starting position: 15 checkers each on their own 24-point (360 pips each)."""
        side = [0] * 26
        side[HEAD] = CHECKERS
        return cls._make((tuple(side), tuple(side)), turn)

    @staticmethod
    def facing(point: int) -> int:
        """The opponent's number of my ``point`` (1..24): ``((point + 11) mod 24) + 1``; the
        map is its own inverse (RULES.md, "Long nardy")."""
        return _FACING[point]

    def notation(self) -> str:
        """The position's text: ``<player 0>/<player 1>/<turn>``, each side its checkers from
        its own side as ``point`` or ``pointxcount``, highest point first, joined by commas
        (``-`` with none on the board; the rest are borne off). The start is
        ``24x15/24x15/0`` (RULES.md, "Long nardy position notation")."""
        sides = []
        for side in self.board:
            cells = [f"{p}x{side[p]}" if side[p] > 1 else str(p)
                     for p in range(24, 0, -1) if side[p]]
            sides.append(",".join(cells) or "-")
        return f"{sides[0]}/{sides[1]}/{self.turn}"

    @classmethod
    def from_notation(cls, text: str) -> Self:
        """The position :meth:`notation` writes as ``text``.

        Raises
        ------
        PositionIdError
            Text that is not three ``/``-separated parts, a point not 1..24 or written twice,
            a count not 1..15, more than 15 checkers a side, a turn not 0 or 1, a point held
            by both players, or a board no game reaches (:meth:`unreachable`); the message
            quotes ``text`` and says what is impossible.
        """
        parts = text.strip().split("/")
        if len(parts) != 3 or parts[2] not in ("0", "1"):
            raise PositionIdError(f"not a long nardy position {text!r} (expected "
                                  "<player 0>/<player 1>/<turn>, as in 24x15/24x15/0)")
        board = []
        for player, part in enumerate(parts[:2]):
            side = [0] * 26
            for cell in ([] if part == "-" else part.split(",")):
                match = _CELL.fullmatch(cell)
                point = int(match[1]) if match else 0
                count = int(match[2] or 1) if match else 0
                if not (1 <= point <= 24 and 1 <= count <= CHECKERS) or side[point]:
                    raise PositionIdError(f"bad point {cell!r} of player {player + 1} in long "
                                          f"nardy position {text!r} (points 1..24 once each, "
                                          "as 24 or 24x15)")
                side[point] = count
            side[OFF] = CHECKERS - sum(side)
            if side[OFF] < 0:
                raise PositionIdError(f"player {player + 1} has more than 15 checkers in long "
                                      f"nardy position {text!r}")
            board.append(side)
        try:
            return cls(board, int(parts[2]))
        except InvalidArgument as error:
            raise PositionIdError(f"impossible long nardy position {text!r}: {error}") from None

    def id(self) -> str:
        """The position's :meth:`notation` (errors and reports store it; a gnubg Position ID
        describes backgammon positions only)."""
        return self.notation()

    @classmethod
    def from_id(cls, text: str, turn: int | None = None) -> Self:
        """The position of :meth:`id`'s text, with ``turn`` on roll when given (raises
        PositionIdError as :meth:`from_notation`)."""
        position = cls.from_notation(text)
        return position if turn is None else position.with_turn(turn)

    def xgid(self, state: MatchState) -> str:
        """Not defined: an XGID describes backgammon positions only (raises InvalidArgument)."""
        raise InvalidArgument(f"an XGID describes backgammon positions, not long nardy "
                              f"position {self.notation()!r}")

    def __repr__(self) -> str:
        return f"LongPosition.from_notation({self.notation()!r})"

    def legal_plays(self, roll: Roll, rules: Rules = LONG,
                    first_turn: bool = False) -> tuple[LegalPlay, ...]:
        """Every legal play of ``roll`` for the player on roll (RULES.md, "Long nardy").

        A depth-first search over single-die steps on lists: a step lands only on a point no
        opposing checker holds (intermediate landings of a combined move included), at most
        one checker leaves the head (two on the first turn, as ``rules.head_doubles`` says),
        bearing off as in short nardy. A play is refused when the position after it holds six
        points in a row that no opposing checker has passed. Of the rest, the forced-play
        rules keep those using the most dice and, among one-die plays, the larger die; with
        ``rules.forced_play`` off every such play is legal, the empty one included.

        Parameters
        ----------
        roll : Roll
        rules : Rules
            ``head_doubles``, ``forced_play`` and ``bear_off_any_with_larger`` matter.
        first_turn : bool
            The player's first turn of the game (the head rule's exception).

        Returns
        -------
        tuple of LegalPlay
            ``(play, after)`` for each distinct resulting position ``after`` (the opponent on
            roll), moves with ``hit=False``, in the order the search first reaches them: dice
            in the order of ``roll.dice``, checkers from the 24-point down. Empty only when
            every play, the empty one included, leaves an unpassed six-point block (a position
            no legal game reaches).
        """
        opp, turn = self.opponent, self.turn
        return tuple(LegalPlay(Play(tuple(map(_MOVES.__getitem__, steps))),
                               LongPosition.after(board, opp, turn))
                     for board, steps in _legal(self, roll, rules, first_turn).items())

    def legal_sides(self, roll: Roll, rules: Rules = LONG,
                    first_turn: bool = False) -> tuple[tuple[int, ...], ...]:
        """The mover's side after each play of :meth:`legal_plays` (26 counts, the mover's
        numbering), in the same order, without building the plays and positions (the
        engine's batched evaluation needs only these).

        Returns
        -------
        tuple of 26-tuples of int
            ``legal_plays(roll, rules, first_turn)[i].after.board[self.turn]`` for each ``i``.
        """
        return tuple(_legal(self, roll, rules, first_turn))


_MOVES = {(start, end): Move(start, end) for start in range(1, 25) for end in range(start)}
"""The steps of long nardy plays (no hits), made once: Move is immutable."""

_Side = tuple[int, ...]
"""One player's 26 counts, from that player's side (``Position.board[player]``)."""
_Steps = tuple[tuple[int, int], ...]
"""The steps of a play as ``(start, end)``, in the order played."""
_Reached = tuple[tuple[int, int], _Steps, bool]
"""How :func:`_search` reaches a board: ``((steps, largest die), steps, blocked)``."""


def _legal(position: LongPosition, roll: Roll, rules: Rules,
           first_turn: bool) -> dict[_Side, _Steps]:
    """The legal plays of :meth:`LongPosition.legal_plays`: the mover's side after each ->
    its steps ``(start, end)``, in the search's order."""
    found = _search(position, roll, rules, first_turn)
    if not rules.forced_play:
        return {board: steps for board, (_, steps, blocked) in found.items() if not blocked}
    for best in sorted({entry[0] for entry in found.values()}, reverse=True):
        chosen = {board: steps for board, (key, steps, blocked) in found.items()
                  if key == best and not blocked}   # the best key some allowed play has
        if chosen:
            return chosen
    return {}


class _Full(Exception):
    """Raised by :func:`_search` asked to stop at the first full play."""


_BIT = (0,) + tuple(1 << (_FACING[point] - 1) for point in range(1, 25))
"""``_BIT[p]``: my point p as a bit of the opponent's path (bit ``q - 1`` its point q)."""


def _search(position: LongPosition, roll: Roll, rules: Rules, first_turn: bool,
            stop_at_full: bool = False) -> dict[_Side, _Reached]:
    """Every board the player on roll can reach with single-die steps of ``roll`` (closed
    points, the head rule and bearing off checked): board -> ``((steps, largest die), steps,
    blocked)``, the best way the forced-play rules rank to reach it, steps as ``(start,
    end)``, ``blocked`` when it holds an unpassed six-point block (:func:`_unpassed_block`).
    Boards come in the order a depth-first search over every order of the steps first
    reaches them (dice in the order of ``roll.dice``, starts from the 24-point down). With
    ``stop_at_full``, raise :class:`_Full` at the first play of all the dice (or off to the
    last checker) that is not blocked.

    Two dice: both orders, each start of the first die, then each start of the second. A
    double: only the steps with starts from the highest down, each start at most the one
    before (every other order of the same steps reaches the same board later, or not at
    all: a step from a higher point never spoils a later one from a lower point: it may
    bring a checker to it, home or below a checker bearing off), so each board is reached
    once per number of steps, first by the same steps as in every order.

    The points held are kept as a bit mask of the opponent's path, so that a block is six
    bits in a row starting below the opponent's lowest checker (its point ``low``; 0 once
    it has borne one off)."""
    me, opp = position.lists()
    closed = [False] + [opp[point] > 0 for point in _PATH]   # closed[p]: opponent holds my p
    larger = rules.bear_off_any_with_larger
    dice = roll.dice
    heads = _head_limit(roll, rules, first_turn)            # checkers that may leave the head
    outside = sum(me[7:25])                                 # checkers not yet home
    held = sum(_BIT[point] for point in range(1, 25) if me[point])
    unpassed = (1 << next(q for q in range(25) if opp[q])) - 1    # runs from below ``low``
    found: dict[_Side, _Reached] = {}

    def record(key: tuple[int, int], steps: _Steps) -> None:
        board = tuple(me)
        run = held & held >> 1 & held >> 2 & held >> 3 & held >> 4 & held >> 5
        blocked = bool(run & unpassed)
        old = found.get(board)
        if old is None or old[0] < key:                    # the forced-play rules' order
            found[board] = (key, steps, blocked)
        if stop_at_full and not blocked and (len(steps) == len(dice) or me[OFF] == CHECKERS):
            raise _Full

    def steps_from(top: int, die: int, done: _Steps) -> None:
        """Every step of ``die`` from a start ``top`` or lower (as :func:`_land`, the head
        rule checked), then the next dice's."""
        nonlocal heads, outside, held
        for start in [p for p in range(top, 0, -1) if me[p]]:
            end = start - die
            if start == HEAD and not heads:
                continue
            if end > 0:
                if closed[end]:
                    continue
            elif outside or (end < 0 and not larger and any(me[start + 1:7])):
                continue
            else:
                end = OFF
            me[start] -= 1
            me[end] += 1
            held += _BIT[end] * (me[end] == 1) - _BIT[start] * (not me[start])
            heads -= start == HEAD
            outside -= start > 6 >= end
            steps = done + ((start, end),)
            if len(dice) == 4:
                record((len(steps), die), steps)
                if len(steps) < 4:
                    steps_from(start, die, steps)
            elif len(steps) == 1:
                record((1, die), steps)
                steps_from(24, dice[1] if die == dice[0] else dice[0], steps)
            else:
                record((2, dice[0]), steps)
            outside += start > 6 >= end
            heads += start == HEAD
            held -= _BIT[end] * (me[end] == 1) - _BIT[start] * (not me[start])
            me[end] -= 1
            me[start] += 1

    record((0, 0), ())
    steps_from(24, dice[0], ())
    if len(dice) == 2:
        steps_from(24, dice[1], ())
    return found


_CELL = re.compile(r"(\d{1,2})(?:x(\d{1,2}))?")


def check_play(position: LongPosition, roll: Roll, steps: Iterable[tuple[int, int]],
               rules: Rules = LONG, first_turn: bool = False) -> LegalPlay:
    """Check a written play step by step and return it as a legal play.

    Parameters
    ----------
    position : LongPosition
    roll : Roll
    steps : iterable of (int, int)
        ``(start, die)``: the point moved from (1..24, from the mover's side) and the pips,
        one die per step, in the order written.
    rules : Rules
    first_turn : bool
        The player's first turn of the game (the head rule's exception).

    Returns
    -------
    LegalPlay
        The play as written (moves in that order) and the position after it, the same
        ``after`` as the matching entry of :meth:`LongPosition.legal_plays`.

    Raises
    ------
    IllegalPlayError
        With ``kind`` and ``step`` (index of the offending step, None for the whole play):
        ``illegal_play`` (no checker on the start point, a die the roll does not have or has
        used, bearing off with a checker outside home or a larger die while a checker stands
        higher), ``head_rule`` (one checker more leaves the head than this turn allows),
        ``closed_point`` (a step lands on a point an opposing checker holds), ``six_block``
        (step None: the play leaves six points in a row no opposing checker has passed),
        ``forced_play`` (step None: a legal play uses more dice, or the larger die).

    Notes
    -----
    RULES.md, "Long nardy". The steps are checked directly; the legal plays are enumerated
    only when the play uses fewer dice than the roll has (to apply the forced-play rules).
    """
    me, opp = position.lists()
    limit = _head_limit(roll, rules, first_turn)
    dice = list(roll.dice)
    left = 0
    moves = []
    for index, (start, die) in enumerate(steps):
        if die not in dice:
            where = _where(position, roll, index, start, die)
            raise IllegalPlayError(f"no {die} left to play {where}", "illegal_play", index)
        dice.remove(die)
        end = _land(me, opp, start, die, rules)
        if isinstance(end, str) or (start == HEAD and left == limit):
            where = _where(position, roll, index, start, die)  # the step is illegal
        if end == "empty":
            raise IllegalPlayError(f"no checker on {point_str(start)} {where}", "illegal_play",
                                   index)
        if start == HEAD and left == limit:
            raise IllegalPlayError(f"checker {left + 1} off the head this turn, {limit} "
                                   f"allowed ({_head_reason(rules, first_turn, limit)}), "
                                   f"{where}", "head_rule", index)
        if end == "closed":
            raise IllegalPlayError(f"point {start - die} is held by the opponent {where}",
                                   "closed_point", index)
        if end == "not_home":
            raise IllegalPlayError(f"bearing off with checkers outside home {where}",
                                   "illegal_play", index)
        if end == "higher":
            raise IllegalPlayError(f"a {die} bears off from {start} only when no checker is "
                                   f"higher {where}", "illegal_play", index)
        left += start == HEAD
        me[start] -= 1
        me[end] += 1
        moves.append(Move(start, end))
    play = Play(tuple(moves))
    after = LongPosition.after(me, opp, position.turn)
    block = _unpassed_block(me, opp)
    if block is not None:
        raise IllegalPlayError(f"{play} of roll {roll} in {position.notation()!r} holds six "
                               f"points in a row ({_block_points(block)}) that no opposing "
                               "checker has passed", "six_block")
    if rules.forced_play and len(moves) < len(roll.dice):
        legal = position.legal_plays(roll, rules, first_turn)
        if all(other.after != after for other in legal):
            raise IllegalPlayError(f"{play} of roll {roll} in {position.notation()!r} breaks "
                                   f"the forced-play rules: {legal[0].play} uses more dice "
                                   "or the larger one", "forced_play")
    return LegalPlay(play, after)


def _where(position: LongPosition, roll: Roll, index: int, start: int, die: int) -> str:
    """Where a step of :func:`check_play` is, for its error message."""
    return (f"in {point_str(start)}/{point_str(max(start - die, 0))} (step {index + 1}) of roll "
            f"{roll} in {position.notation()!r}")


def blocked_rolls(position: LongPosition, rules: Rules = LONG, first_turn: bool = False) -> int:
    """How many of the 36 rolls leave the player on roll unable to play fully.

    A roll counts when no legal play (:meth:`LongPosition.legal_plays`) uses all its dice (2,
    or 4 for a double) or ends the game (bearing off the last checker with the first die is a
    full play). Exact: the legal plays' search, stopped at the first full play, for each of the
    21 distinct rolls, weighed by its throws, 1 for a double, 2 otherwise.

    Returns
    -------
    int
        0..36 rolls of 36.
    """
    count = 0
    for roll in ALL_ROLLS:
        try:
            _search(position, roll, rules, first_turn, stop_at_full=True)
        except _Full:
            continue
        count += 1 if roll.is_double else 2
    return count
