"""SVG pictures of positions: a backgammon board with points, checkers, bar and trays.

The board is seen from one player's side (by default the player on roll): their home board
is bottom right, their points are numbered 1..24 counter-clockwise from there, they move
from the top left round to the bottom right and bear off into the lower tray on the right.
Player 0 has light checkers, player 1 dark ones, whoever is on roll. A stack of more than
five checkers shows five with the count on the outermost.

Long nardy positions (:class:`~nardy_analysis.game.long.LongPosition`) draw on the same board:
the viewer's head is their 24-point, top right, the opponent's is the viewer's 12-point, bottom
left, and the bar stays empty.

The doubling cube sits in a column left of the board: in the middle while nobody owns it, at
the bottom when the viewer owns it, at the top when the opponent does; a double on offer is
drawn at its new value in the viewer's right half, where the dice go. The match state (a
:class:`~nardy_analysis.game.ids.MatchState`, as a Match ID or XGID records it) gives the cube,
the dice, the score and the match length; long nardy has no cube, and its board no cube
column.

This module draws what it is given (anything with a position's ``board``, ``turn``, ``id()``,
``facing``, ``pip_count``, ``borne_off`` and ``game``, and a match state) and imports nothing
of :mod:`~nardy_analysis.game.position`, so that ``Position._repr_svg_`` can import it lazily.
"""

from __future__ import annotations

from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence
from xml.sax.saxutils import escape

from .ids import GameState, MatchState
from .rules import BAR, CHECKERS, OFF

if TYPE_CHECKING:
    from .moves import Roll
    from .position import Position

POINT = 40            # width of a point, in SVG user units
RADIUS = 18           # checker radius
STACK = 5             # checkers drawn on a point before the count is written instead
MARGIN = 26           # room for the point numbers above and below the board
TRIANGLE = 2 * RADIUS * STACK
HEIGHT = 2 * TRIANGLE + 60
HALF = 6 * POINT
TRAY = 48
CUBE = 34             # side of the doubling cube
LEFT = CUBE + 16      # x of the left half, right of the cube's column
BAR_X = LEFT + HALF   # x of the bar
RIGHT = BAR_X + POINT  # x of the right half
TRAY_X = RIGHT + HALF + 12
WIDTH = TRAY_X + TRAY + 12
TOP = MARGIN
BOTTOM = TOP + HEIGHT
FOOTER = 66           # the status line and a caption per player
COLOURS = {"frame": "#6b4226", "board": "#e8d3a9", "dark": "#9c3d2f", "light": "#2f5d50",
           "checker": ("#f4efe1", "#2b2b2b"), "edge": ("#6d6a60", "#000000"),
           "count": ("#000000", "#ffffff")}
"""The board's colours; ``checker``, ``edge`` and ``count`` are those of players 0 (light) and
1 (dark): the fill and edge of their checkers and the colour of text on them (the charts of
:mod:`~nardy_analysis.plots` and of the match page draw each player in their checkers'
colours)."""


def _point_x(point: int) -> float:
    """Centre x of a point numbered from the viewer's side."""
    if point <= 6:
        return RIGHT + HALF - (point - 0.5) * POINT
    if point <= 12:
        return BAR_X - (point - 6.5) * POINT
    if point <= 18:
        return LEFT + (point - 12.5) * POINT
    return RIGHT + (point - 18.5) * POINT


def _checkers(x: float, count: int, player: int, top: bool, start: float) -> list[str]:
    """Circles for a stack of ``count`` checkers from ``start`` (y of the first centre),
    going down when ``top`` else up; more than STACK show STACK with the count."""
    parts = []
    step = 2 * RADIUS if top else -2 * RADIUS
    for i in range(min(count, STACK)):
        y = start + i * step
        parts.append(f'<circle class="checker player{player}" cx="{x:g}" cy="{y:g}" '
                     f'r="{RADIUS - 1}" fill="{COLOURS["checker"][player]}" '
                     f'stroke="{COLOURS["edge"][player]}" stroke-width="1.5"/>')
    if count > STACK:
        parts.append(f'<text class="stack" x="{x:g}" y="{start + (STACK - 1) * step + 5:g}" '
                     f'text-anchor="middle" font-size="15" font-weight="bold" '
                     f'fill="{COLOURS["count"][player]}">{count}</text>')
    return parts


def _tray(count: int, player: int, top: bool) -> list[str]:
    """Borne-off checkers as slabs in the upper (``top``) or lower tray, and their count."""
    parts = []
    slab = (TRIANGLE - 20) / CHECKERS
    for i in range(count):
        y = TOP + 8 + i * slab if top else BOTTOM - 8 - (i + 1) * slab
        parts.append(f'<rect class="off player{player}" x="{TRAY_X + 6}" y="{y:g}" '
                     f'width="{TRAY - 12}" height="{slab - 1:g}" rx="2" '
                     f'fill="{COLOURS["checker"][player]}" stroke="{COLOURS["edge"][player]}"/>')
    y = TOP + TRIANGLE + 8 if top else BOTTOM - TRIANGLE - 2
    parts.append(f'<circle class="tray-owner owner{player}" cx="{TRAY_X + 8}" cy="{y - 4:g}" '
                 f'r="6" fill="{COLOURS["checker"][player]}" '
                 f'stroke="{COLOURS["edge"][player]}"/>'
                 f'<text class="tray" x="{TRAY_X + 17}" y="{y:g}" font-size="12" '
                 f'fill="#ffffff">{count} off</text>')
    return parts


def _cube(value: int, x: float, y: float, offered: bool = False) -> str:
    """The doubling cube showing ``value``, its top left corner at (x, y)."""
    size = 18 if value < 100 else 13 if value < 10000 else 10
    return (f'<g class="cube{" offered" if offered else ""}"><rect x="{x:g}" y="{y:g}" '
            f'width="{CUBE}" height="{CUBE}" rx="4" fill="#ffffff" stroke="#000000" '
            f'stroke-width="1.5"/><text class="cube-value" x="{x + CUBE / 2:g}" '
            f'y="{y + CUBE / 2 + size * 0.36:g}" text-anchor="middle" font-size="{size}" '
            f'font-weight="bold">{value}</text></g>')


def _cube_parts(state: MatchState, side: int) -> list[str]:
    """The cube in its column (middle: centred; bottom: the viewer's; top: the opponent's),
    and a double on offer at its new value where the dice go."""
    x = (LEFT - CUBE) / 2
    if state.cube_owner is None:
        y = TOP + HEIGHT / 2 - CUBE / 2
    else:
        y = BOTTOM - 8 - CUBE if state.cube_owner == side else TOP + 8
    parts = [] if state.doubled and state.cube_owner is None else [_cube(state.cube, x, y)]
    if state.doubled:
        parts.append(_cube(2 * state.cube, RIGHT + HALF / 2 - CUBE / 2,
                           TOP + HEIGHT / 2 - CUBE / 2, offered=True))
    return parts


def _status(position: Position, state: MatchState | None, names: Sequence[str]) -> str:
    """The line above the captions: long nardy, the match (length, Crawford game) and who is to
    act ('' for a short nardy board without a state)."""
    game = ["Long nardy"] if position.game == "long" else []
    if state is None:
        return " \u00b7 ".join(game)
    if state.match_length:
        match = f"{state.match_length}-point match" + (", Crawford game" if state.crawford
                                                        else "")
    else:
        match = "Money game"
    to_act = state.player if state.turn is None else state.turn
    if state.game_state >= GameState.OVER:
        action = "game over"
    elif state.doubled:
        action = (f"{names[state.player]} doubles to {2 * state.cube}; "
                  f"{names[to_act]} to take or drop")
    elif state.dice:
        dice = f"{state.dice[0]}{state.dice[1]}"
        action = (f"{names[state.player]} to play {dice}" if state.player == position.turn
                  else f"{names[state.player]} played {dice}")
    else:
        action = f"{names[to_act]} to roll"
    return " \u00b7 ".join([*game, match, action])


def _dice(dice: tuple[int, int], player: int) -> list[str]:
    """Two dice in the middle of the viewer's right half, in ``player``'s colours."""
    parts = []
    for i, die in enumerate(dice):
        x = RIGHT + HALF / 2 - 36 + i * 40
        y = TOP + HEIGHT / 2 - 16
        parts.append(f'<rect class="die" x="{x:g}" y="{y:g}" width="32" height="32" rx="5" '
                     f'fill="{COLOURS["checker"][player]}" stroke="{COLOURS["edge"][player]}"/>'
                     f'<text class="die-value" x="{x + 16:g}" y="{y + 23:g}" '
                     f'text-anchor="middle" font-size="20" '
                     f'fill="{COLOURS["count"][player]}">{die}</text>')
    return parts


def board_svg(position: Position, side: int | None = None, names: Sequence[str] | None = None,
              roll: Roll | None = None, width: int = 520,
              state: MatchState | None = None) -> str:
    """An SVG picture of a position, as a string.

    Parameters
    ----------
    position : Position
    side : int, optional
        The player (0 or 1) whose side the board is seen from: their points are numbered
        1..24 and their checkers move towards the bottom right. Default: the player on roll.
    names : pair of str, optional
        Names of players 0 and 1 for the captions (default ``player 1``, ``player 2``, as
        a record names unnamed players).
    roll : Roll, optional
        Dice to draw on the board, in the colour of the player on roll. Default: the dice
        of ``state``.
    width : int
        Width of the picture in pixels; the height follows.
    state : MatchState, optional
        The cube (value, owner, a double on offer), the dice (in the colour of
        ``state.player``: the board after a play shows the dice just played, the other
        player on roll), the score and the match length. Without it a centred cube at 1 is
        drawn and no score.

    Returns
    -------
    str
        A standalone ``<svg>`` document: 24 points, one circle (class ``checker``) per
        checker on the board or the bar (at most five per stack), borne-off checkers as
        slabs in the trays (each labelled with a disc of its owner's colour and their
        count), point numbers, the cube (class ``cube``, its value in ``cube-value``; none
        in the Crawford game, and in long nardy neither the cube nor its column), with a
        state a status line (class ``status``: match length or money game, Crawford game,
        who is to play which dice, roll, or take or drop a double, or that the game is
        over) and a caption per player with their score (in a match), pip count (pips) and
        checkers borne off; the player on roll is marked with a triangle.
    """
    side = position.turn if side is None else side
    names = names or ("player 1", "player 2")
    me, opp = position.board[side], position.board[1 - side]
    full_height = BOTTOM + MARGIN + FOOTER
    cube = position.game != "long"
    x0 = 0 if cube else LEFT - 12  # long nardy: no cube column, the frame as wide as right
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
             f'height="{round(width * full_height / (WIDTH - x0))}" '
             f'viewBox="{x0} 0 {WIDTH - x0} {full_height}" font-family="sans-serif">',
             f'<title>Position {escape(position.id())}, {escape(str(names[position.turn]))} '
             f'on roll</title>',
             f'<rect x="0" y="{TOP - 8}" width="{WIDTH}" height="{HEIGHT + 16}" '
             f'fill="{COLOURS["frame"]}"/>']
    for half_x in (LEFT, RIGHT):
        parts.append(f'<rect x="{half_x}" y="{TOP}" width="{HALF}" height="{HEIGHT}" '
                     f'fill="{COLOURS["board"]}"/>')
    for tray_y in (TOP, BOTTOM - TRIANGLE):
        parts.append(f'<rect x="{TRAY_X}" y="{tray_y}" width="{TRAY}" height="{TRIANGLE}" '
                     f'fill="#4a2d19"/>')
    for point in range(1, 25):
        x, top = _point_x(point), point > 12
        base, tip = (TOP, TOP + TRIANGLE) if top else (BOTTOM, BOTTOM - TRIANGLE)
        colour = COLOURS["dark"] if point % 2 else COLOURS["light"]
        parts.append(f'<polygon class="point" points="{x - POINT / 2:g},{base} '
                     f'{x + POINT / 2:g},{base} {x:g},{tip}" fill="{colour}"/>')
        label_y = TOP - 12 if top else BOTTOM + 20
        parts.append(f'<text class="point-number" x="{x:g}" y="{label_y}" text-anchor="middle" '
                     f'font-size="13">{point}</text>')
        for player, count in ((side, me[point]), (1 - side, opp[position.facing(point)])):
            if count:
                start = TOP + RADIUS if top else BOTTOM - RADIUS
                parts += _checkers(x, count, player, top, start)
    # Checkers on the bar wait beside the board half they enter: the viewer's on top.
    centre = BAR_X + POINT / 2
    parts += _checkers(centre, me[BAR], side, False, TOP + HEIGHT / 2 - RADIUS - 4)
    parts += _checkers(centre, opp[BAR], 1 - side, True, TOP + HEIGHT / 2 + RADIUS + 4)
    parts += _tray(opp[OFF], 1 - side, True)
    parts += _tray(me[OFF], side, False)
    if roll is not None:
        parts += _dice((roll.high, roll.low), position.turn)
    elif state is not None and state.dice:
        parts += _dice(state.dice, state.player)
    if cube and not (state is not None and state.crawford):
        parts += _cube_parts(state or MatchState(), side)
    status = _status(position, state, names)
    if status:
        parts.append(f'<text class="status" x="{LEFT}" y="{BOTTOM + MARGIN + 14}" '
                     f'font-size="14" font-weight="bold">{escape(status)}</text>')
    for row, player in enumerate((1 - side, side)):
        marker = "\u25b6 " if player == position.turn else ""
        colour = "light" if player == 0 else "dark"
        score = (f"score {state.score[player]}, " if state is not None and state.match_length
                 else "")
        caption_y = BOTTOM + MARGIN + (36 if status else 16) + 20 * row
        parts.append(f'<text class="caption" x="{LEFT}" y="{caption_y}" '
                     f'font-size="14">{escape(marker + str(names[player]))} ({colour}): '
                     f'{score}{position.pip_count(player)} pips, '
                     f'{position.borne_off(player)} off</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def save_board(position: Position, path: str | PathLike[str], **options: Any) -> Path:
    """Write :func:`board_svg` of ``position`` to ``path`` (UTF-8) and return the path.

    ``options`` are those of :func:`board_svg`.
    """
    path = Path(path)
    path.write_text(board_svg(position, **options), encoding="utf-8")
    return path
