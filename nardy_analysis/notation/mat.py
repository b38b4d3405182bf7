"""Read Jellyfish ``.mat`` match text into records.

The grammar is ``grammars/mat.lark`` (Lark, LALR with the contextual lexer). This module
decodes bytes, runs the parser and turns its output into the plain records of
:mod:`nardy_analysis.records`; it knows nothing of the rules.

Two ways to meet bad text: by default the first syntax error raises
:class:`~nardy_analysis.errors.NotationError`; with ``errors="collect"`` the reader keeps
every game it can and returns a :class:`ParsedFile` listing what it skipped (each game with a
syntax error, any stray text), as python-chess does for PGN.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from os import PathLike
from pathlib import Path
from statistics import median

from lark import Lark, Token, Transformer, UnexpectedInput
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

from ..errors import DecodeError, NotationError, RecordWarning
from ..game.position import BAR, OFF, Roll
from .records import CubeRecord, GameRecord, MatchRecord, ResultRecord, TurnRecord, WrittenMove

_TAG = re.compile(r';\s*\[\s*([^"\]]+?)\s+"(.*)"\s*\]')
_HOP = re.compile(r"/([^/*(]+)(\*?)")
_WORD = re.compile(r"\S+")
_POINT = {"bar": BAR, "off": OFF}
# A lone entry to the right of this column belongs to the right-hand player, when a game
# gives no better clue (no line with two entries, no second name on the score line).
_DEFAULT_SPLIT = 20
# Lines that start a game or a match, as the grammar reads them (blanks are its WS token;
# a trailing ";" comment is allowed). The lenient reader splits a file at these lines.
_BLANK = r"[ \t\f\ufeff]*"
_GAME_LINE = re.compile(rf"{_BLANK}Game{_BLANK}(\d{{1,9}}){_BLANK}(?:;.*)?")
_MATCH_LINE = re.compile(rf"{_BLANK}(\d{{1,9}}){_BLANK}point{_BLANK}match{_BLANK}(?:;.*)?")
# In bytes decoded as UTF-8 with "surrogateescape": an invalid byte, a valid non-ASCII letter.
_BAD_BYTE = re.compile("[\udc80-\udcff]")
_UTF8_LETTER = re.compile("[^\x00-\x7f\udc80-\udcff]")


def decode(data: bytes, file: str | None = None) -> str:
    """Decode a match file's bytes.

    UTF-8 (with or without a byte-order mark) and UTF-16 with a byte-order mark are decoded
    as such; other text that is not valid UTF-8 is read as cp1251 when its non-ASCII letters
    come in runs (Cyrillic words) and as cp1252 otherwise (accented Latin letters). Text that
    holds at least as many valid UTF-8 letters as invalid bytes is UTF-8 with bad bytes, not
    cp1251 or cp1252 (which would silently turn every UTF-8 letter into two wrong ones).

    Parameters
    ----------
    data : bytes
        The whole file.
    file : str, optional
        The file name, for the error message.

    Raises
    ------
    DecodeError
        Bytes that the encoding found cannot decode; ``offset`` is the first such byte,
        ``line`` and ``column`` (1-based, in characters) where it is in the text.
    """
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return _decode(data, "utf-16", file)
    if data.startswith(codecs.BOM_UTF8):
        return _decode(data, "utf-8", file, len(codecs.BOM_UTF8))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        escaped = data.decode("utf-8", "surrogateescape")
        letters = len(_UTF8_LETTER.findall(escaped))
        if letters and letters >= len(_BAD_BYTE.findall(escaped)):
            raise _decode_error(data, exc.start, "utf-8", file) from None
    high = [i for i, b in enumerate(data) if b >= 0x80]
    in_runs = sum(1 for i in high if (i > 0 and data[i - 1] >= 0x80)
                  or (i + 1 < len(data) and data[i + 1] >= 0x80))
    return _decode(data, "cp1251" if in_runs * 2 > len(high) else "cp1252", file)


def _decode(data: bytes, encoding: str, file: str | None, start: int = 0) -> str:
    """``data[start:]`` decoded; errors give their offset in ``data``."""
    try:
        return data[start:].decode(encoding)
    except UnicodeDecodeError as exc:
        raise _decode_error(data, start + exc.start, encoding, file) from None


def _decode_error(data: bytes, offset: int, encoding: str, file: str | None) -> DecodeError:
    """A DecodeError for the byte at ``offset``, with its line and column in the text."""
    error = DecodeError(f"byte {data[offset:offset + 1]!r} at offset {offset} cannot be "
                        f"decoded as {encoding}", offset, file)
    before = _lines(data[:offset].decode(encoding, "replace"))
    error.line = before.count("\n") + 1
    error.column = len(before) - before.rfind("\n")
    return error


def _lines(text: str) -> str:
    """``text`` with LF line ends (CRLF and CR converted) and no leading byte-order mark."""
    return text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


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

    double, beaver, raccoon, take, drop = map(_cube, ("double", "beaver", "raccoon", "take",
                                                      "drop"))

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
        return (int(length), length.line, length.column, games)

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
    """The LALR parser with its record builder (built once)."""

    def __init__(self):
        try:
            grammar = files("nardy_analysis.grammars").joinpath("mat.lark").read_text("utf-8")
        except ModuleNotFoundError:  # run from a source checkout: grammars/ beside the package
            grammar = (Path(__file__).resolve().parents[2] / "grammars" / "mat.lark").read_text(
                "utf-8")
        self.records = _Records()
        self.lark = Lark(grammar, parser="lalr", lexer="contextual", transformer=self.records,
                         start=["start", "game"])

    def parse(self, text: str, source_lines: list[str], start: str = "start", line: int = 1):
        """Parse ``text`` from rule ``start``; ``text`` begins on line ``line`` of the file
        whose lines are ``source_lines`` (token lines count from there)."""
        self.records.source_lines = source_lines
        if line == 1:
            return self.lark.parse(text, start=start)
        parser = self.lark.parse_interactive(text, start=start)
        parser.lexer_thread.state.line_ctr.line = line
        return parser.resume_parse()


@lru_cache(maxsize=1)
def _reader() -> _Reader:
    return _Reader()


@dataclass(frozen=True)
class ParsedFile:
    """What the lenient reader kept from a file, and what it could not use.

    Attributes
    ----------
    matches : tuple of MatchRecord
        Every match whose ``N point match`` line was read, each with the games that parsed.
    errors : tuple of NotationError
        One per part of the file skipped, in file order: a game with a syntax error (its
        ``game`` attribute is the number written after ``Game``; the whole game is skipped),
        a game before any ``N point match`` line, or stray text outside the games (``game``
        None); or a single DecodeError when the bytes cannot be decoded (then no matches).
    file : str or None
        The file name.
    warnings : tuple of RecordWarning
        The quirks of the text that the reader resolved, in file order.
    """

    matches: tuple[MatchRecord, ...]
    errors: tuple[NotationError, ...]
    file: str | None = None
    warnings: tuple[RecordWarning, ...] = ()


def parse_mat(text: str, file: str | None = None,
              errors: str = "raise") -> list[MatchRecord] | ParsedFile:
    """Parse ``.mat`` match text into match records.

    Parameters
    ----------
    text : str
        The whole file's text; line ends may be LF, CRLF or CR, a leading byte-order mark is
        ignored.
    file : str, optional
        The file name, kept in the records and in error messages.
    errors : {"raise", "collect"}
        ``"raise"``: the first syntax error raises. ``"collect"``: a game with a syntax error
        is skipped and reported, every other game (and match) is kept.

    Returns
    -------
    list of MatchRecord, or ParsedFile
        With ``errors="raise"`` a list with one record per ``N point match`` header, each
        with the ``; [Key "value"]`` tags that precede it (since the previous match); with
        ``errors="collect"`` a :class:`ParsedFile` holding those records and the errors.

    Raises
    ------
    NotationError
        With ``errors="raise"``, text that is not ``.mat`` notation; the message quotes the
        line with a caret at the offending column and names what was expected there.
    ValueError
        ``errors`` is neither ``"raise"`` nor ``"collect"``.

    Notes
    -----
    Time and memory are linear in the length of the text. A file without errors is parsed
    in one pass; after a syntax error, the collecting reader parses the file again one game
    at a time (from each ``Game N`` line to the next ``Game N`` or ``N point match`` line).
    """
    _check(errors)
    text = _lines(text)
    if not text.endswith("\n"):
        text += "\n"
    source_lines = text.split("\n")
    found = []
    try:
        matches = _reader().parse(text, source_lines)
    except UnexpectedInput as exc:
        first = _notation_error(exc, source_lines, file)
        if errors == "raise":
            raise first from None
        matches, found = _parse_games(text, source_lines, file)
        found = found or [first]
    records = _match_records(matches, source_lines, file)
    return records if errors == "raise" else ParsedFile(tuple(records), tuple(found), file)


def _check(errors: str) -> None:
    if errors not in ("raise", "collect"):
        raise ValueError(f"errors must be 'raise' or 'collect', not {errors!r}")


def _match_records(matches, source_lines: list[str], file) -> list[MatchRecord]:
    """MatchRecords of ``(length, line, column, games)``, each with the tags of the comment
    lines before its header line (and after the previous match's)."""
    comments = [(number, line.lstrip(" \t\f\ufeff").rstrip())
                for number, line in enumerate(source_lines, 1)
                if ";" in line and line.lstrip(" \t\f\ufeff").startswith(";")]
    records = []
    next_comment = 0
    for length, line, column, games in matches:
        tags = {}
        while next_comment < len(comments) and comments[next_comment][0] < line:
            tag = _TAG.match(comments[next_comment][1])
            if tag:
                tags[tag.group(1)] = tag.group(2)
            next_comment += 1
        records.append(MatchRecord(length, tags, tuple(games), line, column, file))
    return records


def _parse_games(text: str, source_lines: list[str], file):
    """Parse ``text`` part by part: what comes before the first header, each ``N point
    match`` line with what follows it up to the first game, each game. Returns the matches
    as ``(length, line, column, games)`` and a NotationError for each part that fails."""
    reader = _reader()
    parts = [(1, 0, None)]  # (first line, offset in text, header match or None)
    offset = 0
    for number, line in enumerate(source_lines, 1):
        header = ("Game" in line and _GAME_LINE.fullmatch(line)
                  or "match" in line and _MATCH_LINE.fullmatch(line))
        if header:
            parts.append((number, offset, header))
        offset += len(line) + 1
    ends = [start for _, start, _ in parts[1:]] + [len(text)]
    matches, found = [], []
    for (line, start, header), end in zip(parts, ends):
        if start == end:
            continue
        game = int(header.group(1)) if header and header.re is _GAME_LINE else None
        if game is not None and not matches:
            found.append(_error(f"'Game {game}' comes before any 'N point match' line; "
                                f"game {game} is skipped", line,
                                source_lines[line - 1].index("Game") + 1, source_lines, file,
                                game))
            continue
        if header and game is None:
            matches.append((int(header.group(1)), line, header.start(1) + 1, []))
        try:
            parsed = reader.parse(text[start:end], source_lines,
                                  "start" if game is None else "game", line)
        except UnexpectedInput as exc:
            found.append(_notation_error(exc, source_lines, file, game,
                                         line + text.count("\n", start, end) - 1))
            continue
        if game is not None:
            matches[-1][3].append(parsed)
    return matches, found


def read_mat(path: str | PathLike, errors: str = "raise") -> list[MatchRecord] | ParsedFile:
    """Read and parse a ``.mat`` file (see :func:`decode` and :func:`parse_mat`).

    Parameters
    ----------
    path : str or path-like
    errors : {"raise", "collect"}
        As for :func:`parse_mat`; with ``"collect"`` bytes that cannot be decoded are
        reported as the ParsedFile's one error too.

    Raises
    ------
    OSError
        The file cannot be read (missing, a folder, a dangling link, a link loop, no
        permission).
    DecodeError, NotationError
        With ``errors="raise"``: the bytes cannot be decoded, or the text is not ``.mat``
        notation.
    """
    _check(errors)
    path = Path(path)
    data = path.read_bytes()
    try:
        text = decode(data, str(path))
    except DecodeError as error:
        if errors == "raise":
            raise
        return ParsedFile((), (error,), str(path))
    return parse_mat(text, str(path), errors)


_NAMES = {"PLAY": "a play such as 24/18 13/11", "ROLL": "a roll such as 52: (dice 1..6)",
          "MOVE_NUMBER": "a move number such as 12)", "INT": "a number (at most 9 digits)",
          "_NL": "end of line",
          "NAME": "a player name", "COLON": "':'", "CANNOT_MOVE": "'Cannot Move'",
          "UNKNOWN": "'???'", "$END": "end of file", "DOUBLES": "'Doubles'",
          "TAKES": "'Takes'", "DROPS": "'Drops'", "BEAVERS": "'Beavers'",
          "RACCOONS": "'Raccoons'", "WINS": "'Wins'", "LOSSES": "'Losses'",
          "_POINTS": "'point'", "MATCH_END": "'and the match'", "GAME": "'Game'",
          "POINT": "'point'", "MATCH": "'match'", "__ANON_0": "'=>'"}


def _notation_error(exc: UnexpectedInput, source_lines: list[str], file,
                    game: int | None = None, last_line: int | None = None) -> NotationError:
    """The NotationError of a Lark error; ``game`` is the number of the game being parsed
    on its own and ``last_line`` its last line (None: the whole file was being parsed)."""
    line, column = exc.line, exc.column
    end = isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken)
                                             and exc.token.type == "$END")
    if line < 1 or isinstance(exc, UnexpectedEOF):
        line, column = last_line or len(source_lines), 1
    found = source_lines[line - 1][column - 1:].split(" ")[0] if line <= len(source_lines) else ""
    if isinstance(exc, UnexpectedToken):
        expected = exc.accepts or exc.expected
    elif isinstance(exc, UnexpectedCharacters):
        expected = exc.allowed
    else:
        expected = exc.expected
    names = sorted({_NAMES.get(name, name.strip('"').lower() if name.startswith('"')
                               else name.replace("_", " ").lower()) for name in expected or ()})
    if found:
        message = f"unexpected {_quote(found)}"
    elif end:
        message = f"game {game} ends too early" if game is not None else \
            "unexpected end of file"
    else:
        message = "unexpected end of line"
    if names:
        message += "; expected " + ", ".join(names)
    if game is not None:
        message += f"; game {game} is skipped"
    return _error(message, line, column, source_lines, file, game)


def _quote(text: str, limit: int = 40) -> str:
    """``text`` in quotes for a message: at most ``limit`` characters (then "..."), escaped
    when it holds control characters."""
    shown = text[:limit]
    if not shown.isprintable():
        shown = shown.encode("unicode_escape").decode("ascii")
    return f"'{shown}{'...' if len(text) > limit else ''}'"


def _error(message: str, line: int, column: int, source_lines: list[str], file,
           game: int | None) -> NotationError:
    """A NotationError at ``line``:``column``; its ``game`` attribute is the game number
    (None outside a game)."""
    return NotationError(message, line, column,
                         source_lines[line - 1] if line <= len(source_lines) else "", file, game)
