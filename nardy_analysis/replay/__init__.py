"""Replay match records against the rules.

Every game is replayed from the starting position. Each written play must reach the position
of a legal play of its roll (``RULES.md``: entering from the bar, open points, hits, bearing
off, the forced-play rules); cube actions, results and score lines are checked too. A record
that breaks a rule becomes a :class:`~nardy_analysis.errors.RuleViolation` naming the file,
game, move, line:column, the text, the Position ID before it and the rule, in plain words.

Some records follow an exporter's convention rather than the rules as written; the replay
reads them as their writers meant them and reports each as a
:class:`~nardy_analysis.errors.RecordWarning` (the game goes on):

- a roll with no play directly followed by a result is a resignation after rolling, by
  either player (gnubg's export, FIBS; the roller's win: the opponent resigned on seeing the
  roll): no warning at all; a roll with no play that ends the file leaves the game
  unfinished;
- ``unwritten_forced_play``: a play left empty when exactly one play is legal (FIBS played it
  for the player), also the last roll of a game when that play bears off the roller's last
  checkers and the roller is said to win (as gnubg's importer fills it in): that play is
  replayed;
- ``inferred_play``: a play left empty when several are legal and more rolls follow, where
  exactly one of them lets the rest of the game replay with no error and with its result
  (its bounds: :data:`MOST_INFERRED`, :data:`MOST_TRIED`): that play is replayed, and the warning
  names it;
- ``ambiguous_resolved``: a merged move such as ``61: 11/4`` that could hit on the way, in a
  file that marks no hit with ``*`` and where nothing later settles it: read as gnubg's
  importer reads it, the order that hits nothing on the way;
- ``recorded_illegal_play``: ``DD: Illegal play (...)`` (XG, Snowie): the play is unknown and
  the game goes on from the position recorded after it;
- ``result``: a result line that the board contradicts (the winner, or points no ending can
  give): the game keeps the board's result.

Long nardy (``rules.game == "long"``; RULES.md, "Long nardy") starts from
:meth:`~nardy_analysis.game.long.LongPosition.start` and checks each play with
:func:`~nardy_analysis.game.long.check_play` (its violations: ``head_rule``,
``closed_point``, ``six_block``, ``forced_play``, ``illegal_play``); any opening roll is
allowed, a cube action is a ``cube`` violation, and nothing is hit, so none of the
conventions above about hits arise.

Lenient mode (the default) records the violation, stops replaying that game and goes on
with the next; strict mode raises the first violation, and each warning as a violation of
the same kind.

The package's modules: :mod:`~nardy_analysis.replay.results` (the replayed turn, game and
match, and the loaded file), :mod:`~nardy_analysis.replay.replayer` (:func:`replay_match`),
:mod:`~nardy_analysis.replay.matching` (a written play against the legal plays,
:func:`realise`) and :mod:`~nardy_analysis.replay.written` (:func:`written_record`, the
record written back from the board).
"""

from .matching import Hop, Reading, realise
from .replayer import MOST_INFERRED, MOST_TRIED, replay_match
from .results import LoadedFile, ReplayedGame, ReplayedMatch, ReplayedTurn
from .written import written_record

__all__ = ["MOST_INFERRED", "MOST_TRIED", "Hop", "LoadedFile", "Reading", "ReplayedGame",
           "ReplayedMatch", "ReplayedTurn", "realise", "replay_match", "written_record"]
