"""Write match records as GNU Backgammon's SGF match files (FF[4], GM[6]), in gnubg's style:
:func:`format_sgf` and :func:`write_sgf`, the SGF counterparts of
:mod:`~nardy_analysis.notation.writer`'s. The properties and what they mean are those
:mod:`~nardy_analysis.notation.sgf` reads.
"""

from __future__ import annotations

from os import PathLike
from pathlib import Path
from typing import Iterable

from ..errors import NotationError
from ..game.rules import BAR, OFF, STANDARD
from .records import (
    CubeRecord,
    GameRecord,
    MatchRecord,
    ResultRecord,
    SnowiePosition,
    TurnRecord,
    variation_tag,
)
from .sgf import CUBE_ACTIONS, TAGS


def format_sgf(matches: MatchRecord | Iterable[MatchRecord], *,
               left_out: list[NotationError] | None = None) -> str:
    """The SGF text of one or more match records, in gnubg's style.

    Parameters
    ----------
    matches : MatchRecord, or an iterable of them
        Written one after the other. Each play as recorded: one step per hop of each written
        move (``13/7*/5`` is two steps, ``8/4(2)`` two steps of one hop; gnubg reads a step
        of two dice as one). To write a replayed match from the board, one step per die as
        gnubg writes it, write ``written_record(match, merge=False)``
        (:func:`~nardy_analysis.replay.written_record`). A result has ``R``, a resignation,
        when its game's :attr:`~nardy_analysis.notation.records.GameRecord.ending` is
        ``resign`` or ``forfeit``; a game whose record does not say how it ended (a record
        as read) has ``R`` on every result that does not follow a drop (gnubg reads ``R`` on
        a game borne off as the same result, and drops the result of an unfinished game
        without it). A roll with no play or an unknown play (``???``) just before the
        result of a resigned game is written ``PL[W]DI[42]``, a roll after which the player
        resigned. An illegal play with the position recorded after it (``Illegal play
        (...)``) is written as gnubg writes it: ``PL[W]DI[11]``, then that position set up,
        ``PL[B]AE[a:y]AW[..]AB[..]``. The rules of the root node's ``RU`` are those of the
        match's tags (:meth:`~nardy_analysis.game.rules.Rules.with_tags`).
    left_out : list, optional
        When given, a record SGF cannot hold (below) does not raise: its game is written up
        to the roll before it, without its result (gnubg reads such a game as unfinished and
        takes the next game's scores from its ``MI``), and a NotationError at the record's
        line and column that says what was left out is appended here.

    Returns
    -------
    str
        One game tree per game (``MI`` with the match length, game index and scores; the
        first game of each match with its tags), LF line ends, a final newline.

    Raises
    ------
    NotationError
        Without ``left_out``, a record SGF cannot hold: any other unknown play, a beaver or
        raccoon, a point outside 0..25. The error is at the record's line and column.
    """
    if isinstance(matches, MatchRecord):
        matches = [matches]
    return "".join(_match_text(match, left_out) for match in matches)


def write_sgf(matches: MatchRecord | Iterable[MatchRecord], path: str | PathLike[str], *,
              left_out: list[NotationError] | None = None) -> None:
    """Write :func:`format_sgf` text to a file, in UTF-8 (its ``CA[UTF-8]``) with LF line
    ends.

    Raises
    ------
    NotationError
        As for :func:`format_sgf` (nothing is written then).
    OSError
        The file cannot be written.
    """
    text = format_sgf(matches, left_out=left_out)
    Path(path).write_text(text, encoding="utf-8", newline="\n")


def _match_text(record: MatchRecord, left_out: list[NotationError] | None) -> str:
    rules = STANDARD.with_tags(record.tags)
    if rules.game == "long":  # no cube: no Crawford or Jacoby rule
        ru = variation_tag(rules)
    else:
        cube = "Crawford" if record.length and rules.crawford else \
            "Jacoby" if not record.length and rules.jacoby else ""
        # RU[Crawford:Caucasian]: gnubg skips what it does not know
        ru = ":".join(filter(None, (cube, variation_tag(rules) if rules.name != STANDARD.name
                                    else "")))
    texts = []
    for index, game in enumerate(record.games):
        head = (f"(;FF[4]GM[6]CA[UTF-8]AP[nardy_analysis]MI[length:{record.length}]"
                f"[game:{index}][ws:{game.scores[0]}][bs:{game.scores[1]}]"
                f"PW[{_escape(game.names[0])}]PB[{_escape(game.names[1])}]")
        if index == 0:
            head += _tag_properties(record.tags)
        if ru:
            head += f"RU[{ru}]"
        body, result = _game_nodes(game, left_out)
        texts.append(head + result + body + ")\n")
    return "".join(texts)


def _tag_properties(tags: dict[str, str]) -> str:
    """The root properties of a match's tags (other than the players and rules)."""
    text = ""
    for ident, tag in TAGS.items():
        value = tags.get(tag)
        if ident in ("PW", "PB") or not value:
            continue
        if ident == "DT":
            value = value.replace(".", "-")
        text += f"{ident}[{_escape(value)}]"
    return text


def _game_nodes(game: GameRecord, left_out: list[NotationError] | None) -> tuple[str, str]:
    """The move nodes of a game and its ``RE`` property; an action SGF cannot hold raises,
    or, with ``left_out``, ends the game there (no ``RE``: gnubg reads it as unfinished)
    with a NotationError appended that says what was left out."""
    moves = [a for a in game.actions if not isinstance(a, ResultRecord)]
    result = next((a for a in game.actions if isinstance(a, ResultRecord)), None)
    last = moves[-1] if moves else None
    text, resigned_roll = "", None
    if result is not None:
        winner = result.player if result.wins else 1 - result.player
        resigned = game.ending in ("resign", "forfeit") if game.ending else \
            not (isinstance(last, CubeRecord) and last.action == "drop")
        text = f"RE[{'WB'[winner]}+{result.points}{'R' * resigned}]"
        if resigned and isinstance(last, TurnRecord) and not last.moves \
                and last.recorded_position is None:
            resigned_roll = last
    nodes = []
    for index, action in enumerate(moves):
        color = "WB"[action.player]
        try:
            if action is resigned_roll:
                nodes.append(f"\n;PL[{color}]DI[{action.roll.high}{action.roll.low}]")
            elif isinstance(action, CubeRecord):
                if action.action not in CUBE_ACTIONS:
                    raise NotationError(f"{action.text!r}: SGF has no {action.action}",
                                        action.line, action.column)
                nodes.append(f"\n;{color}[{action.action}]")
            elif action.recorded_position is not None:
                nodes.append(_set_up_nodes(action, action.recorded_position))
            else:
                nodes.append(f"\n;{color}[{action.roll.high}{action.roll.low}{_steps(action)}]")
        except NotationError as error:
            if left_out is None:
                raise
            rest = len(moves) - index - 1
            later = f", the {rest} action{'s' * (rest != 1)} after it" if rest else ""
            left_out.append(NotationError(
                f"game {game.number}: {error.message}; the game is written up to there: "
                f"this{later} and the result are left out", error.line, error.column,
                game=game.number))
            return "".join(nodes), ""
    return "".join(nodes), text


def _set_up_nodes(turn: TurnRecord, position: SnowiePosition) -> str:
    """The nodes of a roll whose play was illegal, as gnubg writes them: the roll with no
    play, then the position recorded after it set up, the other player on roll."""
    dice = f"{turn.roll.high}{turn.roll.low}"
    sides = position.board
    checkers = ["".join(f"[{_letter(point, player)}]" * sides[player][point]
                        for point in range(1, BAR + 1)) for player in (0, 1)]
    return (f"\n;PL[{'WB'[turn.player]}]DI[{dice}]\n;PL[{'WB'[1 - turn.player]}]AE[a:y]"
            + "".join(f"{ident}{text}" for ident, text in zip(("AW", "AB"), checkers) if text))


def _steps(turn: TurnRecord) -> str:
    """The letters of a turn's checker steps: one per hop of each written move."""
    if turn.moves is None:
        raise NotationError(f"{turn.text!r}: an unknown play cannot be written in SGF",
                            turn.line, turn.column)
    hops = [(a, b) for move in turn.moves for _ in range(move.count)
            for a, b in zip(move.points, move.points[1:])]
    for start, end in hops:
        if not (0 < start <= BAR and 0 <= end < BAR):
            raise NotationError(f"{turn.text!r}: no point {start}/{end} in SGF", turn.line,
                                turn.column)
    return "".join(_letter(start, turn.player) + _letter(end, turn.player)
                   for start, end in hops)


def _escape(value: str) -> str:
    """A value with ``\\`` and ``]`` escaped."""
    return value.replace("\\", "\\\\").replace("]", "\\]")


def _letter(point: int, player: int) -> str:
    """The move letter of a point from the mover's side (25 the bar, 0 off), as
    :mod:`~nardy_analysis.notation.sgf` reads it."""
    if point == BAR:
        return "y"
    if point == OFF:
        return "z"
    return chr(ord("a") + (24 - point if player else point - 1))
