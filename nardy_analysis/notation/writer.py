"""Write match records and replayed matches as Jellyfish ``.mat`` text.

One canonical style, GNU Backgammon's: the ``; [Key "value"]`` tags, `` N point match``, then
for each game `` Game N``, the score line and numbered lines of two aligned columns (the
left-hand player's action from column 6, the right-hand player's from column 34), the cube
actions as `` Doubles => 2`` / `` Takes`` / `` Drops`` / `` Beavers => 4`` /
`` Raccoons => 8`` and each result on a line of its own (``Wins 2 points and the match``).

A replayed game is written from the board: hits are marked ``*`` where the board says a
checker was hit, the steps of one checker are merged (``24/13``, ``13/7*/5``) unless the merged
form could be read as another play, and repeats are written ``(n)``. A record (or a turn the
replay could not follow) is written as its moves were recorded. The bar and off are written
``bar`` and ``off``, or ``25`` and ``0``.

The layout is that of the Jellyfish files GNU Backgammon exports (taken from such files; no
code of GNU Backgammon is used). Reading the text back with
:func:`~nardy_analysis.notation.parse_mat` gives the same actions, and replaying it (with the
rules the match was replayed with, those of its tags by default) the same positions.
"""

from __future__ import annotations

import re
from collections import Counter
from os import PathLike
from pathlib import Path
from typing import Iterable

from ..errors import NardyError
from ..game.position import OFF, Move, point_str
from .records import GameRecord, MatchRecord, ResultRecord, TurnRecord, WrittenMove
from ..replay import ReplayedMatch, ReplayedTurn, realise
from ..game.rules import Rules

_RIGHT = 33  # 0-based column of the right-hand entries and of the second name, at least
_NUMBER = 5  # width of a move number such as "  1) "
_NAME = re.compile(r"(?:[^\s:;](?:[^:\n]*[^\s:])?)?")  # the grammar's NAME, or no name
_TAG_KEY = re.compile(r'[^\s"\]](?:[^"\]\n]*[^\s"\]])?')
_CUBE_WORDS = {"double": "Doubles", "take": "Takes", "drop": "Drops", "beaver": "Beavers",
               "raccoon": "Raccoons"}

Match = MatchRecord | ReplayedMatch


def format_mat(matches: Match | Iterable[Match], *, bar_off: bool = True) -> str:
    """The ``.mat`` text of one or more matches.

    Parameters
    ----------
    matches : MatchRecord or ReplayedMatch, or an iterable of them
        Records are written as recorded; replayed matches from the board (see the module
        notes). Several matches are written one after the other, each with its tags.
    bar_off : bool
        Write the bar and borne-off checkers as ``bar`` and ``off`` (True, the default) or as
        ``25`` and ``0``.

    Returns
    -------
    str
        The text, with LF line ends and a final newline.

    Raises
    ------
    NardyError
        A name or tag the notation cannot hold: a player name with ``:`` or a line end, or
        starting with ``;``; a tag key with ``"`` or ``]``; a line end in a tag value.
    """
    if isinstance(matches, (MatchRecord, ReplayedMatch)):
        matches = [matches]
    return "\n".join(_match_text(match, bar_off) for match in matches)


def write_mat(matches: Match | Iterable[Match], path: str | PathLike, *,
              bar_off: bool = True) -> None:
    """Write :func:`format_mat` text to a file, in UTF-8 with LF line ends.

    Raises
    ------
    NardyError
        As for :func:`format_mat` (nothing is written then).
    OSError
        The file cannot be written.
    """
    text = format_mat(matches, bar_off=bar_off)
    Path(path).write_text(text, encoding="utf-8", newline="\n")


def _match_text(match: Match, bar_off: bool) -> str:
    replayed = match if isinstance(match, ReplayedMatch) else None
    record = match.record if replayed else match
    lines = [_tag(key, value) for key, value in record.tags.items()]
    lines += [""] * bool(lines) + [f" {record.length} point match", ""]
    turns = {turn.record: turn for game in replayed.games for turn in game.turns} \
        if replayed else {}
    marks = _marks_hits(record, turns)
    for game in record.games:
        score_line, right = _score_line(game.names, game.scores)
        lines += [f" Game {game.number}", score_line]
        lines += _action_lines(game, record.length, turns,
                               replayed.rules if replayed else None, marks, bar_off, right)
        lines.append("")
    return "\n".join(lines) + "\n"


def _tag(key: str, value: str) -> str:
    if not _TAG_KEY.fullmatch(key) or "\n" in value:
        raise NardyError(f"the tag {key!r}: {value!r} cannot be written in .mat notation "
                         "(a key without '\"' and ']', a value on one line)")
    return f'; [{key} "{value}"]'


def _score_line(names: tuple[str, str], scores: tuple[int, int]) -> tuple[str, int]:
    """The score line and the game's right-hand column: ``_RIGHT``, or further right after
    a long first name (the reader tells the columns apart by the names' columns)."""
    for name in names:
        if not _NAME.fullmatch(name):
            raise NardyError(f"the player name {name!r} cannot be written in .mat notation "
                             "(no ':', no line end, not starting with ';' or a blank)")
    left = f" {names[0]} : {scores[0]}"
    right = max(_RIGHT, len(left) + 1)
    return _columns(left, f"{names[1]} : {scores[1]}", right), right


def _columns(left: str, right: str, column: int) -> str:
    """``left`` then ``right`` from ``column`` (0-based; one blank after a longer ``left``)."""
    if not right:
        return left.rstrip()
    return f"{left:<{column - 1}} {right}"


def _marks_hits(record: MatchRecord, turns: dict) -> bool:
    """Whether the text written will mark any hit with ``*`` (then the reader trusts marks)."""
    for game in record.games:
        for action in game.turns:
            turn = turns.get(action)
            if turn is not None and turn.play is not None:
                if any(move.hit for move in turn.play.moves):
                    return True
            elif any(any(written.hits) for written in action.moves or ()):
                return True
    return False


def _action_lines(game: GameRecord, length: int, turns: dict, rules: Rules | None,
                  marks: bool, bar_off: bool, right: int) -> list[str]:
    """The numbered lines (two columns) and result lines of a game's actions, in order.

    Results next to each other that agree on winner and points (a site's ``Losses`` beside
    ``Wins``) become one line; ``and the match`` is kept when either says it and the winner
    does reach the match length (else both lines are written, as the file has them)."""
    lines: list = []
    row: list[str] | None = None  # [left entry, right entry] of the line being filled
    results: list[list] = []      # [winner, points, and the match] of the last result lines
    for action in game.actions:
        if isinstance(action, ResultRecord):
            winner = action.player if action.wins else 1 - action.player
            if row is None and results and results[-1][:2] == [winner, action.points] and (
                    results[-1][2] == action.match_won
                    or 0 < length <= game.scores[winner] + action.points):
                results[-1][2] |= action.match_won
                lines[-1] = _result_line(*results[-1], right)
                continue
            results.append([winner, action.points, action.match_won])
            lines.append(_result_line(*results[-1], right))
            row = None
            continue
        results = []
        player = action.player
        if row is None or (player == 0 and any(row)) or (player == 1 and row[1]):
            row = ["", ""]
            lines.append(row)
        if isinstance(action, TurnRecord):
            row[player] = _turn_text(action, turns.get(action), rules, marks, bar_off)
        else:
            value = f" => {action.value}" if action.value is not None else ""
            row[player] = f" {_CUBE_WORDS[action.action]}{value}"
    number = 0
    for index, line in enumerate(lines):
        if isinstance(line, list):
            number += 1
            lines[index] = _columns(f"{number:>{_NUMBER - 2}}) {line[0]}", line[1], right)
    return lines


def _result_line(winner: int, points: int, match_won: bool, right: int) -> str:
    """A result on a line of its own, unnumbered, in the winner's column."""
    text = f" Wins {points} point{'s' if points != 1 else ''}"
    text += " and the match" if match_won else ""
    return _columns(" " * _NUMBER, text, right) if winner else " " * _NUMBER + text


def _turn_text(record: TurnRecord, turn: ReplayedTurn | None, rules: Rules | None,
               marks: bool, bar_off: bool) -> str:
    roll = f"{record.roll}:"
    if turn is not None and turn.play is not None:
        play = _play_text(turn, rules, marks, bar_off)
    elif record.moves is None:
        play = "???"
    else:
        play = " ".join(_written_text(written, bar_off) for written in record.moves)
    return f"{roll} {play}" if play else roll


def _path(start: int, points_hits, bar_off: bool) -> str:
    """``start/p1*/p2``: points as numbers, or bar/off when ``bar_off``."""
    name = point_str if bar_off else str
    return name(start) + "".join(f"/{name(p)}{'*' if hit else ''}" for p, hit in points_hits)


def _written_text(written: WrittenMove, bar_off: bool) -> str:
    return (_path(written.points[0], zip(written.points[1:], written.hits), bar_off)
            + (f"({written.count})" if written.count != 1 else ""))


def _play_text(turn: ReplayedTurn, rules: Rules, marks: bool, bar_off: bool) -> str:
    """A replayed play in gnubg's style: merged if the merged text can only be read as this
    play (with ``*`` marks trusted when the file marks hits), else one die per move."""
    merged = _chains(turn.play.moves)
    if len(merged) < len(turn.play.moves):
        candidates = realise(turn.before, turn.roll.dice, _hops(merged), rules)
        readings = {position for position, (_, _, agrees) in candidates.items()
                    if agrees or not marks}
        if readings == {turn.after}:
            return _chains_text(merged, bar_off)
    return _chains_text([([m.start, m.end], [m.hit]) for m in turn.play.moves], bar_off)


def _chains(moves: tuple[Move, ...]) -> list[tuple[list[int], list[bool]]]:
    """The moves as checkers' journeys: a step from where an earlier step ended continues it.
    Each journey is (points visited, hit on arriving at each point after the first)."""
    chains: list[tuple[list[int], list[bool]]] = []
    for move in moves:
        chain = next((c for c in chains if c[0][-1] == move.start != OFF), None)
        if chain is None:
            chains.append(([move.start, move.end], [move.hit]))
        else:
            chain[0].append(move.end)
            chain[1].append(move.hit)
    return chains


def _written_points(chain) -> list[tuple[int, bool]]:
    """The points written after a journey's start, with their hit marks: each point where
    it hits, and its end (gnubg's ``13/7*/5``, ``24/13``)."""
    points, hits = chain
    return [(point, hit) for index, (point, hit) in enumerate(zip(points[1:], hits))
            if hit or index == len(hits) - 1]


def _hops(chains) -> list[tuple[int, int, bool]]:
    """The (start, end, hit) hops the reader takes from the written journeys."""
    hops = []
    for chain in chains:
        start = chain[0][0]
        for point, hit in _written_points(chain):
            hops.append((start, point, hit))
            start = point
    return hops


def _chains_text(chains, bar_off: bool) -> str:
    """gnubg's text of journeys: highest start first, ``(n)`` for n equal journeys."""
    texts = Counter()
    order = {}
    for chain in chains:
        text = _path(chain[0][0], _written_points(chain), bar_off)
        texts[text] += 1
        order.setdefault(text, (-chain[0][0], -chain[0][-1]))
    return " ".join(text + (f"({count})" if count > 1 else "")
                    for text, count in sorted(texts.items(), key=lambda t: order[t[0]]))
