"""Skill: the equity each checker play and cube decision gave away, as GNU Backgammon's
analysis measures it at 0-ply, and its "Match statistics" per player.

Checker play. For every roll with more than one legal play (a roll with one is *forced* and
not counted) the error is the mover's cubeful equity after the play made minus that after
the best play, both at 0-ply (the engine's cubeless chances turned into cubeful equity as
below). Units: normalised equity (gnubg's "EMG": points per game at cube 1 in money play;
in match play the match-winning chance mapped linearly so that winning the cube's value is
+1 and losing it -1, :func:`~nardy_analysis.analysis.match_equity.match_utility`); ``error_mwc`` is
the same error as a change of match-winning chance (0..1). Marks
(:data:`~nardy_analysis.analysis.match_statistics.MARKS`): an error of at least 0.03 is
doubtful, 0.06 bad, 0.12 very bad.

Long nardy (RULES.md, "Long nardy") has no cube: its checker plays are measured the same
way by the long nardy engine (:class:`~nardy_analysis.analysis.long_engine.LongEvaluator`,
0-ply, under the match's rules, the head rule of each player's first turn included), in the
mover's cubeless money equity per game after the play (a single game 1 point, a mars 2, a
home mars 3 or as ``Rules.home_mars`` scores it), with the same marks; there is no cube
decision, no match-winning chance and no rating (gnubg's ratings and the FIBS rating fit
backgammon players' errors).

Cube decisions. Before each roll on which the roller may double (cube centred or theirs,
not the Crawford game, and in match play not already enough to win the match) the cubeful
0-ply equities of *no double* (ND), *double, take* (DT) and *double, pass* (DP = +1) are
computed, in single precision as GNU Backgammon computes them, and judged as its analysis
judges them (:func:`_cube_rows`): doubling is best when ``DT >= ND`` and ``DP >= ND``, and
is then worth DT if ``DP > DT``, else DP; otherwise no double is best. The doubler's error
is the equity of what was done (ND, or ``min(DT, DP)`` for a double) minus the best; the
taker's is ``-DT`` (take) or ``-DP`` (pass) minus ``-min(DT, DP)``. Categories as gnubg
names them (:data:`~nardy_analysis.analysis.match_statistics.CUBE_ERRORS`): a missed double
below the cash point or above it (``DT > 1``), a wrong double below the double point or
above the too-good point (``ND > 1``), a wrong take, a wrong pass. A decision is *close or
actual* when a double was given, or when the best equity is within :data:`CLOSE` of
``min(DT, 1)``. Where ND and DP are equal in exact numbers (a certain win without gammons)
the roundings of single precision decide, as they do for gnubg (``tests/data/skill/cube``).

Cubeful equity at 0-ply: Rick Janowski's formula with the cube life index, in match play
after Joern Thyssen, and two-sided bear-offs from their exact equities, as
:mod:`~nardy_analysis.analysis.cubeful` states them (its docstring gives the sources). With
them the equity of the play made and of the best play agree with gnubg's to 1e-4 for 2,641
of the 2,671 moves of the 14 real matches of tests/data/skill (``KNOWN_DIFFERENCES.tsv``
there lists the rest: float precision, and one crashed-class position).

At 2 plies (``skill_frame(..., ply=2)``, ``nardy skill --ply 2``), as GNU Backgammon's
"World class" analysis: each play within 0.16 of the 0-ply best (at most
:data:`FILTER_PLAYS`), then each further play whose 0-ply equity is above the lowest 2-ply
one so far, and the play made, are valued by a cubeful 2-ply search
(:class:`~nardy_analysis.analysis.search.CubefulSearch`: the roller's best play of each of
the 21 rolls by 0-ply cubeful equity among those gnubg's pruning nets keep, both players'
cube decisions at every ply, the deeper cube life indices), and so are the cube decisions;
the summary's luck stays gnubg's default, cubeful 0-ply. On the three matches of
tests/data/skill/ply2 every count and rating word of the statistics equals gnubg
1.1.0a16's, the checker error totals are within 0.001 EMG per player and the cube error
totals within 0.0002 (README.md there has the numbers).

The match statistics of :func:`skill_summary` (counts, error rates, marks, ratings, the FIBS
rating) are :mod:`~nardy_analysis.analysis.match_statistics`'s.
"""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING, Any, Callable, Iterator, NamedTuple, cast

import numpy as np
import pandas as pd

from ..errors import IllegalPlayError, InvalidArgument
from ..game.moves import ALL_ROLLS, Roll
from ..game.position import Position, play_steps
from ..game.rules import Rules
from ..notation.records import CubeRecord
from ..replay import ReplayedGame, ReplayedMatch, ReplayedTurn
from .cube_life import cube_efficiency, life_indices
from .cubeful import (
    CubeState,
    after_play_equities,
    chances_after_plays,
    cube_decision,
    cubeful_equities,
    normalised_cube_decision,
    position_chances,
)
from .engine import match_evaluator
from .evaluator import FILTER_WIDTH, Evaluator
from .gnubg import GnubgNN
from .luck import MARKS, OPENING_ROLLS, luck_adjusted, luck_mark, luck_rating, mean_equity
from .match_equity import game_results
from .match_statistics import (
    CUBE_COUNTS,
    CUBE_ERRORS,
    NO_RATING,
    fibs_rating_difference,
    long_nardy_statistics,
    move_mark,
    player_statistics,
)
from .search import CubefulSearch
from .turns import MatchId, Source, identified_matches

if TYPE_CHECKING:
    from .long_engine import LongEvaluator

__all__ = ["CLOSE", "DECISION_COLUMNS", "DECISION_DTYPES", "SUMMARY_COLUMNS", "CubeState",
           "cube_decision", "cube_efficiency", "cubeful_equities", "skill_frame",
           "skill_summary"]

CLOSE = 0.16
"""A cube decision is close when its best equity is within this of ``min(DT, 1)`` (EMG;
compared in single precision, as GNU Backgammon's ``isCloseCubedecision``)."""


# --- per-decision frame ---------------------------------------------------------------------

DECISION_COLUMNS = {
    "file": "the match file", "match_id": "as in the turns frame",
    "match_length": "points to win the match; 0 for money play",
    "game": "game number as written",
    "turn": "order of the roll in the game (dances included), as in the turns frame; for a "
            "cube decision the roll it came before (a double dropped: the number the game's "
            "next roll would have had, one after its last)",
    "kind": "'move' (checker play), 'double' (the roller's cube decision) or 'take'",
    "player": "the deciding player's name", "side": "their column: 0 left, 1 right",
    "dice": "the roll (moves); '' for cube decisions",
    "cube_value": "cube value before the decision; null in long nardy (no cube)",
    "plays": "legal plays of the roll (moves; 1: forced)",
    "play": "the play made in notation, or 'no double', 'double', 'take', 'pass'",
    "best": "the best play in notation, or the best cube action",
    "equity": "normalised cubeful equity of what was done (EMG)",
    "best_equity": "that of the best choice (EMG)",
    "error": "equity - best_equity (<= 0, EMG)",
    "error_mwc": "the error as a change of match-winning chance (0..1); NaN in money play",
    "mark": "moves: doubtful, bad, very bad or ''",
    "category": "cube: one of CUBE_ERRORS' keys, or ''",
    "close": "cube: a close or actual decision (counted by gnubg)",
}
"""The columns of :func:`skill_frame`; ``file``, ``match_id``, ``game`` and ``turn`` are
the keys of the turns and luck frames."""

DECISION_DTYPES = {
    "file": "object", "match_id": "object", "match_length": "int64", "game": "int64",
    "turn": "Int64", "kind": "object", "player": "object", "side": "int64", "dice": "object",
    "cube_value": "Int64", "plays": "Int64", "play": "object", "best": "object",
    "equity": "float64", "best_equity": "float64", "error": "float64", "error_mwc": "float64",
    "mark": "object", "category": "object", "close": "bool",
}
"""The pandas dtypes of the columns of :func:`skill_frame` (``object``: text), also for a
frame without decisions, and of every part of a Parquet dataset of them."""


def _state(match: ReplayedMatch, game: ReplayedGame, side: int, cube: int, owner: int | None,
           jacoby: bool) -> CubeState:
    length, scores = match.record.length, game.scores
    relative = None if owner is None else int(owner != side)
    return CubeState(length, length - scores[side], length - scores[1 - side], cube, relative,
                     game.crawford, game.post_crawford, jacoby, match.rules.cube)


def _play_name(evaluator: Evaluator, position: Position, roll: Roll, key: Any,
               rules: Rules) -> str:
    """The notation of the play ``key`` (of ``evaluator.plays(position, roll)``); gnubg-nn
    names its steps, faster than listing the legal plays."""
    after = evaluator.position_after(key, position.turn)
    if isinstance(evaluator, GnubgNN):
        steps = [(start, start - end) for start, end in evaluator.play_moves(position, roll, key)]
        try:
            reached, play = play_steps(position, steps, rules)
        except IllegalPlayError:
            reached = None
        if reached == after:
            return str(play)
    first = ({"first_turn": cast("LongEvaluator", evaluator).first_turn(position)}
             if rules.game == "long" else {})
    for legal in position.legal_plays(roll, rules, **first):
        if legal.after == after:
            return str(legal.play)
    return "?"


class _Rows(NamedTuple):
    """Positions to value under one cube state: the chances of the player on roll in each
    and the cube life index of each."""

    state: CubeState
    chances: np.ndarray
    """Shape (k, 5), or (k, 9) with a two-sided bear-off's exact equities."""
    life: np.ndarray
    """Shape (k,)."""


def _by_state(items: list[_Rows], compute: Callable[[np.ndarray, CubeState, np.ndarray], Any],
              best: bool = False) -> list[Any]:
    """``compute(chances, state, x)`` for each item, made once per distinct state on the
    items' rows stacked (:func:`_stacked`; a match has few states and many decisions): each
    item's slice of the result, its rows on the last axis; with ``best``, the largest value
    of each item's slice (a float; ``compute`` giving one value per row)."""
    groups: dict[CubeState, list[int]] = {}
    for index, item in enumerate(items):
        groups.setdefault(item.state, []).append(index)
    found: list[Any] = [None] * len(items)
    for state, members in groups.items():
        values = np.asarray(compute(_stacked([items[i].chances for i in members]), state,
                                    np.concatenate([items[i].life for i in members])))
        ends = np.cumsum([len(items[i].chances) for i in members])
        starts = np.concatenate([[0], ends[:-1]])
        if best:
            for index, value in zip(members, np.maximum.reduceat(values, starts).tolist()):
                found[index] = value
            continue
        for index, start, end in zip(members, starts, ends):
            found[index] = values[..., start:end]
    return found


def _stacked(arrays: list[np.ndarray]) -> np.ndarray:
    """The rows of ``arrays`` (chances (k, 5), or (k, 9) with a bear-off's exact equities)
    in one array, 9 columns (NaN where a part had 5) when any part has 9."""
    width = max(part.shape[1] for part in arrays)
    stacked = np.full((sum(len(part) for part in arrays), width), np.nan)
    start = 0
    for part in arrays:
        stacked[start:start + len(part), :part.shape[1]] = part
        start += len(part)
    return stacked



def _move_row(evaluator: Evaluator, match: ReplayedMatch, turn: ReplayedTurn,
              keys: tuple[Any, ...], equities: np.ndarray) -> dict[str, Any] | None:
    """A checker play's row from the mover's cubeful ``equities`` after each of its plays
    ``keys`` (none: a dance); None when the play made is not among them."""
    if not keys:
        return {"kind": "move", "dice": str(turn.roll), "plays": 1, "play": str(turn.play),
                "best": str(turn.play), "equity": np.nan, "best_equity": np.nan,
                "error": 0.0, "mark": "", "category": "", "close": False}
    best = int(np.argmax(equities))
    played = evaluator.play_index(keys, cast(Position, turn.after), turn.player)
    if played is None:
        return None
    error = float(equities[played] - equities[best])
    name = str(turn.play) if played == best else _play_name(
        evaluator, turn.before, turn.roll, keys[best], match.rules)
    return {"kind": "move", "dice": str(turn.roll), "plays": len(keys),
            "play": str(turn.play), "best": name,
            "equity": float(equities[played]), "best_equity": float(equities[best]),
            "error": error, "mark": move_mark(error) if len(keys) > 1 else "",
            "category": "", "close": False}


def _cube_rows(nd: float, dt: float, dp: float, doubled: bool,
               response: str | None) -> list[dict[str, Any]]:
    """The roller's cube decision from its normalised ND, DT, DP (and, when doubled, the
    opponent's take or pass: ``response``), judged as GNU Backgammon's analysis.c and eval.c
    judge it (``FindBestCubeDecision``, ``isCloseCubedecision``, ``updateStatcontext``; read,
    not copied): doubling is best when ``DT >= ND`` and ``DP >= ND``, its equity DT when
    ``DP > DT`` else DP; a double is wrong when ``min(DT, DP)`` is below the best, above the
    too-good point when ``ND > 1``; no double is a missed double when ND is below the best,
    above the cash point when ``DT > 1``; close when the best is within :data:`CLOSE` of
    ``min(DT, 1)`` (a double is always counted); a take is wrong when ``-DT < -DP``, a pass
    when ``-DP < -DT``."""
    should = dt >= nd and dp >= nd
    best = (dt if dp > dt else dp) if should else nd
    done = (dt if dt < dp else dp) if doubled else nd
    category = ""
    if done < best:
        category = (("wrong_double_above_tg" if nd > 1.0 else "wrong_double_below_dp")
                    if doubled else
                    ("missed_double_above_cp" if dt > 1.0 else "missed_double_below_cp"))
    rows = [{"kind": "double", "play": "double" if doubled else "no double",
             "best": "double" if should else "no double", "equity": done,
             "best_equity": best, "error": done - best, "category": category,
             "close": doubled or bool(np.float32(best) - np.float32(min(dt, 1.0))
                                      < np.float32(CLOSE))}]
    if doubled and response is not None:
        took = response == "take"
        done, best = (-dt if took else -dp), max(-dt, -dp)
        rows.append({"kind": "take", "play": "take" if took else "pass",
                     "best": "take" if -dt >= -dp else "pass", "equity": done,
                     "best_equity": best, "error": done - best,
                     "category": ("wrong_take" if took else "wrong_pass") if done < best
                     else "", "close": True})
    return rows


def _uses_jacoby(match: ReplayedMatch) -> bool:
    """Money play under the Jacoby rule: as the file's ``Jacoby`` tag says, else on (GNU
    Backgammon's default when it imports a money session)."""
    return match.rules.jacoby or "Jacoby" not in match.record.tags


class _CubeDecision(NamedTuple):
    """A roller's cube decision before a roll, before its equities."""

    game: ReplayedGame
    position: Position
    """Before the roll, the roller on roll."""
    state: CubeState
    """The roller's; the decision counts when they may double."""
    side: int
    """The roller's."""
    doubled: bool
    turn: int
    """The roll's order in the game (a double dropped: the number the next roll would
    have had)."""
    response: str | None
    """The opponent's answer to a double: ``take``, ``drop``, or None."""


class _MoveDecision(NamedTuple):
    """A checker play, before its equities."""

    game: ReplayedGame
    turn: ReplayedTurn
    state: CubeState
    """The mover's."""
    number: int
    """The roll's order in the game."""


def _match_decisions(match: ReplayedMatch) -> Iterator[_CubeDecision | _MoveDecision]:
    """The decisions of one match, in order, before their equities: each roll's cube
    decision, then its play."""
    jacoby = _uses_jacoby(match)
    for game in match.games:
        turns = {id(turn.record): (number, turn) for number, turn in enumerate(game.turns, 1)}
        after, cube, owner, doubler, number = None, 1, None, None, 0
        for action in game.record.actions:
            if isinstance(action, CubeRecord):
                if action.action == "double":
                    doubler = action.player
                elif action.action == "drop" and after is not None and doubler is not None:
                    yield _CubeDecision(game, after, _state(match, game, doubler, cube, owner,
                                                            jacoby), doubler, True, number + 1,
                                        "drop")
                continue
            if id(action) not in turns:
                break  # not replayed: the rest of the game broke a rule
            number, turn = turns[id(action)]
            side = turn.player
            if after is not None and turn.record.moves is not None:  # gnubg: none before ???
                yield _CubeDecision(game, turn.before,
                                    _state(match, game, side, cube, owner, jacoby), side,
                                    doubler == side, number,
                                    "take" if doubler == side else None)
            doubler, after, cube, owner = None, turn.after, turn.cube_value, turn.cube_owner
            if after is None:
                break  # an unknown play ends the game's analysis
            yield _MoveDecision(game, turn, _state(match, game, side, cube, owner, jacoby),
                                number)



FILTER_PLAYS = 8
"""The move filter of an analysis at more than 0 plies (GNU Backgammon's "Normal" filter, that
of its "World class" preset): the plays within the engine's ``FILTER_WIDTH`` (0.16 EMG) of
the 0-ply best, at most this many in all, are evaluated again at the analysis' ply."""
RETRY = 0.03
"""When the filter keeps one play only and the play made is worse than it by more than this
at 0-ply (gnubg's doubtful mark), both are evaluated again at the analysis' ply."""


def _searched(search: CubefulSearch, evaluator: Evaluator, turn: ReplayedTurn,
              keys: tuple[Any, ...], shallow: np.ndarray, state: CubeState) -> np.ndarray:
    """The mover's equity after each play as GNU Backgammon's analysis at ``search.plies``
    has it (eval.c, ``FindnSaveBestMoves``, read, not copied; the rule that extends the
    filter measured from gnubg 1.1.0a16's analyses): from the 0-ply equities ``shallow``
    (deep cube life indices), the plays the move filter keeps (:data:`FILTER_PLAYS`) valued
    at ``search.plies``, then, in 0-ply order, each further play
    whose 0-ply equity is above the lowest of those so far, and the play made; ``-inf`` for
    the plays not valued again. When the filter keeps one play only, the 0-ply equities
    stand, unless the play made is worse than it by more than :data:`RETRY`: both are then
    valued again."""
    order = np.argsort(-shallow, kind="stable")
    kept = [int(i) for i in order[:FILTER_PLAYS] if shallow[i] >= shallow[order[0]] - FILTER_WIDTH]
    played = evaluator.play_index(keys, cast(Position, turn.after), turn.player)
    if played is None:
        return shallow
    if len(kept) == 1 and (played == kept[0] or shallow[kept[0]] - shallow[played] <= RETRY):
        return shallow
    deep = np.full(len(keys), -np.inf)

    def value(*indices: int) -> None:
        deep[list(indices)] = search.after_plays(
            [evaluator.position_after(keys[index], turn.player) for index in indices], state)

    value(*(kept if len(kept) > 1 else dict.fromkeys((kept[0], played))))
    if len(kept) > 1:
        for index in order[len(kept):]:
            if shallow[index] <= deep[deep > -np.inf].min():
                break
            value(int(index))
        if deep[played] == -np.inf:
            value(played)
    return deep


def _match_rows(evaluator: Evaluator, match_id: MatchId, match: ReplayedMatch,
                ply: int = 0) -> list[dict[str, Any]]:
    """The decisions of one match, in order (:func:`_match_decisions`), with their errors;
    the cubeful equities (without the cube: cubeless) computed in one batch per cube state;
    at ``ply`` > 0 as GNU Backgammon's analysis at that ply (:class:`CubefulSearch`,
    :func:`_searched`)."""
    decisions = [d for d in _match_decisions(match)
                 if isinstance(d, _MoveDecision) or d.state.may_double]
    plays, moves, cubes = [], [], []
    for decision in decisions:
        state = decision.state
        if isinstance(decision, _MoveDecision):
            turn = decision.turn
            keys, chances = evaluator.plays(turn.before, turn.roll)
            plays.append((turn.before, turn.roll, keys))
            moves.append((state, chances_after_plays(evaluator, turn.before, keys, chances)))
        else:
            position = decision.position
            cubes.append(_Rows(state, np.array([position_chances(evaluator, position)]),
                               np.array([cube_efficiency(position)])))
    batches = [_Rows(state, chances, x) for (state, chances), x in
               zip(moves, life_indices(evaluator, plays, match.rules.cube, deep=ply >= 2))]
    keys_of = iter(keys for _, _, keys in plays)
    equities = iter(_by_state(batches, after_play_equities))
    search = CubefulSearch(evaluator, ply) if ply else None
    values = iter(_by_state(cubes, normalised_cube_decision) if search is None else ())
    names, rows = match.record.players, []
    for decision in decisions:
        state = decision.state
        base = {"file": match.record.file, "match_id": match_id,
                "match_length": match.record.length, "game": decision.game.number,
                "cube_value": state.cube if state.cubeful else pd.NA}
        if isinstance(decision, _MoveDecision):
            turn, keys, found = decision.turn, next(keys_of), next(equities)
            if search is not None and len(keys) > 1:
                found = _searched(search, evaluator, turn, keys, found, state)
            row = _move_row(evaluator, match, turn, keys, found)
            if row is not None:
                rows.append(base | row | {"turn": decision.number, "player": names[turn.player],
                                          "side": turn.player,
                                          "error_mwc": row["error"] * state.mwc_scale()})
            continue
        side = decision.side
        nd, dt, dp = ((float(value[0]) for value in next(values)) if search is None else
                      search.cube_decision(decision.position, state))
        for row in _cube_rows(nd, dt, dp, decision.doubled, decision.response):
            decider = side if row["kind"] == "double" else 1 - side
            rows.append(base | row | {"turn": decision.turn, "player": names[decider],
                                      "side": decider, "dice": "", "plays": pd.NA,
                                      "mark": "", "error_mwc": row["error"] * state.mwc_scale()})
    return rows


def _best_after(evaluator: Evaluator, listed: list[tuple[Position, Roll, CubeState]]
                ) -> list[float]:
    """The mover's normalised cubeful 0-ply equity after the best play of each ``(position,
    roll, state)`` of ``listed`` (after a dance: the position with the opponent on roll),
    the equities of all plays computed in one array per cube state (:func:`_by_state`)."""
    found = [evaluator.plays(position, roll) for position, roll, _ in listed]
    cubeful = all(state.cubeful for _, _, state in listed)
    lives = iter(life_indices(evaluator, [(position, roll, keys) for (position, roll, _),
                                           (keys, _) in zip(listed, found) if keys], cubeful))
    items = []
    for (position, _, state), (keys, after) in zip(listed, found):
        if keys:
            items.append(_Rows(state, chances_after_plays(evaluator, position, keys, after),
                               next(lives)))
        else:
            dance = position.with_turn(1 - position.turn)
            items.append(_Rows(state, position_chances(evaluator, dance)[None],
                               np.array([cube_efficiency(dance) if cubeful else 0.0])))
    return _by_state(items, after_play_equities, best=True)


def _cubeful_luck(evaluator: Evaluator, match: ReplayedMatch) -> list[tuple[int, float, float]]:
    """``(side, luck, luck in MWC or points)`` of each roll of ``match``: GNU Backgammon's
    cubeful 0-ply luck (its default; analysis.c, ``LuckNormal`` and ``LuckFirst``), the
    roller's best cubeful equity after the roll (EMG) minus its mean over the 36 throws; for
    the opening roll of standard rules over the 30 throws of two different dice, each played
    by the player whose die is higher (the opponent's equity negated). MWC: luck times
    :meth:`CubeState.mwc_scale`; points (money play): luck times the cube. Without the cube
    (long nardy) the same with cubeless money equity: the luck of :mod:`luck`, in points
    per game, in a match to a length too (no match equity table for long nardy)."""
    jacoby, turns, listed = _uses_jacoby(match), [], []
    for decision in _match_decisions(match):
        if not isinstance(decision, _MoveDecision):
            continue
        game, turn, state, number = decision.game, decision.turn, decision.state, decision.number
        side, position = turn.player, turn.before
        listed += [(position, roll, state) for roll in ALL_ROLLS]
        opening = number == 1 and not match.rules.opening_doubles
        if opening:
            owner = None if state.owner is None else (side if state.owner == 0 else 1 - side)
            theirs = _state(match, game, 1 - side, state.cube, owner, jacoby)
            listed += [(position.with_turn(1 - side), roll, theirs) for roll in OPENING_ROLLS]
        turns.append((side, turn.roll, state, opening))
    best, rows = iter(_best_after(evaluator, listed)), []
    for side, roll, state, opening in turns:
        mine = [next(best) for _ in ALL_ROLLS]
        mean = mean_equity(mine, [next(best) for _ in OPENING_ROLLS] if opening else None)
        luck = mine[ALL_ROLLS.index(roll)] - mean
        per_game = not state.length or not state.cubeful
        rows.append((side, luck, luck * (state.cube if per_game else state.mwc_scale())))
    return rows


SUMMARY_COLUMNS = {
    "file": "the match file", "match_id": "as in the decision frame",
    "match_length": "points; 0 money play", "player": "name", "side": "0 left, 1 right",
    "total_moves": "rolls thrown (gnubg's 'Total moves', dances and forced plays included)",
    "unforced_moves": "rolls with more than one legal play",
    "unmarked_moves": "total_moves minus the marked ones",
    "marked_doubtful": "checker plays marked doubtful", "marked_bad": "marked bad",
    "marked_very_bad": "marked very bad",
    "checker_error_emg": "gnubg's chequerplay 'Error total EMG' (<= 0)",
    "checker_error_mwc": "the same in match-winning chance (0..1; NaN money play)",
    "checker_error_rate_memg": "thousandths of EMG per unforced move",
    "checker_rating": "gnubg's 'Chequerplay rating' (RATINGS)",
    "cube_decisions": "gnubg's 'Total cube decisions' (the player's doubling chances and "
                      "doubles to take or pass)",
    "close_cube_decisions": "'Close or actual cube decisions'",
    "doubles": "doubles given", "takes": "doubles taken", "passes": "doubles passed",
    **{f"{key}{suffix}": f"'{name}' {what}" for key, name in CUBE_ERRORS.items()
       for suffix, what in (("", "count"), ("_emg", "cost, EMG"))},
    "cube_error_emg": "gnubg's cube 'Error total EMG' (<= 0)",
    "cube_error_mwc": "the same in match-winning chance (NaN money play)",
    "cube_error_rate_memg": "thousandths of EMG per close or actual cube decision",
    "cube_rating": "gnubg's 'Cube decision rating'",
    "overall_error_emg": "checker plus cube error, EMG",
    "overall_error_rate_memg": "thousandths of EMG per unforced move or close cube decision",
    "snowie_error_rate": "thousandths of EMG per move of both players (gnubg's 'Snowie error "
                         "rate')",
    "overall_rating": "gnubg's 'Overall rating'",
    "luck_emg": "the player's dice luck, EMG (gnubg's 'Luck total EMG' of its default, "
                "cubeful 0-ply luck analysis; nardy luck is the cubeless one)",
    "luck_rate_memg": "thousandths of EMG per roll",
    **{mark.replace(" ", "_"): f"rolls marked {mark} (gnubg's thresholds on the same luck)"
       for mark in MARKS},
    "luck_rating": "gnubg's 'Luck rating' of luck_rate_memg (its words; n/a without rolls)",
    "actual_result": "MWC after minus MWC before (match play) or points won",
    "luck_adjusted_result": "actual result minus own luck plus the opponent's",
    "fibs_rating_difference": "match play, side 0: the FIBS rating difference the "
                              "luck-adjusted result implies ('Luck based FIBS rating diff.')",
    "fibs_rating": "match play: 2050 minus the two rating losses ('Error based abs. FIBS "
                   "rating')",
    "checker_rating_loss": "match play: chequerplay error rate times 8798 + 25526 / n (NaN "
                           "without an unforced move: gnubg's n/a)",
    "cube_rating_loss": "match play: cube error rate times 863 - 519 / n (NaN without a "
                        "close cube decision: gnubg's n/a)",
}
"""The columns of :func:`skill_summary`: gnubg's "Match statistics", player by player."""


def skill_summary(source: Source, frame: pd.DataFrame | None = None,
                  evaluator: Evaluator | None = None) -> pd.DataFrame:
    """GNU Backgammon's "Match statistics" per player per match.

    Parameters
    ----------
    source : ReplayedMatch or LoadedFile, or an iterable of them
        As for :func:`skill_frame`; the results and luck come from here.
    frame : pandas.DataFrame, optional
        The :func:`skill_frame` of ``source`` (the same matches in order), if computed.
    evaluator : Evaluator, optional
        As for :func:`skill_frame` (also used for the luck).

    Returns
    -------
    pandas.DataFrame
        Columns :data:`SUMMARY_COLUMNS`, two rows (side 0, side 1) per match. Rates are 0 and
        ratings :data:`~nardy_analysis.analysis.match_statistics.NO_RATING` when nothing was
        counted (as gnubg prints them). ``actual_result`` and ``luck_adjusted_result`` are in
        match-winning chance (0..1) or points, as in
        :func:`~nardy_analysis.analysis.luck.luck_summary`. The luck is GNU Backgammon's default
        for its match statistics, cubeful 0-ply luck (each throw valued by the roller's cubeful
        equity after its best play, as the checker plays are), not the cubeless luck of
        :func:`~nardy_analysis.analysis.luck.luck_summary`; the luck-adjusted result (actual result
        minus own luck plus the opponent's, in MWC or points) and the FIBS rating difference follow
        from it. Long nardy (no cube): the luck is that of cubeless money equity and the results
        are points per game, in a match to a length too (the luck-adjusted result that of ``nardy
        luck``); the cube's columns, the checker-play MWC and the FIBS ratings are NaN (counts NA,
        the cube rating None) and the checker and overall ratings
        :data:`~nardy_analysis.analysis.match_statistics.NO_RATING`: gnubg's scale rates backgammon
        players' error rates, and none is measured for long nardy.
    """
    matches = list(identified_matches(source))
    if frame is None:
        frame = skill_frame([m for _, m in matches], evaluator)
    rows = []
    for match_id, match in matches:
        engine, long = match_evaluator(match.rules, evaluator), match.rules.game == "long"
        decisions = frame[(frame["match_id"].fillna("") == (match_id or ""))
                          & (frame["file"].fillna("") == (match.record.file or ""))]
        length = match.record.length
        all_moves = int((decisions["kind"] == "move").sum())
        lucks = pd.DataFrame(_cubeful_luck(engine, match), columns=["side", "luck", "unit"])
        totals = [float(lucks.loc[lucks["side"] == side, "unit"].sum(skipna=False))
                  for side in (0, 1)]
        results = game_results(match)
        for side in (0, 1):
            mine = lucks[lucks["side"] == side]
            rate = float(mine["luck"].mean()) if len(mine) else float("nan")
            marks = mine["luck"].map(luck_mark).value_counts()
            result = float(sum(r[side] for r in results)) if results else float("nan")
            row = {"file": match.record.file, "match_id": match_id, "match_length": length,
                   "player": match.record.players[side], "side": side,
                   **(long_nardy_statistics if long else dict)(
                       player_statistics(decisions, side, all_moves, length)),
                   "luck_emg": float(mine["luck"].sum()),
                   "luck_rate_memg": 1000 * rate,
                   **{m.replace(" ", "_"): int(marks.get(m, 0)) for m in MARKS},
                   "luck_rating": luck_rating(rate) if len(mine) else NO_RATING,
                   "actual_result": result,
                   "luck_adjusted_result": luck_adjusted(result, totals, side)}
            row["fibs_rating_difference"] = (
                fibs_rating_difference(row["luck_adjusted_result"], length)
                if length and side == 0 else float("nan"))
            rows.append(row)
    return pd.DataFrame(rows, columns=list(SUMMARY_COLUMNS)).astype(
        dict.fromkeys(CUBE_COUNTS, "Int64"))


def skill_frame(source: Source, evaluator: Evaluator | None = None,
                ply: int = 0) -> pd.DataFrame:
    """Every checker play and cube decision of one or more matches, with its error.

    Parameters
    ----------
    source : ReplayedMatch or LoadedFile, or an iterable of them
        Replayed matches, or files loaded with :func:`nardy_analysis.load.load_files`.
    evaluator : Evaluator, optional
        The engine for every match. Default: each match's game's
        (:func:`~nardy_analysis.analysis.engine.default_evaluator` at 0-ply: gnubg-nn for
        short nardy, whose cubeless chances are made cubeful as in the module docstring;
        the long nardy engine under the match's rules for long nardy, cubeless).
    ply : int
        0 (GNU Backgammon's "Expert" analysis), or 2 (its "World class" one: the module
        docstring, "At 2 plies"; short nardy only), or 1 (the same at 1 ply).

    Returns
    -------
    pandas.DataFrame
        Columns :data:`DECISION_COLUMNS` of :data:`DECISION_DTYPES`, one row per decision in
        match order (each roll's cube decision, when the roller could double, then its
        play; a dance is a forced move; an unknown ``???`` play has no row and ends the
        game's analysis). Long nardy: checker plays only, ``cube_value`` null and
        ``error_mwc`` NaN (no cube; the equity is money equity per game).

    Raises
    ------
    EngineError
        No engine installed for a short nardy match: ``pip install nardy-analysis[engine]``.
    NardyError
        A short nardy match longer than 25 points.
    InvalidArgument
        ``ply`` is not 0, 1 or 2, or more than 0 for a long nardy match.
    """
    if ply not in (0, 1, 2):
        raise InvalidArgument(f"skill is measured at 0, 1 or 2 plies, got {ply!r}")
    rows, collecting = [], gc.isenabled()
    if ply:  # a search makes millions of short-lived objects, no cycles: 30% of the time
        gc.disable()  # goes to the cyclic garbage collector's passes over them
    try:
        for match_id, match in identified_matches(source):
            if ply and not match.rules.cube:
                raise InvalidArgument(f"skill at {ply} {'ply' if ply == 1 else 'plies'} is for "
                                      f"short nardy; the match {match_id!r} is long nardy "
                                      f"(rules {match.rules.name!r}): analyse it at 0 plies")
            rows += _match_rows(match_evaluator(match.rules, evaluator), match_id, match, ply)
    finally:
        if collecting:
            gc.enable()
    return pd.DataFrame(rows, columns=list(DECISION_COLUMNS)).astype(DECISION_DTYPES)
