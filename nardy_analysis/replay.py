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
  (:meth:`_GameReplayer.infer`; its bounds there): that play is replayed, and the warning
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
"""

from __future__ import annotations

from collections import Counter
from copy import copy
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from itertools import islice
from typing import NoReturn, Sequence

from .errors import IllegalPlayError, InvalidArgument, RecordWarning, RuleViolation, plural
from .game.long import LongPosition, check_play
from .game.position import (Play, Position, Roll, apply_step, ending, most_multiple,
                             movable_points, one_die_plays, undo_step)
from .game.rules import BAR, CHECKERS, OFF, STANDARD, Rules
from .notation.records import (CubeRecord, GameRecord, MatchRecord, ResultRecord, TurnRecord,
                               WrittenMove, variation_tag)


@dataclass(frozen=True, slots=True, init=False)
class ReplayedTurn:
    """A roll as replayed.

    Attributes
    ----------
    record : TurnRecord
        What the file says.
    before : Position
        The position before the roll, the roller on roll.
    after : Position or None
        The position after the play (the opponent on roll); None when the play is unknown
        (``???``), when no play followed the roll (the player resigned after rolling, or
        the file ends there) or when it was not replayed because it broke the rules.
    play : Play or None
        The play as the board decides it (hits marked by the board, not by ``*``).
    cube_value : int
        Cube value when the roll was thrown.
    cube_owner : int or None
        Owner of the cube (None: centred).
    """

    record: TurnRecord
    before: Position
    after: Position | None
    play: Play | None
    cube_value: int
    cube_owner: int | None

    def __init__(self, record: TurnRecord, before: Position, after: Position | None,
                 play: Play | None, cube_value: int, cube_owner: int | None):
        # As the frozen dataclass would, without its slower calls (a turn is made per roll).
        _set_record(self, record)
        _set_before(self, before)
        _set_after(self, after)
        _set_play(self, play)
        _set_cube_value(self, cube_value)
        _set_cube_owner(self, cube_owner)

    def __repr__(self) -> str:
        return (f"<ReplayedTurn move {self.record.move} player {self.player + 1} "
                f"{self.roll}: {self.play if self.play is not None else '?'}>")

    @property
    def player(self) -> int:
        return self.record.player

    @property
    def roll(self) -> Roll:
        return self.record.roll


_set_record, _set_before, _set_after, _set_play, _set_cube_value, _set_cube_owner = (
    ReplayedTurn.__dict__[f.name].__set__ for f in fields(ReplayedTurn))


@dataclass
class ReplayedGame:
    """One replayed game: its turns, how it ended, its rule violations and warnings.

    ``winner`` and ``points`` come from the result written in the file (None when the file
    ends before the game does), unless the board contradicts it (then the board's result, and
    a ``result`` warning); ``ending`` is ``single``, ``gammon`` or ``backgammon`` (long
    nardy: ``oin``, ``mars`` or ``home_mars``) for a game borne off to the end, ``drop``
    for a dropped double, ``resign`` for a game given up, ``forfeit`` for a match given up
    (the winner is awarded the points they need: sites do this when a player leaves), None
    for an unfinished game. ``complete`` is True when every play was replayed: False after a
    violation, an unknown play (``???``), a roll that ends the file with no play, or a
    record cut at a line the reader could not read (``GameRecord.cut_line``).
    ``errors`` are the rule violations (the first that stops the game is the last; some,
    such as a wrong score line, do not stop it), ``stopped`` is True when one did,
    ``warnings`` the quirks resolved (module docstring).

    ``scores`` are the points of players 0 and 1 before the game: those the results of the
    games before it make, when the file holds the game before it and that game's result
    (not so after an unfinished game, one cut at a line that cannot be read, or one
    written without its end); else the game's score line. A score line that disagrees is
    a ``score`` error and is not used (the board and the results are trusted, not the
    line); so is a score line at or above the match length (a match is over when a player
    reaches it), which is used only when no game before it gives the score (and the next
    game then takes its own line).

    ``crawford`` is True for the Crawford game of a match (the first game in which one
    player, and only one, is one point from winning, when the rules have the Crawford rule:
    no doubling); ``post_crawford`` for any other game of a match in which a player is one
    point from winning (after the Crawford game, or without the Crawford rule: the cube is
    free). RULES.md, "Doubling cube, matches, house rules". A file may start mid-match (its
    first game not at 0-0); if that game is already at one point from winning, the Crawford
    game may be behind: it counts as the Crawford game unless a player doubles in it (then
    it is post-Crawford).
    """

    record: GameRecord
    scores: tuple[int, int] = (0, 0)
    turns: list[ReplayedTurn] = field(default_factory=list)
    errors: list[RuleViolation] = field(default_factory=list)
    warnings: list[RecordWarning] = field(default_factory=list)
    winner: int | None = None
    points: int | None = None
    ending: str | None = None
    final: Position | None = None
    complete: bool = True
    stopped: bool = False
    crawford: bool = False
    post_crawford: bool = False

    def __repr__(self) -> str:
        name = self.record.names[self.winner] if self.winner is not None else ""
        result = "unfinished" if self.winner is None else (
            f"player {self.winner + 1}{f' ({name})' if name else ''} wins "
            f"{plural(self.points or 0, 'point')} ({self.ending})")
        return f"<ReplayedGame {self.number}: {plural(len(self.turns), 'turn')}, {result}, " \
               f"{_problems(self.errors, self.warnings)}>"

    @property
    def number(self) -> int:
        return self.record.number

    @property
    def score_after(self) -> tuple[int, int]:
        """The score of players 0 and 1 after this game, in points: :attr:`scores` (the
        score before it) plus the points won in it (none while unfinished)."""
        return tuple(s + (self.points or 0) * (p == self.winner)
                     for p, s in enumerate(self.scores))


@dataclass
class ReplayedMatch:
    """A replayed match: its record, the rules used and its games."""

    record: MatchRecord
    rules: Rules
    games: list[ReplayedGame]

    def __repr__(self) -> str:
        return (f"<ReplayedMatch {self.record.file or '?'}: {self.record.length}-point, "
                f"{self.rules.name} rules, {plural(len(self.games), 'game')}, "
                f"{_problems(self.errors, self.warnings)}>")

    @property
    def errors(self) -> list[RuleViolation]:
        """Every rule violation found in the match, in file order."""
        return [e for g in self.games for e in g.errors]

    @property
    def warnings(self) -> list[RecordWarning]:
        """Every warning of the match's games, game by game."""
        return [w for g in self.games for w in g.warnings]

    @property
    def score(self) -> tuple[int, int]:
        """Points of players 0 and 1 after the last game replayed (0-0 without games)."""
        return self.games[-1].score_after if self.games else (0, 0)

    @property
    def finished(self) -> bool:
        """A player reached the match length; in a money session (length 0), the last game
        has a result."""
        if not self.games:
            return False
        length = self.record.length
        return max(self.score) >= length if length else self.games[-1].winner is not None

    @property
    def winner(self) -> int | None:
        """The player (0 or 1) ahead when :attr:`finished`, else None (also when even)."""
        first, second = self.score
        return None if not self.finished or first == second else int(second > first)


def _problems(errors: list, warnings: list) -> str:
    return plural(len(errors), "error") + (f", {plural(len(warnings), 'warning')}"
                                           if warnings else "")


def replay_match(match: MatchRecord, rules: Rules | None = None, strict: bool = False,
                 tags: bool = True) -> ReplayedMatch:
    """Replay every game of a match record.

    Parameters
    ----------
    match : MatchRecord
    rules : Rules, optional
        The variant to apply (e.g. :data:`~nardy_analysis.game.rules.TAVLA`). By default the
        match's ``Variation`` tag chooses it (:data:`~nardy_analysis.game.rules.STANDARD`
        without one).
    strict : bool
        Raise the first violation instead of collecting it; a warning is raised as a
        violation of the same kind.
    tags : bool
        Refine the rules by the match's header tags (``Crawford``, ``Jacoby``, ``Beaver``,
        ``CubeLimit``, and ``Variation`` when ``rules`` is not given; see
        :meth:`~nardy_analysis.game.rules.Rules.with_tags`). With False the rules apply as
        given, whatever the tags say.

    Returns
    -------
    ReplayedMatch
    """
    if tags:
        rules = (rules or STANDARD).with_tags(match.tags, variation=rules is None)
    rules = rules or STANDARD
    games = []
    crawford_played = False
    for game in match.games:
        # The score before the game: the results' when the file has the game before it with
        # its result (and that game's score was possible); else the score line's.
        follows = (games and game.number == games[-1].number + 1
                   and games[-1].winner is not None
                   and not _beyond(games[-1].scores, match.length))
        scores = results = games[-1].score_after if follows else game.scores
        # The Crawford game: the first in which exactly one player is one point from winning.
        at_one = match.length > 0 and match.length - 1 in scores
        crawford = (at_one and rules.crawford and not crawford_played
                    and max(scores) == match.length - 1 > min(scores))
        # A file that starts mid-match at one-away does not show whether the Crawford game
        # is behind: only a double in the game says it is.
        unsure = crawford and not games and scores != (0, 0)
        crawford_played = crawford_played or crawford
        replayer = _GameReplayer(match, game, scores, rules, strict, crawford, unsure)
        replayer.result.post_crawford = at_one and not crawford
        said = f"score line says {game.scores[0]}-{game.scores[1]}"
        if _beyond(game.scores, match.length):
            replayer.violation("score", f"{said}, at or above the match length "
                               f"({match.length}): the match was over before this game",
                               game.score_line, game.score_column, _score_text(game), None)
        elif game.scores != results:
            replayer.violation("score", f"{said}, but the results before it make "
                               f"{results[0]}-{results[1]}",
                               game.score_line, game.score_column, _score_text(game), None)
        games.append(replayer.run())
    return ReplayedMatch(match, rules, games)


def _beyond(scores: tuple[int, int], length: int) -> bool:
    """Whether a score is at or above the match's length (a match is over when a player
    reaches it; a money session, length 0, has none)."""
    return bool(length) and max(scores) >= length


def _score_text(game: GameRecord) -> str:
    return "   ".join(f"{n} : {s}" for n, s in zip(game.names, game.scores))


class _Stop(Exception):
    """Stops replaying a game after a violation (lenient mode)."""


class _Untried(Exception):
    """Stops a trial of a play at an unwritten play beyond the bounds of inference."""


class _GameReplayer:
    def __init__(self, match: MatchRecord, game: GameRecord, scores: tuple[int, int],
                 rules: Rules, strict: bool, crawford: bool, unsure: bool):
        self.match = match
        self.crawford = crawford
        self.unsure = unsure  # the Crawford game may be behind (a file starting mid-match)
        self.game = game
        self.rules = rules
        self.strict = strict
        self.result = ReplayedGame(game, scores, crawford=crawford)
        self.position = LongPosition.start() if rules.game == "long" else Position.start()
        self.moved: set[int] = set()  # the players who have rolled in this game (long nardy)
        self.started = False
        self.cube = 1
        self.owner: int | None = None
        self.offer: tuple[int, int] | None = None  # (doubler, value offered)
        self.raccoon_by: int | None = None  # the doubler, just after a beaver
        self.dropped: tuple[int, int] | None = None  # (doubler, cube value before the double)
        self.move: int | None = None
        self.index = 0  # of the action being replayed in game.actions
        self.inferred = 0  # plays inferred in this game (by this replay or the trial it is)
        self.trying = False  # a trial of a play (:meth:`fits`)

    @cached_property
    def marks_hits(self) -> bool:
        """Whether a move of the match marks a hit with ``*`` (asked only of a play that can
        be read more than one way)."""
        return any(any(m.hits) for g in self.match.games for t in g.turns
                   for m in t.moves or ())

    @property
    def following(self) -> tuple:
        """The game's actions after the one being replayed."""
        return self.game.actions[self.index + 1:]

    def violation(self, kind, message, line, column, text, position, stop=False,
                  warning=False):
        error = (RecordWarning if warning and not self.strict else RuleViolation)(
            kind, message, file=self.match.file, game=self.game.number, move=self.move,
            line=line, column=column, text=text,
            position_id=position.id() if position else None)
        if self.strict:
            raise error
        (self.result.warnings if warning else self.result.errors).append(error)
        if stop:
            raise _Stop

    def warn(self, kind, message, record, then=""):
        """An exporter's quirk: ``message`` says what the record does, ``then`` how the
        replay reads it, left out in strict mode (where the warning stops the replay)."""
        self.violation(kind, message + ("" if self.strict else then), record.line,
                       record.column, record.text, self.position, warning=True)

    def run(self) -> ReplayedGame:
        try:
            self.replay(0)
            self.result.complete = self.result.complete and self.game.cut_line is None
        except _Stop:
            self.result.complete, self.result.stopped = False, True
            for action in self.game.actions:
                if isinstance(action, ResultRecord) and self.result.winner is None:
                    self.result.winner = _winner(action)
                    self.result.points = action.points
        self.result.final = self.position
        return self.result

    def replay(self, start: int) -> None:
        """Replay the game's actions from ``game.actions[start]`` to its end."""
        actions = self.game.actions
        for self.index in range(start, len(actions)):
            action = actions[self.index]
            if action.move is not None:
                self.move = action.move
            if isinstance(action, TurnRecord):
                self.turn(action)
            elif isinstance(action, CubeRecord):
                self.cube_action(action)
            else:
                self.game_result(action)

    def fail(self, kind, message, record, stop=True):
        self.violation(kind, message, record.line, record.column, record.text, self.position,
                       stop=stop)

    # -- rolls ---------------------------------------------------------------------------
    def turn(self, record: TurnRecord):
        self.raccoon_by = None
        if self.result.winner is not None or self.position.is_over:
            self.fail("after_end", "a roll after the game has ended", record)
        if self.offer is not None:
            self.fail("cube", "a roll while a double is pending (no take or drop)", record)
        if not self.started:
            self.started = True
            self.position = self.position.with_turn(record.player)
            if record.roll.is_double and not self.rules.opening_doubles:
                self.fail("opening_roll", "the first roll of a game cannot be a double "
                          "(each player throws one die; ties are thrown again)", record,
                          stop=False)
        elif record.player != self.position.turn:
            self.fail("turn_order", f"player {record.player + 1} rolls out of turn", record)
        if record.recorded_position is not None:
            self.recorded_illegal_play(record)
            return
        if record.moves is None:
            self.add_turn(record, None, None)
            if any(isinstance(a, (TurnRecord, CubeRecord)) for a in self.following):
                self.fail("unknown_play", "the play is not recorded (???) and the game goes "
                          "on, so the rest of it cannot be checked", record)
            self.result.complete = False
            return
        if self.rules.game == "long":
            self.long_turn(record, self.following)
            return
        if record.moves == () and self.rules.forced_play:
            if _dances(self.position, record.roll, self.rules):
                self.add_turn(record, self.position.with_turn(1 - record.player), Play())
                return
            if self.no_play(record, self.following,
                            self.position.legal_plays(record.roll, self.rules)):
                return
        self.add_turn(record, *self.match_play(record))

    def recorded_illegal_play(self, record: TurnRecord) -> None:
        """``Illegal play (...)`` (XG, Snowie): the play is unknown; the game goes on from
        the position recorded after it, the opponent on roll."""
        board = [(CHECKERS - sum(side),) + side[1:] for side in record.recorded_position.board]
        try:
            after = Position(board, 1 - record.player)
        except InvalidArgument as error:
            self.fail("recorded_illegal_play", "the position recorded after the illegal play "
                      f"is not a position: {error}", record)
        self.warn("recorded_illegal_play", "the play was illegal (the exporter says so)", record,
                  f"; the game goes on from the position recorded after it, {after.id()}")
        self.add_turn(record, None, None)
        self.position = after

    def no_play(self, record: TurnRecord, following, legal) -> bool:
        """A roll written with no play when a play is legal: True when a convention explains
        it (the turn is then recorded), False when it breaks the forced-play rule."""
        if following and isinstance(following[0], ResultRecord):
            last = legal[0].after.is_over and _winner(following[0]) == record.player
            if len(legal) > 1 or not last:  # a resignation after the roll (either player's)
                self.add_turn(record, None, None)
                return True
        elif not following:  # the file ends after the roll: an unfinished game
            self.add_turn(record, None, None)
            self.result.complete = False
            return True
        if len(legal) == 1:
            (play, after), = legal
            self.warn("unwritten_forced_play", f"no play written, but {play} is the only "
                      f"legal play of {record.roll} (the server played it)", record,
                      ": it is replayed")
            self.add_turn(record, after, play)
            return True
        return self.infer(record, legal)

    def infer(self, record: TurnRecord, legal) -> bool:
        """A roll written with no play when several plays are legal and the game goes on:
        each legal play is tried with the rest of the game (:meth:`fits`); the one play that
        fits is replayed, with an ``inferred_play`` warning naming it as the file writes
        plays. When none or several fit, a ``forced_play`` violation says how many.

        The work is bounded: at most :data:`MOST_INFERRED` plays are inferred in a game (an
        unwritten play in the rest of the game, while a play is being tried, counts), and a
        roll with more than :data:`MOST_TRIED` legal plays is not tried. Beyond the bounds
        the answer is False (the forced-play violation of a roll with no play, as without
        inference), and a trial reaching such a roll is judged by the game up to it. The
        rest of a game is replayed at most ``MOST_TRIED ** MOST_INFERRED`` (1,600) times for
        one roll.
        """
        if self.inferred >= MOST_INFERRED or len(legal) > MOST_TRIED:
            if self.trying:
                raise _Untried
            return False
        fits = [(play, after) for play, after in legal if self.fits(record, play, after)]
        plays = f"{len(legal)} legal plays of {record.roll}"
        if len(fits) == 1:
            (play, after), = fits
            self.inferred += 1
            self.warn("inferred_play", f"no play written; of the {plays}, only "
                      f"{self.written(record, play, after)} lets the rest of the game replay "
                      "with no error and with its result", record, ": it is replayed")
            self.add_turn(record, after, play)
            return True
        if fits:
            shown = ", ".join(self.written(record, *fit) for fit in fits[:5])
            self.fail("forced_play", f"no play written, and {len(fits)} of the {plays} let "
                      f"the rest of the game replay with no error and with its result ({shown}"
                      f"{', ...' if len(fits) > 5 else ''}): the file does not say which",
                      record)
        self.fail("forced_play", f"no play written, and none of the {plays} (e.g. "
                  f"{self.written(record, *legal[0])}) lets the rest of the game replay with "
                  "no error and with its result", record)

    def fits(self, record: TurnRecord, play: Play, after: Position) -> bool:
        """Whether the rest of the game, after ``record`` played as ``play``, replays with no
        violation and no ``result`` warning (a result the board contradicts), up to its end
        or to an unwritten play beyond the bounds of :meth:`infer`; tried on a copy of the
        replay, which this one does not see."""
        trial = copy(self)
        trial.strict, trial.trying, trial.inferred = False, True, self.inferred + 1
        trial.moved = set(self.moved)
        trial.result = replace(self.result, turns=[], errors=[], warnings=[])
        trial.add_turn(record, after, play)
        try:
            trial.replay(self.index + 1)
        except _Stop:
            return False
        except _Untried:  # an unwritten play beyond the bounds: the game up to it is checked
            pass
        return not trial.result.errors and all(w.kind != "result"
                                               for w in trial.result.warnings)

    def written(self, record: TurnRecord, play: Play, after: Position) -> str:
        """``play`` (of ``record``'s roll from the current position) as the file writes
        plays: the bar and off as words or as 25 and 0, hits marked ``*`` if the file marks
        any (:func:`written_record`'s moves otherwise)."""
        turn = ReplayedTurn(record, self.position, after, play, self.cube, self.owner)
        moves = _written_play(turn, self.rules, self.marks_hits)
        if not self.marks_hits:
            moves = [move._replace(hits=(False,) * len(move.hits)) for move in moves]
        return " ".join(move.notation(self.bar_off) for move in moves)

    @cached_property
    def bar_off(self) -> bool:
        """Whether the match's moves write the bar and off as words (``bar/22``, ``6/off``),
        not as 25 and 0; True when none is written."""
        return next((any(c.isalpha() for c in move.text) for game in self.match.games
                     for turn in game.turns for move in turn.moves or ()
                     if BAR in move.points or OFF in move.points), True)

    def add_turn(self, record: TurnRecord, after: Position | None, play: Play | None):
        """Record the roll as replayed from the current position, and move on to ``after``
        (None: the position stays, no play is known)."""
        self.result.turns.append(ReplayedTurn(record, self.position, after, play, self.cube,
                                              self.owner))
        if after is not None:
            self.position = after

    def long_turn(self, record: TurnRecord, following) -> None:
        """A long nardy roll: the written hops as single-die steps, checked by
        :func:`~nardy_analysis.game.long.check_play` (the player's first roll of the game
        may take two checkers off the head); the first reading of the hops that is legal is
        the play (every reading reaches the same position: nothing is hit in long nardy)."""
        position, roll = self.position, record.roll
        first = record.player not in self.moved
        self.moved.add(record.player)
        if not record.moves:
            legal = position.legal_plays(roll, self.rules, first_turn=first)
            if not legal[0].play.moves:  # no step can be played
                self.add_turn(record, legal[0].after, legal[0].play)
                return
            if self.no_play(record, following, legal):
                return
        hops, sources = _hops(record.moves)
        for (start, end, _), written in zip(hops, sources):
            if start >= BAR or end >= BAR:
                self.violation("illegal_play", f"{written.text}: there is no point "
                               f"{max(start, end)} in long nardy (points are 1..24, off 0; "
                               "there is no bar)", written.line, written.column, record.text,
                               position, stop=True)
        errors = []
        for steps, owners in _long_readings(hops, roll.dice):
            try:
                play, after = check_play(position, roll, steps, self.rules, first_turn=first)
            except IllegalPlayError as error:
                errors.append((error, owners, steps))
                continue
            self.add_turn(record, after, play)
            return
        if not errors:
            self.no_long_reading(record, hops, sources)
        error, owners, _ = errors[0]
        where = (sources[owners[error.step]] if error.step is not None
                 else record.moves[0] if record.moves else record)
        message = str(error)
        if all(e.kind == "closed_point" and o[e.step] == owners[error.step]
               for e, o, _ in errors):  # every reading of one merged hop lands on a closed point
            closed = sorted({s[e.step][0] - s[e.step][1] for e, o, s in errors})
            if len(closed) > 1:
                message = (f"{where.text}: points {', '.join(map(str, closed[:-1]))} and "
                           f"{closed[-1]} are held by the opponent, so no order of the dice "
                           f"of {roll} can play it")
        self.violation(error.kind, message, where.line, where.column, record.text,
                       position, stop=True)

    def no_long_reading(self, record: TurnRecord, hops, sources) -> NoReturn:
        """The violation of long nardy hops that no dice of the roll can make: the first
        hop that none can, else the play as a whole (more pips than the roll)."""
        roll = record.roll
        for hop, written in zip(hops, sources):
            if not any(_long_readings([hop], roll.dice, limit=1)):
                start, end, _ = hop
                self.violation("illegal_play", f"{written.text}: {_point_name(start)} to "
                               f"{_point_name(end)} cannot be played with {roll}",
                               written.line, written.column, record.text, self.position,
                               stop=True)
        pips = sum(start - end for start, end, _ in hops)
        least = "at least " * any(end == OFF for _, end, _ in hops)
        self.violation("illegal_play", f"the moves take {least}{pips} pips but {roll} "
                       f"gives {roll.pips}", record.line, record.column, record.text,
                       self.position, stop=True)

    def match_play(self, record: TurnRecord) -> tuple[Position, Play]:
        """Find the legal play the written moves describe."""
        position, roll = self.position, record.roll
        hops, sources = _hops(record.moves)
        found = _as_written(position, roll.dice, hops, self.rules)
        if found is not None:  # the one reading, and it plays every die: nothing below applies
            return found[0], found[1]
        for (start, end, _), written in zip(hops, sources):
            if start > BAR or end >= BAR:
                self.violation("illegal_play", f"{written.text}: there is no point "
                               f"{max(start, end)} to move {'from' if start > BAR else 'to'} "
                               "(points are 1..24, the bar 25, off 0)", written.line,
                               written.column, record.text, position, stop=True)
        candidates = _search(position, roll.dice, hops, self.rules)
        if not candidates:
            message, culprit = _why_illegal(position, roll, hops, self.rules)
            where = sources[culprit] if culprit is not None else record
            self.violation("illegal_play", message, where.line, where.column, record.text,
                           position, stop=True)
        full = len(roll.dice)
        if self.rules.forced_play and all(used < full for _, used, _ in candidates.values()):
            reached = one_die_plays(position, roll, self.rules)
            if reached is None:
                reached = {after for _, after in position.legal_plays(roll, self.rules)}
            allowed = {p: c for p, c in candidates.items() if p in reached}
            if not allowed:
                where = record.moves[0] if record.moves else record
                self.violation("forced_play", _why_forced(
                    roll, position.legal_plays(roll, self.rules),
                    max(c[1] for c in candidates.values())), where.line,
                    where.column, record.text, position, stop=True)
            candidates = allowed
        if len(candidates) > 1 and self.marks_hits:
            marked = {p: c for p, c in candidates.items() if c[2]}
            candidates = marked or candidates
        if len(candidates) > 1:
            candidates = _by_next_turn(candidates, self.following, self.rules) or candidates
        if len(candidates) > 1:
            options = " or ".join(sorted(str(c[0]) for c in candidates.values()))
            ambiguous = f"the play can be read as {options}; the board after it differs"
            # gnubg's importer reads a merged move that marks no hit as one that hits
            # nothing on the way (only where a written move ends).
            ends = {end for _, end, _ in hops}
            plain = {p: c for p, c in candidates.items()
                     if all(m.end in ends for m in c[0].moves if m.hit)}
            if self.marks_hits or len(plain) != 1:
                self.fail("ambiguous", f"{ambiguous} and the file does not say which", record)
            candidates = plain
            self.warn("ambiguous_resolved", f"{ambiguous} and the file marks no hits", record,
                      f"; read as {next(iter(plain.values()))[0]}, hitting nothing on the way "
                      "(as gnubg reads it)")
        (after, (play, _, _)), = candidates.items()
        return after, play

    # -- cube ----------------------------------------------------------------------------
    def cube_action(self, record: CubeRecord):
        if self.rules.game == "long":
            self.fail("cube", f"{record.text!r}: long nardy has no doubling cube", record)
        player, action = record.player, record.action
        if action == "double":
            if self.crawford and self.unsure:  # so the Crawford game is behind
                self.crawford = self.result.crawford = False
                self.result.post_crawford = True
            if not self.rules.cube:
                self.fail("cube", "the cube is not used under these rules", record, stop=False)
            elif self.crawford:
                self.fail("cube", "no doubling in the Crawford game", record, stop=False)
            elif self.owner not in (None, player):
                self.fail("cube", f"player {player + 1} doubles but the opponent owns the cube",
                          record, stop=False)
            elif self.started and player != self.position.turn:
                self.fail("cube", f"player {player + 1} doubles when it is not their turn to "
                          "roll", record, stop=False)
            elif not self.started:
                self.fail("cube", "a double before the opening roll", record, stop=False)
            self.check_value(record, 2 * self.cube)
            self.offer = (player, 2 * self.cube)
            return
        raccoon_by, self.raccoon_by = self.raccoon_by, None
        if action == "raccoon":
            if raccoon_by != player:
                self.fail("cube", "a raccoon must follow at once a beaver of the player's own "
                          "double", record, stop=False)
            self.check_value(record, 2 * self.cube)
            self.cube, self.owner = 2 * self.cube, player
            return
        if self.offer is None:
            self.fail("cube", f"{record.text!r} with no double offered", record, stop=False)
            return
        doubler, value = self.offer
        if player == doubler:
            self.fail("cube", f"player {player + 1} answers their own double", record,
                      stop=False)
        if action == "drop":
            self.dropped = (doubler, self.cube)
            self.offer = None
            return
        if action == "beaver":
            if not self.rules.beavers or self.match.length > 0:
                self.fail("cube", "beavers are allowed only in money play with the beaver "
                          "option", record, stop=False)
            self.check_value(record, 2 * value)
            value *= 2
            self.raccoon_by = doubler
        self.cube, self.owner, self.offer = value, player, None

    def check_value(self, record: CubeRecord, expected: int):
        if record.value is not None and record.value != expected:
            self.fail("cube", f"the cube goes to {expected}, not {record.value}", record,
                      stop=False)
        limit = self.rules.cube_limit
        if limit and expected > limit:
            self.fail("cube", f"the cube would exceed its limit of {limit}", record, stop=False)

    # -- results -------------------------------------------------------------------------
    def game_result(self, record: ResultRecord):
        """Check a result line against the board; where the board decides the result (a
        game borne off, a dropped double), a line that says otherwise is a ``result``
        warning and the board's result is kept. RULES.md, "End of game and scoring"."""
        winner = _winner(record)
        if self.result.winner is not None:
            first = next(a for a in self.game.actions if isinstance(a, ResultRecord))
            if (winner, record.points) != (_winner(first), first.points):
                self.fail("result", "two different results for one game", record, stop=False)
            return
        position = self.position
        if position.is_over:
            board = 0 if position.borne_off(0) == CHECKERS else 1
            self.result.ending, multiple = ending(position, self.rules, cube=self.cube,
                                                  money=self.match.length == 0)
            full = [self.cube * multiple]
            fact, why = f"player {board + 1} bore off all checkers", "as the board gives it"
        elif self.dropped is not None:
            self.result.ending = "drop"
            board, value = self.dropped
            full = [value]
            fact, why = (f"player {board + 1}'s double was dropped",
                         "the cube before the dropped double")
        else:
            self.result.ending = "resign"
            board = winner
            top = most_multiple(self.rules, money=self.match.length == 0, cube=self.cube)
            full = [self.cube * k for k in range(1, top + 1)]
            fact, why = None, "rounded up to a value a resignation can have"
        self.result.winner, self.result.points = board, record.points
        if winner != board:
            self.result.points = full[0]
            self.warn("result", f"player {winner + 1} is said to win, but {fact}", record,
                      f": kept as player {board + 1}'s win of {plural(full[0], 'point')} "
                      f"({self.result.ending})")
            return
        expected = set(full)
        if self.match.length:
            # gnubg writes the full points; sites cap them at what the winner needs for the
            # match, some never below the cube; one site writes the winner's final score
            # (the match length) on the line that ends the match. All are accepted.
            needed = self.match.length - self.result.scores[winner]
            if record.match_won and max(expected) >= needed:
                expected.add(self.match.length)
            expected |= {capped for points in expected
                         for capped in (min(points, needed), max(self.cube, min(points, needed)))}
        if (self.result.ending == "resign" and self.match.length
                and record.points == self.match.length - self.result.scores[winner]
                and record.points not in expected):
            # Sites award a player who leaves the match all the points the opponent needs.
            self.result.ending = "forfeit"
            expected.add(record.points)
        if record.points not in expected:
            # As gnubg imports it: the least value at or above the points written (a
            # resignation: at most a backgammon).
            self.result.points = next((p for p in full if p >= record.points), full[-1])
            scale = (f", oin 1, mars 2, home mars {self.rules.home_mars}"
                     if self.rules.game == "long" else f" with the cube at {self.cube}")
            self.warn("result", f"{plural(record.points, 'point')} is not a possible result here "
                      f"(expected {' or '.join(map(str, sorted(expected)))}{scale})", record,
                      f"; kept as {plural(self.result.points, 'point')} "
                      f"({self.result.ending}), {why}")
        if record.match_won and self.match.length and \
                self.result.scores[winner] + self.result.points < self.match.length:
            self.warn("result", "'and the match' but the winner has not reached "
                      f"{self.match.length} points", record)


MOST_INFERRED = 2
"""At most this many unwritten plays are inferred in one game (:meth:`_GameReplayer.infer`)."""

MOST_TRIED = 40
"""A roll with no play written and more legal plays than this is not inferred."""


def _winner(result: ResultRecord) -> int:
    return result.player if result.wins else 1 - result.player


def realise(position: Position, dice: tuple[int, ...], hops, rules: Rules) -> dict:
    """Every way of playing the written hops with the dice.

    Each hop ``(start, end, marked)`` is one checker's journey (points from the mover's
    side, ``marked`` if written with ``*``), taken by one or more single-die steps; journeys
    may interleave (a merged ``9/off`` may wait for ``5/off``). Legality of each step is
    checked; the forced-play rules are not (see :meth:`Position.legal_plays`).

    Returns
    -------
    dict
        {resulting position: (Play, dice used, agrees with the ``*`` marks)}; empty when
        the hops cannot be played with the dice.

    Notes
    -----
    Most turns are answered by playing the hops as written (:func:`_as_written`, and
    :func:`_merged` for merged moves); the others by a search over the orders of the steps
    and the dice (:func:`_search`).
    """
    found = _as_written(position, dice, hops, rules)
    if found is None:
        return _search(position, dice, hops, rules)
    after, play, agrees = found
    return {after: (play, len(play), agrees)}


def _search(position: Position, dice: tuple[int, ...], hops, rules: Rules) -> dict:
    """:func:`realise`'s answer, by a depth-first search over the journeys (in the order
    written) and the dice (smaller first); it stops at the first play found when
    :func:`_one_reading` says every other reaches the same."""
    me, opp = position.lists()
    turn = position.turn
    found: dict[Position, tuple[Play, int, bool]] = {}
    steps = []
    first = _one_reading(opp, dice, hops)  # then the first play found is the answer

    def search(remaining, journeys, agrees):
        if not journeys:
            after = Position.after(me, opp, turn)
            old = found.get(after)
            if old is None or (agrees and not old[2]):
                found[after] = (Play(tuple(steps)), len(steps), agrees)
            return
        for j, (point, end, marked) in enumerate(journeys):
            if first and found:
                return
            if (point, end, marked) in journeys[:j]:
                continue
            for die in set(remaining):
                if end > 0 and point - die < end:
                    continue
                move = apply_step(me, opp, point, die, rules)
                if move is None:
                    continue
                steps.append(move)
                i = remaining.index(die)
                rest = remaining[:i] + remaining[i + 1:]
                if move.end == end:
                    search(rest, journeys[:j] + journeys[j + 1:], agrees and move.hit == marked)
                else:
                    search(rest, journeys[:j] + ((move.end, end, marked),) + journeys[j + 1:],
                           agrees and not move.hit)
                steps.pop()
                undo_step(me, opp, move)

    search(tuple(dice), tuple(hops), True)
    return found


def _as_written(position: Position, dice: tuple[int, ...], hops,
                rules: Rules) -> tuple[Position, Play, bool] | None:
    """:func:`realise`'s one answer for the common turn, found without a search (merged
    moves: :func:`_merged`): one hop per die, each hop one die's step (a board hop's
    length, or, bearing off, the smallest die left that takes the checker off), played in
    the order written; None when the hops are not such, cannot be played so, or two
    different hops end on one of the opponent's blots and either is marked with ``*``.

    Returns
    -------
    (after, play, agrees) or None
        The position reached, the play (every die used) and whether it agrees with the
        ``*`` marks.

    Notes
    -----
    The answer is the search's (:func:`_search`): with as many hops as dice every journey
    is one step, so every order reaches one position with the same marks agreeing (see
    :func:`_one_reading`); and the search, which tries the hops in order and the smaller
    dice first, finds this reading first (a smaller die would leave a journey unfinished
    with no die for another). A hop from beyond the bar is not such a hop (the search's
    caller reports it).
    """
    if len(hops) != len(dice):
        return _merged(position, dice, hops, rules)
    me, opp = position.lists()
    remaining = list(reversed(dice))  # smaller first, as the search tries them
    hitting = {}  # point: the hop that hit a blot there
    steps = []
    agrees = True
    for hop in hops:
        start, end, marked = hop
        if end:
            die = start - end
            if die not in remaining or start > BAR:
                return None
        else:
            for die in remaining:
                if die >= start:
                    break
            else:
                return None
        if hitting and end in hitting and hitting[end] != hop and (marked or hitting[end][2]):
            return None
        remaining.remove(die)
        move = apply_step(me, opp, start, die, rules)
        if move is None:
            return None
        if move.hit:
            hitting[end] = hop
        if move.hit != marked:
            agrees = False
        steps.append(move)
    return Position.after(me, opp, position.turn), Play(tuple(steps)), agrees


def _merged(position: Position, dice: tuple[int, ...], hops,
            rules: Rules) -> tuple[Position, Play, bool] | None:
    """:func:`_as_written`'s answer for merged moves (fewer hops than dice: ``24/13`` with
    65, ``8/2(2)`` with 33): each hop played to its end in the order written, a double's
    die by die, a roll of two dice's one hop the smaller die first, else the larger first;
    None when that does not play every die, a step of it is not allowed, or
    :func:`_one_reading` does not hold.

    Notes
    -----
    The answer is the search's (:func:`_search`): when :func:`_one_reading` holds, its
    first play found is its answer, and this is the path it tries first (the journey written
    first until it ends, then the next, the smaller die first).
    """
    if len(dice) == 2 and (len(hops) != 1 or hops[0][0] - hops[0][1] != dice[0] + dice[1]) \
            or not _one_reading(position.opponent, dice, hops):
        return None
    for order in [dice] if len(dice) == 4 else [dice[::-1], dice]:
        found = _played(position, order, hops, rules)
        if found is not None:
            return found
    return None


def _played(position: Position, order: tuple[int, ...], hops,
            rules: Rules) -> tuple[Position, Play, bool] | None:
    """The hops played one after another, each to its end, with the dice in ``order``:
    ``(after, play, agrees)`` (as :func:`_as_written`), or None when that does not use every
    die or a step of it is not allowed."""
    me, opp = position.lists()
    dice = iter(order)
    steps = []
    agrees = True
    for start, end, marked in hops:
        point = start
        while point != end:
            die = next(dice, None)
            if die is None or end and point - die < end:
                return None
            move = apply_step(me, opp, point, die, rules)
            if move is None:
                return None
            steps.append(move)
            point = move.end
            if move.hit != (marked and point == end):  # only a journey's end may be marked
                agrees = False
    if len(steps) < len(order):
        return None  # fewer dice than the roll's: the forced-play rules decide
    return Position.after(me, opp, position.turn), Play(tuple(steps)), agrees


def _one_reading(opp: list[int], dice: tuple[int, ...], hops) -> bool:
    """Whether every way of playing all the ``hops`` with ``dice`` (the search's leaves)
    reaches one position, with the same dice used and the same agreement with the ``*``
    marks, so that the first way found is :func:`_search`'s answer.

    Each journey moves one checker from its start to its end, so the mover's checkers end
    alike; the opponent's differ only by the blots hit. None is hit on the way when no
    journey of more than one step passes over a blot (a one-step journey lands only on its
    end: every journey does when there are as many hops as dice), and each blot at a
    journey's end is hit by the first to arrive: the marks agree alike unless two different
    hops end on it and one of them is marked (unmarked, every order disagrees). The dice
    used are the same when each journey's steps are: a double's are (its length in steps
    of one die), and a journey ending on the board takes the dice that sum to its length
    (with two different dice, at most one way); a bear-off with two different dice takes one
    or two (``5/off`` with 62: the 6, or 2 then 6) unless there are as many hops as dice.
    ``opp`` is the opponent's checkers (``Position.opponent`` or ``Position.lists()[1]``).
    """
    each_one_step = len(hops) == len(dice)
    if not (len(dice) == 4 or each_one_step or all(end > OFF for _, end, _ in hops)):
        return False
    hitting = {}
    for hop in hops:
        start, end, marked = hop
        if not OFF <= end < start <= BAR:
            return False
        if end > OFF and opp[25 - end] == 1:
            first = hitting.setdefault(end, hop)
            if first != hop and (marked or first[2]):
                return False
        one_step = each_one_step or (start - end in dice if end > OFF else start <= min(dice))
        if not one_step and 1 in opp[26 - start:25 - end]:  # a blot on the way
            return False
    return True


def _long_readings(hops, dice: tuple[int, ...], limit: int = 100):
    """The readings of long nardy hops as single-die steps, at most ``limit``: ``(steps,
    owners)``, ``steps`` the ``(start, die)`` pairs, ``owners`` the index of the hop each
    step belongs to.

    A hop takes dice whose sum is its length, or, bearing off, at least its length with
    every step but the last landing on the board; the hops need not use every die. The
    journeys may interleave (``10/off(2)`` with 55: both checkers reach 5 before either
    bears off). The first reading plays each hop to its end in the order written, larger
    dice first; a depth-first search over the journeys and the dice gives the others.
    """
    steps, owners = [], []

    def search(journeys, remaining):
        if all(point == end for point, end in journeys):
            yield list(steps), list(owners)
            return
        for j, (point, end) in enumerate(journeys):
            if point == end or (point, end) in journeys[:j]:
                continue
            for die in sorted(set(remaining), reverse=True):
                if point - die < end != OFF:
                    continue
                i = remaining.index(die)
                steps.append((point, die))
                owners.append(j)
                yield from search(journeys[:j] + ((max(point - die, end), end),)
                                  + journeys[j + 1:], remaining[:i] + remaining[i + 1:])
                steps.pop()
                owners.pop()

    return islice(search(tuple((start, end) for start, end, _ in hops), tuple(dice)), limit)


def _dances(position: Position, roll: Roll, rules: Rules) -> bool:
    """Whether the player on roll can play no step of ``roll`` (the one legal play is the
    empty one; :meth:`Position.legal_plays` finds it with a whole search)."""
    me, opp = position.lists()
    return not any(apply_step(me, opp, start, die, rules)
                   for die in set(roll.dice) for start in movable_points(me))


def _hops(moves) -> tuple[list[tuple[int, int, bool]], Sequence]:
    """The hops ``(start, end, marked)`` of written moves, repeats expanded, and for each the
    WrittenMove it comes from (``moves`` itself when each is one hop)."""
    hops = [written.points + written.hits for written in moves
            if written.count == 1 and len(written.hits) == 1]  # the common move, 13/8
    if len(hops) == len(moves):
        return hops, moves
    hops, sources = [], []
    for written in moves:
        for _ in range(written.count):
            for i, marked in enumerate(written.hits):
                hops.append((written.points[i], written.points[i + 1], marked))
                sources.append(written)
    return hops, sources


def _by_next_turn(candidates: dict, following, rules: Rules) -> dict:
    """Keep the candidate positions from which the opponent's next written play is playable."""
    for action in following:
        if isinstance(action, TurnRecord):
            if action.moves is None:
                return {}
            hops, _ = _hops(action.moves)
            return {p: c for p, c in candidates.items()
                    if realise(p.with_turn(action.player), action.roll.dice, hops, rules)}
    return {}


def _point_name(point: int) -> str:
    return "the bar" if point == BAR else "off" if point == OFF else f"point {point}"


def _why_illegal(position: Position, roll: Roll, hops,
                 rules: Rules) -> tuple[str, int | None]:
    """Why the written hops cannot be played with the roll: a reason in plain words and the
    index of the hop to blame (None when no single hop is)."""
    me, opp = position.on_roll, position.opponent
    for index, (start, end, _) in enumerate(hops):
        move = f"{_point_name(start)} to {_point_name(end)}"
        if me[start] == 0 and all(h[1] != start for h in hops):
            return f"no checker on {_point_name(start)} to move", index
        if me[BAR] and start != BAR and not any(h[0] == BAR for h in hops):
            return f"a checker on the bar must enter before {move} is played", index
        if end > 0 and opp[25 - end] >= 2:
            return (f"{_point_name(end)} is closed (the opponent has {opp[25 - end]} "
                    "checkers there)"), index
        if end > 18 and opp[25 - end] == 1 and rules.home_safe:
            return (f"{_point_name(end)} is closed: the opponent's checker there is in its "
                    f"own home board and cannot be hit ({rules.name} rules)"), index
        if end == OFF and sum(me[7:26]) > sum(s > 6 and 0 < e <= 6 for s, e, _ in hops):
            return "cannot bear off while checkers are outside the home board", index
        if start <= end:
            return f"checkers move towards home; {move} goes the wrong way", index
    needed = sum(start - end for start, end, _ in hops if end != OFF)
    if needed > sum(roll.dice):
        return f"the moves take {needed} pips but {roll} gives {sum(roll.dice)}", None
    return (f"the moves cannot be played with {roll} (no order of single-die steps lands "
            "only on open points)"), None


def _why_forced(roll: Roll, legal: tuple, used: int) -> str:
    most = max((len(p) for p, _ in legal), default=0)
    example = legal[0].play
    if used < most:
        return (f"plays {used} of the roll's {len(roll.dice)} steps when {most} can be played "
                f"(e.g. {example})")
    return f"when only one die can be played, the larger ({roll.high}) must be (e.g. {example})"


def written_record(match: ReplayedMatch) -> MatchRecord:
    """The record of a replayed match with each replayed play written from the board.

    Hits are marked ``*`` where the board says a checker was hit; the steps of one checker
    are merged (``24/13``, ``13/7*/5``, GNU Backgammon's style) unless the merged text could
    be read as another play (with ``*`` marks trusted when the text written marks any hit),
    and equal journeys are written once with ``(n)``, highest start first. Turns the replay
    could not follow keep their moves as recorded. A long nardy match (nothing is hit, so
    every reading of a journey is the same play) has its steps always merged. A match
    replayed under rules its tags do not select (``--rules caucasian``, ``--rules long``)
    gets their ``Variation`` tag (:func:`~nardy_analysis.notation.records.variation_tag`).

    Parameters
    ----------
    match : ReplayedMatch

    Returns
    -------
    MatchRecord
        ``match.record`` with new moves for the replayed plays (each WrittenMove with the
        line and column of its turn's record and its text in ``bar``/``off`` notation).
        :func:`~nardy_analysis.notation.writer.format_mat` writes it.
    """
    turns = {turn.record: turn for game in match.games for turn in game.turns
             if turn.play is not None}
    marks = any(move.hit for turn in turns.values() for move in turn.play.moves) or any(
        any(written.hits) for game in match.record.games for action in game.turns
        if action not in turns for written in action.moves or ())
    games = tuple(replace(game, actions=tuple(
        action._replace(moves=_written_play(turns[action], match.rules, marks))
        if action in turns else action for action in game.actions))
        for game in match.record.games)
    tags = match.record.tags
    if STANDARD.with_tags(tags).name != match.rules.name:
        tags = {**tags, "Variation": variation_tag(match.rules)}  # read back as replayed
    return replace(match.record, games=games, tags=tags)


def _written_play(turn: ReplayedTurn, rules: Rules, marks: bool) -> tuple[WrittenMove, ...]:
    """A replayed play's moves as written: merged if the merged text can only be read as this
    play (with ``*`` marks trusted when ``marks``), else one die per move."""
    line, column = turn.record.line, turn.record.column
    merged = _journeys(turn.play.moves)
    if rules.game == "long":  # nothing is hit: any reading of the journeys is this play
        return _written_moves(merged, line, column)
    if len(merged) < len(turn.play.moves):
        moves = _written_moves(merged, line, column)
        readings = {position for position, (_, _, agrees)
                    in realise(turn.before, turn.roll.dice, _hops(moves)[0], rules).items()
                    if agrees or not marks}
        if readings == {turn.after}:
            return moves
    return _written_moves([((m.start, m.end), (m.hit,)) for m in turn.play.moves], line, column)


def _journeys(moves) -> list[tuple[tuple[int, ...], tuple[bool, ...]]]:
    """The moves as checkers' journeys: a step from where an earlier step ended continues it.
    Each journey is (points visited, hit on arriving at each point after the first); only the
    points where it hits and its end are kept after its start (gnubg's ``13/7*/5``)."""
    chains: list[tuple[list[int], list[bool]]] = []
    for move in moves:
        chain = next((c for c in chains if c[0][-1] == move.start != OFF), None)
        if chain is None:
            chains.append(([move.start, move.end], [move.hit]))
        else:
            chain[0].append(move.end)
            chain[1].append(move.hit)
    journeys = []
    for points, hits in chains:
        kept = [i for i, hit in enumerate(hits) if hit or i == len(hits) - 1]
        journeys.append(((points[0],) + tuple(points[i + 1] for i in kept),
                         tuple(hits[i] for i in kept)))
    return journeys


def _written_moves(journeys, line: int, column: int) -> tuple[WrittenMove, ...]:
    """WrittenMoves of journeys: highest start first, equal journeys once with their count."""
    counts = Counter(journeys)
    order = sorted(counts, key=lambda j: (-j[0][0], -j[0][-1]))
    moves = [WrittenMove(points, hits, counts[(points, hits)], line, column, "")
             for points, hits in order]
    return tuple(move._replace(text=str(move)) for move in moves)
