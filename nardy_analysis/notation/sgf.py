"""Read GNU Backgammon's SGF match files (FF[4], GM[6]) as match records (written by
:mod:`~nardy_analysis.notation.sgf_writer`).

The syntax is SGF's own, ``grammars/sgf.lark`` (Lark, LALR); this module gives gnubg's
properties their meaning, as gnubg's ``sgf.c`` reads and writes them (read, not copied):

* One game tree per game. Its root node holds ``MI[length:N][game:K][ws:A][bs:B]`` (match
  length, 0 for money; the 0-based game number; the scores before the game), the names
  ``PW`` (player 0, the left-hand column of gnubg's ``.mat`` export) and ``PB`` (player 1),
  ``RU`` (``Crawford``, ``CrawfordGame``, ``Jacoby``, ``NoCube`` and variants, joined by
  ``:``; this project's own ``RU[LongNardy]`` or ``RU[long-federation]``, the match's
  ``Variation`` tag, marks a long nardy match, and ``RU[Crawford:Caucasian]`` (or another
  variant's tag) a short nardy variant, which gnubg does not know), the result
  ``RE[W+2]`` (``W``/``B`` won that many points; a final ``R``: by resignation) and, in the
  first game, ``DT``, ``PC``, ``EV``, ``RO``, ``AN``, ``GC``.
* Every other node is one action: ``W[double]`` (its record's value, which SGF does not
  write, is twice the cube's before: the ``=> 4`` of ``.mat``), ``B[take]``, ``B[drop]``, or
  a roll and its play, ``W[42hdfd]``: the dice, then a from and a to letter for each
  checker step (at most four). For W the letter ``a`` is the mover's 1-point up to ``x``,
  the 24-point; for B the letters run the other way (``a`` is B's 24-point); ``y`` is the
  bar, ``z`` off. A roll with no letters is a dance. A roll after which the player resigned is
  a node ``PL[W]DI[42]``.
  Other properties of a node (gnubg's analysis ``A``, ``DA``, luck ``LU``, marks ``GB``,
  ``BM``, comments ``C``, ...) are kept, as written, on the record.
* A resignation has no node of its own: the ``R`` of ``RE`` says it.

* A position set up right after a roll with no play, ``PL[W]DI[11]`` then
  ``PL[W]AE[a:y]AW[..]AB[..]``, is how gnubg writes the position after an illegal play
  (a ``.mat`` file's ``Illegal play (...)``): the roll's record has that position as its
  ``recorded_position`` (:func:`_set_up`), and the replay goes on from it as it does for
  the ``.mat`` cell (a ``recorded_illegal_play`` warning). A ``double`` node right after
  the ``drop`` that ends such a game is gnubg's artefact and is not read
  (:func:`_double_after_drop`).

A variation (a game tree inside a game tree) is not part of the game: the main line is read,
as gnubg does. Any other position setup (``AE``, ``AB``, ``AW`` elsewhere; ``PL`` without
``DI``), a cube value set by hand (``CV``, ``CP``) and variants other than standard
backgammon are not supported: such a game is reported as an error and skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from os import PathLike
from pathlib import Path
from typing import Any, Iterator, NamedTuple

from lark import Lark, Token, Transformer, UnexpectedInput
from lark.exceptions import UnexpectedCharacters, UnexpectedToken

from ..errors import DecodeError, NotAMatch, NotationError, path_text
from ..game.moves import Roll
from ..game.rules import BAR, OFF, STANDARD, variant
from . import open_grammar
from .decoding import binary_data, binary_error, decode_error, text_position
from .records import (
    Action,
    CubeRecord,
    GameRecord,
    MatchRecord,
    ParsedFile,
    ResultRecord,
    SnowiePosition,
    TurnRecord,
    WrittenMove,
)

CUBE_ACTIONS = ("double", "take", "drop")
"""The cube actions an SGF node can hold (``W[double]``, ``B[take]``, ``B[drop]``)."""
_CHARSET = re.compile(rb"CA\[([^\]]*)\]")
_TREE_LINE = re.compile(r"^[ \t\f\v\ufeff]*\(", re.MULTILINE)
_ESCAPE = re.compile(r"\\\n|\\(.)", re.S)
_LINE_ENDS = re.compile(r"\s*\n\s*")
_RESULT = re.compile(r"([BW])\+(\d{0,9})(R?)")
_SETUP = ("AE", "AW", "AB")
_UNSUPPORTED = {"PL": "setting the player on roll", "CV": "setting the cube value",
                "CP": "setting the cube owner"}
_VARIANTS = ("Nackgammon", "Hypergammon1", "Hypergammon2", "Hypergammon3")
TAGS = {"PW": "Player 1", "PB": "Player 2", "WR": "Player 1 Elo", "BR": "Player 2 Elo",
        "PC": "Site", "EV": "Event", "RO": "Round", "DT": "EventDate", "AN": "Transcriber",
        "GC": "Comment"}
"""Root properties kept as match tags, by the names gnubg's .mat export gives them."""
# Root properties read into the GameRecord's fields (the others stay in its properties).
_READ = {"MI", "PW", "PB", "RE", "FF", "GM", "CA"}


class _Written(NamedTuple):
    """A property as the parser reads it: its identifier, its values as written (in their
    brackets), where the identifier and the first value are, and the offsets of the start
    and the end of its text."""

    ident: str
    values: list[str]
    line: int
    column: int
    value_line: int
    value_column: int
    start: int
    end: int


class _Node(NamedTuple):
    """A node as the parser reads it: where its ``;`` is, and its properties."""

    line: int
    column: int
    properties: list[_Written]


class _Trees(Transformer[Token, Any]):
    """Gathers the game trees while the LALR parser runs (no parse tree is kept): a
    ``gametree`` gives the nodes of its main line (its sequence, then its first variation's:
    a variation is not part of the game, as gnubg reads it), a ``collection`` the list of
    them. The tokens a callback is given are typed ``Any``: lark's types leave their
    positions optional, and the lexer sets them all."""

    def property(self, children: list[Any]) -> _Written:
        ident, first, last = children[0], children[1], children[-1]
        return _Written(str(ident), [str(value) for value in children[1:]], ident.line,
                        ident.column, first.line, first.column, ident.start_pos, last.end_pos)

    def node(self, children: list[Any]) -> _Node:
        start = children[0]
        return _Node(start.line, start.column, children[1:])

    def sequence(self, children: list[_Node]) -> list[_Node]:
        return children

    def gametree(self, children: list[list[_Node]]) -> list[_Node]:
        sequence, *variations = children
        return sequence + variations[0] if variations else sequence

    def collection(self, children: list[list[_Node]]) -> list[list[_Node]]:
        return children


@lru_cache(maxsize=1)
def _parser() -> Lark:
    """The LALR parser with its game tree builder (built once; it keeps no state between
    parses)."""
    return open_grammar("sgf.lark", parser="lalr", transformer=_Trees(),
                        start=["collection", "gametree"])


def _parse(text: str, start: str) -> Any:
    """What the parser's start rule ``start`` gives for ``text`` (see :class:`_Trees`)."""
    return _parser().parse(text, start=start)


def decode_sgf(data: bytes, file: str | None = None) -> str:
    """Decode an SGF file's bytes with the character set its ``CA`` property names.

    Parameters
    ----------
    data : bytes
        The whole file.
    file : str, optional
        The file name, for the error message.

    Returns
    -------
    str
        The text. Without ``CA`` the text is ISO-8859-1, the FF[4] default (older gnubg
        versions wrote names so); gnubg 1.x writes ``CA[UTF-8]``.

    Raises
    ------
    DecodeError
        An unknown character set, or bytes it cannot decode; ``offset`` is the first such
        byte, ``line`` and ``column`` (1-based) where it is.
    """
    found = _CHARSET.search(data)
    charset = found.group(1).decode("ascii", "replace").strip() if found else "ISO-8859-1"
    try:
        return data.decode(charset)
    except LookupError:
        error = DecodeError(f"unknown character set CA[{charset}]",
                            found.start(1) if found else 0, file)
        error.line, error.column = text_position(data, error.offset, "latin-1")
        raise error from None
    except UnicodeDecodeError as exc:
        raise decode_error(data, exc.start, charset, file) from None


@dataclass(frozen=True, slots=True)
class _Property:
    """One property as read: identifier, unescaped values, where it and its first value's
    text (after the ``[``) are, its source text."""

    ident: str
    values: tuple[str, ...]
    line: int
    column: int
    value_line: int
    value_column: int
    text: str

    @property
    def value(self) -> str:
        """The first value (most properties have one)."""
        return self.values[0]


@dataclass(frozen=True, slots=True)
class _Game:
    """A game tree read (:func:`_game`): its index in its match, its record, its root
    node's properties and the match length."""

    index: int
    record: GameRecord
    root: dict[str, _Property]
    length: int


def parse_sgf(text: str, file: str | None = None, *, strict: bool = False) -> ParsedFile:
    """Parse gnubg SGF text into match records.

    Parameters
    ----------
    text : str
        The whole file's text (see :func:`decode_sgf` for bytes).
    file : str, optional
        The file name, kept in the records and in error messages.
    strict : bool
        Raise the first error instead of collecting it.

    Returns
    -------
    ParsedFile
        ``matches``: one MatchRecord per match (a new match starts at each game tree whose
        ``MI`` says ``game:0``), its games in file order; players 0 and 1 are ``W`` and
        ``B``. Each record's ``line`` and ``column`` are those of its property (a game's,
        of its root node; its score's, of ``MI``) and ``text`` the property as written.
        ``errors``: one NotationError per game tree skipped (its ``game`` attribute is the
        game number, 1-based), or a single one for text that is not SGF where no game tree
        can be told apart. Blank text gives neither (as for ``.mat`` text:
        :func:`~nardy_analysis.load.load_file` calls the file ``empty``).

    Raises
    ------
    NotationError
        With ``strict``, the first error; the message quotes the offending text, with its
        line and column.

    Notes
    -----
    Time and memory are linear in the length of the text. After a syntax error the reader
    parses each game tree that starts a line (as gnubg writes them) on its own.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        return ParsedFile((), (), file=file)
    lines = text.split("\n")
    errors: list[NotationError] = []
    trees: list[tuple[list[_Node], str, int]]  # each game tree's main line, text, offset
    try:
        trees = [(nodes, text, 0) for nodes in _parse(text, "collection")]
    except UnexpectedInput as exc:
        first = _syntax_error(exc, lines, file, 0)
        if strict:
            raise first from None
        trees = []
        starts = [found.start() for found in _TREE_LINE.finditer(text)] + [len(text)]
        for start, end in zip(starts, starts[1:]):
            part, offset = text[start:end], text.count("\n", 0, start)
            try:
                trees.append((_parse(part, "gametree"), part, offset))
            except UnexpectedInput as part_exc:
                errors.append(_syntax_error(part_exc, lines, file, offset))
        if not trees and not errors:
            errors.append(first)
    matches: list[list[_Game]] = []  # per match, its games
    for nodes, source, offset in trees:
        try:
            game = _game(nodes, source, offset, lines, file, len(matches[-1]) if matches else 0)
        except NotationError as error:
            if strict:
                raise
            errors.append(error)
            continue
        if game.index == 0 or not matches:
            matches.append([])
        matches[-1].append(game)
    return ParsedFile(tuple(_match(games, file) for games in matches), tuple(errors), file=file)


def read_sgf(path: str | PathLike[str], *, strict: bool = False) -> ParsedFile:
    """Read and parse a gnubg SGF file (see :func:`decode_sgf` and :func:`parse_sgf`).

    Parameters
    ----------
    path : str or path-like
    strict : bool
        Raise the first error instead of collecting it.

    Returns
    -------
    ParsedFile
        As :func:`parse_sgf` gives it; bytes that cannot be decoded, or binary data
        (:func:`~nardy_analysis.notation.decoding.binary_data`: kind ``not_a_match``), are its
        one error.

    Raises
    ------
    OSError
        The file cannot be read.
    DecodeError, NotationError
        With ``strict``: the bytes cannot be decoded, or the text is not gnubg SGF.
    """
    path = Path(path)
    data = path.read_bytes()
    name = path_text(path)
    try:
        if binary_data(data):
            raise binary_error(name)
        text = decode_sgf(data, name)
    except (DecodeError, NotAMatch) as error:
        if strict:
            raise
        return ParsedFile((), (error,), file=name)
    return parse_sgf(text, name, strict=strict)


def _match(games: list[_Game], file: str | None) -> MatchRecord:
    """The MatchRecord of a match's games, its tags from the first game's root node (each on
    one line, as a ``.mat`` tag is; the property as written stays in the game's
    ``properties``)."""
    first, root, length = games[0].record, games[0].root, games[0].length
    tags = {tag: _LINE_ENDS.sub(" ", root[ident].value).strip()
            for ident, tag in TAGS.items() if ident in root}
    if "EventDate" in tags:
        tags["EventDate"] = tags["EventDate"].replace("-", ".")
    rules = root["RU"].value.split(":") if "RU" in root else []
    named = [rule for rule in rules if variant(rule) not in (None, STANDARD)]
    if named:
        tags["Variation"] = named[0]
    if length:
        tags["Crawford"] = "On" if "Crawford" in rules else "Off"
    else:
        tags["Jacoby"] = "On" if "Jacoby" in rules else "Off"
    line, column = (root["MI"].line, root["MI"].column) if "MI" in root else \
        (first.line, first.column)
    return MatchRecord(length, tags, tuple(game.record for game in games), line, column, file)


def _game(nodes: list[_Node], source: str, offset: int, lines: list[str], file: str | None,
          played: int) -> _Game:
    """The game of a game tree's main line, ``nodes`` (of ``source``, which starts
    ``offset`` lines into the file); ``played`` is the number of games of the current match
    before it."""
    root_line, root_column = nodes[0].line + offset, nodes[0].column
    root: dict[str, _Property] = {}
    for prop in _properties(nodes[0], source, offset):
        root.setdefault(prop.ident, prop)
    info = dict(item.partition(":")[::2] for item in root["MI"].values) if "MI" in root else {}
    numbers = {}
    for key in ("length", "game", "ws", "bs"):
        value = info.get(key, "0").strip()
        if not value.isdigit() or len(value) > 9:
            prop = root["MI"]
            raise _error(f"MI[{key}:{value}]: not a number", prop, lines, file, None)
        numbers[key] = int(value)
    index = numbers["game"] if "game" in info else played
    number = index + 1
    where = root.get("GM")
    if where is None or where.value.strip() != "6":
        game = f"GM[{where.value}]" if where else "no GM property"
        raise NotationError(f"not a backgammon game tree ({game}, backgammon is GM[6]); "
                            f"game {number} is skipped", where.line if where else root_line,
                            where.column if where else root_column,
                            lines[(where.line if where else root_line) - 1], file, number)
    for rule in root["RU"].value.split(":") if "RU" in root else ():
        if rule in _VARIANTS:
            raise _error(f"the variant {rule} is not supported", root["RU"], lines, file,
                         number)
    if "CV" in root:
        raise _error("automatic doubles (CV in the root node) are not supported", root["CV"],
                     lines, file, number)
    names = (root["PW"].value if "PW" in root else "", root["PB"].value if "PB" in root
             else "")
    scores = (numbers["ws"], numbers["bs"])
    actions: list[Action] = []
    cube, owner = 1, None  # the cube's value and owner (0 W, 1 B, None: centred)
    for node in nodes[1:]:
        props = list(_properties(node, source, offset))
        if any(p.ident in _SETUP for p in props) and not any(p.ident in ("W", "B", "DI")
                                                              for p in props):
            context = (numbers["length"], names, scores, cube, owner)
            actions[-1:] = [_set_up(props, actions[-1:], context, lines, file, number)]
            continue
        action = _action(props, lines, file, number)
        if _double_after_drop(action, actions):
            continue
        if isinstance(action, CubeRecord) and action.action == "double":
            cube *= 2  # the value .mat writes after "Doubles =>"; SGF has no beavers
            action = action._replace(value=cube)
        elif isinstance(action, CubeRecord) and action.action == "take":
            owner = action.player
        if action is not None:
            actions.append(action)
    if "RE" in root:
        actions.append(_result(root["RE"], scores, numbers["length"], lines, file, number))
    mi = root.get("MI")
    properties = tuple((p.ident, p.values) for p in root.values() if p.ident not in _READ
                       and p.ident not in TAGS)
    record = GameRecord(number, names, scores, tuple(actions), root_line, root_column,
                        mi.line if mi else root_line, mi.column if mi else root_column,
                        properties)
    return _Game(index, record, root, numbers["length"])


def _double_after_drop(action: TurnRecord | CubeRecord | None, actions: list[Action]) -> bool:
    """Whether ``action`` is a double right after the drop that ended the game: gnubg
    (1.07.001 and 1.1.0a16) imports some ``.mat`` games that go on from an ``Illegal play``
    position and end in a dropped double as double, drop, double and writes all three; read
    back, gnubg ends the game at the drop (same score)."""
    return (isinstance(action, CubeRecord) and action.action == "double" and bool(actions)
            and isinstance(actions[-1], CubeRecord) and actions[-1].action == "drop")


def _properties(node: _Node, source: str, offset: int) -> Iterator[_Property]:
    """The properties of a node of ``source`` (which starts ``offset`` lines into the file),
    values unescaped."""
    for written in node.properties:
        yield _Property(written.ident, tuple(_unescape(v[1:-1]) for v in written.values),
                        written.line + offset, written.column, written.value_line + offset,
                        written.value_column + 1, source[written.start:written.end])


def _unescape(value: str) -> str:
    """An SGF value without its escapes: ``\\`` before a line end is dropped (a soft line
    break), before any other character it keeps that character."""
    return _ESCAPE.sub(lambda m: m.group(1) or "", value) if "\\" in value else value


def _action(props: list[_Property], lines: list[str], file: str | None,
            number: int) -> TurnRecord | CubeRecord | None:
    """The record of one node (None for a node without an action)."""
    by_ident = {p.ident: p for p in props}
    moves = [p for p in props if p.ident in ("W", "B")]
    if moves:
        prop = moves[0]
        rest = tuple((p.ident, p.values) for p in props if p is not prop)
        player = "WB".index(prop.ident)
        value = prop.value
        if value in CUBE_ACTIONS:
            return CubeRecord(player, value, None, None, prop.line, prop.column, prop.text,
                              rest)
        roll, steps = _move(prop, player, lines, file, number)
        return TurnRecord(player, roll, steps, None, prop.line, prop.column, prop.text, rest)
    if "DI" in by_ident and "PL" in by_ident:
        dice, turn = by_ident["DI"], by_ident["PL"]
        if turn.value not in ("W", "B"):
            raise _error(f"PL[{turn.value}]: the player is W or B", turn, lines, file,
                         number)
        roll, steps = _move(dice, "WB".index(turn.value), lines, file, number)
        if steps:
            raise _error(f"{dice.text}: DI holds only the dice", dice, lines, file, number)
        rest = tuple((p.ident, p.values) for p in props if p not in (dice, turn))
        return TurnRecord("WB".index(turn.value), roll, (), None, turn.line, turn.column,
                          f"{turn.text}{dice.text}", rest)
    for prop in props:
        if prop.ident in _UNSUPPORTED:
            raise _error(f"{prop.text}: {_UNSUPPORTED[prop.ident]} is not supported", prop,
                         lines, file, number)
    return None


def _set_up(props: list[_Property], previous: list[TurnRecord | CubeRecord | ResultRecord],
            context: tuple[int, tuple[str, str], tuple[int, int], int, int | None],
            lines: list[str], file: str | None, number: int) -> TurnRecord:
    """The roll before a set-up node, with the position set up as its recorded position.

    GNU Backgammon writes the position after an illegal play (a ``.mat`` file's ``Illegal
    play (...)`` cell, imported) as a roll with no play, ``PL[W]DI[11]``, then a node
    ``PL[W]AE[a:y]AW[a][a]...AB[x]...``: ``AE[a:y]`` clears the board, ``AW`` and ``AB``
    put one checker of W and of B on each point named (the letters of a move: ``a`` is
    W's 1-point and B's 24-point, ``y`` the bar). The position is read into the fields of
    a :class:`~nardy_analysis.notation.records.SnowiePosition`, as the ``.mat`` reader
    reads that cell (:meth:`~nardy_analysis.notation.records.SnowiePosition.from_board`;
    ``context`` is the match length, the names, the scores, the cube value and its owner
    before the node);
    the game goes on from it with the other player on roll. ``PL`` is not used: gnubg
    writes ``PL[W]`` there whoever rolls next (gnubg 1.1.0a16, both players' illegal
    plays), and its own reader takes the next move node's player.
    """
    by_ident = {p.ident: p for p in props}
    first = next(p for p in props if p.ident in _SETUP)
    turn = previous[0] if previous else None
    if not (isinstance(turn, TurnRecord) and turn.moves == () and turn.text.startswith("PL[")):
        raise _error(f"{first.text}: a position set up other than right after a roll with no "
                     "play (as gnubg writes an illegal play) is not supported", first, lines,
                     file, number)
    for prop in props:
        if prop.ident in ("CV", "CP"):
            raise _error(f"{prop.text}: {_UNSUPPORTED[prop.ident]} is not supported", prop,
                         lines, file, number)
        if prop.ident == "PL" and prop.value not in ("W", "B"):
            raise _error(f"PL[{prop.value}]: the player is W or B", prop, lines, file,
                         number)
    clear = by_ident.get("AE")
    if clear is None or clear.values != ("a:y",):
        where = clear or first
        raise _error(f"{where.text}: only a set-up that clears the whole board first "
                     "(AE[a:y]) is supported", where, lines, file, number)
    sides = [[0] * 26, [0] * 26]
    for player, ident in enumerate(("AW", "AB")):
        placed = by_ident.get(ident)
        if placed is None:
            continue
        for value in placed.values:
            if len(value) != 1 or value not in "abcdefghijklmnopqrstuvwxy":
                raise _error(f"{placed.text}: {value!r} is not a point to set a checker on "
                             "(a..x are points, y the bar)", placed, lines, file, number)
            sides[player][_point(value, player)] += 1
    for point in range(1, 25):
        if sides[1][point] and sides[0][25 - point]:
            raise _error(f"{first.text}: AW and AB both set checkers on W's point "
                         f"{25 - point}", first, lines, file, number)
    position = SnowiePosition.from_board(sides, *context, (turn.roll.high, turn.roll.low))
    return turn._replace(moves=None, recorded_position=position)


def _move(prop: _Property, player: int, lines: list[str], file: str | None,
          number: int) -> tuple[Roll, tuple[WrittenMove, ...]]:
    """The roll and checker steps of a move value such as ``42hdfd`` (player 0 = W)."""
    value, line, column = prop.value, prop.value_line, prop.value_column
    if len(value) < 2 or not all(c in "123456" for c in value[:2]):
        bad = next((i for i, c in enumerate(value[:2]) if c not in "123456"), len(value))
        raise _error(f"{prop.text}: unknown dice {value[:2]!r} (two dice, each 1..6)", prop,
                     lines, file, number, line, column + bad)
    roll = Roll(int(value[0]), int(value[1]))
    letters = value[2:]
    steps = []
    for i in range(0, len(letters), 2):
        pair = letters[i:i + 2]
        for j, (letter, allowed) in enumerate(zip(pair.ljust(2), ("abcdefghijklmnopqrstuvwxy",
                                                               "abcdefghijklmnopqrstuvwxz"))):
            if letter not in allowed:
                what = "from" if j == 0 else "to"
                raise _error(f"{prop.text}: {letter.strip() or 'nothing'!r} is not a point to "
                             f"move {what} (a..x are points, y the bar, z off)", prop, lines,
                             file, number, line, column + 2 + i + j)
        if i >= 8:
            raise _error(f"{prop.text}: more than four checker steps", prop, lines, file,
                         number, line, column + 2 + i)
        steps.append(WrittenMove((_point(pair[0], player), _point(pair[1], player)), (False,), 1,
                                 line, column + 2 + i, pair))
    return roll, tuple(steps)


def _point(letter: str, player: int) -> int:
    """The point of a move letter, from the mover's side (bar 25, off 0)."""
    if letter == "y":
        return BAR
    if letter == "z":
        return OFF
    index = ord(letter) - ord("a")
    return 24 - index if player else index + 1


def _result(prop: _Property, scores: tuple[int, int], length: int, lines: list[str],
            file: str | None, number: int) -> ResultRecord:
    found = _RESULT.fullmatch(prop.value.strip())
    if found is None:
        raise _error(f"{prop.text}: the result is W+N or B+N (N points, R if resigned)", prop,
                     lines, file, number)
    winner = "WB".index(found.group(1))
    points = max(int(found.group(2) or 0), 1)
    won = bool(length) and scores[winner] + points >= length
    return ResultRecord(winner, points, True, won, None, prop.line, prop.column, prop.text)


def _error(message: str, prop: _Property, lines: list[str], file: str | None,
           number: int | None, line: int | None = None,
           column: int | None = None) -> NotationError:
    """A NotationError about ``prop`` (at ``line``:``column`` when given) in game ``number``;
    the property's text in the message is cut at its first line end."""
    message = message.replace(prop.text, prop.text.split("\n")[0], 1)
    line, column = line or prop.line, column or prop.column
    if number is not None:
        message += f"; game {number} is skipped"
    return NotationError(message, line, column, lines[line - 1] if line <= len(lines) else "",
                         file, number)


def _syntax_error(exc: UnexpectedInput, lines: list[str], file: str | None,
                  offset: int) -> NotationError:
    """The NotationError of a Lark error in text that starts on line ``offset + 1``."""
    line = exc.line + offset if exc.line > 0 else len(lines)
    column = exc.column if exc.line > 0 else 1
    source = lines[line - 1] if line <= len(lines) else ""
    found = source[column - 1:column]
    if isinstance(exc, UnexpectedCharacters) and found == "[":
        message = "a value '[' with no closing ']'"
    elif isinstance(exc, UnexpectedCharacters):
        message = f"unexpected {found!r}; expected a property name (upper-case letters), " \
                  "'[', ';', '(' or ')'"
    elif isinstance(exc, UnexpectedToken) and exc.token.type == "$END":
        line = max(i for i, text in enumerate(lines, 1) if text.strip() or i == 1)
        column, source = len(lines[line - 1]) + 1, lines[line - 1]
        message = "unexpected end of file; a game tree is not closed with ')'"
    else:
        message = f"unexpected {str(getattr(exc, 'token', found))[:40]!r}"
    return NotationError(message, line, column, source, file)
