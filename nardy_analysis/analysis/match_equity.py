"""Match equity: what a score is worth, as GNU Backgammon counts it.

The match-winning chance (MWC) at the start of a game is read from the Kazaross-XG2 match
equity table, GNU Backgammon's default (:func:`match_winning_chance`; its copyright notice
below, with the table). GNU Backgammon's normalised match equity maps MWC linearly so that
winning the cube's value in points is +1 and losing it -1: ``(2 MWC - W - L) / (W - L)``,
``W`` and ``L`` the MWC after winning and losing the cube (:func:`match_utility`,
:meth:`~nardy_analysis.analysis.cubeful.CubeState.normalise`). A game's actual result is
the MWC after it minus the MWC before (match play) or the points won (money play, long
nardy): :func:`game_results`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import NardyError
from ..game.rules import Rules
from ..replay import ReplayedGame, ReplayedMatch
from .evaluator import Utility

__all__ = ["MET_LENGTH", "GameSituation", "game_results", "match_utility",
           "match_winning_chance", "per_game_equity"]

# Kazaross-XG2 match equity table: the match-winning chance of the player who needs ``i``
# points against ``j`` (i < j), row by row (i = 1..24, j = i+1..25), pre-Crawford (the row of
# 1-away is the Crawford game); the table is antisymmetric: MWC(j, i) = 1 - MWC(i, j).
# "Copyright (C) 2011 Neil Kazaross. Table rolled up to 9 point match by eXtreme Gammon. Then
# uses R/K MET which was rolled up to 15 and extrapolated to 25 points. Transcribed for use by
# GNUbg by Michael Petch. Copying and distribution of this file, with or without modification,
# are permitted in any medium without royalty provided the copyright notice and this notice
# are preserved. This file is offered as-is, without any warranty."
_PRE_CRAWFORD = """
.67736 .75076 .81436 .84179 .88731 .90724 .93250 .94402 .959275 .966442 .975534 .979845
.985273 .987893 .99114 .99273 .99467 .99563 .99679 .99737 .99807 .99842 .99884 .99905 .59947
.66870 .74359 .79940 .84225 .87539 .90197 .923034 .939311 .952470 .962495 .970701 .976887
.98196 .98580 .98893 .99129 .99322 .99466 .99585 .99675 .99746 .99802 .57150 .64795 .71123
.76209 .80468 .84017 .870638 .894417 .914831 .930702 .944426 .954931 .96399 .97093 .97687
.98139 .98522 .98814 .99062 .99248 .99407 .99527 .57732 .64285 .69924 .74577 .78799 .824059
.853955 .879141 .900233 .918040 .932657 .94495 .95499 .96341 .97021 .97589 .98044 .98422
.98726 .98975 .99174 .56635 .62638 .67786 .72540 .767055 .802732 .833654 .859934 .882866
.902013 .91847 .93223 .94397 .95367 .96189 .96864 .97432 .97896 .98283 .98600 .56261 .61636
.66787 .713057 .753427 .788634 .819569 .846648 .869999 .89021 .90756 .92246 .93508 .94583
.95488 .96254 .96894 .97432 .97879 .55480 .60854 .656283 .700209 .739054 .774121 .805203
.832566 .85659 .87761 .89591 .91171 .92535 .93702 .94703 .95553 .96276 .96887 .55442 .603718
.649899 .691356 .729447 .763593 .794397 .82158 .84578 .86714 .88589 .90230 .91658 .92898
.93968 .94891 .95682 .550196 .597926 .641481 .682119 .718927 .752814 .78301 .81037 .83483
.85662 .87591 .89294 .90791 .92098 .93240 .94230 .548547 .593459 .635880 .674830 .711113
.74371 .77375 .80093 .82543 .84741 .86703 .88448 .89991 .91353 .92550 .545552 .589242
.629736 .667927 .70303 .73530 .76494 .79198 .81648 .83862 .85849 .87629 .89214 .90622
.544068 .585701 .625259 .66178 .69610 .72778 .75703 .78381 .80826 .83044 .85051 .86856
.88476 .541943 .582545 .62036 .65619 .68966 .72081 .74963 .77619 .80054 .82276 .84295 .86123
.540750 .57942 .61634 .65117 .68391 .71448 .74290 .76917 .79339 .81559 .83586 .53916 .57679
.61261 .64659 .67859 .70862 .73664 .76265 .78669 .80883 .53796 .57441 .60929 .64241 .67376
.70323 .73084 .75657 .78046 .53676 .57222 .60618 .63856 .66925 .69822 .72542 .75087 .53574
.57023 .60336 .63501 .66510 .69356 .72038 .53475 .56838 .60073 .63171 .66122 .68921 .53387
.56667 .59830 .62864 .65760 .53303 .56508 .59603 .62576 .53226 .56360 .59391 .53153 .56221
.53086
"""
# Post-Crawford: the match-winning chance of the trailer who needs 1..25 points when the
# leader needs 1 (same source and notice).
_POST_CRAWFORD = """
.500000 .48803 .32264 .31002 .19012 .18072 .11559 .10906 .06953 .065161 .042069 .039060
.025371 .023428 .015304 .014050 .009240 .008420 .005560 .005050 .003360 .003030 .002030
.001820 .001230
"""
MET_LENGTH = 25
"""The longest match the table covers (points)."""


def _met() -> tuple[list[list[float]], list[float]]:
    upper = iter(float(v) for v in _PRE_CRAWFORD.split())
    table = [[0.5] * MET_LENGTH for _ in range(MET_LENGTH)]
    for i in range(MET_LENGTH):
        for j in range(i + 1, MET_LENGTH):
            table[i][j] = next(upper)
            table[j][i] = 1.0 - table[i][j]
    return table, [float(v) for v in _POST_CRAWFORD.split()]


_TABLE, _POST = _met()


def match_winning_chance(away: int, opponent_away: int, post_crawford: bool = False) -> float:
    """A player's chance (0..1) of winning the match, at the start of a game.

    Parameters
    ----------
    away, opponent_away : int
        Points the player and the opponent still need (<= 0: that player has won).
    post_crawford : bool
        The Crawford game has been played: with a player 1 away the post-Crawford table
        applies (without it, 1-away rows are the Crawford game's values).

    Returns
    -------
    float
        From the Kazaross-XG2 table, GNU Backgammon's default match equity table.

    Raises
    ------
    NardyError
        More than 25 points away (beyond the table).
    """
    if away <= 0:
        return 1.0
    if opponent_away <= 0:
        return 0.0
    if away > MET_LENGTH or opponent_away > MET_LENGTH:
        raise NardyError(f"the match equity table stops at {MET_LENGTH} points away, got "
                         f"{away} and {opponent_away}")
    if post_crawford and away == 1:
        return 1.0 - _POST[opponent_away - 1]
    if post_crawford and opponent_away == 1:
        return _POST[away - 1]
    return _TABLE[away - 1][opponent_away - 1]


def _mwc_after(length: int, score: int, opponent_score: int, points: int,
               post_crawford: bool) -> float:
    """The match-winning chance of the player with ``score`` after winning ``points``
    (losing them, if negative)."""
    return match_winning_chance(length - score - max(points, 0),
                                length - opponent_score + min(points, 0), post_crawford)


def _multiples(rules: Rules | None) -> tuple[int, int]:
    """Points (in cubes) of a gammon and a backgammon under ``rules``."""
    gammon = 2 if rules is None or rules.gammons else 1
    return gammon, (3 if rules is None or rules.backgammons else gammon)


def match_utility(length: int, score: int, opponent_score: int, cube: int = 1,
                  crawford: bool = False, post_crawford: bool = False,
                  rules: Rules | None = None) -> Utility:
    """GNU Backgammon's normalised cubeless match equity for one player, as a Utility.

    Each outcome (win or lose a single game, gammon or backgammon at the cube's value) is
    worth the match-winning chance after it, ``MWC``; normalised equity maps ``MWC`` linearly
    so that winning ``cube`` points is +1 and losing them -1:
    ``(2 MWC - W - L) / (W - L)``, ``W`` and ``L`` the MWC after a single win and loss.

    Parameters
    ----------
    length : int
        Match length in points; 0 is money play (:data:`~nardy_analysis.analysis.evaluator.MONEY`).
    score, opponent_score : int
        Points of the player and the opponent before the game.
    cube : int
        Cube value.
    crawford, post_crawford : bool
        This game is the Crawford game; the Crawford game has been played.
    rules : Rules, optional
        Without gammons (or backgammons) they count as single games (gammons).

    Raises
    ------
    NardyError
        A score beyond the 25-point table.
    """
    gammon, backgammon = _multiples(rules)
    if length == 0:
        return Utility(-1.0, 2.0, gammon - 1.0, backgammon - gammon, 1.0 - gammon,
                       gammon - backgammon)
    after = crawford or post_crawford  # the next game is post-Crawford if anyone is 1 away
    win = _mwc_after(length, score, opponent_score, cube, after)
    lose = _mwc_after(length, score, opponent_score, -cube, after)

    def eq(points: int) -> float:
        mwc = _mwc_after(length, score, opponent_score, points, after)
        return (2.0 * mwc - win - lose) / (win - lose)

    e = {k: eq(k * cube) for k in (1, gammon, backgammon, -1, -gammon, -backgammon)}
    return Utility(e[-1], e[1] - e[-1], e[gammon] - e[1], e[backgammon] - e[gammon],
                   e[-gammon] - e[-1], e[-backgammon] - e[-gammon])


def per_game_equity(match: ReplayedMatch) -> bool:
    """Whether ``match``'s equity is counted per game, in points, not in match equity.

    Parameters
    ----------
    match : ReplayedMatch

    Returns
    -------
    bool
        True in money play, and in long nardy (no cube, so no match equity normalised by
        it; RULES.md, "Long nardy").
    """
    return match.record.length == 0 or match.rules.game == "long"


@dataclass(frozen=True, slots=True)
class GameSituation:
    """The match situation of one game: utilities and MWC per side and cube value.

    Parameters
    ----------
    length : int
        Match length in points; 0 when :func:`per_game_equity` (money equity).
    scores : tuple of int
        Points of side 0 and side 1 before the game.
    crawford, post_crawford : bool
        This game is the Crawford game; the Crawford game has been played.
    rules : Rules
        The match's rules (which outcomes count as gammons and backgammons).
    """

    length: int
    scores: tuple[int, int]
    crawford: bool
    post_crawford: bool
    rules: Rules

    @classmethod
    def of(cls, match: ReplayedMatch, game: ReplayedGame) -> GameSituation:
        """The situation of ``game`` of ``match``."""
        return cls(0 if per_game_equity(match) else match.record.length, game.scores,
                   game.crawford, game.post_crawford, match.rules)

    def utility(self, side: int, cube: int) -> Utility:
        """``side``'s normalised cubeless equity at ``cube`` (:func:`match_utility`)."""
        return match_utility(self.length, self.scores[side], self.scores[1 - side], cube,
                             self.crawford, self.post_crawford, rules=self.rules)

    def mwc(self, side: int, points: int = 0, after: bool = True) -> float:
        """``side``'s match-winning chance when it gains ``points`` (loses, if negative);
        at the start of the next game (``after``: post-Crawford when this game is the
        Crawford game or after it) or of this one."""
        post = (self.crawford or self.post_crawford) if after else self.post_crawford
        return _mwc_after(self.length, self.scores[side], self.scores[1 - side], points, post)


def game_results(match: ReplayedMatch) -> list[tuple[float, float]]:
    """Each game's actual result for side 0 and side 1, as GNU Backgammon's statistics count
    it.

    Parameters
    ----------
    match : ReplayedMatch

    Returns
    -------
    list of (float, float)
        Per game in order: in match play the MWC at the start of the next game minus that
        at the start of this one (:func:`match_winning_chance`); in money play and long
        nardy (:func:`per_game_equity`) the points won (negative: lost); NaN when the file
        does not say who won.
    """
    results: list[tuple[float, float]] = []
    for game in match.games:
        if game.winner is None or game.points is None:
            results.append((float("nan"),) * 2)
            continue
        won = [game.points if side == game.winner else -game.points for side in (0, 1)]
        situation = GameSituation.of(match, game)
        if situation.length:
            results.append((situation.mwc(0, won[0]) - situation.mwc(0, after=False),
                            situation.mwc(1, won[1]) - situation.mwc(1, after=False)))
        else:
            results.append((won[0], won[1]))
    return results
