"""Positions and the legal plays of a roll.

The rules are those of ``RULES.md`` (short nardy / backgammon, as summarised from the Russian
Sport Nardy Federation's international rules): checkers move from higher to lower points,
enter from the bar onto the opponent's home board, land only on open points (fewer than two
opposing checkers), hit blots, bear off when all fifteen are home, and obey the forced-play
rules.

Numbering: each player counts points from their own side, 1..24; the bar is 25 and borne-off
checkers are at 0, exactly as the ``.mat`` notation writes them. My point ``p`` is the
opponent's point ``25 - p``.

Value types: :class:`Position` is immutable and hashable; ``str()`` is an ASCII board,
:meth:`Position.id` its gnubg Position ID, which ``from_id`` reads back, and ``repr()``
evaluates back. The rolls, moves and plays played on it are in
:mod:`~nardy_analysis.game.moves`.

Stepping: searches that try many steps work on mutable 26-entry lists (``Position.lists()``),
step with :func:`apply_step`, take a step back with :func:`undo_step`, try the points
:func:`movable_points` gives, and turn the lists back into a position with
:meth:`Position.after`.
"""

from __future__ import annotations

from operator import mul
from typing import Iterable, NamedTuple, NoReturn, Self, Sequence

from ..errors import IllegalPlayError, InvalidArgument, PositionIdError
from .ids import Board, MatchState, decode_position_id, decode_xgid, encode_position_id, encode_xgid
from .moves import Move, Play, Roll, point_str
from .rules import BAR, CHECKERS, OFF, STANDARD, Rules


def apply_step(me: list[int], opp: list[int], start: int, die: int,
               rules: Rules = STANDARD) -> Move | None:
    """Move one checker of ``me`` from ``start`` by ``die`` pips, in place.

    Parameters
    ----------
    me, opp : list of int
        26 counts each (``Position.lists()``), indexed by point from their owner's side: the
        mover's and the opponent's checkers. Both are changed in place.
    start : int
        The point (1..24, or 25 for the bar) to move from, from the mover's side.
    die : int
        The pips to move, 1..6.
    rules : Rules
        Only ``bear_off_any_with_larger`` and ``home_safe`` (a lone checker in its owner's
        home board closes the point) matter here.

    Returns
    -------
    Move or None
        The step taken (``hit`` when it sent a blot to the bar), or None with the lists
        untouched when the step is not allowed: no checker there, a checker on the bar must
        enter first, the landing point is closed, or bearing off is not (yet) allowed.

    Notes
    -----
    RULES.md, "Moving", "The bar", "Bearing off" and "Caucasian short nardy". The
    forced-play rules concern whole plays and are not checked here (see
    :meth:`Position.legal_plays`).
    """
    if me[start] == 0 or (me[BAR] and start != BAR):
        return None
    end = start - die
    hit = False
    if end > 0:
        there = opp[25 - end]
        if there >= 2:
            return None
        if there == 1:
            if end > 18 and rules.home_safe:  # the opponent's points 1..6: its home board
                return None
            opp[25 - end] = 0
            opp[BAR] += 1
            hit = True
    else:
        if any(me[7:26]):
            return None
        if end < 0:
            if not rules.bear_off_any_with_larger and any(me[start + 1:7]):
                return None
            end = OFF
    me[start] -= 1
    me[end] += 1
    return _MOVES[start][end][hit]


# Every step, made once: Move(start, end, hit) is _MOVES[start][end][hit] (a Move is immutable,
# so apply_step hands out these rather than make one per step).
_MOVES = tuple(tuple((Move(start, end), Move(start, end, True)) for end in range(BAR))
               for start in range(BAR + 1))
_POINTS = tuple(range(BAR + 1))  # the pips of a checker on each point, 0 (off) to 25 (bar)


def undo_step(me: list[int], opp: list[int], move: Move) -> None:
    """Take back ``move``, the last step :func:`apply_step` made on ``me`` and ``opp``, in
    place (a blot it hit goes back from the bar to its point)."""
    me[move.end] -= 1
    me[move.start] += 1
    if move.hit:
        opp[BAR] -= 1
        opp[25 - move.end] = 1


def movable_points(me: list[int]) -> Iterable[int]:
    """The points the mover may try to move from: the bar alone when a checker is on it
    (RULES.md, "The bar"), else every point 24..1 holding a checker, highest first."""
    if me[BAR]:
        return (BAR,)
    return [p for p in range(24, 0, -1) if me[p]]


class LegalPlay(NamedTuple):
    """One legal play of a roll (:meth:`Position.legal_plays`) and the position it reaches
    (the opponent on roll)."""

    play: Play
    after: "Position"


class Position:
    """A position: both players' checkers and who is on roll. Immutable and hashable.

    Parameters
    ----------
    board : pair of 26-tuples of int
        ``board[player][point]`` is how many checkers ``player`` (0 or 1) has on ``point``,
        numbered from that player's own side: 1..24 on the board, 25 on the bar, 0 borne off.
        Each player has 15 checkers in all.
    turn : int
        The player on roll (0 or 1). In a ``.mat`` file player 0 is the left-hand column.

    Raises
    ------
    InvalidArgument
        Wrong shape, negative counts, not 15 checkers, both players on one point, or a board
        no game reaches (:meth:`unreachable`). This is the one place a board is validated:
        IDs, engines and analyses rely on it.

    Notes
    -----
    ``str()`` is an ASCII board; :meth:`id` gives the gnubg Position ID and
    :meth:`from_id` reads it; ``repr()`` is ``Position.from_id('4HPwATDgc/ABMA', turn=0)``.
    In a notebook a position shows as an SVG board (:mod:`nardy_analysis.game.svg`).
    """

    __slots__ = ("board", "turn", "_hash")
    board: Board
    turn: int
    _hash: int | None
    game = "short"
    """The game the position belongs to (``Rules.game``): short nardy here."""

    def __init__(self, board: Sequence[Sequence[int]], turn: int = 0) -> None:
        board = (tuple(board[0]), tuple(board[1]))
        for player, side in enumerate(board):
            if len(side) != 26 or any(n < 0 for n in side) or sum(side) != CHECKERS:
                raise InvalidArgument(f"player {player + 1} needs 26 non-negative counts "
                                      f"summing to 15, got {side}")
        for point in range(1, 25):
            if board[0][point] and board[1][self.facing(point)]:
                raise InvalidArgument(f"both players have checkers on player 1's point {point}")
        reason = self.unreachable(board)
        if reason:
            raise InvalidArgument(reason)
        if turn not in (0, 1):
            raise InvalidArgument(f"turn must be 0 or 1, got {turn!r}")
        _set_board(self, board)
        _set_turn(self, int(turn))
        _set_hash(self, None)

    @staticmethod
    def unreachable(board: Board) -> str | None:
        """Why no game reaches ``board``, or None when one may.

        Parameters
        ----------
        board : pair of 26-tuples of int
            ``board[player][point]``, 15 checkers a side, no point held by both.

        Returns
        -------
        str or None
            What is impossible: both players have borne off all 15 checkers (the game ends
            when the first has), or both have checkers on the bar while the other's home
            board holds two or more checkers on each of its six points (neither could enter,
            so neither made the play before: RULES.md, "Positions no game reaches").
        """
        if board[0][OFF] == board[1][OFF] == CHECKERS:
            return "both players have borne off all 15 checkers (the game ends with the first)"
        if all(side[BAR] and min(other[1:7]) >= 2 for side, other in (board, board[::-1])):
            return ("both players have checkers on the bar against a closed home board (two "
                    "or more on each of the other's points 1..6): the last to play could neither "
                    "enter nor move")
        return None

    @classmethod
    def _make(cls, board: Board, turn: int) -> Self:
        """Build without validation (for positions reached by legal steps)."""
        self = object.__new__(cls)
        _set_board(self, board)
        _set_turn(self, turn)
        _set_hash(self, None)
        return self

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError("Position is immutable")

    def __reduce__(self) -> tuple[type[Self], tuple[Board, int]]:
        """Pickled as its board and turn (for worker processes and clusters)."""
        return type(self), (self.board, self.turn)

    def __eq__(self, other: object) -> bool:
        return (type(other) is type(self) and isinstance(other, Position)
                and self.turn == other.turn and self.board == other.board)

    def __hash__(self) -> int:
        value = self._hash
        if value is None:  # computed when first asked (most positions never are)
            value = hash((self.board, self.turn))
            _set_hash(self, value)
        return value

    def __repr__(self) -> str:
        return f"Position.from_id({self.id()!r}, turn={self.turn})"

    def id(self) -> str:
        """The gnubg Position ID, from the side of the player on roll (``4HPwATDgc/ABMA`` for
        the start); see :func:`~nardy_analysis.game.ids.encode_position_id`."""
        return encode_position_id(self.board, self.turn)

    @classmethod
    def from_id(cls, text: str, turn: int = 0) -> Self:
        """The position of a gnubg Position ID with ``turn`` (0 or 1) on roll.

        Raises
        ------
        PositionIdError
            A malformed ID (see :func:`~nardy_analysis.game.ids.decode_position_id`) or an
            impossible one: both players on a point, or a board no game reaches
            (:meth:`unreachable`); the message quotes ``text``.
        InvalidArgument
            ``turn`` not 0 or 1.
        """
        board = decode_position_id(text, turn)
        try:
            return cls(board, turn)
        except InvalidArgument as error:
            raise PositionIdError(f"impossible Position ID {text!r}: {error}") from None

    def xgid(self, state: MatchState) -> str:
        """The XGID of this position and a match state whose ``player`` is on roll here; see
        :func:`~nardy_analysis.game.ids.encode_xgid`."""
        return encode_xgid(self.board, self.turn, state)

    @classmethod
    def from_xgid(cls, text: str) -> tuple[Self, MatchState]:
        """The position and match state of an XGID, the state's ``player`` on roll; see
        :func:`~nardy_analysis.game.ids.decode_xgid` (which raises PositionIdError, as does a
        board no game reaches, :meth:`unreachable`; the message quotes ``text``)."""
        board, state = decode_xgid(text)
        try:
            return cls(board, state.player), state
        except InvalidArgument as error:
            raise PositionIdError(f"impossible XGID {text!r}: {error}") from None

    @classmethod
    def start(cls, turn: int = 0) -> Self:
        """The starting position: 2 on the 24-point, 5 on 13, 3 on 8, 5 on 6, for both."""
        side = [0] * 26
        side[24], side[13], side[8], side[6] = 2, 5, 3, 5
        return cls._make((tuple(side), tuple(side)), turn)

    @classmethod
    def from_mover(cls, on_roll: Sequence[int], opponent: Sequence[int],
                   turn: int = 0) -> Self:
        """A position from the side of the player on roll (``turn``) and of the opponent."""
        board = (on_roll, opponent) if turn == 0 else (opponent, on_roll)
        return cls(board, turn)

    @property
    def on_roll(self) -> tuple[int, ...]:
        """Checkers of the player on roll, indexed by point (0 off, 1..24, 25 bar)."""
        return self.board[self.turn]

    @property
    def opponent(self) -> tuple[int, ...]:
        """Checkers of the player not on roll, indexed by their own points."""
        return self.board[1 - self.turn]

    def pip_count(self, player: int | None = None) -> int:
        """Pip count of ``player`` (default: the player on roll), in pips.

        Sum over checkers of their point number from the owner's side; the bar counts 25,
        borne-off checkers 0. The start position has 167 pips (RULES.md).
        """
        side = self.board[self.turn if player is None else player]
        return sum(map(mul, _POINTS, side))

    def borne_off(self, player: int) -> int:
        """How many checkers ``player`` has borne off."""
        return self.board[player][OFF]

    @property
    def is_over(self) -> bool:
        """True when a player has borne off all 15 checkers."""
        return self.board[0][OFF] == CHECKERS or self.board[1][OFF] == CHECKERS

    def with_turn(self, turn: int) -> Self:
        """The same checkers with ``turn`` on roll."""
        return self if turn == self.turn else type(self)._make(self.board, turn)

    @staticmethod
    def facing(point: int) -> int:
        """The opponent's number of my ``point`` (1..24): ``25 - point`` (RULES.md, "Board and
        numbering")."""
        return 25 - point

    def lists(self) -> tuple[list[int], list[int]]:
        """Mutable copies ``(on_roll, opponent)`` for step-by-step play."""
        board, turn = self.board, self.turn
        return list(board[turn]), list(board[1 - turn])

    @classmethod
    def after(cls, mover: Sequence[int], opponent: Sequence[int], mover_turn: int) -> Self:
        """The position after the player ``mover_turn`` played: the opponent is on roll."""
        self = object.__new__(cls)  # as _make does, in one call fewer
        if mover_turn:
            _set_board(self, (tuple(opponent), tuple(mover)))
            _set_turn(self, 0)
        else:
            _set_board(self, (tuple(mover), tuple(opponent)))
            _set_turn(self, 1)
        _set_hash(self, None)
        return self

    def legal_plays(self, roll: Roll, rules: Rules = STANDARD) -> tuple[LegalPlay, ...]:
        """Every legal play of ``roll`` for the player on roll.

        Plays that lead to the same position are one play. Forced-play rules (RULES.md):
        both dice if any sequence uses both; if only one can be used, the larger when either
        can; with a double as many steps as possible (up to four). When no step is possible
        the only play is the empty one (a dance). With ``rules.forced_play`` off, every
        sequence of legal steps, the empty one included, is a legal play. With
        ``rules.home_safe`` (Caucasian short nardy) a lone opposing checker in its own home
        board cannot be hit: its point is closed, for landing and entering alike.

        Parameters
        ----------
        roll : Roll
        rules : Rules

        Returns
        -------
        tuple of LegalPlay
            ``(play, after)`` for each distinct resulting position ``after`` (the opponent on
            roll), with one play that reaches it, in the order a depth-first search first
            reaches them: dice in the order of ``roll.dice`` (the higher first), checkers from
            the bar down to point 1.
        """
        me, opp = self.lists()
        found: dict[Position, tuple[int, int, Play]] = {}  # position -> (steps, max die, play)
        seen: set[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = set()
        dice = roll.dice
        turn = self.turn

        def record(steps: list[Move], used: list[int]) -> None:
            pos = Position.after(me, opp, turn)
            key = (len(steps), max(used, default=0))
            if pos not in found or found[pos][:2] < key:
                found[pos] = (*key, Play(tuple(steps)))

        def search(remaining: tuple[int, ...], steps: list[Move], used: list[int]) -> None:
            state = (tuple(me), tuple(opp), remaining)
            if state in seen:
                return
            seen.add(state)
            moved = False
            for i, die in enumerate(remaining):
                if die in remaining[:i]:
                    continue
                rest = remaining[:i] + remaining[i + 1:]
                for start in movable_points(me):
                    move = apply_step(me, opp, start, die, rules)
                    if move is None:
                        continue
                    moved = True
                    steps.append(move)
                    used.append(die)
                    search(rest, steps, used)
                    steps.pop()
                    used.pop()
                    undo_step(me, opp, move)
            if not moved or not rules.forced_play:
                record(steps, used)

        search(dice, [], [])
        if not rules.forced_play:
            return tuple(LegalPlay(play, pos) for pos, (_, _, play) in found.items())
        most = max(n for n, _, _ in found.values())
        biggest = max(d for n, d, _ in found.values() if n == most)
        return tuple(LegalPlay(play, pos) for pos, (n, d, play) in found.items()
                     if n == most and d == biggest)

    def _repr_svg_(self) -> str:
        """The board as SVG, for notebooks (see :func:`nardy_analysis.game.svg.board_svg`)."""
        from .svg import board_svg
        return board_svg(self)

    def __str__(self) -> str:
        """An ASCII board from the side of the player on roll: X is on roll, O is not."""
        me, opp = self.on_roll, self.opponent

        def cell(point: int, row: int) -> str:
            mine, theirs = me[point], opp[self.facing(point)]
            n, mark = (mine, "X") if mine else (theirs, "O")
            if n > row:
                return f" {n:>2}" if row == 4 and n > 5 else f"  {mark}"
            return "  ."

        top = list(range(13, 25))
        bottom = list(range(12, 0, -1))
        lines = [" " + "".join(f"{p:>3}" for p in top[:6]) + " |"
                 + "".join(f"{p:>3}" for p in top[6:])]
        for row in range(5):
            lines.append(" " + "".join(cell(p, row) for p in top[:6]) + " |"
                         + "".join(cell(p, row) for p in top[6:]))
        lines.append(" " + "-" * 20 + "+" + "-" * 18)
        for row in reversed(range(5)):
            lines.append(" " + "".join(cell(p, row) for p in bottom[:6]) + " |"
                         + "".join(cell(p, row) for p in bottom[6:]))
        lines.append(" " + "".join(f"{p:>3}" for p in bottom[:6]) + " |"
                     + "".join(f"{p:>3}" for p in bottom[6:]))
        bar = f" bar: X {me[BAR]} O {opp[BAR]}  " if self.game == "short" else ""
        lines.append(f"{bar} off: X {me[OFF]} O {opp[OFF]}   "
                     f"pips: X {self.pip_count(self.turn)} O {self.pip_count(1 - self.turn)}")
        return "\n".join(lines)


# The slots set directly (Position.__setattr__ refuses, which keeps it immutable).
_set_board, _set_turn, _set_hash = (Position.__dict__[name].__set__
                                    for name in ("board", "turn", "_hash"))


def dances(position: Position, roll: Roll, rules: Rules = STANDARD) -> bool:
    """Whether the player on roll can play no step of ``roll``, found without
    :meth:`Position.legal_plays`' whole search.

    Parameters
    ----------
    position : Position
    roll : Roll
    rules : Rules

    Returns
    -------
    bool
        True when no die of the roll can be played from any point (RULES.md, "Moving", "The
        bar", "Bearing off"): the one legal play is then the empty one.
    """
    me, opp = position.lists()
    return not any(apply_step(me, opp, start, die, rules)
                   for die in set(roll.dice) for start in movable_points(me))


def one_die_plays(position: Position, roll: Roll,
                  rules: Rules = STANDARD) -> frozenset[Position] | None:
    """The positions of the legal plays of a roll of two different dice when no play can use
    both, found without :meth:`Position.legal_plays`' whole search.

    Parameters
    ----------
    position : Position
    roll : Roll
        Two different dice (a double gives None).
    rules : Rules
        With the forced-play rules (``rules.forced_play``; without them None).

    Returns
    -------
    frozenset of Position or None
        The positions (the opponent on roll) of the plays of one die: the larger die's when
        it can be played, else the smaller's (RULES.md, forced play), else the position
        itself (a dance); exactly the positions of ``position.legal_plays(roll, rules)``.
        None when some play uses both dice, for a double, or without forced play.
    """
    if roll.is_double or not rules.forced_play:
        return None
    me, opp = position.lists()
    turn = position.turn
    plays: dict[int, list[Position]] = {roll.high: [], roll.low: []}
    for die, other in ((roll.high, roll.low), (roll.low, roll.high)):
        for start in movable_points(me):
            move = apply_step(me, opp, start, die, rules)
            if move is None:
                continue
            for second in movable_points(me):
                step = apply_step(me, opp, second, other, rules)
                if step is not None:  # both dice can be played
                    undo_step(me, opp, step)
                    undo_step(me, opp, move)
                    return None
            plays[die].append(Position.after(me, opp, turn))
            undo_step(me, opp, move)
    return frozenset(plays[roll.high] or plays[roll.low] or [Position.after(me, opp, turn)])


def play_steps(position: Position, steps: Iterable[tuple[int, int]],
               rules: Rules = STANDARD) -> tuple[Position, Play]:
    """Apply single-die steps for the player on roll.

    Parameters
    ----------
    position : Position
    steps : iterable of (int, int)
        ``(start, die)``: the point to move from (from the mover's side, 25 the bar) and the
        pips, 1..6, in the order played.
    rules : Rules

    Returns
    -------
    after : Position
        The resulting position, the opponent on roll.
    play : Play
        The steps as moves, hits marked.

    Raises
    ------
    IllegalPlayError
        At the first step the rules do not allow (:func:`apply_step`; RULES.md, "Moving").
        The forced-play rules are not checked here (see :meth:`Position.legal_plays`).
    """
    me, opp = position.lists()
    moves = []
    for start, die in steps:
        move = apply_step(me, opp, start, die, rules)
        if move is None:
            raise IllegalPlayError(f"cannot move {point_str(start)}/"
                                   f"{point_str(max(start - die, 0))} with a {die} in position "
                                   f"{position!r}")
        moves.append(move)
    return Position.after(me, opp, position.turn), Play(tuple(moves))


def most_multiple(rules: Rules = STANDARD, *, money: bool = False, cube: int = 1) -> int:
    """The largest multiple of the cube a game can score: 3 with backgammons, 2 with gammons
    alone, 1 without them or in a money game under the Jacoby rule with the cube not turned;
    long nardy: a home mars's (at least 2, a mars).

    Parameters are those of :func:`ending`. RULES.md, "End of game and scoring" and "Doubling
    cube, matches, house rules" (Jacoby); long nardy: RULES.md, "Long nardy", "Results".
    """
    if rules.game == "long":
        return max(2, rules.home_mars)
    if not rules.gammons or (money and rules.jacoby and cube == 1):
        return 1
    return 3 if rules.backgammons else 2


def ending(position: Position, rules: Rules = STANDARD, *, money: bool = False,
           cube: int = 1) -> tuple[str, int]:
    """How a game borne off to the end ends, and the multiple of the cube it scores.

    Parameters
    ----------
    position : Position
        A finished game: one player (the winner) has borne off all 15 checkers.
    rules : Rules
        Whether gammons and backgammons score, and the Jacoby rule.
    money : bool
        A money game (the Jacoby rule applies only there).
    cube : int
        The cube value (the Jacoby rule counts gammons only once the cube has been turned).

    Returns
    -------
    ending : str
        ``single``, ``gammon`` (the loser has borne off no checker) or ``backgammon`` (a
        gammon with a loser's checker still on the bar or in the winner's home board).
        Long nardy (``rules.game == "long"``): ``oin`` (the loser has borne off a checker),
        ``mars`` (none off, not all home) or ``home_mars`` (all home, none off).
    multiple : int
        1, 2 or 3: the points won are ``multiple * cube``. Long nardy: 1, 2 and
        ``rules.home_mars``.

    Raises
    ------
    InvalidArgument
        The game is not over.

    Notes
    -----
    RULES.md, "End of game and scoring" and "Doubling cube, matches, house rules" (Jacoby);
    long nardy: RULES.md, "Long nardy", "Results" (the rule page "Игра в длинные нарды").
    """
    if not position.is_over:
        raise InvalidArgument(f"the game is not over in {position!r}")
    winner = 0 if position.borne_off(0) == CHECKERS else 1
    loser = position.board[1 - winner]
    if rules.game == "long":
        if loser[OFF]:
            return "oin", 1
        return ("home_mars", rules.home_mars) if sum(loser[1:7]) == CHECKERS else ("mars", 2)
    if loser[OFF] or most_multiple(rules, money=money, cube=cube) == 1:
        return "single", 1
    if rules.backgammons and (loser[BAR] or any(loser[19:BAR])):
        return "backgammon", 3
    return "gammon", 2
