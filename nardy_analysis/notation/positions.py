"""A position written as text: a gnubg Position ID, ``PositionID:MatchID``, an XGID or a long
nardy position's notation, told apart by their shapes."""

from __future__ import annotations

import re

from ..game.ids import MatchState, match_from_id
from ..game.long import LongPosition
from ..game.position import Position

_GNUBG_ID = re.compile(r"[A-Za-z0-9+/]{14}")
"""A gnubg Position ID: 14 base64 characters (``/`` and ``x`` among them)."""


def _looks_long(text: str) -> bool:
    """Whether ``text`` is meant as a long nardy position's notation (``24x15/24x15/0``,
    ``6/-/1``, and malformed ones: ``24x15,abc/24x15/0``): three ``/``-separated parts of
    digits, ``x``, ``,`` and ``-``, or a comma, or ``/`` and ``x``; never a gnubg Position
    ID nor text with ``:`` (a Match ID, an XGID)."""
    return (":" not in text and not _GNUBG_ID.fullmatch(text)
            and ("," in text or "/" in text and "x" in text
                 or re.fullmatch(r"[0-9x,-]+/[0-9x,-]+/[0-9]+", text) is not None))


def parse_position(text: str) -> tuple[Position, MatchState | None]:
    """The position, and match state when given, of a gnubg Position ID (player 0 on
    roll), a gnubg ``PositionID:MatchID`` (the Match ID says who is on roll), an XGID
    (with or without ``XGID=``) or a long nardy position's notation (``24x15/24x15/0``,
    :meth:`~nardy_analysis.game.long.LongPosition.from_notation`; no match state).

    Parameters
    ----------
    text : str
        One of the four, as ``nardy board`` and ``nardy shots`` take it.

    Returns
    -------
    position : Position
        A :class:`~nardy_analysis.game.long.LongPosition` for long nardy's notation.
    state : MatchState or None
        The match state of a Match ID or an XGID; None for a Position ID alone or long
        nardy's notation.

    Raises
    ------
    InvalidArgument
        ``text`` is none of them (:class:`~nardy_analysis.errors.PositionIdError` for a
        malformed ID): the message quotes it and says what is wrong.
    """
    if _looks_long(text):
        return LongPosition.from_notation(text), None
    if text.startswith("XGID=") or text.count(":") >= 8:
        return Position.from_xgid(text)
    if text.count(":") == 1:
        position_text, match_text = text.split(":")
        state = match_from_id(match_text)
        return Position.from_id(position_text, turn=state.player), state
    return Position.from_id(text), None
