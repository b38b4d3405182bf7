"""nardy_analysis: read, replay and analyse short nardy (backgammon) match records."""

from .errors import (
    DecodeError,
    EmptyFile,
    EngineError,
    IllegalPlayError,
    InvalidArgument,
    NardyError,
    NotAMatch,
    NotationError,
    PositionIdError,
    RecordProblem,
    RecordWarning,
    RuleViolation,
)
from .game.ids import GameState, MatchState, match_from_id, match_id
from .game.moves import ALL_ROLLS, Move, Play, Roll
from .game.position import LegalPlay, Position, ending
from .game.rules import CAUCASIAN, LENIENT, STANDARD, TAVLA, Rules
from .load import MatchFiles, load_file, load_files, match_files, replay_file, sample_folder
from .notation.mat import parse_mat, read_mat
from .notation.positions import parse_position
from .notation.records import (
    CubeRecord,
    GameRecord,
    MatchRecord,
    ParsedFile,
    ResultRecord,
    TurnRecord,
    WrittenMove,
)
from .notation.sgf import parse_sgf, read_sgf
from .notation.sgf_writer import format_sgf, write_sgf
from .notation.writer import format_mat, write_mat
from .replay import (
    LoadedFile,
    ReplayedGame,
    ReplayedMatch,
    ReplayedTurn,
    replay_match,
    written_record,
)


def __getattr__(name: str) -> str:
    """``__version__``, read from the installed package's metadata when first asked for
    (importing ``importlib.metadata`` costs every command about 0.05 s of CPU)."""
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("nardy-analysis")
    except PackageNotFoundError:  # run from a source checkout that is not installed
        return "unknown"

__all__ = [
    "ALL_ROLLS", "CAUCASIAN", "CubeRecord", "DecodeError", "EmptyFile", "EngineError", "GameRecord",
    "GameState",
    "IllegalPlayError", "InvalidArgument", "LENIENT", "LegalPlay", "LoadedFile", "MatchFiles",
    "MatchRecord", "MatchState", "Move", "NardyError", "NotAMatch", "NotationError",
    "ParsedFile", "Play", "Position", "PositionIdError", "RecordProblem", "RecordWarning",
    "ReplayedGame", "ReplayedMatch", "ReplayedTurn", "ResultRecord", "Roll", "Rules",
    "RuleViolation", "STANDARD", "TAVLA", "TurnRecord", "WrittenMove", "__version__", "ending",
    "format_mat", "format_sgf", "load_file", "load_files", "match_files", "match_from_id",
    "match_id", "parse_mat", "parse_position", "parse_sgf", "read_mat", "read_sgf",
    "replay_file", "replay_match", "sample_folder", "write_mat", "write_sgf", "written_record"]
