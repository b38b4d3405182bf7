"""gnubg Position ID and Match ID, and eXtreme Gammon's XGID: encoding and decoding of raw boards.

Boards here are pairs of 26 counts, ``board[player][point]`` as
:attr:`~nardy_analysis.game.position.Position.board` holds them; this module knows nothing of
:class:`~nardy_analysis.game.position.Position`, which builds on it (``Position.id()``,
``Position.from_id``, ``Position.xgid``, ``Position.from_xgid``) and validates the boards.

Sources of the formats (described, never copied; this module is written from the descriptions):

* Position ID and Match ID: GNU Backgammon manual, "Technical Notes", sections "A technical
  description of the Position ID" and "A technical description of the Match ID"
  (https://www.gnu.org/software/gnubg/manual/html_node/Technical-Notes.html).
* XGID: eXtreme Gammon 2 documentation (https://www.extremegammon.com/extremegammon2.pdf,
  "XGID"), with the reading of its fields that GNU Backgammon's ``set xgid`` command applies.

Conventions, fixed once here:

* Player numbers are those of :class:`~nardy_analysis.game.position.Position` and of the gnubg Match
  ID (player 0 and player 1).
* gnubg writes the Position ID from the point of view of the player on roll, but lists the
  checkers of the player *not* on roll first and those of the player on roll second (gnubg keeps
  the player on roll in ``anBoard[1]`` and encodes ``anBoard[0]`` first). The manual's prose
  names the player on roll first; the program does the opposite, and this module follows the
  program, so its IDs are the ones gnubg prints and reads. The start position, being symmetric,
  is the same either way: ``4HPwATDgc/ABMA``.
* In an XGID the bottom player (upper-case letters, turn ``1``) is player 1 and the top player
  (lower-case, turn ``-1``) is player 0, as in gnubg's import of XGIDs.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from enum import IntEnum

from ..errors import InvalidArgument, PositionIdError
from .rules import BAR, CHECKERS, OFF

__all__ = ["GameState", "MatchState", "encode_position_id", "decode_position_id", "match_id",
           "match_from_id", "encode_xgid", "decode_xgid"]

Board = tuple[tuple[int, ...], tuple[int, ...]]
"""``board[player][point]``: 26 counts per player from their own side (0 off, 25 the bar)."""

_BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_POSITION_BITS = 80
_MATCH_BITS = 67
# Match key fields in order, with their widths in bits: the 66 of the gnubg manual, then the
# Jacoby flag, stored inverted, that gnubg 1.08 and later add as bit 67.
_MATCH_WIDTHS = (4, 2, 1, 1, 3, 1, 1, 2, 3, 3, 15, 15, 15, 1)
_MAX_FIELD = 2 ** 15 - 1  # the largest match length or score a 15-bit field holds
_MAX_CUBE = 2 ** 15       # the largest cube a 4-bit logarithm holds


def _bad(kind: str, text: object, why: str) -> PositionIdError:
    return PositionIdError(f"malformed {kind} {text!r}: {why}")


def _is_power_of_two(n: object) -> bool:
    return isinstance(n, int) and n >= 1 and n & (n - 1) == 0


def _base64_int(kind: str, text: object, length: int, nbytes: int) -> int:
    """The little-endian integer of a base64 ID of ``length`` characters (no ``=`` padding)."""
    if not isinstance(text, str) or len(text) != length:
        raise _bad(kind, text, f"expected {length} characters, got "
                               f"{len(text) if isinstance(text, str) else type(text).__name__}")
    for column, char in enumerate(text, 1):
        if char not in _BASE64:
            raise _bad(kind, text, f"character {char!r} at column {column} is not base64")
    padding = "=" * (-length % 4)
    return int.from_bytes(base64.b64decode(text + padding)[:nbytes], "little")


def _base64_text(n: int, nbytes: int, length: int) -> str:
    return base64.b64encode(n.to_bytes(nbytes, "little"))[:length].decode("ascii")


# --- Position ID ------------------------------------------------------------------------------

def encode_position_id(board: Board, turn: int) -> str:
    """The gnubg Position ID of a board with ``turn`` on roll.

    Parameters
    ----------
    board : pair of 26-sequences of int
        A valid board (as :class:`~nardy_analysis.game.position.Position` holds it).
    turn : int
        The player on roll, 0 or 1.

    Returns
    -------
    str
        14 base64 characters: the 80-bit position key, bit ``i`` stored in bit ``i % 8`` of
        byte ``i // 8``. For each side, for points 1..24 then the bar (numbered from that
        side), as many 1 bits as checkers followed by one 0 bit; first the player not on
        roll, then the player on roll, as gnubg writes it. The start position is
        ``4HPwATDgc/ABMA``.

    Notes
    -----
    Format: GNU Backgammon manual, "A technical description of the Position ID"; side order
    as gnubg's program writes it (see the module docstring).
    """
    # The key written most significant bit first: the bar down to point 1 of the player on
    # roll, then of the other; each point as a 0 bit followed by its checkers' 1 bits.
    key = int("".join([_RUNS[n] for n in board[turn][:0:-1]]
                      + [_RUNS[n] for n in board[1 - turn][:0:-1]]), 2)
    return _base64_text(key, 10, 14)


_RUNS = tuple("0" + "1" * n for n in range(CHECKERS + 1))


def decode_position_id(text: str, turn: int = 0) -> Board:
    """The board of a gnubg Position ID.

    Parameters
    ----------
    text : str
        A Position ID, exactly 14 base64 characters.
    turn : int
        Which player (0 or 1) is on roll; the ID is written from that player's side (an ID
        does not say which player it is).

    Returns
    -------
    pair of 26-tuples of int
        ``board[player][point]``; checkers not on the board are borne off (15 per side). The
        board is not validated further (:meth:`Position.from_id
        <nardy_analysis.game.position.Position.from_id>` does that).

    Raises
    ------
    PositionIdError
        Wrong length or a character outside the base64 alphabet; non-zero bits in the 4 unused
        low bits of the last character; a side with more than 15 checkers; a key longer than
        80 bits or with 1 bits after its 50th 0 bit. The message quotes ``text``.
    InvalidArgument
        ``turn`` not 0 or 1.

    Notes
    -----
    Format: GNU Backgammon manual, "A technical description of the Position ID"; see
    :func:`encode_position_id` for the layout.
    """
    if turn not in (0, 1):
        raise InvalidArgument(f"turn must be 0 or 1, got {turn!r}")
    key = _base64_int("Position ID", text, 14, 10)
    if _BASE64.index(text[-1]) & 0x0F:
        raise _bad("Position ID", text, "the unused low 4 bits of the last character are not 0")
    sides = []
    bit = 0
    for name in ("player not on roll", "player on roll"):
        side = [0] * 26
        for point in range(1, BAR + 1):
            while key >> bit & 1:
                side[point] += 1
                bit += 1
            bit += 1
        on_board = sum(side)
        if on_board > CHECKERS:
            raise _bad("Position ID", text, f"{on_board} checkers for the {name} (at most 15)")
        side[OFF] = CHECKERS - on_board
        sides.append(tuple(side))
    if bit > _POSITION_BITS or key >> bit:
        raise _bad("Position ID", text, "bits left over after both sides")
    opponent, on_roll = sides
    return (on_roll, opponent) if turn == 0 else (opponent, on_roll)


# --- Match ID ---------------------------------------------------------------------------------

class GameState(IntEnum):
    """The game state of a Match ID (bits 9-11)."""

    NONE = 0      #: no game started
    PLAYING = 1   #: a game is being played
    OVER = 2      #: the game is over
    RESIGNED = 3  #: the game ended by a resignation
    DROPPED = 4   #: the game ended by a dropped cube


@dataclass(frozen=True, slots=True)
class MatchState:
    """The match and cube state that a gnubg Match ID or the tail of an XGID records.

    Parameters
    ----------
    cube : int
        Cube value, a power of two from 1 to 32768.
    cube_owner : int or None
        Player (0 or 1) who owns the cube; None when it is centred.
    player : int
        Player on roll, or who has just rolled (gnubg's "dice owner", bit 7).
    crawford : bool
        This game is the Crawford game (match play only).
    game_state : GameState or int
        0 none, 1 playing, 2 over, 3 resigned, 4 dropped.
    turn : int or None
        Player who must act now (bit 12): ``player``, or the other player when deciding on a
        double or a resignation. None means ``player``.
    doubled : bool
        A double is being offered (bit 13); then ``dice`` must be None.
    resigned : int
        Resignation on offer: 0 none, 1 single game, 2 gammon, 3 backgammon.
    dice : pair of int or None
        The dice rolled, each 1..6, in the order written; None before the roll.
    match_length : int
        Points to win the match, 0..32767; 0 is a money game.
    score : pair of int
        Points of player 0 and player 1, each 0..32767 and at most ``match_length`` in a match.
    jacoby : bool
        The Jacoby rule (gammons count single until the cube is turned). It applies to money
        games only, but gnubg keeps the flag in match play too: its Match ID records it, and
        a match that gnubg imports or starts has it off.
    beavers_allowed : bool
        Money games: beavers are allowed (XGID only; a Match ID does not record it).
    beavers : int
        XGID only: 1 when the doubled player has beavered (``B``), 2 when the doubler has then
        raccooned (``R``); needs ``doubled`` and a money game.
    max_cube : int
        XGID only: the largest cube allowed, a power of two (XG's default is 1024).

    Raises
    ------
    InvalidArgument
        Any field out of its range, or fields that contradict each other.

    Notes
    -----
    Fields of the Match ID: GNU Backgammon manual, "A technical description of the Match ID".
    """

    cube: int = 1
    cube_owner: int | None = None
    player: int = 0
    crawford: bool = False
    game_state: GameState | int = GameState.PLAYING
    turn: int | None = None
    doubled: bool = False
    resigned: int = 0
    dice: tuple[int, int] | None = None
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False
    beavers_allowed: bool = False
    beavers: int = 0
    max_cube: int = 1024

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        if not _is_power_of_two(self.cube) or self.cube > _MAX_CUBE:
            raise InvalidArgument(f"cube must be a power of two from 1 to {_MAX_CUBE}, "
                             f"got {self.cube!r}")
        if self.cube_owner not in (None, 0, 1):
            raise InvalidArgument(f"cube owner must be None, 0 or 1, got {self.cube_owner!r}")
        if self.player not in (0, 1):
            raise InvalidArgument(f"player must be 0 or 1, got {self.player!r}")
        if self.turn is None:
            set_(self, "turn", self.player)
        if self.turn not in (0, 1):
            raise InvalidArgument(f"turn must be 0 or 1, got {self.turn!r}")
        try:
            set_(self, "game_state", GameState(self.game_state))
        except ValueError:
            raise InvalidArgument(f"game state must be 0..4, got {self.game_state!r}") from None
        if self.resigned not in (0, 1, 2, 3):
            raise InvalidArgument(f"resigned must be 0..3, got {self.resigned!r}")
        if self.dice is not None:
            set_(self, "dice", tuple(self.dice))
            if len(self.dice) != 2 or any(d not in range(1, 7) for d in self.dice):
                raise InvalidArgument(f"dice must be None or two dice 1..6, got {self.dice!r}")
        if not (isinstance(self.match_length, int) and 0 <= self.match_length <= _MAX_FIELD):
            raise InvalidArgument(f"match length must be 0..{_MAX_FIELD}, "
                                  f"got {self.match_length!r}")
        set_(self, "score", tuple(self.score))
        top = self.match_length or _MAX_FIELD
        if len(self.score) != 2 or any(not isinstance(s, int) or not 0 <= s <= top
                                       for s in self.score):
            raise InvalidArgument(f"scores must be two integers 0..{top}, got {self.score!r}")
        for name in ("crawford", "doubled", "jacoby", "beavers_allowed"):
            set_(self, name, bool(getattr(self, name)))
        if self.crawford and not self.match_length:
            raise InvalidArgument("a money game (match length 0) has no Crawford game")
        if self.beavers_allowed and self.match_length:
            raise InvalidArgument("the beaver rule is for money games (match length 0)")
        if self.doubled and self.dice is not None:
            raise InvalidArgument(f"a double is offered before the roll, but the dice are "
                                  f"{self.dice}")
        if self.beavers not in (0, 1, 2) or (self.beavers and (not self.doubled
                                                                or self.match_length)):
            raise InvalidArgument(f"beavers must be 0, or 1..2 in a money game with a double "
                             f"offered, got {self.beavers!r}")
        if not _is_power_of_two(self.max_cube):
            raise InvalidArgument(f"max cube must be a power of two, got {self.max_cube!r}")


def match_id(state: MatchState) -> str:
    """The gnubg Match ID of a match state.

    Parameters
    ----------
    state : MatchState
        Its ``beavers_allowed``, ``beavers`` and ``max_cube`` are not part of a Match ID and
        are not written.

    Returns
    -------
    str
        12 base64 characters: the 67-bit match key (in 9 bytes, bit ``i`` in bit ``i % 8`` of
        byte ``i // 8``): log2 of the cube (4 bits), cube owner (2; 3 = centred), player on
        roll (1), Crawford (1), game state (3), turn (1), double offered (1), resignation (2),
        dice (3 + 3; 0 = not rolled), match length (15), score of player 0 (15) and of player 1
        (15), and "no Jacoby" (1), as gnubg 1.08 and later print it. For example
        ``QYkqASAAIAAE``: 2-4 in a 9-point match, player 0 owns a 2-cube and player 1 has
        rolled 52 (the manual's ``QYkqASAAIAAA`` predates the Jacoby bit: the same state with
        the Jacoby flag on).

    Notes
    -----
    Format: GNU Backgammon manual, "A technical description of the Match ID"; the Jacoby bit
    as gnubg 1.1.0a16 prints it for 1,721 positions of 7 matches (tests/data/gnubg_ids.tsv).
    """
    die1, die2 = state.dice or (0, 0)
    values = (state.cube.bit_length() - 1, 3 if state.cube_owner is None else state.cube_owner,
              state.player, state.crawford, state.game_state,
              state.player if state.turn is None else state.turn, state.doubled,
              state.resigned, die1, die2, state.match_length, *state.score, not state.jacoby)
    key = bit = 0
    for value, width in zip(values, _MATCH_WIDTHS):
        key |= int(value) << bit
        bit += width
    return _base64_text(key, 9, 12)


def match_from_id(text: str) -> MatchState:
    """The match state of a gnubg Match ID.

    Parameters
    ----------
    text : str
        A Match ID, exactly 12 base64 characters.

    Returns
    -------
    MatchState
        With the XGID-only fields at their defaults. A Match ID written before gnubg 1.08 has no
        Jacoby bit: it reads as the Jacoby flag on.

    Raises
    ------
    PositionIdError
        Wrong length or a character outside the base64 alphabet; 1 bits after the 67 bits of
        the key; a cube-owner field of 2; a game state above 4; a die above 6 or only one die
        rolled; a score above the match length; a Crawford game in a money game. The message
        quotes ``text``.

    Notes
    -----
    Format: GNU Backgammon manual, "A technical description of the Match ID"; see
    :func:`match_id` for the layout.
    """
    key = _base64_int("Match ID", text, 12, 9)
    if key >> _MATCH_BITS:
        raise _bad("Match ID", text, f"bits set after the {_MATCH_BITS} bits of the key")
    values = []
    for width in _MATCH_WIDTHS:
        values.append(key & ((1 << width) - 1))
        key >>= width
    (log_cube, owner, player, crawford, state, turn, doubled, resigned, die1, die2,
     length, score0, score1, no_jacoby) = values
    if owner == 2:
        raise _bad("Match ID", text, "cube owner field is 2 (0, 1 or 3 = centred)")
    if (die1 == 0) != (die2 == 0):
        raise _bad("Match ID", text, f"only one die rolled: {die1} and {die2}")
    try:
        return MatchState(cube=1 << log_cube, cube_owner=None if owner == 3 else owner,
                          player=player, crawford=bool(crawford), game_state=state, turn=turn,
                          doubled=bool(doubled), resigned=resigned,
                          dice=(die1, die2) if die1 else None, match_length=length,
                          score=(score0, score1), jacoby=not no_jacoby)
    except InvalidArgument as error:
        raise _bad("Match ID", text, str(error)) from None


# --- XGID -------------------------------------------------------------------------------------

_XG_TOP, _XG_BOTTOM = 0, 1  # players drawn at the top (lower case) and bottom (upper case)
_XG_CUBE_POSITION = {None: 0, _XG_BOTTOM: 1, _XG_TOP: -1}
_XG_TURN = {_XG_BOTTOM: 1, _XG_TOP: -1}
_XG_DOUBLES = "DBR"  # double offered; then beavered; then raccooned


def _xg_letter(count: int, player: int) -> str:
    if not count:
        return "-"
    letter = chr(ord("A") + count - 1)
    return letter if player == _XG_BOTTOM else letter.lower()


def encode_xgid(board: Board, turn: int, state: MatchState) -> str:
    """The XGID (eXtreme Gammon ID) of a board and match state.

    Parameters
    ----------
    board : pair of 26-sequences of int
        A valid board (as :class:`~nardy_analysis.game.position.Position` holds it).
    turn : int
        The player on roll; must be ``state.player``.
    state : MatchState
        A game being played (``game_state`` PLAYING, no resignation), with ``turn`` as the
        XGID implies it: ``player``, except with a double offered (the doubled player; after a
        beaver the doubler; after a raccoon the doubled player again).

    Returns
    -------
    str
        ``XGID=`` and ten fields separated by ``:``: the position (26 characters: the top
        player's bar, points 1..24 numbered from the bottom player, the bottom player's bar;
        ``-`` empty, ``A``..``O`` 1..15 checkers of the bottom player (player 1), ``a``..``o``
        of the top player (player 0)); log2 of the cube; cube position (1 bottom owns, 0
        centred, -1 top owns); turn (1 bottom, -1 top); dice (``00`` not rolled, ``D`` double
        offered, ``B`` beavered, ``R`` raccooned, else the two dice); score of the bottom
        player; score of the top player; in a match 1 for the Crawford game else 0, in a money
        game 1 for Jacoby plus 2 for beavers; match length (0 money); log2 of the max cube.

    Raises
    ------
    InvalidArgument
        ``turn`` differs from ``state.player``, or ``state`` holds what an XGID cannot
        record (a game not being played, a resignation, a ``turn`` other than the implied one).

    Notes
    -----
    Format: eXtreme Gammon 2 documentation, "XGID"; players and the meaning of the turn field
    with a double offered as GNU Backgammon's ``set xgid`` reads them.
    """
    if turn != state.player:
        raise InvalidArgument(f"position has player {turn} on roll, state player {state.player}")
    if state.game_state != GameState.PLAYING or state.resigned:
        raise InvalidArgument("an XGID records a game being played, without a resignation")
    if state.turn != _xg_decider(state.player, state.doubled, state.beavers):
        raise InvalidArgument(f"an XGID cannot record turn {state.turn} with player {state.player} "
                              f"on roll, doubled={state.doubled}, beavers={state.beavers}")
    top, bottom = board[_XG_TOP], board[_XG_BOTTOM]
    cells = [_xg_letter(top[BAR], _XG_TOP)]
    for point in range(1, 25):
        cells.append(_xg_letter(bottom[point], _XG_BOTTOM) if bottom[point]
                     else _xg_letter(top[25 - point], _XG_TOP))
    cells.append(_xg_letter(bottom[BAR], _XG_BOTTOM))
    if state.doubled:
        dice = _XG_DOUBLES[state.beavers]
    else:
        dice = "%d%d" % state.dice if state.dice else "00"
    rules = int(state.crawford) if state.match_length else state.jacoby + 2 * state.beavers_allowed
    fields = ("".join(cells), state.cube.bit_length() - 1, _XG_CUBE_POSITION[state.cube_owner],
              _XG_TURN[state.player], dice, state.score[_XG_BOTTOM], state.score[_XG_TOP], rules,
              state.match_length, state.max_cube.bit_length() - 1)
    return "XGID=" + ":".join(map(str, fields))


def _xg_decider(player: int, doubled: bool, beavers: int) -> int:
    """Who acts: the player on roll, or with a double offered whoever must answer it."""
    return 1 - player if doubled and beavers != 1 else player


def decode_xgid(text: str) -> tuple[Board, MatchState]:
    """The board and match state of an XGID (eXtreme Gammon ID).

    Parameters
    ----------
    text : str
        An XGID, with or without the leading ``XGID=``; the tenth field (max cube) may be
        missing, as in older IDs, and then means 1024. See :func:`encode_xgid` for the fields.

    Returns
    -------
    board : pair of 26-tuples of int
        Checkers of both players (15 each, the rest borne off).
    state : MatchState
        ``game_state`` PLAYING; ``player`` from the turn field (bottom = player 1, top =
        player 0), the player on roll; ``turn`` the player who must act.

    Raises
    ------
    PositionIdError
        Not 9 or 10 fields; a position field not 26 characters, with a character outside
        ``-``, ``A``..``O``, ``a``..``o``, a bottom checker on the top player's bar (first
        character) or a top checker on the bottom player's bar (last), or more than 15
        checkers for a player; a number field that is not an integer or out of range (cube
        position and turn other than -1/0/1 and -1/1, rules field above 1 in a match or above 3
        in a money game); a dice field other than ``00``, ``D``, ``B``, ``R`` or two dice 1..6;
        a score above the match length. The message quotes ``text``.

    Notes
    -----
    Format: eXtreme Gammon 2 documentation, "XGID"; see :func:`encode_xgid`.
    """
    if not isinstance(text, str):
        raise _bad("XGID", text, "not a string")
    body = text[5:] if text.startswith("XGID=") else text
    fields = body.split(":")
    if len(fields) == 9:
        fields.append("10")
    if len(fields) != 10:
        raise _bad("XGID", text, f"expected 10 fields separated by ':', got {len(fields)}")
    cells, dice_field = fields[0], fields[4]
    numbers = fields[1:4] + fields[5:]
    for field in numbers:
        if not re.fullmatch(r"-?[0-9]+", field):
            raise _bad("XGID", text, f"field {field!r} is not an integer")
    log_cube, cube_position, turn, score_bottom, score_top, rules, length, log_max = map(
        int, numbers)
    if len(cells) != 26:
        raise _bad("XGID", text, f"the position field has {len(cells)} characters, not 26")
    board = ([0] * 26, [0] * 26)
    for index, char in enumerate(cells):
        if char == "-":
            continue
        if not (char.isascii() and char.isalpha() and char.upper() <= "O"):
            raise _bad("XGID", text, f"position character {char!r} is not '-', A..O or a..o")
        count = ord(char.upper()) - ord("A") + 1
        player = _XG_BOTTOM if char.isupper() else _XG_TOP
        if (index, player) in ((0, _XG_BOTTOM), (25, _XG_TOP)):
            raise _bad("XGID", text, f"position character {char!r} at index {index}: a player's "
                                     f"checkers on the other player's bar")
        point = index if player == _XG_BOTTOM else 25 - index
        board[player][point] = count
    for player, side in enumerate(board):
        if sum(side) > CHECKERS:
            raise _bad("XGID", text, f"{sum(side)} checkers for player {player + 1} (at most 15)")
        side[OFF] = CHECKERS - sum(side)
    owners = {v: k for k, v in _XG_CUBE_POSITION.items()}
    players = {v: k for k, v in _XG_TURN.items()}
    if cube_position not in owners or turn not in players:
        raise _bad("XGID", text, f"cube position {cube_position} (not -1, 0, 1) or turn {turn} "
                                 f"(not -1, 1)")
    player = players[turn]
    doubled, beavers, dice = False, 0, None
    if dice_field in tuple(_XG_DOUBLES):
        doubled, beavers = True, _XG_DOUBLES.index(dice_field)
    elif len(dice_field) == 2 and all(d in "123456" for d in dice_field):
        dice = (int(dice_field[0]), int(dice_field[1]))
    elif dice_field != "00":
        raise _bad("XGID", text, f"dice field {dice_field!r} is not 00, D, B, R or two dice 1..6")
    if not 0 <= rules <= (1 if length else 3):
        raise _bad("XGID", text, f"Crawford/Jacoby field {rules} out of range")
    if not (0 <= log_cube < 16 and 0 <= log_max < 64):
        raise _bad("XGID", text, f"cube field {log_cube} or max cube field {log_max} out of range")
    score = [0, 0]
    score[_XG_BOTTOM], score[_XG_TOP] = score_bottom, score_top
    try:
        state = MatchState(cube=1 << log_cube, cube_owner=owners[cube_position], player=player,
                           crawford=bool(length and rules),
                           turn=_xg_decider(player, doubled, beavers),
                           doubled=doubled, dice=dice, match_length=length,
                           score=(score[0], score[1]),
                           jacoby=bool(not length and rules & 1),
                           beavers_allowed=bool(not length and rules & 2), beavers=beavers,
                           max_cube=1 << log_max)
    except InvalidArgument as error:
        raise _bad("XGID", text, str(error)) from None
    return (tuple(board[0]), tuple(board[1])), state
