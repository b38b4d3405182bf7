"""Read Jellyfish ``.mat`` match text into records.

The grammar is ``grammars/mat.lark`` (Lark, LALR with the contextual lexer). This module
decodes bytes, runs the parser and turns its output into the plain records of
:mod:`nardy_analysis.records`; it knows nothing of the rules.
"""

from __future__ import annotations

import codecs
import re
from functools import lru_cache
from importlib.resources import files
from os import PathLike
from pathlib import Path
from statistics import median

from lark import Lark, Token, Transformer, UnexpectedInput
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

from .errors import DecodeError, NotationError
from .position import BAR, OFF, Roll
from .records import CubeRecord, GameRecord, MatchRecord, ResultRecord, TurnRecord, WrittenMove

_TAG = re.compile(r';\s*\[\s*([^"\]]+?)\s+"(.*)"\s*\]')
_HOP = re.compile(r"/([^/*(]+)(\*?)")
_WORD = re.compile(r"\S+")
_POINT = {"bar": BAR, "off": OFF}
# A lone entry to the right of this column belongs to the right-hand player, when a game
# gives no better clue (no line with two entries, no second name on the score line).
_DEFAULT_SPLIT = 20


def decode(data: bytes, file: str | None = None) -> str:
    """Decode a match file's bytes.

    UTF-8 (with or without a byte-order mark) and UTF-16 with a byte-order mark are decoded
    as such; other text that is not valid UTF-8 is read as cp1251 when its non-ASCII letters
    come in runs (Cyrillic words) and as cp1252 otherwise (accented Latin letters).

    Raises
    ------
    DecodeError
        Bytes that none of these encodings can decode; ``offset`` is the first such byte.
    """
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return _decode(data, "utf-16", file)
    if data.startswith(codecs.BOM_UTF8):
        return _decode(data, "utf-8-sig", file)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    high = [i for i, b in enumerate(data) if b >= 0x80]
    in_runs = sum(1 for i in high if (i > 0 and data[i - 1] >= 0x80)
                  or (i + 1 < len(data) and data[i + 1] >= 0x80))
    return _decode(data, "cp1251" if in_runs * 2 > len(high) else "cp1252", file)


def _decode(data: bytes, encoding: str, file: str | None) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise DecodeError(f"byte {data[exc.start:exc.start + 1]!r} at offset {exc.start} "
                          f"cannot be decoded as {encoding}", exc.start, file) from None


def _moves(play: Token) -> tuple[WrittenMove, ...]:
    """Split a PLAY token into its moves, each with its own column."""
    return tuple(WrittenMove(*_move(found.group()), play.line, play.column + found.start(),
                             found.group()) for found in _WORD.finditer(play))


@lru_cache(maxsize=4096)
def _move(text: str) -> tuple[tuple[int, ...], tuple[bool, ...], int]:
    """Points, hit marks and repeat count of one move such as ``13/7*/5(2)``."""
    body, _, repeat = text.partition("(")
    points = [_point(body[:body.index("/")])]
    hits = []
    for point, star in _HOP.findall(body):
        points.append(_point(point))
        hits.append(bool(star))
    return tuple(points), tuple(hits), int(repeat[:-1]) if repeat else 1


def _point(text: str) -> int:
    return _POINT.get(text.lower()) if not text.isdigit() else int(text)


class _Records(Transformer):
    """Builds records while the LALR parser runs (no parse tree is kept)."""

    def roll(self, children):
        roll_token, *rest = children
        first = rest[0] if rest else None
        if first is None or first.type == "CANNOT_MOVE":
            moves = ()
        elif first.type == "UNKNOWN":
            moves = None
        else:
            moves = _moves(first)
        end = rest[-1].end_column if rest else roll_token.end_column
        return ("roll", roll_token, end, Roll.from_str(roll_token), moves)

    def _cube(action):
        def build(self, children):
            first, last = children[0], children[-1]
            value = int(children[-1]) if len(children) > 1 else None
            return ("cube", first, last.end_column, action, value)
        return build

    double, beaver, raccoon = _cube("double"), _cube("beaver"), _cube("raccoon")

    def take(self, children):
        return ("cube", children[0], children[0].end_column, "take", None)

    def drop(self, children):
        return ("cube", children[0], children[0].end_column, "drop", None)

    def result(self, children):
        word, points, *rest = children
        end = rest[-1].end_column if rest else points.end_column + len(" points")
        return ("result", word, end, word == "Wins", int(points), bool(rest))

    def line(self, children):
        numbers = [c for c in children if isinstance(c, Token)]
        return (int(numbers[0][:-1]) if numbers else None,
                [c for c in children if not isinstance(c, Token)])

    def player_score(self, children):
        name = str(children[0]) if len(children) > 1 else ""
        return name, int(children[-1]), children[0]

    def score_line(self, children):
        return children

    def game(self, children):
        number, scores, *lines = children
        names = tuple(s[0] for s in scores) + ("",) * (2 - len(scores))
        values = tuple(s[1] for s in scores) + (0,) * (2 - len(scores))
        split = _split_column(lines, scores)
        placed = []
        for move, entries in lines:
            players = [0, 1] if len(entries) == 2 else \
                [int(entry[1].column >= split) for entry in entries]
            placed.append((move, entries, players))
        # One site writes the loser's "Losses" (in either column, or unnumbered at the left)
        # and the winner's "Wins" (sometimes far to the right on the same line). A "Wins" on a
        # line of its own is placed by its column; then every "Losses" is the other player's.
        # On a line with both, the "Losses" is placed by its column and the "Wins" is the
        # other player's.
        winners = [p for _, entries, players in placed
                   if not any(e[0] == "result" and not e[3] for e in entries)
                   for p, e in zip(players, entries) if e[0] == "result" and e[3]]
        actions = []
        for move, entries, players in placed:
            losers = [p for p, e in zip(players, entries) if e[0] == "result" and not e[3]]
            for player, entry in zip(players, entries):
                if entry[0] == "result":
                    if entry[3] and losers:
                        player = 1 - losers[0]
                    elif not entry[3] and winners:
                        player = 1 - winners[0]
                actions.append(_record(entry, player, move, self.source_lines))
        first = scores[0][2]
        return GameRecord(int(number), names[:2], values[:2], tuple(actions),
                          number.line, number.column, first.line, first.column)

    def match(self, children):
        length, *games = children
        return (length, tuple(games))

    def start(self, children):
        return children


def _split_column(lines, scores) -> float:
    """The column from which a lone entry is in the right-hand column."""
    pairs = [entries for _, entries in lines if len(entries) == 2]
    if pairs:
        left = median(e[0][1].column for e in pairs)
        right = median(e[1][1].column for e in pairs)
        return (left + right) / 2
    if len(scores) == 2:
        first = scores[0][2].column
        second = scores[1][2].column
        return (first + second) / 2
    return _DEFAULT_SPLIT


def _record(entry, player, move, source_lines):
    kind, token, end = entry[0], entry[1], entry[2]
    text = source_lines[token.line - 1][token.column - 1:end - 1].rstrip()
    where = dict(move=move, line=token.line, column=token.column, text=text)
    if kind == "roll":
        return TurnRecord(player, entry[3], entry[4], **where)
    if kind == "cube":
        return CubeRecord(player, entry[3], entry[4], **where)
    return ResultRecord(player, entry[4], entry[3], entry[5], **where)


class _Reader:
    """The LALR parser with its record builder and comment collector (built once)."""

    def __init__(self):
        try:
            grammar = files("nardy_analysis.grammars").joinpath("mat.lark").read_text("utf-8")
        except ModuleNotFoundError:  # run from a source checkout: grammars/ beside the package
            grammar = (Path(__file__).resolve().parents[1] / "grammars" / "mat.lark").read_text(
                "utf-8")
        self.records = _Records()
        self.comments: list[tuple[int, str]] = []  # (line, text) of each comment line
        self.lark = Lark(grammar, parser="lalr", lexer="contextual",
                         transformer=self.records,
                         lexer_callbacks={"COMMENT": self._comment, "_NL": self._line_end})

    def _comment(self, token: Token):
        self.comments.append((token.line, str(token)))
        return token

    def _line_end(self, token: Token):
        if ";" in token:
            for offset, text in enumerate(token.split("\n")):
                if text.lstrip().startswith(";"):
                    self.comments.append((token.line + offset, text.strip()))
        return token

    def parse(self, text: str, source_lines: list[str]):
        self.comments.clear()
        self.records.source_lines = source_lines
        return self.lark.parse(text), list(self.comments)


@lru_cache(maxsize=1)
def _reader() -> _Reader:
    return _Reader()


def parse_mat(text: str, file: str | None = None) -> list[MatchRecord]:
    """Parse ``.mat`` match text into match records.

    Parameters
    ----------
    text : str
        The whole file's text; line ends may be LF, CRLF or CR, a leading byte-order mark is
        ignored.
    file : str, optional
        The file name, kept in the records and in error messages.

    Returns
    -------
    list of MatchRecord
        One per ``N point match`` header, each with the ``; [Key "value"]`` tags that precede
        it (since the previous match).

    Raises
    ------
    NotationError
        Text that is not ``.mat`` notation; the message quotes the line with a caret at the
        offending column and names what was expected there.
    """
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    if not text.endswith("\n"):
        text += "\n"
    source_lines = text.split("\n")
    try:
        matches, comments = _reader().parse(text, source_lines)
    except UnexpectedInput as exc:
        raise _notation_error(exc, source_lines, file) from None
    records = []
    for length, games in matches:
        tags = {}
        while comments and comments[0][0] < length.line:
            tag = _TAG.match(comments.pop(0)[1])
            if tag:
                tags[tag.group(1)] = tag.group(2)
        records.append(MatchRecord(int(length), tags, games, length.line, length.column, file))
    return records


def read_mat(path: str | PathLike) -> list[MatchRecord]:
    """Read and parse a ``.mat`` file (see :func:`decode` and :func:`parse_mat`).

    Raises
    ------
    OSError
        The file cannot be read.
    DecodeError, NotationError
        The bytes cannot be decoded, or the text is not ``.mat`` notation.
    """
    path = Path(path)
    return parse_mat(decode(path.read_bytes(), str(path)), str(path))


_NAMES = {"PLAY": "a play such as 24/18 13/11", "ROLL": "a roll such as 52: (dice 1..6)",
          "MOVE_NUMBER": "a move number such as 12)", "INT": "a number", "_NL": "end of line",
          "NAME": "a player name", "COLON": "':'", "CANNOT_MOVE": "'Cannot Move'",
          "UNKNOWN": "'???'", "$END": "end of file", "DOUBLES": "'Doubles'",
          "TAKES": "'Takes'", "DROPS": "'Drops'", "BEAVERS": "'Beavers'",
          "RACCOONS": "'Raccoons'", "WINS": "'Wins'", "LOSSES": "'Losses'",
          "_POINTS": "'point'", "MATCH_END": "'and the match'", "GAME": "'Game'",
          "POINT": "'point'", "MATCH": "'match'", "__ANON_0": "'=>'"}


def _notation_error(exc: UnexpectedInput, source_lines: list[str], file) -> NotationError:
    line, column = exc.line, exc.column
    if isinstance(exc, UnexpectedEOF) or line < 1:
        line = len(source_lines)
        column = 1
    found = source_lines[line - 1][column - 1:].split(" ")[0] if line <= len(source_lines) else ""
    if isinstance(exc, UnexpectedToken):
        expected = exc.accepts or exc.expected
    elif isinstance(exc, UnexpectedCharacters):
        expected = exc.allowed
    else:
        expected = exc.expected
    names = sorted({_NAMES.get(name, name.strip('"').lower() if name.startswith('"')
                               else name.replace("_", " ").lower()) for name in expected or ()})
    message = f"unexpected '{found}'" if found else "unexpected end of line"
    if names:
        message += "; expected " + ", ".join(names)
    return NotationError(message, line, column, source_lines[line - 1] if line <= len(source_lines) else "", file)
