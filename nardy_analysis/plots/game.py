"""Charts of replayed games, drawn from per-turn frames.

Every chart takes a long-form frame as :func:`~nardy_analysis.analysis.turns.turns_frame`
returns it (or rows of one) first, draws on ``ax`` (default: the current Axes) and returns
the Axes; none calls ``plt.show()``. Games are told apart by ``file``, ``match_id`` and
``game``.
"""

from __future__ import annotations

from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib import patheffects
from matplotlib.axes import Axes
from matplotlib.container import ErrorbarContainer
from matplotlib.ticker import MaxNLocator

from ..analysis.turns import hit_rates, refuse_long_nardy
from ..errors import InvalidArgument
from ..game.svg import COLOURS

GAME = ["file", "match_id", "game"]
"""Columns that identify a game in a turns frame."""


def checker_style(side: int, kind: str = "line") -> dict[str, Any]:
    """matplotlib keywords that draw a player's ``line``, ``bar`` or ``marker`` in their
    checkers' colours (:data:`~nardy_analysis.game.svg.COLOURS`: player 0 light, player 1
    dark), as the boards draw them: the checkers' fill, edged with their edge colour (a
    light line on a white Axes keeps a dark outline)."""
    fill, edge = COLOURS["checker"][side], COLOURS["edge"][side]
    if kind == "line":
        return {"color": fill, "linewidth": 2, "path_effects": [
            patheffects.withStroke(linewidth=4, foreground=edge)]}
    if kind == "bar":
        return {"color": fill, "edgecolor": edge}
    if kind == "marker":
        return {"color": fill, "markeredgecolor": edge}
    raise InvalidArgument(f"kind must be 'line', 'bar' or 'marker', got {kind!r}")


def _one_game(data: pd.DataFrame, game: int | None) -> pd.DataFrame:
    """The rows of one game, in turn order; raises InvalidArgument unless exactly one game."""
    if game is not None:
        data = data[data["game"] == game]
    count = len(data[GAME].drop_duplicates())
    if count != 1:
        raise InvalidArgument(f"expected the turns of one game, got {count} games"
                         + (f" numbered {game}" if game is not None else "")
                         + "; select one with data[data.game == N] or game=N")
    return data.sort_values("turn")


def _names(turns: pd.DataFrame) -> list[str]:
    """The players' names by side (0, 1) in one game's turns."""
    first = turns.iloc[0]
    side = int(first["side"])
    names = [first["opponent"]] * 2
    names[side] = first["player"]
    return names


def _title(ax: Axes, turns: pd.DataFrame, what: str) -> None:
    first = turns.iloc[0]
    ax.set_title(f"{what}: match {first['match_id']}, game {first['game']}")


def plot_pip_race(data: pd.DataFrame, ax: Axes | None = None, *,
                  game: int | None = None) -> Axes:
    """Both players' pip counts through a game, with hits and cube turns marked.

    Parameters
    ----------
    data : pandas.DataFrame
        A turns frame holding one game (or select it with ``game``).
    ax : matplotlib.axes.Axes, optional
        Drawn into; the current Axes when None.
    game : int, optional
        The game number to draw when ``data`` holds several games of one match.

    Returns
    -------
    matplotlib.axes.Axes
        One line per player (label: the name) in their checkers' colours
        (:func:`checker_style`): x is the turn (0 = the start, t = after the t-th roll; whole
        numbers), y the pip count in pips, missing after an unknown play. Triangles in the
        colours of the player hit (label: ``NAME was hit``) mark their pip count after the
        hitting play (none for long nardy, where nothing is hit); dotted vertical lines
        mark where the cube was turned (before the roll).

    Raises
    ------
    InvalidArgument
        ``data`` does not hold exactly one game (with that number).
    """
    turns = _one_game(data, game)
    ax = ax if ax is not None else plt.gca()
    names = _names(turns)
    mover = turns["side"].to_numpy()
    first = turns.iloc[0]
    x = np.concatenate([[0], turns["turn"].to_numpy()])
    pips = {}
    for side in (0, 1):
        start = first["pips_before"] if first["side"] == side else first["opponent_pips_before"]
        after = np.where(mover == side, turns["pips_after"], turns["opponent_pips_after"])
        pips[side] = np.concatenate([[start], pd.array(after, dtype="Float64")
                                     .to_numpy(dtype=float, na_value=np.nan)])
        ax.plot(x, pips[side], label=names[side], **checker_style(side))
    if turns["hits"].notna().any():  # long nardy has no hits
        hit = (turns["hits"].fillna(0) > 0).to_numpy()
        for victim in (0, 1):
            hits = hit & (mover == 1 - victim)
            if hits.any():
                ax.plot(x[1:][hits], pips[victim][1:][hits], linestyle="none", marker="v",
                        markersize=9, label=f"{names[victim]} was hit",
                        **checker_style(victim, "marker"))
    cube = turns["cube_value"].fillna(1).to_numpy()  # long nardy: no cube
    previous = np.concatenate([[1], cube[:-1]])
    for turn, value in zip(turns["turn"][cube != previous], cube[cube != previous]):
        ax.axvline(turn - 1, linestyle=":", color="grey")
        ax.annotate(f"cube {value}", (turn - 1, 1), xycoords=("data", "axes fraction"),
                    rotation=90, va="top", ha="right", fontsize="small", color="grey")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # a short game too
    ax.set_xlabel("turn (rolls played)")
    ax.set_ylabel("pip count (pips)")
    _title(ax, turns, "Pip race")
    ax.legend()
    return ax


def plot_blot_exposure(data: pd.DataFrame, ax: Axes | None = None, *,
                       game: int | None = None) -> Axes:
    """The blots each player left in a game and the opponent's shots at them, turn by turn.

    Parameters
    ----------
    data : pandas.DataFrame
        A turns frame holding one game (or select it with ``game``).
    ax : matplotlib.axes.Axes, optional
        Drawn into; the current Axes when None.
    game : int, optional
        The game number to draw when ``data`` holds several games of one match.

    Returns
    -------
    matplotlib.axes.Axes
        One bar container per player (label: the name): a bar at each of the player's turns
        that left blots the opponent can hit, height the opponent's shots (rolls out of 36),
        with the number of blots left written above it; a line labelled ``hit`` marks with
        crosses, above the bars, the turns whose blots the opponent hit on the next roll.

    Raises
    ------
    InvalidArgument
        ``data`` does not hold exactly one game (with that number), or holds long nardy
        (nothing is hit).
    """
    turns = _one_game(data, game)
    long = turns.loc[turns["cube_value"].isna(),   # no cube: long nardy
                     "match_id"].unique().tolist()
    refuse_long_nardy("blot exposure", long)
    ax = ax if ax is not None else plt.gca()
    names = _names(turns)
    exposed = turns[turns["opponent_shots"].fillna(0) > 0]
    for side in (0, 1):
        rows = exposed[exposed["side"] == side]
        bars = ax.bar(rows["turn"], rows["opponent_shots"].astype(int), label=names[side],
                      **checker_style(side, "bar"))
        ax.bar_label(bars, labels=[str(n) for n in rows["blots"]], fontsize="small")
    hit = exposed[exposed["opponent_hit"].fillna(False).astype(bool)]
    ax.plot(hit["turn"], hit["opponent_shots"].astype(int) + 3.5, linestyle="none", marker="X",
            markersize=8, color="black", label="hit")  # above the bar and its label
    ax.set_ylim(0, 41)
    ax.set_xlim(0, turns["turn"].max() + 1)
    ax.set_xlabel("turn (rolls played); bars labelled with the blots left")
    ax.set_ylabel("opponent's shots (rolls out of 36)")
    _title(ax, turns, "Blot exposure")
    ax.legend()
    return ax


def plot_blocked_rolls(data: pd.DataFrame, ax: Axes | None = None, *,
                       game: int | None = None) -> Axes:
    """Long nardy: how many rolls each player's play left the opponent unable to play in
    full, turn by turn.

    Parameters
    ----------
    data : pandas.DataFrame
        A turns frame of long nardy holding one game (or select it with ``game``).
    ax : matplotlib.axes.Axes, optional
        Drawn into; the current Axes when None.
    game : int, optional
        The game number to draw when ``data`` holds several games of one match.

    Returns
    -------
    matplotlib.axes.Axes
        One bar container per player (label: the name): a bar at each of the player's
        turns, height the opponent's blocked rolls (of 36) after the play
        (``opponent_blocked_rolls``).

    Raises
    ------
    InvalidArgument
        ``data`` does not hold exactly one game (with that number), or it is not long
        nardy (no blocked rolls).
    """
    turns = _one_game(data, game)
    if turns["opponent_blocked_rolls"].isna().all():
        raise InvalidArgument("no blocked rolls in the turns: they are counted for long "
                              "nardy games only")
    ax = ax if ax is not None else plt.gca()
    names = _names(turns)
    for side in (0, 1):
        rows = turns[(turns["side"] == side) & turns["opponent_blocked_rolls"].notna()]
        ax.bar(rows["turn"], rows["opponent_blocked_rolls"].astype(int), label=names[side],
               width=1.0, **checker_style(side, "bar"))
    top = int(turns["opponent_blocked_rolls"].max())
    ax.set_ylim(0, max(4, top) * 1.35)  # room for the legend above the bars
    ax.set_xlim(0, turns["turn"].max() + 1)
    ax.set_xlabel("turn (rolls played)")
    ax.set_ylabel("opponent's blocked rolls (of 36)")
    _title(ax, turns, "Blocked rolls")
    ax.legend(loc="upper right", ncols=2)
    return ax


_POINTS = (0.3, 24.7)
"""The x limits of the charts by point (1..24): the same in each, so that they line up."""


def plot_blot_points(data: pd.DataFrame, ax: Axes | None = None) -> Axes:
    """Where blots are left: how many blots were left on each point, over many games.

    Parameters
    ----------
    data : pandas.DataFrame
        A turns frame (any number of games).
    ax : matplotlib.axes.Axes, optional
        Drawn into; the current Axes when None.

    Returns
    -------
    matplotlib.axes.Axes
        24 bars, x the point 1..24 from the side of the player who left the blot, height
        the number of blots left there after a play (a blot left on two turns counts twice).
    """
    ax = ax if ax is not None else plt.gca()
    points = data["blot_points"].dropna().explode().dropna().astype(int)
    counts = points.value_counts().reindex(range(1, 25), fill_value=0)
    ax.bar(counts.index, counts.to_numpy())
    ax.set_xticks(range(1, 25))
    ax.set_xlim(_POINTS)
    ax.tick_params(axis="x", labelsize="small")
    ax.set_xlabel("point (from the side of the player who left the blot)")
    ax.set_ylabel("blots left after a play")
    ax.set_title(f"Where blots are left ({len(points)} blots, {len(data)} turns)")
    return ax


_EVENTS = {"played": ("hits", "fraction hit"),
           "dice": ("hitting rolls", "fraction of next rolls that could hit")}
"""What each ``kind`` of :func:`~nardy_analysis.analysis.turns.hit_rates` counts, in words:
the events, and the y label of the charts."""


_LABELLED = 15
"""The most points :func:`plot_hit_calibration` labels with their ``n`` (more overlap)."""


def _kind_words(kind: str) -> tuple[str, str]:
    if kind not in _EVENTS:
        raise InvalidArgument(f"kind must be one of {sorted(_EVENTS)}, got {kind!r}")
    return _EVENTS[kind]


def _errorbar(ax: Axes, x: pd.Series, table: pd.DataFrame,
              **options: Any) -> ErrorbarContainer:
    """Observed fractions at ``x`` with their interval as error bars."""
    return ax.errorbar(x, table["observed"], yerr=[table["observed"] - table["ci_low"],
                                                   table["ci_high"] - table["observed"]],
                       fmt="o", capsize=3, **options)


def plot_hit_calibration(data: pd.DataFrame, ax: Axes | None = None, *,
                         bins: int | None = None, confidence: float = 0.95,
                         kind: str = "played") -> Axes:
    """Observed against expected hits of exposed blots, by hit probability.

    Parameters
    ----------
    data : pandas.DataFrame
        A turns frame (any number of games).
    ax : matplotlib.axes.Axes, optional
        Drawn into; the current Axes when None.
    bins, confidence, kind
        Passed to :func:`~nardy_analysis.analysis.turns.hit_rates`: ``kind="played"``
        counts the hits the opponent played (the dice and the player's choice),
        ``kind="dice"`` whether the opponent's next roll was a hitting roll (the dice alone).

    Returns
    -------
    matplotlib.axes.Axes
        An error-bar container (label ``observed``): one point per group of exposures, x the
        mean hit probability (opponent's shots / 36), y the fraction of exposures with the
        event, bars the exact binomial confidence interval, each point labelled with its
        number of exposures ``n`` when there are at most 15 points (use ``bins``); and the
        diagonal y = x (label ``expected``). Fair dice put the ``dice`` points on the
        diagonal; a player hits less often than they can, so ``played`` points below it are
        expected. The legend is in the upper left corner, above the diagonal, where points
        are rare (only small groups get there).

    Raises
    ------
    InvalidArgument
        An unknown ``kind``.
    """
    events, label = _kind_words(kind)
    ax = ax if ax is not None else plt.gca()
    table = hit_rates(data, bins, confidence, kind=kind)
    ax.plot([0, 1], [0, 1], linestyle="--", color="grey", label="expected")
    _errorbar(ax, table["expected"], table, label="observed")
    labelled = table if len(table) <= _LABELLED else table.iloc[:0]
    for x, y, n in zip(labelled["expected"], labelled["observed"], labelled["exposures"]):
        ax.annotate(f"n={n}", (x, y), xytext=(6, 0), textcoords="offset points",
                    va="center", fontsize="x-small", color="dimgrey")
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_aspect("equal")
    ax.set_xlabel("hit probability (opponent's shots / 36)")
    ax.set_ylabel(f"{label} ({confidence:.0%} binomial interval)")
    ax.set_title(f"Observed vs expected {events} ({int(table['exposures'].sum())} exposures)")
    ax.legend(loc="upper left")
    return ax


def plot_hits_by_point(data: pd.DataFrame, ax: Axes | None = None, *,
                       confidence: float = 0.95) -> Axes:
    """Hits of a single blot by where it stood: expected, hitting rolls thrown, hits played.

    Parameters
    ----------
    data : pandas.DataFrame
        A turns frame (any number of games).
    ax : matplotlib.axes.Axes, optional
        Drawn into; the current Axes when None.
    confidence : float
        Confidence level (0..1) of the exact binomial intervals.

    Returns
    -------
    matplotlib.axes.Axes
        For exposures that left one blot (:func:`~nardy_analysis.analysis.turns.hit_rates`
        with ``by="point"``), x its point 1..24 from the side of the player who left it: a
        line of markers labelled ``expected`` (mean shots / 36), and two error-bar containers
        labelled ``hitting rolls`` (the next roll could hit) and ``hits`` (the opponent hit),
        each with its interval, drawn a little left and right of the point; the number of
        exposures ``n`` of each point is written along the top. The legend is outside the
        Axes, on the right.
    """
    ax = ax if ax is not None else plt.gca()
    dice = hit_rates(data, confidence=confidence, kind="dice", by="point")
    played = hit_rates(data, confidence=confidence, kind="played", by="point")
    ax.plot(dice["group"], dice["expected"], linestyle="none", marker="_", markersize=14,
            mew=2, color="black", label="expected (shots / 36)")
    _errorbar(ax, dice["group"] - 0.15, dice, color="C0", label=_EVENTS["dice"][0])
    _errorbar(ax, played["group"] + 0.15, played, color="C1", label=_EVENTS["played"][0])
    for point, n in zip(dice["group"], dice["exposures"]):
        ax.annotate(str(n), (point, 1.0), xytext=(0, 4), textcoords="offset points",
                    ha="center", fontsize="x-small", color="dimgrey")
    ax.set_xticks(range(1, 25))
    ax.set_xlim(_POINTS)
    ax.set_ylim(-0.02, 1.1)
    ax.tick_params(axis="x", labelsize="small")
    ax.set_xlabel("point of the single blot (from the side of the player who left it); "
                  "n exposures along the top")
    ax.set_ylabel(f"fraction of exposures ({confidence:.0%} binomial interval)")
    ax.set_title(f"Plays that left one blot, by its point ({int(dice['exposures'].sum())} "
                 "exposures)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0)
    return ax
