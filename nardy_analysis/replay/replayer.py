"""The replayer: each game of a match record replayed from the starting position, every
play matched to a legal play (:mod:`~nardy_analysis.replay.matching`), cube actions, results
and score lines checked; the conventions it reads and the violations it reports are those of
:mod:`nardy_analysis.replay`.

Over 500 lines: :class:`_GameReplayer` is one state machine (the position, the cube, the
offer pending, the plays inferred) whose checks of rolls, cube actions and results read and
change that one state, and a trial of an inferred play copies it whole (:meth:`fits`).
"""

from __future__ import annotations

from copy import copy
from dataclasses import replace
from functools import cached_property
from typing import AbstractSet, Literal, NamedTuple, NoReturn, Protocol, Sequence, cast, overload

from ..errors import IllegalPlayError, InvalidArgument, RecordWarning, RuleViolation, plural
from ..game.long import LongPosition, check_play
from ..game.moves import Play, Roll
from ..game.position import LegalPlay, Position, dances, ending, most_multiple, one_die_plays
from ..game.rules import BAR, CHECKERS, OFF, STANDARD, Rules
from ..notation.records import (
    Action,
    CubeRecord,
    GameRecord,
    MatchRecord,
    ResultRecord,
    SnowiePosition,
    TurnRecord,
    WrittenMove,
)
from .matching import (
    Hop,
    all_readings,
    as_written,
    by_next_turn,
    hops_of,
    long_readings,
    point_name,
    why_illegal,
)
from .results import ReplayedGame, ReplayedMatch, ReplayedTurn
from .written import written_play

__all__ = ["MOST_INFERRED", "MOST_TRIED", "replay_match"]


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
    games: list[ReplayedGame] = []
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


class _Located(Protocol):
    """A record with its place in the text (turns, cube actions, results, moves)."""

    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def text(self) -> str: ...


class _LongFailure(NamedTuple):
    """A reading of long nardy hops that breaks a rule (:meth:`_GameReplayer.long_turn`)."""

    error: IllegalPlayError
    owners: list[int]
    """The hop each step belongs to."""
    steps: list[tuple[int, int]]
    """The ``(start, die)`` steps read."""


class _GameReplayer:
    """The replay of one game: its state as the actions are read, and the checks of each."""

    def __init__(self, match: MatchRecord, game: GameRecord, scores: tuple[int, int],
                 rules: Rules, strict: bool, crawford: bool, unsure: bool) -> None:
        self.match = match
        self.crawford = crawford
        self.unsure = unsure  # the Crawford game may be behind (a file starting mid-match)
        self.game = game
        self.rules = rules
        self.strict = strict
        self.result = ReplayedGame(game, scores, crawford=crawford)
        self.position: Position = (LongPosition.start() if rules.game == "long"
                                   else Position.start())
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
    def following(self) -> tuple[Action, ...]:
        """The game's actions after the one being replayed."""
        return self.game.actions[self.index + 1:]

    @overload
    def violation(self, kind: str, message: str, line: int, column: int, text: str,
                  position: Position | None, stop: Literal[False] = False,
                  warning: bool = False) -> None: ...

    @overload
    def violation(self, kind: str, message: str, line: int, column: int, text: str,
                  position: Position | None, stop: Literal[True],
                  warning: bool = False) -> NoReturn: ...

    def violation(self, kind: str, message: str, line: int, column: int, text: str,
                  position: Position | None, stop: bool = False,
                  warning: bool = False) -> None:
        error = (RecordWarning if warning and not self.strict else RuleViolation)(
            kind, message, file=self.match.file, game=self.game.number, move=self.move,
            line=line, column=column, text=text,
            position_id=position.id() if position else None)
        if self.strict:
            raise error
        if isinstance(error, RecordWarning):
            self.result.warnings.append(error)
        else:
            self.result.errors.append(error)
        if stop:
            raise _Stop

    def warn(self, kind: str, message: str, record: _Located, then: str = "") -> None:
        """An exporter's quirk: ``message`` says what the record does, ``then`` how the
        replay reads it, left out in strict mode (where the warning stops the replay)."""
        self.violation(kind, message + ("" if self.strict else then), record.line,
                       record.column, record.text, self.position, warning=True)

    def run(self) -> ReplayedGame:
        """Replay the game; its result."""
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

    @overload
    def fail(self, kind: str, message: str, record: _Located,
             stop: Literal[True] = True) -> NoReturn: ...

    @overload
    def fail(self, kind: str, message: str, record: _Located, stop: Literal[False]) -> None: ...

    def fail(self, kind: str, message: str, record: _Located, stop: bool = True) -> None:
        """A violation at ``record``, from the current position; ``stop`` ends the game's
        replay."""
        if stop:
            self.violation(kind, message, record.line, record.column, record.text,
                           self.position, stop=True)
        self.violation(kind, message, record.line, record.column, record.text, self.position)

    # -- rolls ---------------------------------------------------------------------------
    def turn(self, record: TurnRecord) -> None:
        """Check and replay one roll and its play."""
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
            if dances(self.position, record.roll, self.rules):
                self.add_turn(record, self.position.with_turn(1 - record.player), Play())
                return
            if self.no_play(record, self.following,
                            self.position.legal_plays(record.roll, self.rules)):
                return
        self.add_turn(record, *self.match_play(record))

    def recorded_illegal_play(self, record: TurnRecord) -> None:
        """``Illegal play (...)`` (XG, Snowie): the play is unknown; the game goes on from
        the position recorded after it, the opponent on roll."""
        recorded = cast(SnowiePosition, record.recorded_position)
        board = [(CHECKERS - sum(side),) + side[1:] for side in recorded.board]
        try:
            after = Position(board, 1 - record.player)
        except InvalidArgument as error:
            self.fail("recorded_illegal_play", "the position recorded after the illegal play "
                      f"is not a position: {error}", record)
        self.warn("recorded_illegal_play", "the play was illegal (the exporter says so)", record,
                  f"; the game goes on from the position recorded after it, {after.id()}")
        self.add_turn(record, None, None)
        self.position = after

    def no_play(self, record: TurnRecord, following: Sequence[Action],
                legal: Sequence[LegalPlay]) -> bool:
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

    def infer(self, record: TurnRecord, legal: Sequence[LegalPlay]) -> bool:
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
        moves: Sequence[WrittenMove] = written_play(turn, self.rules, self.marks_hits)
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

    def add_turn(self, record: TurnRecord, after: Position | None, play: Play | None) -> None:
        """Record the roll as replayed from the current position, and move on to ``after``
        (None: the position stays, no play is known)."""
        self.result.turns.append(ReplayedTurn(record, self.position, after, play, self.cube,
                                              self.owner))
        if after is not None:
            self.position = after

    def long_turn(self, record: TurnRecord, following: Sequence[Action]) -> None:
        """A long nardy roll: the written hops as single-die steps, checked by
        :func:`~nardy_analysis.game.long.check_play` (the player's first roll of the game
        may take two checkers off the head); the first reading of the hops that is legal is
        the play (every reading reaches the same position: nothing is hit in long nardy)."""
        position, roll = cast(LongPosition, self.position), record.roll
        first = record.player not in self.moved
        self.moved.add(record.player)
        if not record.moves:
            legal = position.legal_plays(roll, self.rules, first_turn=first)
            if not legal[0].play.moves:  # no step can be played
                self.add_turn(record, legal[0].after, legal[0].play)
                return
            if self.no_play(record, following, legal):
                return
        hops, sources = hops_of(record.moves or ())
        for (start, end, _), written in zip(hops, sources):
            if start >= BAR or end >= BAR:
                self.violation("illegal_play", f"{written.text}: there is no point "
                               f"{max(start, end)} in long nardy (points are 1..24, off 0; "
                               "there is no bar)", written.line, written.column, record.text,
                               position, stop=True)
        errors: list[_LongFailure] = []
        for steps, owners in long_readings(hops, roll.dice):
            try:
                play, after = check_play(position, roll, steps, self.rules, first_turn=first)
            except IllegalPlayError as error:
                errors.append(_LongFailure(error, owners, steps))
                continue
            self.add_turn(record, after, play)
            return
        if not errors:
            self.no_long_reading(record, hops, sources)
        failed, owners, _ = errors[0]
        step = failed.step
        where: _Located = (sources[owners[step]] if step is not None
                           else record.moves[0] if record.moves else record)
        message = str(failed)
        if step is not None and all(f.error.kind == "closed_point" and f.error.step is not None
                                    and f.owners[f.error.step] == owners[step]
                                    for f in errors):
            # every reading of one merged hop lands on a closed point
            closed = sorted({start - die for f in errors if f.error.step is not None
                             for start, die in [f.steps[f.error.step]]})
            if len(closed) > 1:
                message = (f"{where.text}: points {', '.join(map(str, closed[:-1]))} and "
                           f"{closed[-1]} are held by the opponent, so no order of the dice "
                           f"of {roll} can play it")
        self.violation(failed.kind, message, where.line, where.column, record.text,
                       position, stop=True)

    def no_long_reading(self, record: TurnRecord, hops: Sequence[Hop],
                        sources: Sequence[WrittenMove]) -> NoReturn:
        """The violation of long nardy hops that no dice of the roll can make: the first
        hop that none can, else the play as a whole (more pips than the roll)."""
        roll = record.roll
        for hop, written in zip(hops, sources):
            if not any(long_readings([hop], roll.dice, limit=1)):
                start, end, _ = hop
                self.violation("illegal_play", f"{written.text}: {point_name(start)} to "
                               f"{point_name(end)} cannot be played with {roll}",
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
        hops, sources = hops_of(record.moves or ())
        found = as_written(position, roll.dice, hops, self.rules)
        if found is not None:  # the one reading, and it plays every die: nothing below applies
            after, play, _ = found
            return after, play
        for (start, end, _), written in zip(hops, sources):
            if start > BAR or end >= BAR:
                self.violation("illegal_play", f"{written.text}: there is no point "
                               f"{max(start, end)} to move {'from' if start > BAR else 'to'} "
                               "(points are 1..24, the bar 25, off 0)", written.line,
                               written.column, record.text, position, stop=True)
        candidates = all_readings(position, roll.dice, hops, self.rules)
        if not candidates:
            message, culprit = why_illegal(position, roll, hops, self.rules)
            where: _Located = sources[culprit] if culprit is not None else record
            self.violation("illegal_play", message, where.line, where.column, record.text,
                           position, stop=True)
        full = len(roll.dice)
        if self.rules.forced_play and all(reading.used < full
                                          for reading in candidates.values()):
            reached: AbstractSet[Position] | None = one_die_plays(position, roll, self.rules)
            if reached is None:
                reached = {after for _, after in position.legal_plays(roll, self.rules)}
            allowed = {p: c for p, c in candidates.items() if p in reached}
            if not allowed:
                first: _Located = record.moves[0] if record.moves else record
                self.violation("forced_play", _why_forced(
                    roll, position.legal_plays(roll, self.rules),
                    max(reading.used for reading in candidates.values())), first.line,
                    first.column, record.text, position, stop=True)
            candidates = allowed
        if len(candidates) > 1 and self.marks_hits:
            marked = {p: reading for p, reading in candidates.items() if reading.agrees}
            candidates = marked or candidates
        if len(candidates) > 1:
            candidates = by_next_turn(candidates, self.following, self.rules) or candidates
        if len(candidates) > 1:
            options = " or ".join(sorted(str(reading.play) for reading in candidates.values()))
            ambiguous = f"the play can be read as {options}; the board after it differs"
            # gnubg's importer reads a merged move that marks no hit as one that hits
            # nothing on the way (only where a written move ends).
            ends = {end for _, end, _ in hops}
            plain = {p: reading for p, reading in candidates.items()
                     if all(m.end in ends for m in reading.play.moves if m.hit)}
            if self.marks_hits or len(plain) != 1:
                self.fail("ambiguous", f"{ambiguous} and the file does not say which", record)
            candidates = plain
            self.warn("ambiguous_resolved", f"{ambiguous} and the file marks no hits", record,
                      f"; read as {next(iter(plain.values())).play}, hitting nothing on the way "
                      "(as gnubg reads it)")
        (after, (play, _, _)), = candidates.items()
        return after, play

    # -- cube ----------------------------------------------------------------------------
    def cube_action(self, record: CubeRecord) -> None:
        """Check and apply one cube action."""
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

    def check_value(self, record: CubeRecord, expected: int) -> None:
        """The cube value written, if any, against the one the action gives."""
        if record.value is not None and record.value != expected:
            self.fail("cube", f"the cube goes to {expected}, not {record.value}", record,
                      stop=False)
        limit = self.rules.cube_limit
        if limit and expected > limit:
            self.fail("cube", f"the cube would exceed its limit of {limit}", record, stop=False)

    # -- results -------------------------------------------------------------------------
    def game_result(self, record: ResultRecord) -> None:
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
    """The player a result line says wins."""
    return result.player if result.wins else 1 - result.player


def _why_forced(roll: Roll, legal: Sequence[LegalPlay], used: int) -> str:
    """Why a play breaks the forced-play rules: it uses ``used`` steps of ``roll`` when more
    can be played, or the smaller die when only one can (RULES.md, "Movement")."""
    most = max((len(p) for p, _ in legal), default=0)
    example = legal[0].play
    if used < most:
        return (f"plays {used} of the roll's {len(roll.dice)} steps when {most} can be played "
                f"(e.g. {example})")
    return f"when only one die can be played, the larger ({roll.high}) must be (e.g. {example})"
