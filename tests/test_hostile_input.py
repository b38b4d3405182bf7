"""Broken and hostile input: the catalogue of malformed files, keeping every good game of a
file with a broken one, encodings, unreadable paths, and large input.

That time and memory stay linear in the size of the text is measured by
``benchmarks/hostile_input.py`` (``--huge`` for a 50 MB file), not here.
"""

from __future__ import annotations

import codecs
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ROOT, SAMPLES, read_tsv

from nardy_analysis import (
    DecodeError,
    NardyError,
    NotationError,
    format_sgf,
    parse_mat,
    parse_sgf,
    read_mat,
    replay_file,
    replay_match,
)
from nardy_analysis.cli import main
from nardy_analysis.errors import NotAMatch
from nardy_analysis.notation.decoding import decode
from nardy_analysis.notation.mat import ParsedFile

CATALOGUE = Path(__file__).resolve().parent / "malformed"


def catalogue() -> list[dict]:
    return read_tsv(CATALOGUE / "INDEX.tsv")


# --- the catalogue --------------------------------------------------------------------------

@pytest.mark.parametrize("row", catalogue(), ids=lambda row: row["file"])
def test_catalogue_case_reports_its_line_column_kind_and_message(row):
    path = CATALOGUE / row["file"]
    where = (int(row["line"]), int(row["column"]))
    if row["kind"] in ("syntax", "decode", "not_a_match"):
        expected = {"decode": DecodeError, "not_a_match": NotAMatch}.get(row["kind"],
                                                                         NotationError)
        with pytest.raises(expected) as info:
            read_mat(path, strict=True)
        error = info.value
        # The collecting reader reports the same line (the column may differ: reading a game
        # on its own, it expects no new match after it) and keeps what it can.
        assert read_mat(path).errors[0].line == where[0]
    else:
        matches = replay_file(path)
        errors = [e for match in matches for e in match.errors]
        if row["description"].startswith("warning:"):  # a quirk resolved, no violation
            assert not errors
            errors = [w for match in matches for w in match.warnings]
        assert errors, "no violation found"
        error = errors[0]
        assert error.kind == row["kind"]
    assert (error.line, error.column) == where
    assert row["message"] in error.message
    assert f"{path}:{where[0]}:{where[1]}:" in str(error)


def test_catalogue_covers_every_grammar_rule_and_replay_check():
    rows = catalogue()
    assert len(rows) >= 40
    assert len({row["file"] for row in rows}) == len(rows)
    assert sorted(p.name for p in CATALOGUE.glob("*.mat")) == sorted(r["file"] for r in rows)
    kinds = {row["kind"] for row in rows}
    assert kinds >= {"syntax", "decode", "not_a_match", "illegal_play", "forced_play", "ambiguous",
                     "turn_order", "opening_roll", "unknown_play", "after_end", "cube",
                     "result", "score"}
    grammar = (ROOT / "grammars" / "mat.lark").read_text("utf-8")
    rules = set(re.findall(r"^\??([a-z_]+):", grammar, re.M))
    aliases = set(re.findall(r"-> *([a-z_]+)", grammar))
    # The cube rule is all aliases; a comment line that is not a tag is no error.
    rules = (rules - {"cube", "tag"}) | aliases
    described = {row["description"].split(":")[0] for row in rows if row["kind"] == "syntax"}
    assert rules <= described, rules - described


# --- a broken game among good ones ------------------------------------------------------------

GAME = """\
 Game {number}
 alice : {alice}                       bob : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
  2)  Doubles => 2                Drops
      Wins 1 point

"""


def ten_games(broken: int | None = 4) -> str:
    text = '; [Site "test"]\n\n 15 point match\n\n'
    text += "".join(GAME.format(number=n, alice=n - 1) for n in range(1, 11))
    if broken:
        lines = text.splitlines(keepends=True)
        index = lines.index(f" Game {broken}\n") + 2
        lines[index] = lines[index].replace("6/4\n", "6/x4\n")
        text = "".join(lines)
    return text


def test_ten_games_with_game_4_broken_keep_the_other_nine(tmp_path):
    path = tmp_path / "ten.mat"
    path.write_text(ten_games(), "utf-8")
    parsed = read_mat(path)
    assert isinstance(parsed, ParsedFile) and parsed.file == str(path)
    (match,) = parsed.matches
    assert match.tags == {"Site": "test"} and match.length == 15
    assert [g.number for g in match.games] == [1, 2, 3, 5, 6, 7, 8, 9, 10]
    (error,) = parsed.errors
    assert (error.game, error.line, error.column) == (4, 25, 42)
    assert "unexpected '6/x4'" in error.message and "game 4 is skipped" in error.message
    assert f"{path}:25:42:" in str(error)
    # The kept games are whole: the same records as in the file without the broken game.
    clean = parse_mat(ten_games(broken=None), strict=True).matches[0]
    assert [g.actions for g in match.games] == \
        [g.actions for g in clean.games if g.number != 4]
    replayed = replay_match(match)
    assert [len(g.turns) for g in replayed.games] == [2] * 9
    # Game 5's score line counts game 4's point, which the kept games cannot show.
    assert all(e.kind == "score" and e.game == 5 for e in replayed.errors)
    # Strict reading still raises the first error, at the same place.
    with pytest.raises(NotationError) as info:
        read_mat(path, strict=True)
    assert (info.value.line, info.value.column) == (25, 42)


@pytest.mark.parametrize("bad, column, message", [
    ("  4) 51: 13/8 8/                44: 14/10 13/9 13/9 10/6", 15, "unexpected '8/'"),
    ("  4) 51: 13/8 8/7                44: 14/10 13/9 13/9 10/6 Wins 12345678901 points", 64,
     "unexpected '12345678901'")])
def test_a_bad_line_keeps_the_turns_of_its_game_before_it(bad, column, message):
    """sample_games/galaxy_style_crawford.mat with line 30, move 4 of game 2, cut off in the
    middle of a play or with an oversized number: game 2 is its 5 turns before that line,
    replayed, cut there; game 3 takes the score of its own score line."""
    lines = (SAMPLES / "galaxy_style_crawford.mat").read_text().splitlines(keepends=True)
    lines[29] = bad + "\n"
    parsed = parse_mat("".join(lines), "g.mat")
    (error,) = parsed.errors
    assert (error.game, error.line, error.column) == (2, 30, column)
    assert message in error.message and error.message.endswith("; the rest of game 2 is skipped")
    assert str(error).startswith(f"g.mat:30:{column}: ")
    clean = read_mat(SAMPLES / "galaxy_style_crawford.mat", strict=True).matches[0]
    first, second, third = parsed.matches[0].games
    assert (first, third) == (clean.games[0], clean.games[2])
    assert second.cut_line == 30 and second.actions == clean.games[1].actions[:5]
    match = replay_match(parsed.matches[0])
    assert not match.errors
    assert [len(g.turns) for g in match.games] == [6, 5, 4]
    assert not match.games[1].complete and match.games[1].winner is None
    assert [g.scores for g in match.games] == [(0, 0), (1, 0), (1, 2)]
    assert (match.score, match.winner) == ((1, 3), 1)
    # Its SGF has game 2 without a result, as gnubg writes an unfinished game: read back,
    # game 3 takes its score from its MI, as gnubg does.
    again = replay_match(parse_sgf(format_sgf(parsed.matches), strict=True).matches[0])
    assert not again.errors and [g.scores for g in again.games] == [(0, 0), (1, 0), (1, 2)]


def test_collecting_a_good_file_gives_the_strict_records():
    for path in sorted(SAMPLES.glob("*.mat")):
        parsed = read_mat(path)
        assert parsed.errors == ()
        assert parsed.matches == read_mat(path, strict=True).matches


def test_every_part_of_a_file_is_recovered_or_reported():
    text = ("hello\n Game 0\n a : 0 b : 0\n"
            + ten_games().replace(" Game 7\n", " Game 7\nstray line\n")
            + " Game 11\n alice : 10                       bob : 0\n"
            + " 7 point match\n\n Game 1\n a : 0 b : 0\n  1) 31: 8/5 6/5\n")
    parsed = parse_mat(text, "f.mat")
    assert [[g.number for g in m.games] for m in parsed.matches] == \
        [[1, 2, 3, 5, 6, 8, 9, 10, 11], [1]]
    assert [(e.game, e.line, e.column) for e in parsed.errors] == \
        [(None, 1, 1), (0, 2, 2), (4, 28, 42), (7, 45, 11)]
    assert "unexpected 'hello'" in parsed.errors[0].message
    assert "'Game 0' comes before any 'N point match' line" in parsed.errors[1].message
    assert "expected ':'; game 7 is skipped" in parsed.errors[3].message


def test_strict_is_a_keyword_argument():
    with pytest.raises(TypeError):
        parse_mat("", None, True)
    with pytest.raises(TypeError):
        read_mat(SAMPLES / "galaxy_style_crawford.mat", True)


# --- encodings ----------------------------------------------------------------------------

MATCH = """\
; [Player 1 "{0}"]
 1 point match

 Game 1
 {0} : 0                       {1} : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
"""


@pytest.mark.parametrize("names, encoding, bom", [
    (("Jürgen Müller", "Zoë Ångström"), "utf-8", b""),
    (("Jürgen Müller", "Zoë Ångström"), "utf-8", codecs.BOM_UTF8),
    (("Дмитрий", "Иван Иванов"), "utf-16-le", codecs.BOM_UTF16_LE),
    (("Дмитрий", "Иван Иванов"), "utf-16-be", codecs.BOM_UTF16_BE),
    (("Дмитрий", "Иван Иванов"), "cp1251", b""),
    (("Jürgen Müller", "Smith, José"), "cp1252", b""),
])
def test_encodings(tmp_path, names, encoding, bom):
    text = MATCH.format(*names)
    path = tmp_path / "m.mat"
    path.write_bytes(bom + text.replace("\n", "\r\n").encode(encoding))
    (match,) = read_mat(path, strict=True).matches
    assert match.games[0].names == names and match.tags["Player 1"] == names[0]
    assert len(match.games[0].turns) == 2


@pytest.mark.parametrize("data, offset, line, column", [
    # One stray byte in a UTF-8 file with UTF-8 letters: an error, not cp1252 letters.
    ("Jürgen\nMüller\nab".encode() + b"\xff", 18, 3, 3),
    (b"ab\r\ncd\x81\x8d\x98 xyz", 6, 2, 3),  # cp1252 has no 0x81, cp1251 no 0x98
    (codecs.BOM_UTF16_LE + "ab\ncd".encode("utf-16-le") + b"\x00", 12, 2, 3),  # odd length
    (codecs.BOM_UTF8 + b"ab\n\xc3\x28", 6, 2, 1),
])
def test_undecodable_bytes_give_offset_line_and_column(data, offset, line, column):
    with pytest.raises(DecodeError) as info:
        decode(data, "x.mat")
    error = info.value
    assert (error.offset, error.line, error.column) == (offset, line, column)
    assert f"offset {offset}" in error.message and f"x.mat:{line}:{column}:" in str(error)


def test_undecodable_file_is_one_collected_error(tmp_path):
    path = tmp_path / "bad.mat"
    path.write_bytes(b" 3 point match\nab\x81\x8d\x98")
    parsed = read_mat(path)
    assert parsed.matches == () and type(parsed.errors[0]) is DecodeError


# --- files that are not match records ---------------------------------------------------------

README = "Club matches\n============\n\nThe files here are from 2024; see the .mat files.\n"


@pytest.mark.parametrize("data, seen, where", [
    (README.encode(), "no 'N point match' line", (1, 1)),
    (b"\n\n   notes: 5 point match play\n", "no 'N point match' line", (3, 4)),
    ((CATALOGUE / "not_a_match_binary.mat").read_bytes(), "binary data", (1, 1)),  # a PNG
    (b"\x00\x01\x02 abc", "binary data", (1, 1)),  # decodes, but with control characters
    (bytes(range(256)) * 8, "binary data", (1, 1)),
])
def test_a_file_that_is_not_a_match_is_one_not_a_match_error(tmp_path, data, seen, where):
    path = tmp_path / "README.txt"
    path.write_bytes(data)
    (error,) = read_mat(path).errors
    assert type(error) is NotAMatch and error.kind == "not_a_match"
    assert error.message == f"not a match record: {seen}"
    assert (error.line, error.column) == where and error.file == str(path)
    with pytest.raises(NotAMatch):
        read_mat(path, strict=True)
    result = CliRunner().invoke(main, ["replay", "--json", str(path)])
    assert result.exit_code == 1
    (reported,) = json.loads(result.stdout)["errors"]
    assert reported["kind"] == "not_a_match" and (reported["line"], reported["column"]) == where


@pytest.mark.parametrize("text, line", [
    (" 3 point matc\n\n Game 1\n a : 0   b : 0\n", 1),  # headers misspelt, a game line
    (" 3 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/5 xx\n", 5),
    (" 3 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/5\x006/5\n", 5),  # a NUL
])
def test_a_match_file_with_a_syntax_error_stays_a_syntax_error(text, line):
    error = parse_mat(text).errors[0]
    assert type(error) is NotationError and error.kind == "syntax" and error.line == line


def test_an_empty_or_blank_file_holds_no_match_and_no_error(tmp_path):
    # The command line reports such a file as kind "empty" (tested in test_cli.py).
    for text in ("", "\n \n", "; a comment\n\n"):
        assert parse_mat(text, strict=True) == ParsedFile((), ())


# --- unreadable paths and the command line ------------------------------------------------------

def unreadable_folder(tmp_path) -> Path:
    folder = tmp_path / "files"
    folder.mkdir()
    (folder / "x.mat").mkdir()
    (folder / "dangling.mat").symlink_to(folder / "nowhere.mat")
    (folder / "loop.mat").symlink_to(folder / "loop.mat")
    (folder / "empty.mat").write_bytes(b"")
    (folder / "binary.mat").write_bytes(bytes(range(256)) * 8)
    (folder / "sub").mkdir()
    (folder / "sub" / "up").symlink_to(folder)  # a folder loop
    (folder / "good.mat").write_bytes((SAMPLES / "galaxy_style_crawford.mat").read_bytes())
    return folder


def test_unreadable_paths_raise_oserror(tmp_path):
    folder = unreadable_folder(tmp_path)
    for name in ("x.mat", "dangling.mat", "loop.mat"):
        with pytest.raises(OSError):
            read_mat(folder / name)
    assert read_mat(folder / "empty.mat", strict=True).matches == ()
    with pytest.raises(NardyError):
        read_mat(folder / "binary.mat", strict=True)
    assert isinstance(read_mat(folder / "binary.mat").errors[0], NardyError)


def test_cli_reports_each_unreadable_file_and_carries_on(tmp_path):
    folder = unreadable_folder(tmp_path)
    result = CliRunner().invoke(main, ["replay", "--json", str(folder)])
    assert result.exit_code == 1
    objects = {Path(o["file"]).name: o for o in map(json.loads, result.stdout.splitlines())}
    assert set(objects) == {"x.mat", "dangling.mat", "loop.mat", "empty.mat", "good.mat"}
    assert objects["good.mat"]["games"] == 3 and not objects["good.mat"]["errors"]
    for name in ("x.mat", "dangling.mat", "loop.mat", "empty.mat"):
        assert objects[name]["errors"], name
    # Binary data found in a folder is not a match record: counted in a note, not an error.
    assert result.stderr == f"1 file is not a match record: {folder / 'binary.mat'}\n"
    good = CliRunner().invoke(main, ["replay", str(folder / "good.mat")])
    assert good.exit_code == 0


def test_cli_keeps_the_nine_good_games_and_names_game_4(tmp_path):
    path = tmp_path / "ten.mat"
    path.write_text(ten_games(), "utf-8")
    result = CliRunner().invoke(main, ["replay", "--json", str(path)])
    assert result.exit_code == 1
    summary = json.loads(result.stdout)
    assert summary["games"] == 9
    syntax = [e for e in summary["errors"] if e["kind"] == "syntax"]
    assert [(e["game"], e["line"], e["column"]) for e in syntax] == [(4, 25, 42)]


# --- hostile text ------------------------------------------------------------------------------

HEADER = " 3 point match\n\n Game 1\n a : 0                           b : 0\n"


@pytest.mark.parametrize("text", [
    " " + "9" * 5000 + " point match\n",             # beyond int()'s 4300-digit limit
    HEADER + " " + "1" * 5000 + ") 31: 8/5 6/5\n",
    HEADER + "  1) 31: 8/5\x00 6/5\n",
    HEADER + "  1) 31: " + "8/5(9)" + " 6/5" * 1000 + "\n",
    HEADER + "  1) 31: 99/98 0/5\n",                 # points no board has (replay's business)
    "\x00" * 1000,
    "\n" * 100_000,
    ";" * 100_000,
    "\ufeff\ufeff Game 1\n",
    HEADER.replace(" a ", " " + "a" * 100_000 + " "),
    HEADER + "  1)" * 10_000 + "\n",
    "\u2028 3 point match\u2029\n",
])
def test_hostile_text_reads_or_raises_a_notation_error(text):
    try:
        matches = parse_mat(text, strict=True).matches
    except NotationError as error:
        assert error.line >= 1 and error.column >= 1
        assert len(error.message) < 1000
    else:
        for match in matches:
            replay_match(match)
    parsed = parse_mat(text)
    assert all(e.line >= 1 and e.column >= 1 for e in parsed.errors)


# --- large input (time and memory: benchmarks/hostile_input.py) -------------------------------

def test_a_broken_move_in_every_game_cuts_each_game_there():
    source = (SAMPLES / "BackgammonStudio_6783333.mat").read_text("utf-8")
    clean = source[source.index(" Game 1"):]
    game = clean.replace("13/5*", "13/x5*")
    assert game.count("13/x5*") == 1 and game.endswith("\n")
    parsed = parse_mat(" 0 point match\n\n" + game * 45)
    assert len(parsed.errors) == 45
    # Each error at the broken token of its copy: 2 header lines, then the copies.
    before = game[:game.index("13/x5*")]
    line, column = 3 + before.count("\n"), len(before) - before.rfind("\n")
    lines = [line + i * game.count("\n") for i in range(45)]
    assert [(e.line, e.column) for e in parsed.errors] == [(n, column) for n in lines]
    # Each copy is kept up to the line before its broken one.
    (whole,) = parse_mat(" 0 point match\n\n" + clean, strict=True).matches[0].games
    kept = len([a for a in whole.actions if a.line < line])
    assert [g.cut_line for g in parsed.matches[0].games] == lines
    assert {len(g.actions) for g in parsed.matches[0].games} == {kept}
