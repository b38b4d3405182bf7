"""Charts of dice luck (:func:`~nardy_analysis.analysis.luck.luck_frame`).

Every chart takes the luck frame first, draws on ``ax`` (default: the current Axes) and
returns the Axes; none calls ``plt.show()``.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.axes import Axes

from ..errors import InvalidArgument
from .game import checker_style

_UNITS = {"luck": "cumulative luck (equity)", "luck_mwc": "cumulative luck (MWC)",
          "luck_points": "cumulative luck (points)"}


def plot_cumulative_luck(frame: pd.DataFrame, ax: Axes | None = None, *,
                         game: int | None = None, column: str = "luck") -> Axes:
    """Each player's luck added up roll by roll, through a game or a whole match.

    Parameters
    ----------
    frame : pandas.DataFrame
        A :func:`~nardy_analysis.analysis.luck.luck_frame` of one match.
    ax : matplotlib.axes.Axes, optional
        Drawn into; the current Axes when None.
    game : int, optional
        Game number to draw; all games (the match) when None.
    column : str
        ``luck`` (equity, default), ``luck_mwc`` (match-winning chance, 0..1) or
        ``luck_points`` (points: equity times the cube value).

    Returns
    -------
    matplotlib.axes.Axes
        One step line per player (label: the name; legend title ``player``) in their
        checkers' colours (:func:`~nardy_analysis.plots.game.checker_style`): x the roll,
        1, 2, ... over both players' rolls in order, y the player's running sum of
        ``column`` after each of their rolls. A black line at 0; for a match, a dotted grey
        line before the first roll of each game after the first.

    Raises
    ------
    InvalidArgument
        The frame holds several matches, or no roll of ``game``.
    """
    if frame["match_id"].nunique() > 1:
        raise InvalidArgument("plot_cumulative_luck draws one match; filter the frame by match_id")
    rolls = frame if game is None else frame[frame["game"] == game]
    if rolls.empty:
        raise InvalidArgument(f"no rolls to draw for game {game}")
    ax = ax if ax is not None else plt.gca()
    x = pd.Series(range(1, len(rolls) + 1), index=rolls.index)
    for side in (0, 1):
        mine = rolls[rolls["side"] == side]
        if len(mine):
            ax.step(x[mine.index], mine[column].cumsum(), where="post",
                    label=str(mine["player"].iloc[0]), **checker_style(side))
    if game is None:
        for start in x[rolls["turn"] == 1].iloc[1:]:
            ax.axvline(start - 0.5, color="grey", linestyle=":", linewidth=1)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xlabel("roll" if game is None else f"roll in game {game}")
    ax.set_ylabel(_UNITS.get(column, column))
    ax.legend(title="player")
    return ax
