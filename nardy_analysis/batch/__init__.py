"""Analyses of many match files on worker processes or a Dask cluster: the per-file
pipelines.

Each takes files and folders (:func:`~nardy_analysis.load.match_files`), reads and replays
each file with :func:`~nardy_analysis.load.load_file` and runs an analysis of
:mod:`nardy_analysis.analysis` on its replayed matches, file by file, through
:func:`~nardy_analysis.parallel.map_files`: only each file's result (a frame, audit counts)
travels back, never the matches, and the results are those of ``jobs=1`` whatever ``jobs``
or ``client``. :func:`luck_and_skill` runs the games of one match the same way (the match
page's luck).
"""

from .audit import audit_files, file_counts
from .luck import luck_and_skill, luck_frames
from .turns import turns_frames

__all__ = ["audit_files", "file_counts", "luck_and_skill", "luck_frames", "turns_frames"]
