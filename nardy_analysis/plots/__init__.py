"""Charts (matplotlib): each takes its data first, draws on ``ax`` (None: current Axes)."""

from .audit import plot_doubles, plot_face_counts, plot_p_values, plot_roll_classes
from .game import (
                   plot_blocked_rolls,
                   plot_blot_exposure,
                   plot_blot_points,
                   plot_hit_calibration,
                   plot_hits_by_point,
                   plot_pip_race,
)
from .luck import plot_cumulative_luck
from .skill import plot_skill_luck

__all__ = ["plot_blocked_rolls", "plot_blot_exposure", "plot_blot_points",
           "plot_cumulative_luck", "plot_doubles", "plot_face_counts", "plot_hit_calibration",
           "plot_hits_by_point", "plot_p_values", "plot_pip_race", "plot_roll_classes",
           "plot_skill_luck"]
