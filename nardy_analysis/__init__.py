"""nardy_analysis: read, replay and analyse short nardy (backgammon) match records."""

from .errors import (DecodeError, EngineError, IllegalPlayError, InvalidArgument, NardyError,
                     NotationError, PositionIdError, RecordWarning, RuleViolation)
from .game.ids import GameState, MatchState, match_from_id, match_id
from .notation.mat import parse_mat, read_mat
from .notation.records import ParsedFile
from .game.position import ALL_ROLLS, LegalPlay, Move, Play, Position, Roll, ending
from .replay import ReplayedGame, ReplayedMatch, ReplayedTurn, replay_match, written_record
from .load import LoadedFile, MatchFiles, load_file, load_files, match_files, replay_file
from .game.rules import LENIENT, STANDARD, TAVLA, Rules
from .notation.sgf import format_sgf, parse_sgf, read_sgf
from .notation.writer import format_mat, write_mat

__all__ = ["ALL_ROLLS", "DecodeError", "EngineError", "GameState", "IllegalPlayError",
           "InvalidArgument", "LENIENT", "LegalPlay", "LoadedFile", "MatchFiles", "MatchState", "Move",
           "NardyError",
           "NotationError", "ParsedFile", "Play", "Position", "PositionIdError", "ReplayedGame",
           "RecordWarning", "ReplayedMatch", "ReplayedTurn", "Roll", "Rules", "RuleViolation", "STANDARD", "TAVLA",
           "ending", "format_mat", "format_sgf", "load_file", "load_files", "match_files", "match_from_id", "match_id", "parse_mat", "parse_sgf", "read_mat", "read_sgf",
           "replay_file", "replay_match", "write_mat", "written_record"]
