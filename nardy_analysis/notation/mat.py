"""Read Jellyfish ``.mat`` match text into records.

The parser (:mod:`~nardy_analysis.notation.mat_parser`, on the grammar
``grammars/mat.lark``) gives what the text says as named tuples; this module turns them into
the plain records of :mod:`nardy_analysis.notation.records` (:mod:`.decoding` turns a file's
bytes into text); it knows nothing of the rules.

Both readers return a :class:`~nardy_analysis.notation.records.ParsedFile`. By default they
keep every game they can and list what they skipped (each game with a syntax error, any
stray text) in its ``errors``, as python-chess does for PGN; with ``strict=True`` the first
syntax error raises :class:`~nardy_analysis.errors.NotationError`.
"""

from __future__ import annotations

import codecs
import re
from functools import lru_cache
from os import PathLike
from pathlib import Path
from statistics import median
from typing import NamedTuple, cast

from lark import UnexpectedInput
from lark.exceptions import UnexpectedCharacters, UnexpectedToken

from ..errors import DecodeError, NotAMatch, NotationError, RecordWarning, path_text
from ..game.moves import point_from_str
from .decoding import binary_data, binary_error, decode, lf_text
from .mat_parser import (
    BLANKS,
    CubeEntry,
    Entry,
    MoveLine,
    Number,
    ParsedGame,
    ParsedMatch,
    ResultEntry,
    RollEntry,
    Score,
    Tag,
    from_fields,
    parse,
)
from .records import (
    Action,
    CubeRecord,
    GameRecord,
    MatchRecord,
    ParsedFile,
    ResultRecord,
    TurnRecord,
    WrittenMove,
    tags_by_side,
)

# A lone entry to the right of this column belongs to the right-hand player, when a game
# gives no better clue (no line with two entries, no second name on the score line).
_DEFAULT_SPLIT = 20
# Control characters that text files do not hold (all but tab, line ends and form feed).
_CONTROL = re.compile("[\x00-\x08\x0e-\x1f\x7f]")
# A line that is, or was meant to be, a match or game header ("3 points match", "Game x"):
# a file with none is not a match record.
_HEADER_LIKE = re.compile(r"(?im)points?[ \t]+match[ \t]*\r?$"
                          r"|^[ \t]*game(?:[ \t]+\S+)?[ \t]*\r?$")
# The first line of GNU Backgammon's text export of a game (``export match text``): "The score
# (after 1 game) is: alice 1, bob 0 (match to 5 points)", then board diagrams and moves.
_GNUBG_TEXT = re.compile(r"\s*The score \(after \d+ games?\) is: ")


class _Header(NamedTuple):
    """A ``Game N`` line (``kind`` "game") or ``N point match`` line (``kind`` "match"), and
    its number."""

    kind: str
    number: Number


def _moves(play: str, line: int, column: int) -> tuple[WrittenMove, ...]:
    """The moves of a play at ``line``:``column`` of the file, each with its column."""
    moves = []  # a loop, not a list comprehension: a play has few moves, and a comprehension
    for offset, text, points, hits, count in _play(play):  # is a call of its own
        moves.append(from_fields(WrittenMove, (points, hits, count, line, column + offset, text)))
    return tuple(moves)


# 16,384 plays (about 9 MB): nearly as many hits as any larger size on a large corpus
# (benchmarks/README.md, "replay_corpus.py").
@lru_cache(maxsize=1 << 14)
def _play(play: str) -> tuple[tuple[int, str, tuple[int, ...], tuple[bool, ...], int], ...]:
    """For each move of a PLAY token such as ``13/7*/5(2) 6/5``: its offset in the text, its
    text, points, hit marks and repeat count."""
    moves, offset = [], 0
    for text in play.split(" "):
        if text:
            moves.append((offset, text, *_move(text)))
        offset += len(text) + 1
    return tuple(moves)


@lru_cache(maxsize=1 << 14)
def _move(text: str) -> tuple[tuple[int, ...], tuple[bool, ...], int]:
    """The points, hit marks and repeat count of a move such as ``13/7*/5(2)``."""
    body, _, repeat = text.partition("(")
    first, *hops = body.split("/")
    points = (point_from_str(first),) + tuple(point_from_str(hop.rstrip("*")) for hop in hops)
    return points, tuple(hop.endswith("*") for hop in hops), int(repeat[:-1]) if repeat else 1


def _place_results(actions: list[Action]) -> None:
    """Give the results among a game's actions, placed by their columns, their players.

    One site writes the loser's "Losses" (in either column, or unnumbered at the left) and
    the winner's "Wins" (sometimes far to the right on the same line). A "Wins" on a line of
    its own is placed by its column; then every "Losses" is the other player's. On a line
    with both, the "Losses" is placed by its column and the "Wins" is the other player's."""
    lines: dict[int, list[tuple[int, ResultRecord]]] = {}  # line number: its results
    for i, action in enumerate(actions):
        if type(action) is ResultRecord:
            lines.setdefault(action.line, []).append((i, action))
    winners = [result.player for line in lines.values()
               if all(result.wins for _, result in line) for _, result in line]
    for line in lines.values():
        losers = [result.player for _, result in line if not result.wins]
        for i, result in line:
            if result.wins and losers:
                actions[i] = result._replace(player=1 - losers[0])
            elif not result.wins and winners:
                actions[i] = result._replace(player=1 - winners[0])


def _split_column(lines: list[MoveLine], scores: list[Score]) -> float:
    """The column from which a lone entry is in the right-hand column."""
    pairs = [entries for _, entries in lines if len(entries) == 2]
    if pairs:
        left = median(entries[0].column for entries in pairs)
        right = median(entries[1].column for entries in pairs)
        return (left + right) / 2
    if len(scores) == 2:
        return (scores[0].column + scores[1].column) / 2
    return _DEFAULT_SPLIT


def _game_record(game: ParsedGame, source_lines: list[str], shift: int = 0,
                 cut_line: int | None = None) -> GameRecord:
    """The GameRecord of a parsed game whose token lines are ``shift`` lines before the
    file's (a game parsed on its own; ``cut_line``: up to the syntax error at that line).

    The entries of a line with two are the left-hand and the right-hand player's; a lone
    entry is placed by its column (:func:`_split_column`), a result as
    :func:`_place_results` says."""
    scores = game.scores
    names = [s.name for s in scores] + ["", ""]
    values = [s.score for s in scores] + [0, 0]
    ratings = [s.rating for s in scores] + [None, None]
    split = _split_column(game.lines, scores)
    actions: list[Action] = []
    for move, entries in game.lines:
        if len(entries) == 2:
            actions += (_record(entries[0], 0, move, source_lines, shift),
                        _record(entries[1], 1, move, source_lines, shift))
        else:
            actions += [_record(entry, int(entry.column >= split), move, source_lines, shift)
                        for entry in entries]
    if ResultRecord in map(type, actions):
        _place_results(actions)
    number, first = game.number, scores[0]
    return GameRecord(number.value, (names[0], names[1]), (values[0], values[1]),
                      tuple(actions), number.line + shift, number.column, first.line + shift,
                      first.column, ratings=(ratings[0], ratings[1]), cut_line=cut_line)


def _record(entry: Entry, player: int, move: int | None, source_lines: list[str],
            shift: int) -> Action:
    """The record of an entry, its line ``shift`` lines further down, with its text."""
    if type(entry) is RollEntry:
        line, column, end, roll, play, play_column, recorded = entry
        line += shift
        return from_fields(TurnRecord, (player, roll, _moves(play, line, play_column) if play
                                        else None if play is None else (), move, line, column,
                                        source_lines[line - 1][column - 1:end - 1].rstrip(), (),
                                        recorded))
    if type(entry) is CubeEntry:
        line, column, end, action, value = entry
        line += shift
        return from_fields(CubeRecord, (player, action, value, move, line, column,
                                        source_lines[line - 1][column - 1:end - 1].rstrip(), ()))
    line, column, end, wins, points, match_won = cast(ResultEntry, entry)
    line += shift
    return from_fields(ResultRecord, (player, points, wins, match_won, move, line, column,
                                      source_lines[line - 1][column - 1:end - 1].rstrip()))


@lru_cache(maxsize=4096)
def _tag(line: str) -> Tag | None:
    """The key and value of a comment line that is a ``; [Key "value"]`` tag, else None."""
    try:
        return cast(Tag, parse(line, "tag"))
    except UnexpectedInput:
        return None


def _header(line: str) -> _Header | None:
    """The ``Game N`` line or ``N point match`` line ``line`` (each alone on its line, but
    for blanks and a comment), else None."""
    for kind, word in (("game", "Game"), ("match", "match")):
        if word in line:
            try:
                return _Header(kind, parse(line, f"{kind}_line"))
            except UnexpectedInput:
                pass
    return None


def _not_a_match(error: NotationError, binary: bool) -> NotAMatch:
    """The NotAMatch error of a file without headers: at ``error``'s place for text, at 1:1
    for binary data."""
    if binary:
        return binary_error(error.file)
    return NotAMatch("not a match record: no 'N point match' line", error.line, error.column,
                     error.source_line, error.file)


def parse_mat(text: str, file: str | None = None, *, strict: bool = False) -> ParsedFile:
    """Parse ``.mat`` match text into match records.

    Parameters
    ----------
    text : str
        The whole file's text; line ends may be LF, CRLF or CR, a leading byte-order mark is
        ignored.
    file : str, optional
        The file name, kept in the records and in error messages.
    strict : bool
        Raise the first syntax error (True), or keep each game with a syntax error up to
        the line before the error (skip it when nothing comes before), report the error in
        ``errors`` and keep every other game and match (False, the default).

    Returns
    -------
    ParsedFile
        Its ``matches`` hold one record per ``N point match`` header, each with the
        ``; [Key "value"]`` tags that precede it (since the previous match); its ``errors``
        what was skipped.

    Raises
    ------
    NotationError
        With ``strict=True``, text that is not ``.mat`` notation; the message quotes the
        line with a caret at the offending column and names what was expected there. Text
        with no ``N point match`` or ``Game N`` line, nor one meant to be (``3 points
        match``), is :class:`~nardy_analysis.errors.NotAMatch` (kind ``not_a_match``: "no
        'N point match' line" for text such as a README, "binary data" when it holds
        control characters): with or without ``strict``, the file's one error. So is GNU
        Backgammon's text export of a game (``export match text``: its first line "The
        score (after N games) is: ..."), whose message says to export ``.mat`` instead.

    Notes
    -----
    Time and memory are linear in the length of the text. A file without errors is parsed
    in one pass; after a syntax error, the lenient reader parses the file again one game
    at a time (from each ``Game N`` line to the next ``Game N`` or ``N point match`` line),
    and a game with a syntax error once more up to the line of the error.
    """
    text = lf_text(text)
    if not text.endswith("\n"):
        text += "\n"
    source_lines = text.split("\n")
    if _GNUBG_TEXT.match(text):
        line = text[:len(text) - len(text.lstrip())].count("\n") + 1
        error = NotAMatch("not a match record: GNU Backgammon's text export of a game; "
                          "export the match from GNU Backgammon as .mat ('export match mat') "
                          "or SGF to read it", line, 1, source_lines[line - 1], file)
        if strict:
            raise error
        return ParsedFile((), (error,), file=file)
    found: list[NotationError] = []
    try:
        parsed = cast(list[ParsedMatch], parse(text))
        matches = [(match, [_game_record(game, source_lines) for game in match.games])
                   for match in parsed]
    except UnexpectedInput as exc:
        first = _notation_error(exc, source_lines, file)
        not_a_match = not _HEADER_LIKE.search(text)
        if not_a_match:
            first = _not_a_match(first, bool(_CONTROL.search(text)))
        if strict:
            raise first from None
        matches, found = ([], []) if not_a_match else _parse_games(text, source_lines, file)
        found = found or [first]
    records, warnings = _match_records(matches, source_lines, file)
    return ParsedFile(tuple(records), tuple(found), tuple(warnings), file=file)


def _match_records(matches: list[tuple[ParsedMatch, list[GameRecord]]], source_lines: list[str],
                   file: str | None) -> tuple[list[MatchRecord], list[RecordWarning]]:
    """MatchRecords of the matches read and their games' records, each with the tags of the
    comment lines before its header line (and after the previous match's), the players'
    tags on the sides of the first score line that names both (:func:`tags_by_side`; a
    ``player_tags`` warning for each match whose tags had them the other way round)."""
    comments = [_Comment(number, line) for number, line in enumerate(source_lines, 1)
                if ";" in line and line.lstrip(BLANKS).startswith(";")]
    records, warnings = [], []
    next_comment = 0
    for match, games in matches:
        tags: dict[str, str] = {}
        lines: dict[str, _Comment] = {}
        while next_comment < len(comments) and comments[next_comment].number < match.line:
            comment = comments[next_comment]
            tag = _tag(comment.text)
            if tag:
                tags[tag.key] = tag.value
                lines[tag.key] = comment
            next_comment += 1
        named = next((game for game in games if all(game.names)), None)
        moved = tags_by_side(tags, named.names) if named else None
        if named and moved is not None:
            warnings.append(_player_tags(tags, named, lines, file))
            tags = moved
        records.append(MatchRecord(match.length, tags, tuple(games), match.line, match.column,
                                   file))
    return records, warnings


class _Comment(NamedTuple):
    """A comment line: its line number and text."""

    number: int
    text: str


def _player_tags(tags: dict[str, str], game: GameRecord, lines: dict[str, _Comment],
                 file: str | None) -> RecordWarning:
    """The ``player_tags`` warning of tags that name ``game``'s players the other way round,
    at the ``Player 1`` tag (else ``Player 2``); ``lines`` give each tag's line number and
    text."""
    key = "Player 1" if "Player 1" in tags else "Player 2"
    number, text = lines[key]
    tagged = " and ".join(f"{tags[k]!r} {k.lower()}" for k in ("Player 1", "Player 2")
                          if k in tags)
    left, right = game.names
    return RecordWarning(
        "player_tags", f"the header tags name {tagged}, but the score line of game "
        f"{game.number} (line {game.score_line}) has {left!r} on the left and {right!r} on "
        "the right: the score lines decide, and each player's tags go with the name",
        file=file, line=number, column=text.index(key) + 1, text=text.strip())


class _Part(NamedTuple):
    """A part of a file parsed on its own: its first line, its offset in the text and the
    header it starts with (None: the text before the first header)."""

    line: int
    start: int
    header: _Header | None


def _parse_games(text: str, source_lines: list[str], file: str | None
                 ) -> tuple[list[tuple[ParsedMatch, list[GameRecord]]], list[NotationError]]:
    """Parse ``text`` part by part: what comes before the first header, each ``N point
    match`` line with what follows it up to the first game, each game. Returns the matches
    with their games' records, and a NotationError for each part that fails."""
    parts = [_Part(1, 0, None)]
    offsets = []  # of each line in text
    offset = 0
    for number, source_line in enumerate(source_lines, 1):
        header = _header(source_line)
        if header:
            parts.append(_Part(number, offset, header))
        offsets.append(offset)
        offset += len(source_line) + 1
    ends = [part.start for part in parts[1:]] + [len(text)]
    matches: list[tuple[ParsedMatch, list[GameRecord]]] = []
    found: list[NotationError] = []
    games: list[GameRecord] = []  # of the last match
    for (line, start, header), end in zip(parts, ends):
        if start == end:
            continue
        game = header.number.value if header and header.kind == "game" else None
        if game is not None and not matches:
            found.append(_error(f"'Game {game}' comes before any 'N point match' line; "
                                f"game {game} is skipped", line,
                                source_lines[line - 1].index("Game") + 1, source_lines, file,
                                game))
            continue
        if header and game is None:
            games = []
            matches.append((ParsedMatch(header.number.value, line, header.number.column, []),
                            games))
        try:
            parsed = parse(text[start:end], "start" if game is None else "game")
        except UnexpectedInput as exc:
            last = line + text.count("\n", start, end) - 1
            error = _notation_error(exc, source_lines, file, game, last, line - 1)
            cut = _game_before(text[start:offsets[error.line - 1]]) if game is not None \
                else None
            if cut:
                error = _notation_error(exc, source_lines, file, game, last, line - 1, cut=True)
                games.append(_game_record(cut, source_lines, line - 1, error.line))
            found.append(error)
            continue
        if game is not None:
            games.append(_game_record(parsed, source_lines, line - 1))
    return matches, found


def _game_before(text: str) -> ParsedGame | None:
    """The parsed game of ``text``, the lines of a game before one with a syntax error, when
    they parse and hold an action (a roll, a cube action or a result), else None."""
    try:
        parsed = cast(ParsedGame, parse(text, "game"))
    except UnexpectedInput:
        return None
    return parsed if any(line.entries for line in parsed.lines) else None


def read_mat(path: str | PathLike[str], *, strict: bool = False) -> ParsedFile:
    """Read and parse a ``.mat`` file (see :func:`~.decoding.decode` and :func:`parse_mat`).

    Parameters
    ----------
    path : str or path-like
    strict : bool
        As for :func:`parse_mat`; when False, bytes that cannot be decoded are reported as
        the ParsedFile's one error (and it holds no matches).

    Returns
    -------
    ParsedFile

    Raises
    ------
    OSError
        The file cannot be read (missing, a folder, a dangling link, a link loop, no
        permission).
    DecodeError, NotationError
        With ``strict=True``: the bytes cannot be decoded, or the text is not ``.mat``
        notation. Bytes that cannot be decoded and hold no ``N point match`` or ``Game N``
        line (nor one meant to be), and bytes of :func:`~.decoding.binary_data`, are
        :class:`~nardy_analysis.errors.NotAMatch` ("binary data"), with or without
        ``strict``.
    """
    path = Path(path)
    data = path.read_bytes()
    name = path_text(path)
    if binary_data(data):
        if strict:
            raise binary_error(name)
        return ParsedFile((), (binary_error(name),), file=name)
    try:
        text = decode(data, name)
    except DecodeError as error:
        bom = data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
        problem: NotationError = error
        if not _HEADER_LIKE.search(data.decode("utf-16" if bom else "latin-1", "replace")):
            problem = _not_a_match(error, True)
        if strict:
            raise problem from None
        return ParsedFile((), (problem,), file=name)
    return parse_mat(text, name, strict=strict)


# What a message calls each terminal of the grammar it expected (others: the name in lower
# case, "_" as a blank).
_NAMES = {"PLAY": "a play such as 24/18 13/11", "ROLL": "a roll such as 52: (dice 1..6)",
          "MOVE_NUMBER": "a move number such as 12)",
          "LINES": "a move number such as 12)", "INT": "a number (at most 9 digits)",
          "_NL": "end of line", "NAME": "a player name", "_COLON": "':'",
          "CANNOT_MOVE": "'Cannot Move'", "UNKNOWN": "'???'", "SIGNED": "a number",
          "SNOWIE_NAME": "a player name", "SNOWIE_END": "')'", "_SEMI": "';'", "_LPAR": "'('",
          "ILLEGAL_PLAY": "'Illegal play'", "$END": "end of file", "DOUBLES": "'Doubles'",
          "TAKES": "'Takes'", "DROPS": "'Drops'", "BEAVERS": "'Beavers'",
          "RACCOONS": "'Raccoons'", "WINS": "'Wins'", "LOSSES": "'Losses'",
          "_POINTS": "'point'", "MATCH_END": "'and the match'", "_GAME": "'Game'",
          "_POINT": "'point'", "_MATCH": "'match'", "_ARROW": "'=>'"}


def _notation_error(exc: UnexpectedInput, source_lines: list[str], file: str | None,
                    game: int | None = None, last_line: int | None = None,
                    shift: int = 0, cut: bool = False) -> NotationError:
    """The NotationError of a Lark error (the LALR parser's: UnexpectedToken, the token
    ``$END`` at the end of the text, or UnexpectedCharacters); ``game`` is the number of the
    game being parsed on its own, ``last_line`` its last line and ``shift`` the number of
    lines before it (None and 0: the whole file was being parsed); ``cut``: the game is kept
    up to the line before the error."""
    line, column = exc.line + shift, exc.column
    end = isinstance(exc, UnexpectedToken) and exc.token.type == "$END"
    if exc.line < 1:
        line, column = last_line or len(source_lines), 1
    rest = source_lines[line - 1][column - 1:] if line <= len(source_lines) else ""
    found = ";" if rest.startswith(";") else re.split("[ ;]", rest, maxsplit=1)[0]
    expected: set[str] = set()
    if isinstance(exc, UnexpectedToken):
        expected = exc.accepts or exc.expected
    elif isinstance(exc, UnexpectedCharacters):
        expected = exc.allowed
    names = sorted({_NAMES.get(name, name.strip('"').lower() if name.startswith('"')
                               else name.replace("_", " ").lower())
                    for name in expected or ()})
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
        message += f"; {'the rest of ' * cut}game {game} is skipped"
    return _error(message, line, column, source_lines, file, game)


def _quote(text: str, limit: int = 40) -> str:
    """``text`` in quotes for a message: at most ``limit`` characters (then "..."), escaped
    when it holds control characters."""
    shown = text[:limit]
    if not shown.isprintable():
        shown = shown.encode("unicode_escape").decode("ascii")
    return f"'{shown}{'...' if len(text) > limit else ''}'"


def _error(message: str, line: int, column: int, source_lines: list[str], file: str | None,
           game: int | None) -> NotationError:
    """A NotationError at ``line``:``column``; its ``game`` attribute is the game number
    (None outside a game)."""
    return NotationError(message, line, column,
                         source_lines[line - 1] if line <= len(source_lines) else "", file, game)
