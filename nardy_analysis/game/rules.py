"""Rule variants as data, and the board numbering every game module shares.

The rules themselves are in ``RULES.md`` (summarised from the Russian and Ukrainian rule pages
of the Russian Sport Nardy Federation's international rules and online sites' house rules).
A :class:`Rules` value says which options are in force; the move generator and the replayer
read it, nothing else branches on variant names.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from ..errors import InvalidArgument

BAR = 25
"""The bar's point number, from its owner's side (RULES.md, "Board and numbering")."""
OFF = 0
"""The point number of borne-off checkers."""
CHECKERS = 15
"""Checkers per player."""


@dataclass(frozen=True)
class Rules:
    """Which rules are in force for a match.

    Attributes
    ----------
    name : str
        Variant name (``standard``, ``tavla``, ``lenient``, ``caucasian``, ``long``,
        ``long-federation``).
    game : str
        Which game: ``"short"`` (short nardy, backgammon) or ``"long"`` (long nardy: no
        hitting, the head rule, the six-point block; RULES.md, "Long nardy").
    head_doubles : tuple of int or None
        Long nardy, a player's first turn: None lets two checkers leave the head with any
        roll (the rule page "Игра в длинные нарды"); a tuple such as ``(6, 4, 3)`` lets two
        leave only with those doubles (the federation variant). Later turns: one checker,
        whatever this says.
    home_mars : int
        Long nardy: points of a home mars (the loser all home, none off): 3 per the rule page
        "Игра в длинные нарды", 2 on the pages that score it as a mars.
    opening_doubles : bool
        The first play of a game may be a double (tavla: the winner of the opening throw
        rolls again). Standard rules: the opening roll is two different dice.
    gammons, backgammons : bool
        Whether a gammon (mars, 2 x cube) and a backgammon (koks, 3 x cube) score.
    forced_play : bool
        Enforce the forced-play rules (use both dice when possible, else the larger; as many
        steps of a double as possible). Some sites do not.
    bear_off_any_with_larger : bool
        A die larger than needed may bear off any checker, not only the farthest one.
    home_safe : bool
        A checker in its owner's home board (the owner's points 1..6) cannot be hit: a
        point there holding one checker is closed to the opponent, as one holding two is
        (Caucasian short nardy; RULES.md, "Caucasian short nardy").
    cube : bool
        Whether the doubling cube is used at all.
    crawford : bool
        The Crawford rule: no doubling in the first game after a player reaches match length - 1.
    jacoby : bool
        Money play only: gammons and backgammons count single unless the cube was turned.
    beavers : bool
        A player who takes may immediately redouble ("beaver"), keeping the cube.
    cube_limit : int or None
        Highest cube value allowed (None: no limit).
    """

    name: str = "standard"
    game: str = "short"
    head_doubles: tuple[int, ...] | None = None
    home_mars: int = 3
    opening_doubles: bool = False
    gammons: bool = True
    backgammons: bool = True
    forced_play: bool = True
    bear_off_any_with_larger: bool = False
    home_safe: bool = False
    cube: bool = True
    crawford: bool = True
    jacoby: bool = False
    beavers: bool = True
    cube_limit: int | None = None

    def with_tags(self, tags: Mapping[str, str], variation: bool = True) -> "Rules":
        """These rules updated by a match file's header tags.

        Reads ``Variation`` (``Backgammon``, ``Tavla``, ``Caucasian``, ...: :func:`variant`;
        skipped when ``variation`` is False), ``Crawford``, ``Jacoby``, ``Beaver`` and
        ``CubeLimit`` (values ``On``/``Off``/``Yes``/``No``/``True``/``False``, a number for
        the limit). Unknown tags and values are ignored. This is the one reader of these
        tags: the replay and the SGF writer ask it.
        """
        rules = self
        named = variant(tags.get("Variation", "")) if variation else None
        if named is not None:
            rules = replace(named, cube_limit=rules.cube_limit)
        flags = {"Crawford": "crawford", "Jacoby": "jacoby", "Beaver": "beavers"}
        for tag, field in flags.items():
            value = _flag(tags.get(tag))
            if value is not None:
                change: dict[str, Any] = {field: value}
                rules = replace(rules, **change)
        limit = tags.get("CubeLimit", "").strip()
        if limit.isdigit():
            rules = replace(rules, cube_limit=int(limit))
        return rules

    def override(self, **changes: Any) -> "Rules":
        """A copy with the named fields changed.

        Raises
        ------
        InvalidArgument
            A name that is not a field of :class:`Rules`; the message names it.
        """
        unknown = set(changes) - set(self.__dataclass_fields__)
        if unknown:
            raise InvalidArgument(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        return replace(self, **changes)


def variant(name: str) -> Rules | None:
    """The variant :data:`VARIANTS` names ``name`` (a ``Variation`` tag's value: any case,
    blanks around it ignored), None when it names none."""
    return VARIANTS.get(name.strip().lower())


def _flag(value: str | None) -> bool | None:
    if value is None:
        return None
    value = value.strip().lower()
    if value in ("on", "yes", "true", "1"):
        return True
    if value in ("off", "no", "false", "0"):
        return False
    return None


STANDARD = Rules()
"""Standard backgammon (short nardy) rules: RULES.md without any variant."""

TAVLA = Rules(name="tavla", opening_doubles=True, backgammons=False)
"""Turkish tavla: the opening roll may be any roll, no backgammons."""

LENIENT = Rules(name="lenient", forced_play=False, bear_off_any_with_larger=True)
"""Some sites' house rules: no forced-play enforcement, any checker bears off with a larger die."""

CAUCASIAN = Rules(name="caucasian", home_safe=True)
"""Caucasian short nardy: short nardy in which a checker in its owner's home board cannot be
hit; nothing else differs (RULES.md, "Caucasian short nardy"). Its ``Variation`` tag is
``Caucasian``."""

LONG = Rules(name="long", game="long", opening_doubles=True, cube=False, crawford=False,
             beavers=False)
"""Long nardy as the rule page "Игра в длинные нарды" gives it (RULES.md, "Long nardy"): any
first roll, two checkers off the head on the first turn, home mars 3, no cube."""

LONG_FEDERATION = replace(LONG, name="long-federation", head_doubles=(6, 4, 3))
"""Long nardy with the federation's head rule: two checkers leave the head on the first turn
only with 66, 44 or 33."""

VARIANTS: dict[str, Rules] = {"standard": STANDARD, "backgammon": STANDARD,
                              "tavla": TAVLA, "lenient": LENIENT, "caucasian": CAUCASIAN,
                              "long": LONG,
                              "longnardy": LONG, "long-federation": LONG_FEDERATION}
"""Variant names (lower case, as in a ``Variation`` tag or ``--rules``) to rules."""
