"""The parser of Jellyfish ``.mat`` match text: what the grammar reads, as named tuples.

The grammar is ``grammars/mat.lark`` (Lark, LALR with the contextual lexer); the syntax is
there. This module runs the parser on the text with a Transformer that gathers what it reads
(no parse tree) as the named tuples below (:func:`parse`);
:mod:`~nardy_analysis.notation.mat` turns them into records. Two tokens of the grammar,
GAME_HEAD and LINES, stand for many of its tokens, for speed; they are split here with
regular expressions made of the grammar's own terminals.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, NamedTuple, cast

from lark import Lark, Token, Transformer

from ..game.moves import Roll
from . import open_grammar
from .records import SnowiePosition

BLANKS = " \t\f\ufeff"
"""The blanks the grammar ignores between tokens (its WS)."""
# A name on a score line with the player's rating after a comma (FIBS, GridGammon):
# "alice,1635" or "alice, 1635.42"; a comma and no number is part of the name ("Doe, John").
_RATED = re.compile(r"(.+?) *, *(\d{1,9}(?:\.\d{1,9})?)")
# The cube actions by the terminal of their word.
_CUBE_ACTIONS = {"DOUBLES": "double", "TAKES": "take", "DROPS": "drop", "BEAVERS": "beaver",
                 "RACCOONS": "raccoon"}


from_fields = tuple.__new__
"""A named tuple from the values of all its fields, in order (``from_fields(Type, values)``,
without the argument handling of its constructor: a file has thousands of moves)."""


class RollEntry(NamedTuple):
    """A roll as the parser reads it, on ``line`` from ``column`` up to ``end`` (the column
    after it): the Roll, the text of its PLAY token and the column of that text (``""`` for
    no play or ``Cannot Move``, None for an unknown or illegal play) and the position
    recorded after an illegal play."""

    line: int
    column: int
    end: int
    roll: Roll
    play: str | None
    play_column: int
    recorded: SnowiePosition | None


class CubeEntry(NamedTuple):
    """A cube action as the parser reads it (``value``: the number after ``=>``)."""

    line: int
    column: int
    end: int
    action: str
    value: int | None


class ResultEntry(NamedTuple):
    """``Wins N point(s) [and the match]`` or ``Losses N point(s)`` as the parser reads it."""

    line: int
    column: int
    end: int
    wins: bool
    points: int
    match_won: bool


Entry = RollEntry | CubeEntry | ResultEntry


class MoveLine(NamedTuple):
    """A move line: its move number (the first ``N)``, if any) and entries, left to right."""

    move: int | None
    entries: list[Entry]


class Number(NamedTuple):
    """A number (a game's, a match's length) and where it is."""

    value: int
    line: int
    column: int


class Score(NamedTuple):
    """One name and score of a score line, where it is (its name, else its score), and the
    rating written after the name (``alice,1635``)."""

    name: str
    score: int
    line: int
    column: int
    rating: float | None


class ParsedGame(NamedTuple):
    """A game as the parser reads it: the number of its ``Game N`` line, the names and
    scores of its score line, its move lines."""

    number: Number
    scores: list[Score]
    lines: list[MoveLine]


class ParsedMatch(NamedTuple):
    """A match as the parser reads it: its length, where the length is, its games."""

    length: int
    line: int
    column: int
    games: list[ParsedGame]


class Tag(NamedTuple):
    """A ``; [Key "value"]`` tag's key and value."""

    key: str
    value: str


# The 36 ways a roll is written, "52:" and "25:" alike.
_roll = lru_cache(maxsize=None)(Roll.from_str)


def _score(name: str, score: str, line: int, column: int) -> Score:
    """A name (``""`` when none is written) and score of a score line (``alice : 0``,
    ``alice,1635 : 0``) that start at ``line``:``column``."""
    rated = _RATED.fullmatch(name)
    rating = float(rated[2]) if rated else None
    return Score(rated[1] if rated else name, int(score), line, column, rating)


class _Records(Transformer[Token, Any]):
    """Gathers the parts of the records while the LALR parser runs (no parse tree is kept).

    It holds no state: each rule gives the named tuple of its part (a ``start`` the list of
    :class:`ParsedMatch`, a ``game`` a :class:`ParsedGame`, a ``tag`` a :class:`Tag`, ...), and
    :mod:`~nardy_analysis.notation.mat` makes the records, with their text, from a game and
    the file's lines. The tokens a callback is given are typed ``Any``: lark's types leave their
    positions optional, and the lexer sets them all."""

    def roll(self, children: list[Any]) -> RollEntry:
        roll_token, *rest = children
        last = rest[0] if rest else roll_token  # the roll's last token
        recorded, play, play_column = None, None, 0  # ??? and Illegal play (...)
        if isinstance(last, tuple):  # Illegal play (...): the position, the ")"
            recorded, last = last
        elif last is roll_token or last.type == "CANNOT_MOVE":
            play = ""
        elif last.type == "PLAY":
            play, play_column = str(last), last.column
        return RollEntry(roll_token.line, roll_token.column, last.end_column,
                         _roll(roll_token[:3]), play, play_column, recorded)

    def illegal_play(self, children: list[Any]) -> tuple[SnowiePosition, Any]:
        fields = tuple(c if isinstance(c, str) and not isinstance(c, Token) else int(c)
                       for c in children[1:-1])
        return SnowiePosition(fields), children[-1]

    def snowie_name(self, children: list[Any]) -> str:
        return str(children[0]) if children else ""

    def cube(self, children: list[Any]) -> CubeEntry:
        first, last = children[0], children[-1]
        value = int(last) if len(children) > 1 else None
        return CubeEntry(first.line, first.column, last.end_column, _CUBE_ACTIONS[first.type],
                         value)

    double = take = drop = beaver = raccoon = cube

    def result(self, children: list[Any]) -> ResultEntry:
        word, points, *rest = children
        end = rest[-1].end_column if rest else points.end_column + len(" points")
        return ResultEntry(word.line, word.column, end, word == "Wins", int(points), bool(rest))

    def line(self, children: list[Any]) -> MoveLine | list[MoveLine]:
        first = children[0]
        if not isinstance(first, tuple) and first.type == "LINES":  # not an entry
            return _lines(first, first.line, first.column)
        numbers = [c for c in children if isinstance(c, Token)]
        return MoveLine(int(numbers[0][:-1]) if numbers else None,
                        [c for c in children if not isinstance(c, Token)])

    def player_score(self, children: list[Any]) -> Score:
        first = children[0]
        return _score(str(first) if len(children) > 1 else "", children[-1], first.line,
                      first.column)

    def score_line(self, children: list[Score]) -> list[Score]:
        return children

    def game_line(self, children: list[Any]) -> Number:
        number = children[0]
        return Number(int(number), number.line, number.column)

    match_line = game_line

    def game(self, children: list[Any]) -> ParsedGame:
        first = children[0]
        if not isinstance(first, Number):  # a GAME_HEAD token
            number, scores = _game_head(first, first.line, first.column)
            parts = children[1:]
        else:
            number, scores, *parts = children
        return ParsedGame(number, scores,  # a LINES token gives a list of lines
                          [line for part in parts
                           for line in (part if isinstance(part, list) else [part])])

    def match(self, children: list[Any]) -> ParsedMatch:
        length, *games = children
        return ParsedMatch(length.value, length.line, length.column, games)

    def start(self, children: list[ParsedMatch]) -> list[ParsedMatch]:
        return children

    def tag(self, children: list[Any]) -> Tag:
        return Tag(str(children[1]), children[2][1:-1])


# --- The GAME_HEAD and LINES tokens --------------------------------------------------------
# Each is one token of the text that the rules read token by token (grammars/mat.lark says
# why: the parser's time goes by the token). They are split here into the tokens of the
# rules' alternative with regular expressions made of the grammar's own terminals, and give
# what the rules' callbacks give (tests/test_notation.py reads files and random lines both
# ways).


def _terminal(name: str) -> str:
    """The regular expression of the grammar's terminal ``name``, as a group."""
    return f"(?:{_parser().get_terminal(name).pattern.to_regexp()})"


def _lines(token: str, line: int, column: int) -> list[MoveLine]:
    """The lines of a LINES token at ``line``:``column``, each as :meth:`_Records.line` gives
    it: its tokens found in turn by one scan (the token is known to be lines of them,
    separated by blanks)."""
    lines: list[MoveLine] = []
    number: int | None = None
    entries: list[Entry] = []
    base = -column  # a column is an offset less ``base``
    entry: Entry
    for found in _line_token().finditer(token):
        kind = found.lastgroup or ""  # each token is a named group
        column, end = found.span(kind)
        column, end = column - base, end - base
        if kind == "turn":
            turn = found[kind]
            play = turn[3:].lstrip(BLANKS)
            entry = from_fields(RollEntry, (line, column, end, _roll(turn[:3]), play,
                                            end - len(play), None))
        elif kind == "end":
            lines.append(from_fields(MoveLine, (number, entries)))
            number, entries = None, []
            text = found[0]
            line += text.count("\n")
            base = found.start() + text.rindex("\n")
            continue
        elif kind == "number":
            number = int(found[kind][:-1])
            continue
        elif kind == "roll":
            entry = from_fields(RollEntry, (line, column, end, _roll(found[kind][:3]), "", 0, None))
        elif kind == "double":
            entry = from_fields(CubeEntry, (line, column, end, "double", int(found["value"])))
        elif kind == "wins":
            match_end = found["match_end"] is not None
            entry = from_fields(ResultEntry, (line, column, end if match_end else
                                              found.end("won") - base + len(" points"), True,
                                              int(found["won"]), match_end))
        elif kind == "losses":
            entry = from_fields(ResultEntry, (line, column,
                                              found.end("lost") - base + len(" points"), False,
                                              int(found["lost"]), False))
        else:
            entry = from_fields(CubeEntry, (line, column, end, kind, None))
        entries.append(entry)
    return lines


@lru_cache(maxsize=1)
def _line_token() -> re.Pattern[str]:
    """The tokens of a LINES token, from the grammar's own terminals (its MOVE_NUMBER,
    _LINE_ENTRY and _NL), each with the blanks before it: one group per token, whose name
    (the last group to match) tells its kind, with groups inside for the numbers
    (:func:`_lines`)."""
    blank = _terminal("WS")
    points = f"{blank}{_terminal('_POINTS')}"
    return re.compile(
        f"{blank}?(?:(?P<turn>{_terminal('ROLL')}[{BLANKS}]*{_terminal('PLAY')})"
        f"|(?P<end>{_terminal('_NL')})"
        f"|(?P<number>{_terminal('MOVE_NUMBER')})"
        f"|(?P<roll>{_terminal('ROLL')}(?:{blank}{_terminal('CANNOT_MOVE')})?)"
        f"|(?P<double>{_terminal('DOUBLES')}{blank}?{_terminal('_ARROW')}{blank}?"
        f"(?P<value>{_terminal('INT')}))"
        f"|(?P<take>{_terminal('TAKES')})|(?P<drop>{_terminal('DROPS')})"
        f"|(?P<wins>{_terminal('WINS')}{blank}(?P<won>{_terminal('INT')}){points}"
        f"(?:{blank}(?P<match_end>{_terminal('MATCH_END')}))?)"
        f"|(?P<losses>{_terminal('LOSSES')}{blank}(?P<lost>{_terminal('INT')}){points}))")


def _game_head(token: str, line: int, column: int) -> tuple[Number, list[Score]]:
    """The number and scores of a GAME_HEAD token at ``line``:``column``, as
    :meth:`_Records.game_line` and :meth:`_Records.score_line` give them."""
    head = cast(re.Match[str], _game_number().match(token))  # a GAME_HEAD token matches
    end = head.end()
    number = Number(int(head["number"]), line, column + head.start("number"))
    line += head["end"].count("\n")
    column = end - head["end"].rindex("\n") - head.start("end")  # of the score line
    score_line = token[end:token.index("\n", end)]  # not the comment lines after it
    return number, [_score(found["NAME"] or "", found["INT"], line,
                           column + found.start("NAME" if found["NAME"] else "INT"))
                    for found in _score_token().finditer(score_line)]


@lru_cache(maxsize=1)
def _score_token() -> re.Pattern[str]:
    """A name and score of a score line, with the blanks before it, from the grammar's own
    terminals (NAME, WS, INT)."""
    blank = _terminal("WS")
    return re.compile(f"{blank}?(?:(?P<NAME>{_terminal('NAME')}){blank}?)?{_terminal('_COLON')}"
                      f"{blank}?(?P<INT>{_terminal('INT')})")


@lru_cache(maxsize=1)
def _game_number() -> re.Pattern[str]:
    """The "Game N" line of a GAME_HEAD token, from the grammar's own terminals: its number
    and the line end after it."""
    blank = _terminal("WS")
    return re.compile(f"{_terminal('_GAME')}{blank}?(?P<number>{_terminal('INT')}){blank}?"
                      f"(?P<end>{_terminal('_NL')})")


@lru_cache(maxsize=1)
def _parser() -> Lark:
    """The LALR parser with its record builder, built once and shared: parsing keeps no
    state between calls, so threads may parse at the same time."""
    return open_grammar("mat.lark", parser="lalr", lexer="contextual", transformer=_Records(),
                        start=["start", "game", "game_line", "match_line", "tag"])


def parse(text: str, start: str = "start") -> Any:
    """What the grammar reads in ``text``, as named tuples.

    Parameters
    ----------
    text : str
        The text to read, with LF line ends: a whole file's, or what the start rule reads.
    start : str
        The grammar's start rule: ``start`` (a file: a list of :class:`ParsedMatch`),
        ``game`` (:class:`ParsedGame`), ``game_line`` or ``match_line`` (:class:`Number`) or
        ``tag`` (:class:`Tag`).

    Returns
    -------
    Any
        What :class:`_Records` gives for the rule.

    Raises
    ------
    lark.UnexpectedInput
        A syntax error.
    """
    return _parser().parse(text, start=start)
