"""The record written back from a replayed match: each replayed play written from the board
(:func:`written_record`)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import NamedTuple, Sequence

from ..game.moves import Move
from ..game.rules import OFF, STANDARD, Rules
from ..notation.records import MatchRecord, WrittenMove, variation_tag
from .matching import hops_of, realise
from .results import ReplayedMatch, ReplayedTurn

__all__ = ["written_play", "written_record"]


def written_record(match: ReplayedMatch, *, merge: bool = True) -> MatchRecord:
    """The record of a replayed match with each replayed play written from the board.

    Hits are marked ``*`` where the board says a checker was hit. With ``merge`` the steps
    of one checker are merged (``24/13``, ``13/7*/5``, GNU Backgammon's ``.mat`` style)
    unless the merged text could be read as another play (with ``*`` marks trusted when
    the text written marks any hit), and equal journeys are written once with ``(n)``,
    highest start first; a long nardy match (nothing is hit, so every reading of a journey
    is the same play) has its steps always merged. Without ``merge`` each play is one move
    per die in the order played (``24/18 18/13``), as GNU Backgammon's SGF writes it. Turns
    the replay could not follow keep their moves as recorded. A match replayed under rules
    its tags do not select (``--rules caucasian``, ``--rules long``) gets their
    ``Variation`` tag (:func:`~nardy_analysis.notation.records.variation_tag`). Each game
    says how it ended (:attr:`~nardy_analysis.notation.records.GameRecord.ending`).

    Parameters
    ----------
    match : ReplayedMatch
    merge : bool
        Merge each checker's steps (True, the default; for
        :func:`~nardy_analysis.notation.writer.format_mat`), or write one move per die (for
        :func:`~nardy_analysis.notation.sgf_writer.format_sgf`).

    Returns
    -------
    MatchRecord
        ``match.record`` with new moves for the replayed plays (each WrittenMove with the
        line and column of its turn's record and its text in ``bar``/``off`` notation) and
        each game's ending. :func:`~nardy_analysis.notation.writer.format_mat` and
        :func:`~nardy_analysis.notation.sgf_writer.format_sgf` write it.
    """
    turns = {turn.record: turn for game in match.games for turn in game.turns
             if turn.play is not None}
    marks = any(move.hit for turn in turns.values() if turn.play is not None
                for move in turn.play.moves) or any(
        any(written.hits) for game in match.record.games for action in game.turns
        if action not in turns for written in action.moves or ())
    endings = {game.record: game.ending for game in match.games}
    games = tuple(replace(game, ending=endings.get(game), actions=tuple(
        action._replace(moves=written_play(turns[action], match.rules, marks) if merge
                        else _die_by_die(turns[action]))
        if action in turns else action for action in game.actions))
        for game in match.record.games)
    tags = match.record.tags
    if STANDARD.with_tags(tags).name != match.rules.name:
        tags = {**tags, "Variation": variation_tag(match.rules)}  # read back as replayed
    return replace(match.record, games=games, tags=tags)


def written_play(turn: ReplayedTurn, rules: Rules, marks: bool) -> tuple[WrittenMove, ...]:
    """A replayed play's moves as a file would write them.

    Parameters
    ----------
    turn : ReplayedTurn
        A roll whose play is known (``turn.play`` not None).
    rules : Rules
    marks : bool
        Trust ``*`` marks when reading the merged text back (the match marks hits).

    Returns
    -------
    tuple of WrittenMove
        One checker's steps merged (``24/13``, ``13/7*/5``) when the merged text can only be
        read as this play (:func:`~nardy_analysis.replay.matching.realise`), else one die per
        move; equal journeys once with ``(n)``, highest start first; each with the line and
        column of the turn's record.
    """
    line, column = turn.record.line, turn.record.column
    steps = turn.play.moves if turn.play is not None else ()
    merged = _journeys(steps)
    if rules.game == "long":  # nothing is hit: any reading of the journeys is this play
        return _written_moves(merged, line, column)
    if len(merged) < len(steps):
        moves = _written_moves(merged, line, column)
        hops, _ = hops_of(moves)
        readings = {position for position, reading
                    in realise(turn.before, turn.roll.dice, hops, rules).items()
                    if reading.agrees or not marks}
        if readings == {turn.after}:
            return moves
    return _written_moves([_Journey((m.start, m.end), (m.hit,)) for m in steps], line, column)


def _die_by_die(turn: ReplayedTurn) -> tuple[WrittenMove, ...]:
    """A replayed play's moves one per die, in the order played, each with the line and
    column of the turn's record and its text."""
    line, column = turn.record.line, turn.record.column
    steps = turn.play.moves if turn.play is not None else ()
    return _with_text([WrittenMove((m.start, m.end), (m.hit,), 1, line, column, "")
                       for m in steps])


class _Journey(NamedTuple):
    """One checker's journey in a play."""

    points: tuple[int, ...]
    """The points it visits, from its start."""
    hits: tuple[bool, ...]
    """Whether it hits on arriving at each point after the first."""


class _Chain(NamedTuple):
    """A journey being gathered from a play's steps (:func:`_journeys`)."""

    points: list[int]
    hits: list[bool]


def _journeys(moves: Sequence[Move]) -> list[_Journey]:
    """The moves as checkers' journeys: a step from where an earlier step ended continues it.
    Only the points where a journey hits and its end are kept after its start (gnubg's
    ``13/7*/5``)."""
    chains: list[_Chain] = []
    for move in moves:
        chain = next((c for c in chains if c.points[-1] == move.start != OFF), None)
        if chain is None:
            chains.append(_Chain([move.start, move.end], [move.hit]))
        else:
            chain.points.append(move.end)
            chain.hits.append(move.hit)
    journeys = []
    for points, hits in chains:
        kept = [i for i, hit in enumerate(hits) if hit or i == len(hits) - 1]
        journeys.append(_Journey((points[0],) + tuple(points[i + 1] for i in kept),
                                 tuple(hits[i] for i in kept)))
    return journeys


def _written_moves(journeys: list[_Journey], line: int, column: int) -> tuple[WrittenMove, ...]:
    """WrittenMoves of journeys: highest start first, equal journeys once with their count."""
    counts = Counter(journeys)
    order = sorted(counts, key=lambda j: (-j.points[0], -j.points[-1]))
    return _with_text([WrittenMove(points, hits, counts[_Journey(points, hits)], line, column,
                                   "") for points, hits in order])


def _with_text(moves: list[WrittenMove]) -> tuple[WrittenMove, ...]:
    """The moves, each with its text in ``bar``/``off`` notation."""
    return tuple(move._replace(text=str(move)) for move in moves)
