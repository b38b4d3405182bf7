"""nardy_analysis: read, replay and analyse short nardy (backgammon) match records."""

from .errors import (DecodeError, IllegalPlayError, NardyError, NotationError, PositionIdError,
                     RuleViolation)
from .game.ids import match_from_id, match_id, parse_xgid, position_from_id, position_id, xgid
from .notation.mat import parse_mat, read_mat
from .notation.records import ParsedFile
from .game.position import ALL_ROLLS, Move, Play, Position, Roll
from .replay import (ReplayedGame, ReplayedMatch, ReplayedTurn, replay_file, replay_match,
                     written_record)
from .game.rules import LENIENT, STANDARD, TAVLA, Rules
from .notation.writer import format_mat, write_mat

__all__ = ["ALL_ROLLS", "DecodeError", "IllegalPlayError", "LENIENT", "Move", "NardyError",
           "NotationError", "ParsedFile", "Play", "Position", "PositionIdError", "ReplayedGame",
           "ReplayedMatch", "ReplayedTurn", "Roll", "Rules", "RuleViolation", "STANDARD", "TAVLA",
           "format_mat", "match_from_id", "match_id", "parse_mat", "parse_xgid", "position_from_id",
           "position_id", "read_mat", "replay_file", "replay_match", "write_mat", "written_record",
           "xgid"]
