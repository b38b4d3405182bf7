"""The one error model: every error is a NardyError with the same JSON-ready fields; bad
arguments are ValueErrors."""

import os
from pathlib import Path

import pytest

from nardy_analysis import (
    DecodeError,
    EngineError,
    IllegalPlayError,
    InvalidArgument,
    NardyError,
    NotationError,
    PositionIdError,
    RecordWarning,
    Roll,
    RuleViolation,
)
from nardy_analysis.errors import path_text, plural

FIELDS = ["file", "game", "move", "line", "column", "text", "kind", "message", "position_id"]


def test_a_syntax_error_as_a_dict():
    error = NotationError("unexpected 'x'", line=3, column=5, source_line="  1) x: 8/5  ",
                          file="a.mat", game=2)
    assert error.to_dict() == {"file": "a.mat", "game": 2, "move": None, "line": 3,
                               "column": 5, "text": "1) x: 8/5", "kind": "syntax",
                               "message": "unexpected 'x'", "position_id": None}
    assert list(error.to_dict()) == FIELDS


def test_an_encoding_error_as_a_dict():
    error = DecodeError("byte b'\\xff' at offset 7 cannot be decoded", 7, file="b.mat")
    assert error.to_dict() == {"file": "b.mat", "game": None, "move": None, "line": 0,
                               "column": 0, "text": "", "kind": "encoding",
                               "message": "byte b'\\xff' at offset 7 cannot be decoded",
                               "position_id": None}


def test_a_rule_violation_as_a_dict():
    error = RuleViolation("cube", "no doubling in the Crawford game", file="c.mat", game=3,
                          move=2, line=9, column=7, text="Doubles => 2",
                          position_id="4HPwATDgc/ABMA")
    assert error.to_dict() == {"file": "c.mat", "game": 3, "move": 2, "line": 9, "column": 7,
                               "text": "Doubles => 2", "kind": "cube",
                               "message": "no doubling in the Crawford game",
                               "position_id": "4HPwATDgc/ABMA"}


def test_any_other_error_as_a_dict():
    with pytest.raises(InvalidArgument) as info:
        Roll(7, 1)
    assert info.value.to_dict() == {"file": None, "game": None, "move": None, "line": 0,
                                    "column": 0, "text": "", "kind": "error",
                                    "message": "dice must be 1..6, got 7 and 1",
                                    "position_id": None}


@pytest.mark.parametrize("cls", [InvalidArgument, PositionIdError, IllegalPlayError,
                                 NotationError, DecodeError])
def test_bad_arguments_and_text_are_value_errors(cls):
    assert issubclass(cls, ValueError) and issubclass(cls, NardyError)


def test_the_others_are_nardy_errors_only():
    assert not issubclass(RuleViolation, ValueError) and issubclass(RuleViolation, NardyError)
    assert issubclass(EngineError, NardyError)


def test_a_record_warning_has_the_fields_of_a_violation_and_becomes_one():
    warning = RecordWarning("result", "1 point is not a possible result here", file="d.mat",
                            game=1, move=22, line=40, column=35, text="Wins 1 point",
                            position_id="4HPwATDgc/ABMA")
    assert list(warning.to_dict()) == FIELDS
    assert warning.to_dict()["kind"] == "result"
    assert isinstance(warning, NardyError) and not isinstance(warning, RuleViolation)
    assert not issubclass(RuleViolation, RecordWarning) and not issubclass(RecordWarning,
                                                                             ValueError)
    error = warning.as_error()
    assert type(error) is RuleViolation and error.to_dict() == warning.to_dict()
    assert str(error) == str(warning) == ("d.mat:40:35: game 1, move 22: 1 point is not a "
                                          "possible result here [result] in 'Wins 1 point' "
                                          "(position 4HPwATDgc/ABMA)")


def test_a_file_name_that_is_not_utf8_is_written_with_escapes():
    bad = os.fsdecode(b"folder/bad\xff\xfename.mat")  # surrogate escapes, as os.listdir gives
    assert path_text(bad) == "folder/bad\\xff\\xfename.mat"
    assert path_text(path_text(bad)) == path_text(bad)  # the text is kept as it is
    assert path_text(os.fsdecode("d\u00e9j\u00e0 vu.mat".encode())) == "d\u00e9j\u00e0 vu.mat"
    assert path_text(Path(bad)) == path_text(bad)


def test_plural_says_one_thing_and_many_things():
    assert [plural(n, "game") for n in (0, 1, 2)] == ["0 games", "1 game", "2 games"]
    assert [plural(n, "match") for n in (1, 3)] == ["1 match", "3 matches"]
    assert plural(4016, "point") == "4016 points"  # as a record writes it


@pytest.mark.parametrize("error", [
    RuleViolation("illegal_play", "the moves take 9 pips but 53 gives 8", file="a.mat", game=1,
                  move=4, line=22, column=41, text="53: 23/18 13/9", position_id="4HPwATDgc/ABMA"),
    RecordWarning("result", "kept as 1 point", line=10, column=7),
    NotationError("unexpected 'x'", 3, 5, "  1) x: 8/5", "a.mat", 2),
    DecodeError("not UTF-8", 17, file="b.mat"),
    EngineError("no engine"),
])
def test_an_error_pickles_whole(error):
    """Worker processes (--jobs, Dask) send errors back pickled: every field survives."""
    import pickle

    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error) and vars(back) == vars(error)
    assert str(back) == str(error) and back.args == error.args
    assert back.to_dict() == error.to_dict()
