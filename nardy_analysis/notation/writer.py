"""Write match records as Jellyfish ``.mat`` text.

One canonical style, GNU Backgammon's: the ``; [Key "value"]`` tags, `` N point match``, then
for each game `` Game N``, the score line and numbered lines of two aligned columns (the
left-hand player's action from column 6, the right-hand player's from column 34), the cube
actions as `` Doubles => 2`` / `` Takes`` / `` Drops`` / `` Beavers => 4`` /
`` Raccoons => 8`` and each result on a line of its own (``Wins 2 points and the match``).

Moves are written as recorded, repeats as ``(n)``, the bar and off as ``bar`` and ``off`` or
``25`` and ``0``. To write a replayed match from the board (hits marked where the board has
them, one checker's steps merged), write :func:`~nardy_analysis.replay.written_record` of it.

The layout is that of the Jellyfish files GNU Backgammon exports (taken from such files; no
code of GNU Backgammon is used). Reading the text back with
:func:`~nardy_analysis.notation.mat.parse_mat` gives the same actions.
"""

from __future__ import annotations

from functools import lru_cache
from os import PathLike
from pathlib import Path
from typing import Iterable, NamedTuple

from ..errors import NardyError
from .mat import parse_mat
from .records import GameRecord, MatchRecord, ResultRecord, TurnRecord

_RIGHT = 33  # 0-based column of the right-hand entries and of the second name, at least
_NUMBER = 5  # width of a move number such as "  1) "
_CUBE_WORDS = {"double": "Doubles", "take": "Takes", "drop": "Drops", "beaver": "Beavers",
               "raccoon": "Raccoons"}


def format_mat(matches: MatchRecord | Iterable[MatchRecord], *, bar_off: bool = True) -> str:
    """The ``.mat`` text of one or more match records.

    Parameters
    ----------
    matches : MatchRecord, or an iterable of them
        Written one after the other, each with its tags.
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
        A name or tag the notation cannot hold (one that would not read back as itself): a
        player name with ``:`` or a line end, or starting with ``;`` or a blank; a tag key
        with ``"`` or ``]``; a line end in a tag value.
    """
    if isinstance(matches, MatchRecord):
        matches = [matches]
    return "\n".join(_match_text(match, bar_off) for match in matches)


def write_mat(matches: MatchRecord | Iterable[MatchRecord], path: str | PathLike[str], *,
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


def _match_text(record: MatchRecord, bar_off: bool) -> str:
    lines = [_tag(key, value) for key, value in record.tags.items()]
    lines += [""] * bool(lines) + [f" {record.length} point match", ""]
    for game in record.games:
        score_line, right = _score_line(game.names, game.scores, game.ratings)
        lines += [f" Game {game.number}", score_line]
        lines += _action_lines(game, record.length, bar_off, right)
        lines.append("")
    return "\n".join(lines) + "\n"


@lru_cache(maxsize=1024)
def _tag(key: str, value: str) -> str:
    """The tag's line, if it reads back as this key and value."""
    text = f'; [{key} "{value}"]'
    if parse_mat(f"{text}\n 1 point match\n").matches[0].tags != {key: value}:
        raise NardyError(f"the tag {key!r}: {value!r} cannot be written in .mat notation "
                         "(a key without '\"' and ']', a value on one line)")
    return text


@lru_cache(maxsize=1024)
def _check_name(name: str) -> None:
    """Raise unless ``name`` on a score line reads back as itself."""
    games = parse_mat(f" 1 point match\n Game 1\n {name} : 0\n").matches[0].games
    if not games or games[0].names[0] != name:
        raise NardyError(f"the player name {name!r} cannot be written in .mat notation "
                         "(no ':', no line end, not starting with ';' or a blank, not "
                         "ending in ',' and a number, which is read as a rating)")


def _score_line(names: tuple[str, str], scores: tuple[int, int],
                ratings: tuple[float | None, float | None]) -> tuple[str, int]:
    """The score line, each name with its rating (``alice,1635``) where there is one, and
    the game's right-hand column: ``_RIGHT``, or further right after a long first name (the
    reader tells the columns apart by the names' columns)."""
    for name in names:
        _check_name(name)
    written = [name if rating is None else f"{name},{rating:.15g}"
               for name, rating in zip(names, ratings)]
    left = f" {written[0]} : {scores[0]}"
    right = max(_RIGHT, len(left) + 1)
    return _columns(left, f"{written[1]} : {scores[1]}", right), right


def _columns(left: str, right: str, column: int) -> str:
    """``left`` then ``right`` from ``column`` (0-based; one blank after a longer ``left``)."""
    if not right:
        return left.rstrip()
    return f"{left:<{column - 1}} {right}"


class _Won(NamedTuple):
    """A result line: who wins, how many points, whether it says ``and the match``."""

    winner: int
    points: int
    match_won: bool


def _action_lines(game: GameRecord, length: int, bar_off: bool, right: int) -> list[str]:
    """The numbered lines (two columns) and result lines of a game's actions, in order.

    Results next to each other that agree on winner and points (a site's ``Losses`` beside
    ``Wins``) become one line; ``and the match`` is kept when either says it and the winner
    does reach the match length (else both lines are written, as the file has them)."""
    lines: list[str | list[str]] = []  # a line, or the [left, right] entries of a numbered one
    row: list[str] | None = None  # [left entry, right entry] of the line being filled
    last: _Won | None = None  # the result of the line before, if it is a result line
    for action in game.actions:
        if isinstance(action, ResultRecord):
            won = _Won(action.player if action.wins else 1 - action.player, action.points,
                       action.match_won)
            if row is None and last and (last.winner, last.points) == (won.winner, won.points) \
                    and (last.match_won == won.match_won
                         or 0 < length <= game.scores[won.winner] + won.points):
                last = won._replace(match_won=last.match_won or won.match_won)
                lines[-1] = _result_line(last, right)
                continue
            last = won
            lines.append(_result_line(won, right))
            row = None
            continue
        last = None
        player = action.player
        if row is None or (player == 0 and any(row)) or (player == 1 and row[1]):
            row = ["", ""]
            lines.append(row)
        if isinstance(action, TurnRecord):
            row[player] = _turn_text(action, bar_off)
        else:
            value = f" => {action.value}" if action.value is not None else ""
            row[player] = f" {_CUBE_WORDS[action.action]}{value}"
    number = 0
    texts = []
    for line in lines:
        if isinstance(line, list):
            number += 1
            left, right_entry = line
            line = _columns(f"{number:>{_NUMBER - 2}}) {left}", right_entry, right)
        texts.append(line)
    return texts


def _result_line(won: _Won, right: int) -> str:
    """A result on a line of its own, unnumbered, in the winner's column."""
    text = f" Wins {won.points} point{'s' if won.points != 1 else ''}"
    text += " and the match" if won.match_won else ""
    return _columns(" " * _NUMBER, text, right) if won.winner else " " * _NUMBER + text


def _turn_text(record: TurnRecord, bar_off: bool) -> str:
    roll = f"{record.roll}:"
    if record.recorded_position is not None:
        play = f"Illegal play ({record.recorded_position})"
    elif record.moves is None:
        play = "???"
    else:
        play = " ".join(written.notation(bar_off) for written in record.moves)
    return f"{roll} {play}" if play else roll
