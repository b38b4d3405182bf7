"""The HTML page of one match: a summary of what mattered, a board to step through move by
move, the scores, the pip race and blot exposure of each game, and the dice, in one
self-contained file.

The page is rendered from ``templates/match.html.j2`` (autoescaped; the data for its script
is a JSON block). Each step of the page is a position: the start of a game, the position after
each roll's play, a cube action, a result, or an error where a game stops. Boards are
:func:`~nardy_analysis.game.svg.board_svg` pictures with the match state of their step (cube,
score, dice, who is to act), seen from player 0's side, stored as
indices into the list of distinct SVG lines of the match (most lines repeat from board to
board), which keeps a 15-game match to a few hundred kilobytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple, Sequence

import numpy as np
import pandas as pd

from ..analysis.audit import ABOUT, ALPHA, audit_dice
from ..analysis.evaluator import Evaluator
from ..analysis.luck import RATING_SHOWN, luck_rating
from ..analysis.match_statistics import CUBE_ERRORS, NO_RATING, skill_rating
from ..analysis.shots import shots, throws
from ..batch.luck import luck_and_skill
from ..errors import InvalidArgument, NardyError, RecordProblem, RecordWarning, path_text, plural
from ..game.ids import GameState, MatchState
from ..game.long import LongPosition
from ..game.position import Position
from ..game.svg import COLOURS, board_svg
from ..notation.records import CubeRecord, TurnRecord
from ..replay import LoadedFile, ReplayedGame, ReplayedMatch, ReplayedTurn
from .templates import template

AUDIT_COLUMNS = ["test", "cell", "n", "observed", "expected", "p_value", "p_adjusted", "note"]
"""The columns of the dice summary shown (rows of the group ``all``, smallest adjusted p
first, each with its test's sentence from :data:`~nardy_analysis.analysis.audit.ABOUT`;
``note`` says why a test has no p-value, such as a test that does not apply to long nardy)."""

_UNITS = {"short": {"equity": "EMG", "rate": "mEMG"},
          "long": {"equity": "points", "rate": "millipoints"}}
"""The page's units by :attr:`~nardy_analysis.game.rules.Rules.game`: of luck and errors
(``equity``) and of error rates (``rate``, a thousandth of it): normalised equity (GNU
Backgammon's EMG) in short nardy; points per game (money equity, no cube) in long nardy."""

_LuckByTurn = dict[tuple[int, int], dict[str, Any]]
"""Each roll's luck for the page by (game, turn): ``{"value", "mwc", "mark"}``."""

_CUBE = {"double": "doubles to {value}", "beaver": "beavers to {value}",
         "raccoon": "raccoons to {value}", "take": "takes", "drop": "drops"}


def match_html(source: ReplayedMatch | LoadedFile, match: int = 1, *, luck: bool = True,
               evaluator: Evaluator | None = None, jobs: int = 1) -> str:
    """The HTML page of one replayed match.

    Parameters
    ----------
    source : ReplayedMatch or LoadedFile
        A replayed match, or a file loaded with :func:`~nardy_analysis.load.load_file`
        (then its games that could not be read are shown too, with their errors).
    match : int
        Which match of a loaded file (1, 2, ...), for files holding several; one page
        shows one match.
    luck : bool
        Show each roll's luck (:func:`~nardy_analysis.analysis.luck.luck_frame`: the
        roller's equity gained by the roll over the average roll, 0-ply) and beside it each
        decision's error (:func:`~nardy_analysis.analysis.skill.skill_frame`: the checker
        play's error and mark, the best play, and the cube decision before the roll when it
        was close or wrong; on a double, take or drop step that decision's error). Without
        an engine installed the page says how to install one instead. Long nardy: the
        checker plays' errors (cubeless money equity; no cube), no luck.
    evaluator : Evaluator, optional
        For the luck and errors; default
        :func:`~nardy_analysis.analysis.engine.default_evaluator`.
    jobs : int
        Worker processes for the luck and errors, game by game (the default engine only):
        the same numbers, sooner (the luck is most of the page's cost: 21 best plays a
        roll).

    Returns
    -------
    str
        A self-contained HTML document (no external URL; CSS, script and SVG inline): the
        header (players, match length, result, date, site), the summary (from the steps:
        each player's luck and error rate with gnubg's ratings, the biggest errors and the
        luckiest and unluckiest rolls, each a link to its step; ``#step-N`` in the page's
        address opens step N), the board with first/previous/next/last buttons (and the
        arrow, Home and End keys) and a game menu, for each step its board with the cube,
        score, dice and who is to act, the game and move, the roll, the play, both pip
        counts (pips), the opponent's shots at the blots left (throws of 36), the luck and
        the error (normalised equity, EMG), charts of the game's pip race and blot exposure
        as wide as the window in the players' checkers' colours, the games' scores, every
        tag, and the match's dice tests
        (:func:`~nardy_analysis.analysis.audit.audit_dice`, :data:`AUDIT_COLUMNS`). Long
        nardy (RULES.md, "Long nardy") has no shots, blot exposure (nothing is hit) or cube
        decisions; its luck and errors are the long nardy engine's (points per game), and its
        games start at 360 pips each.

    Raises
    ------
    InvalidArgument
        ``source`` is neither, or a loaded file has no match numbered ``match``.
    """
    replayed, unread = _chosen(source, match)
    names = replayed.record.players
    lines: dict[str, int] = {}
    steps: list[dict[str, Any]] = []
    games = []
    long = replayed.rules.game == "long"
    start = (LongPosition if long else Position).start()
    unit = _UNITS[replayed.rules.game]
    luck_by_turn, skill, luck_totals, luck_note = (
        _luck(replayed, evaluator, jobs) if luck
        else ({}, _Skill(), None, "Luck and errors are not shown (not asked for)."))
    unread_games = sorted(unread, key=lambda unread_game: unread_game[0])
    for game in replayed.games:
        while unread_games and unread_games[0][0] < game.number:
            games.append(_unread_game(*unread_games.pop(0), start, steps, lines, names))
        games.append(_game(replayed, game, start, steps, lines, luck_by_turn, skill))
    for number, error in unread_games:
        games.append(_unread_game(number, error, start, steps, lines, names))
    if not steps:
        steps.append(_step(None, "start", "No game could be read", start, lines, names))
    data = {"names": names, "steps": steps, "lines": sorted(lines, key=lines.__getitem__),
            "games": [{"number": g.number, "first": g.first} for g in games], "long": long,
            "unit": unit,
            "colours": {"fill": COLOURS["checker"], "edge": COLOURS["edge"],
                        "board": COLOURS["board"]}}
    return template("match.html.j2").render(
        title=f"{names[0]} \u2013 {names[1]}", names=names, length=replayed.record.length,
        tags=sorted(replayed.record.tags.items()), facts=_facts(replayed.record.tags),
        result=_result(replayed), games=games, rules=replayed.rules.name,
        file=replayed.record.file, problems=[_where(e) for e in _file_problems(source)],
        dice=_dice(replayed), luck_note=luck_note, long=long, unit=unit, data=data,
        summary=_summary(steps, names, rated=not long, luck_totals=luck_totals),
        colours=COLOURS)


@dataclass
class _Game:
    """A row of the page's score table."""

    number: int
    first: int          # index of its first step
    scores: tuple[int, int] | None
    result: str
    notes: list[str]


def _chosen(source: ReplayedMatch | LoadedFile,
            match: int) -> tuple[ReplayedMatch, list[tuple[int, NardyError]]]:
    """The match to show, and the errors of its games that could not be read, each with its
    game's number."""
    if isinstance(source, ReplayedMatch):
        return source, []
    if not isinstance(source, LoadedFile):
        raise InvalidArgument(f"expected a replayed match or a loaded file, got {source!r}; "
                              "read a file with nardy_analysis.load_file(path) first")
    if not 1 <= match <= len(source.matches):
        raise InvalidArgument(f"{path_text(source.path)} holds "
                              f"{plural(len(source.matches), 'replayed match')}, not a match "
                              f"{match}")
    chosen = source.matches[match - 1]
    start = chosen.record.line
    end = (source.matches[match].record.line if match < len(source.matches)
           else float("inf"))
    unread = [(e.game, e) for e in source.errors if isinstance(e, NardyError)
              and e.game is not None and start <= e.line < end]
    return chosen, unread


def _file_problems(source: ReplayedMatch | LoadedFile) -> list[OSError | NardyError]:
    """The errors of a loaded file that belong to no game (stray text)."""
    if not isinstance(source, LoadedFile):
        return []
    return [e for e in source.errors if getattr(e, "game", None) is None]


def _where(error: OSError | NardyError) -> str:
    """``line:column: kind: message``, and the text when there is one."""
    if not isinstance(error, NardyError):
        return str(error)
    place = f"line {error.line}:{error.column}: " if error.line else ""
    text = f" \u2014 \u201c{error.text}\u201d" if error.text else ""
    return f"{place}{error.kind}: {getattr(error, 'message', str(error))}{text}"


def _board(position: Position, lines: dict[str, int], names: Sequence[str],
           state: MatchState | None) -> list[int]:
    """``board_svg`` of ``position`` (player 0's side) with the match ``state``, as indices
    into ``lines``."""
    svg = board_svg(position, side=0, names=names, width=480, state=state)
    return [lines.setdefault(line, len(lines)) for line in svg.split("\n")]


def _step(game: int | None, kind: str, text: str, position: Position, lines: dict[str, int],
          names: Sequence[str], state: MatchState | None = None,
          **fields: Any) -> dict[str, Any]:
    """One step of the page: what it shows as text and its board (with the cube, score,
    dice and who is to act of ``state``)."""
    return {"game": game, "kind": kind, "text": text,
            "board": _board(position, lines, names, state),
            "pips": [position.pip_count(0), position.pip_count(1)], **fields}


class _Cube:
    """The match state of each step of one game: the cube as its actions turn it (the
    replay has checked them), the score, the match length and the Crawford game."""

    def __init__(self, match: ReplayedMatch, game: ReplayedGame) -> None:
        self.length, self.crawford = match.record.length, game.crawford
        self.scores = game.scores
        self.value = 1
        self.owner: int | None = None

    def state(self, player: int, **fields: Any) -> MatchState:
        """The :class:`MatchState` with ``player`` on roll (or just rolled) and ``fields``
        (``dice``, ``doubled``, ``turn``, ``game_state``, ``score``); scores beyond the
        match length (the winning game's) show as the length."""
        score = fields.pop("score", self.scores)
        if self.length:
            score = tuple(min(s, self.length) for s in score)
        return MatchState(cube=self.value, cube_owner=self.owner, player=player,
                          crawford=self.crawford and bool(self.length),
                          match_length=self.length, score=score, **fields)

    def turn(self, turn: ReplayedTurn) -> MatchState:
        """After a roll's play (before it when the play is unknown): its dice."""
        self.value, self.owner = turn.cube_value, turn.cube_owner
        return self.state(turn.player, dice=(turn.roll.high, turn.roll.low))

    def action(self, action: CubeRecord) -> MatchState:
        """After a cube action: a double on offer, or the cube turned to its taker (a
        beaver: taken and doubled again; a raccoon: doubled again by the doubler)."""
        player = action.player
        if action.action == "double":
            return self.state(player, doubled=True, turn=1 - player)
        if action.action == "drop":
            return self.state(1 - player, game_state=GameState.DROPPED)
        self.value *= 4 if action.action == "beaver" else 2
        self.owner = player
        return self.state(player if action.action == "raccoon" else 1 - player)  # doubler


def _game(match: ReplayedMatch, game: ReplayedGame, start: Position,
          steps: list[dict[str, Any]], lines: dict[str, int], luck_by_turn: _LuckByTurn,
          skill: "_Skill") -> _Game:
    """Add the steps of one game to ``steps``; its row of the score table (``start``: the
    start position, for a game not replayed)."""
    names, number = match.record.players, game.number
    first = len(steps)
    notes = ["Crawford game"] if game.crawford else []
    intro = (f"Start: {names[0]} {game.scores[0]}, {names[1]} {game.scores[1]}"
             + (" (Crawford game)" if game.crawford else ""))
    problems: dict[_Place, RecordProblem] = {_Place(p.line, p.column): p
                                             for p in game.errors + game.warnings}
    cube = _Cube(match, game)
    # The start, the first roller on roll (when known), with the problems of the score line.
    position = game.turns[0].before if game.turns else game.final or start
    state = cube.state(position.turn)
    steps.append(_step(number, "start", intro, position, lines, names, state,
                       notes=_notes(game.record.score_line, 0, float("inf"), problems)))
    turns = iter(enumerate(game.turns, 1))
    stopped = False
    for action in game.record.actions:
        if isinstance(action, TurnRecord):
            found = next(turns, None)
            if found is None or found[1].record is not action:
                stopped = True
                break
            index, turn = found
            position = turn.after or turn.before
            state = cube.turn(turn)
            steps.append(_turn_step(match, number, index, turn, lines, luck_by_turn, skill,
                                    state))
        elif isinstance(action, CubeRecord):
            text = f"{names[action.player]} " + _CUBE[action.action].format(value=action.value)
            state = cube.action(action)
            steps.append(_step(number, "cube", text, position, lines, names, state,
                               move=action.move, player=action.player,
                               **skill.of_cube_action(number, action)))
        else:
            continue
        steps[-1]["notes"] = _notes(action.line, action.column,
                                    action.column + len(action.text), problems)
    for key in list(problems):  # where the game stops, or beyond the text of any record
        steps.append(_step(number, "error", f"Game {number} stops here" if stopped else
                           f"Game {number}: {problems[key].kind}", position, lines, names,
                           state, move=problems[key].move,
                           notes=_notes(key.line, key.column, key.column, problems)))
    if game.winner is not None:
        result = (f"{names[game.winner]} wins {plural(game.points or 0, 'point')}"
                  + (f" ({game.ending})" if game.ending else ""))
        after = game.score_after
        steps.append(_step(number, "result", f"{result}; score {names[0]} {after[0]}, "
                           f"{names[1]} {after[1]}", game.final or position, lines, names,
                           cube.state(state.player, dice=state.dice, score=after,
                                      game_state=GameState.OVER), player=game.winner))
    else:
        result = "unfinished"
    if game.errors:
        notes.append(plural(len(game.errors), "error")
                     + (" (the game is replayed up to the first)" if stopped else ""))
    if game.warnings:
        notes.append(plural(len(game.warnings), "warning"))
    return _Game(number, first, game.scores, result, notes)


TOP = 5
"""How many of the biggest errors, luckiest and unluckiest rolls the summary lists."""


def _decisions(step: dict[str, Any]) -> list[dict[str, Any]]:
    """The decisions of a step that count in an error rate: an unforced checker play, a cube
    decision (before a roll when close or wrong, or a double, take or pass)."""
    error = step.get("error")
    return ([error] if error and not error.get("forced") else []) + (
        [step["cube"]] if step.get("cube") else [])


def _summary(steps: list[dict[str, Any]], names: Sequence[str], rated: bool = True,
             luck_totals: list[float] | None = None) -> dict[str, Any]:
    """What the summary shows, from the steps that have luck and errors (whichever the match has):
    each player's luck (total and per roll, normalised equity; gnubg's luck rating,
    :func:`~nardy_analysis.analysis.luck.luck_rating`) and error rate (equity per unforced move or
    cube decision counted, as gnubg's "Overall" rate; its rating,
    :func:`~nardy_analysis.analysis.match_statistics.skill_rating`, when ``rated``: not for long
    nardy, which gnubg's scale does not rate,
    :data:`~nardy_analysis.analysis.match_statistics.NO_RATING`), and the :data:`TOP` biggest
    errors, luckiest and unluckiest rolls, each with the index of its step. ``luck_totals`` (by
    side): the luck totals of the unrounded per-roll luck (:func:`_luck`), as ``nardy luck`` sums
    it; without them the steps' values are summed."""
    players = []
    for side, name in enumerate(names):
        mine = [s for s in steps if s.get("player") == side]
        luck = [s["luck"]["value"] for s in mine if s.get("luck") and s["kind"] == "roll"]
        errors = [d["value"] for s in mine if s["kind"] in ("roll", "cube")
                  for d in _decisions(s)]
        total = luck_totals[side] if luck_totals else sum(luck)
        luck_rate = total / len(luck) if luck else None
        error_rate = sum(errors) / len(errors) if errors else None
        word = luck_rating(luck_rate) if luck_rate is not None else ""
        rating = (NO_RATING if not rated else skill_rating(error_rate)
                  if error_rate is not None else "")
        players.append({"name": name, "rolls": len(luck), "luck": total,
                        "luck_rate": luck_rate, "luck_rating": RATING_SHOWN.get(word, word),
                        "decisions": len(errors), "rating": rating,
                        "error_rate": None if error_rate is None else 1000 * error_rate})
    lucky = sorted((s["luck"]["value"], i) for i, s in enumerate(steps)
                   if s.get("luck") and s["kind"] == "roll")
    errors = sorted((d["value"], i, d) for i, s in enumerate(steps)
                    if s["kind"] in ("roll", "cube") for d in _decisions(s) if d["value"] < 0)
    return {"players": players, "luck": bool(lucky), "errors": any(p["decisions"]
                                                                  for p in players),
            "biggest": [_listed(steps, i, value, _what_error(steps[i], d, names))
                        for value, i, d in errors[:TOP]],
            "luckiest": [_listed(steps, i, value, steps[i]["text"])
                         for value, i in reversed(lucky[-TOP:]) if value > 0],
            "unluckiest": [_listed(steps, i, value, steps[i]["text"])
                           for value, i in lucky[:TOP] if value < 0]}


def _what_error(step: dict[str, Any], decision: dict[str, Any], names: Sequence[str]) -> str:
    """A decision in words with the best choice: the roll and play, the cube action, or
    the cube decision before a roll."""
    if step["kind"] == "roll" and decision is step.get("cube"):
        return (f"{names[step['player']]}, cube before rolling {step['roll']}: "
                f"{decision['play']} (best: {decision['best']})")
    return f"{step['text']} (best: {decision['best']})"


def _listed(steps: list[dict[str, Any]], index: int, value: float,
            what: str) -> dict[str, Any]:
    """An entry of the summary's lists: where (game and move), what, the value (equity) and the
    step to jump to."""
    step = steps[index]
    where = f"Game {step['game']}" + (f", move {step['move']}" if step.get("move") else "")
    return {"step": index, "where": where, "what": what, "value": value}


class _Place(NamedTuple):
    """Where in the text an error or warning is."""

    line: int
    column: int


def _notes(line: int, start: int, end: float, problems: dict[_Place, RecordProblem]) -> list[str]:
    """The errors and warnings on ``line`` from column ``start`` to ``end`` (taken out of
    ``problems``), each as ``error: ...`` or ``warning: ...``."""
    found = [key for key in problems if key.line == line and start <= key.column <= end]
    return [("warning: " if isinstance(problems[key], RecordWarning) else "error: ")
            + _where(problems.pop(key)) for key in found]


def _turn_step(match: ReplayedMatch, game: int, index: int, turn: ReplayedTurn,
               lines: dict[str, int], luck_by_turn: _LuckByTurn, skill: "_Skill",
               state: MatchState) -> dict[str, Any]:
    """The step of one roll: the position after its play (before it when unknown), with
    the match ``state``."""
    names, player = match.record.players, turn.player
    play = "??? (the play is not recorded)" if turn.play is None else str(turn.play)
    text = f"{names[player]} rolls {turn.roll}: {play}"
    fields: dict[str, Any] = {"move": turn.record.move, "turn": index, "player": player,
              "roll": str(turn.roll), "play": play}
    if turn.after is not None and match.rules.game != "long":  # nothing is hit in long nardy
        found = shots(turn.after, match.rules)
        fields["shots"] = {"count": found.count,
                           "blots": sorted([25 - point, throws(rolls)]
                                           for point, rolls in found.blots.items())}
    if (game, index) in luck_by_turn:
        fields["luck"] = luck_by_turn[game, index]
    fields |= skill.of_turn(game, index)
    return _step(game, "roll", text, turn.after or turn.before, lines, names, state,
                 **fields)


def _unread_game(number: int, error: NardyError, start: Position, steps: list[dict[str, Any]],
                 lines: dict[str, int], names: Sequence[str]) -> _Game:
    """A game the reader skipped (game ``number``): one step with its error, on the board
    ``start``."""
    steps.append(_step(number, "error", f"Game {number} cannot be read",
                       start, lines, names, notes=["error: " + _where(error)]))
    return _Game(number, len(steps) - 1, None, "not read", [_where(error)])


def _result(match: ReplayedMatch) -> str:
    """Who won the match and the final score, from the replayed results."""
    names, length = match.record.players, match.record.length
    if not match.games:
        return "no game replayed"
    score = match.score
    if length == 0:
        return (f"Money session: {names[0]} {plural(score[0], 'point')}, "
                f"{names[1]} {plural(score[1], 'point')}")
    text = f"{names[0]} {score[0]} \u2013 {names[1]} {score[1]}"
    if match.winner is not None:
        return f"{names[match.winner]} wins the match {text}"
    return f"unfinished at {text}"


def _facts(tags: dict[str, str]) -> list[tuple[str, str]]:
    """The header's lines from the tags: date, site, event and round."""
    date = " ".join(filter(None, (tags.get("EventDate"), tags.get("EventTime"))))
    facts = [("Date", date), ("Site", tags.get("Site", "")), ("Event", tags.get("Event", "")),
             ("Round", tags.get("Round", ""))]
    return [(key, value) for key, value in facts if value]


def _number(value: float) -> float | None:
    """``value`` rounded for the page, None for NaN."""
    return None if np.isnan(value) else round(float(value), 4)


_SINGULAR = {"doubles": "double", "takes": "take", "passes": "pass"}


def _one_decision(category: str) -> str:
    """gnubg's name of a cube error category said of one decision: "Wrong passes" ->
    "Wrong pass"."""
    return " ".join(_SINGULAR.get(word, word) for word in category.split(" "))


class _Skill:
    """The errors of a match's decisions (:func:`~nardy_analysis.analysis.skill.skill_frame`
    rows), for the page's steps."""

    def __init__(self, frame: pd.DataFrame | None = None):
        self._moves: dict[tuple[int, int], dict[str, Any]] = {}
        self._before: dict[tuple[int, int], dict[str, Any]] = {}
        self._actions: dict[tuple[int, int, str], list[dict[str, Any]]] = {}
        for row in ([] if frame is None else frame.to_dict("records")):
            error = {"value": _number(row["error"]), "mwc": _number(row["error_mwc"]),
                     "best": row["best"], "play": row["play"],
                     "category": _one_decision(CUBE_ERRORS.get(row["category"], ""))}
            if row["kind"] == "move":
                self._moves[row["game"], row["turn"]] = error | {
                    "mark": row["mark"], "forced": row["plays"] == 1}
            elif row["kind"] == "double" and row["play"] == "no double":
                if row["close"] or row["error"] < 0:
                    self._before[row["game"], row["turn"]] = error
            else:  # a double given or its take or pass, matched to the cube actions in turn
                self._actions.setdefault((row["game"], row["side"], row["kind"]),
                                         []).append(error)

    def of_turn(self, game: int, turn: int) -> dict[str, Any]:
        """The step fields of a roll: ``error`` (its checker play), ``cube`` (the roller's
        cube decision before it, when close or wrong)."""
        found = {}
        if (game, turn) in self._moves:
            found["error"] = self._moves[game, turn]
        if (game, turn) in self._before:
            found["cube"] = self._before[game, turn]
        return found

    def of_cube_action(self, game: int, action: CubeRecord) -> dict[str, Any]:
        """The step field ``cube`` of a double, take or drop: that decision's error."""
        kind = {"double": "double", "take": "take", "drop": "take"}.get(action.action, "")  # (none)
        waiting = self._actions.get((game, action.player, kind))
        return {"cube": waiting.pop(0)} if waiting else {}


def _luck(match: ReplayedMatch, evaluator: Evaluator | None,
          jobs: int) -> tuple[_LuckByTurn, _Skill, list[float] | None, str]:
    """Each roll's luck by (game, turn) as ``{"value", "mwc", "mark"}`` (rounded for the
    page; none for a roll whose play is not recorded, which gnubg leaves out), the errors of
    the decisions, each side's luck total from the unrounded luck (None without it) and a
    note for the page (how to install an engine when none is); with ``jobs`` > 1 game by
    game on that many worker processes (the default engine only:
    :func:`~nardy_analysis.batch.luck_and_skill`)."""
    long = match.rules.game == "long"
    try:
        frame, skill = luck_and_skill(match, evaluator, jobs=jobs)
    except NardyError as error:  # no engine (EngineError), a match longer than 25 points
        return {}, _Skill(), None, f"Luck is not shown: {error}"
    frame = frame[frame["play_recorded"]]  # as gnubg, no luck for a roll played ``???``
    found: _LuckByTurn = {}
    for game, turn, luck, luck_mwc, mark in zip(frame["game"], frame["turn"], frame["luck"],
                                                frame["luck_mwc"], frame["mark"]):
        mwc = None if np.isnan(luck_mwc) else round(float(luck_mwc), 4)
        found[game, turn] = {"value": round(float(luck), 4), "mwc": mwc, "mark": mark}
    totals = [float(frame.loc[frame["side"] == side, "luck"].sum()) for side in (0, 1)]
    if long:
        return found, _Skill(skill), totals, (
            f"Luck: the roller's equity (points per game, a mars 2, a home mars "
            f"{match.rules.home_mars}) gained by the roll over the average roll. Error: the "
            "equity the checker play gave away against the best play (long nardy has no cube), "
            "marked as GNU Backgammon marks it. Both by the long nardy engine at 0-ply.")
    unit = "normalised match equity" if match.record.length else "points per game at cube 1"
    return found, _Skill(skill), totals, (
        f"Luck: the roller's equity ({unit}) gained by the roll over the average roll. Error: "
        "the equity the decision gave away against the best choice (normalised equity, EMG, "
        "cubeful), marked as GNU Backgammon marks it. Both by the engine at 0-ply, as GNU "
        "Backgammon's analysis.")


def _dice(match: ReplayedMatch) -> dict[str, Any]:
    """The dice tests of the match's rolls, over all of them (rows of group ``all``)."""
    audit = audit_dice(match)
    assert audit.rolls is not None  # audited from the match's rolls, not from counts
    frame = audit.sorted()
    rows = frame[frame["group"] == "all"][AUDIT_COLUMNS]
    return {"rolls": len(audit.rolls), "level": ALPHA,
            "rows": [{key: (None if value is None or isinstance(value, float) and np.isnan(value)
                            else value) for key, value in row.items()}
                     | {"about": ABOUT[row["test"]],
                        "flagged": bool(row["p_adjusted"] < ALPHA)}
                     for row in rows.to_dict("records")]}
