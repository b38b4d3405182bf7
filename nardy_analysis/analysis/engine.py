"""The engines by name, and the engine of a match's game.

The evaluator interface and its value types are :mod:`~nardy_analysis.analysis.evaluator`'s.
Short nardy has two backends: :class:`~nardy_analysis.analysis.gnubg.GnubgNN`, GNU
Backgammon's nets through ``gnubg-nn`` (the default; GPL-3, ``pip install
nardy-analysis[engine]``), and :class:`~nardy_analysis.analysis.sage.BgSage`, the Open Sage
engine (MPL-2.0, ``pip install nardy-analysis[sage]``). Long nardy has one, this project's
:class:`~nardy_analysis.analysis.long_engine.LongEvaluator`. Without the extras this module
still imports; asking for a missing engine raises :class:`EngineError` naming the command to
run.
"""

from __future__ import annotations

from functools import lru_cache

from ..errors import EngineError, InvalidArgument
from ..game.rules import STANDARD, Rules
from .evaluator import Evaluator
from .gnubg import GnubgNN
from .long_engine import LongEvaluator
from .sage import BgSage

ENGINES = {"gnubg-nn": GnubgNN, "bgsage": BgSage}
"""The backends by name: ``gnubg-nn`` (the default, matches GNU Backgammon) and ``bgsage``."""

GAME_ENGINES: dict[str, type[LongEvaluator]] = {"long": LongEvaluator}
"""The one engine of each game other than short nardy, by ``Rules.game``: ``"long"`` is
:class:`~nardy_analysis.analysis.long_engine.LongEvaluator`."""


@lru_cache(maxsize=None)
def default_evaluator(ply: int = 0, engine: str = "gnubg-nn",
                      rules: Rules = STANDARD) -> Evaluator:
    """The engine for ``rules`` at ``ply``, one per process.

    Short nardy: the engine ``engine`` (a key of :data:`ENGINES`). Long nardy
    (``rules.game == "long"``, e.g. ``LONG`` and ``LONG_FEDERATION``): this project's own
    :class:`~nardy_analysis.analysis.long_engine.LongEvaluator` for those rules, whatever
    ``engine`` says (it is the one long nardy engine; ply 0 or 1).

    Raises
    ------
    EngineError
        An unknown engine name, or the engine is not installed (the message names the
        ``pip install nardy-analysis[...]`` command).
    """
    if rules.game in GAME_ENGINES:
        return GAME_ENGINES[rules.game](ply, rules=rules)
    if engine not in ENGINES:
        raise EngineError(f"unknown engine {engine!r}; choose from {', '.join(ENGINES)}")
    return ENGINES[engine](ply)


def match_evaluator(rules: Rules, evaluator: Evaluator | None = None, ply: int = 0,
                    engine: str = "gnubg-nn") -> Evaluator:
    """The evaluator for a match played under ``rules``: ``evaluator`` when given, else
    :func:`default_evaluator` of ``ply``, ``engine`` and ``rules``.

    Raises
    ------
    InvalidArgument
        ``evaluator`` is not an engine of the rules' game (a backgammon net for long nardy,
        or the long nardy engine for short nardy), or the game's own engine refuses ``ply``
        (the long nardy engine looks one roll ahead at most): this match cannot be analysed
        so, others may.
    EngineError
        As for :func:`default_evaluator`, for short nardy (an engine not installed).
    """
    own = GAME_ENGINES.get(rules.game)
    if evaluator is None:
        try:
            return default_evaluator(ply, engine, rules)
        except EngineError as error:
            if own is None:
                raise
            raise InvalidArgument(f"{error} (the engine of rules {rules.name!r})") from None
    if not (isinstance(evaluator, own) if own else
            not isinstance(evaluator, tuple(GAME_ENGINES.values()))):
        game = "long nardy" if rules.game == "long" else "short nardy"
        raise InvalidArgument(f"the evaluator {evaluator.name!r} does not evaluate {game} "
                              f"(rules {rules.name!r}); leave it out to use the game's own")
    return evaluator
