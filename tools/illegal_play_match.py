"""Write a real match with one play of each game replaced by an ``Illegal play (...)`` cell.

Usage::

    python tools/illegal_play_match.py IN.mat OUT.mat

Each game's middle roll (the roll at half its number of replayed turns) is written as XG
writes a play that broke the rules: ``DD: Illegal play (<Snowie position list>)``, the
position after the play as the replay has it
(:meth:`nardy_analysis.notation.records.SnowiePosition.from_board`). The game goes on from
that position exactly as before, so the file has the shape of an XG export of a match with
illegal plays while every other roll is the real one. GNU Backgammon imports such a file
(``import mat``) and writes SGF set-ups for those positions (``save match``).
"""

from __future__ import annotations

import sys
from dataclasses import replace

from nardy_analysis import format_mat, replay_file, written_record
from nardy_analysis.notation.records import SnowiePosition


def with_illegal_plays(path: str) -> str:
    """The ``.mat`` text of the match in ``path``, one play per game made illegal."""
    (match,) = replay_file(path)
    record = written_record(match)
    games = []
    for replayed, game in zip(match.games, record.games):
        turn = replayed.turns[len(replayed.turns) // 2]
        sides = tuple(list(side) for side in turn.after.board)
        position = SnowiePosition.from_board(
            sides, record.length, game.names, replayed.scores, turn.cube_value,
            turn.cube_owner, (turn.roll.high, turn.roll.low))
        where = (turn.record.line, turn.record.column)
        actions = tuple(action._replace(moves=None, recorded_position=position)
                        if (action.line, action.column) == where else action
                        for action in game.actions)
        games.append(replace(game, actions=actions))
    return format_mat([replace(record, games=tuple(games))])


if __name__ == "__main__":
    source, target = sys.argv[1:3]
    with open(target, "w", encoding="utf-8") as handle:
        handle.write(with_illegal_plays(source))
