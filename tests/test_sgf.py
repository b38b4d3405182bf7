"""gnubg SGF: files gnubg wrote for real matches read to the same games as the .mat they came
from, malformed SGF is reported at its line and column, and written SGF reads back (here and
in gnubg) to the same moves."""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from importlib.util import find_spec
from pathlib import Path

import pytest
from conftest import CORPUS, CORPUS_FILES, ROOT
from hypothesis import HealthCheck, given, settings
from test_writer import legal_matches

from nardy_analysis import (
    DecodeError,
    NotationError,
    Roll,
    load_file,
    match_files,
    parse_mat,
    read_mat,
    replay_file,
    replay_match,
    write_sgf,
    written_record,
)
from nardy_analysis.notation.records import CubeRecord, MatchRecord, ResultRecord, TurnRecord
from nardy_analysis.notation.sgf import decode_sgf, parse_sgf
from nardy_analysis.notation.sgf_writer import format_sgf

DATA = ROOT / "tests" / "data" / "sgf"
ROWS = list(csv.DictReader((DATA / "sgf.tsv").open(newline=""), delimiter="\t"))
GNUBG = os.environ.get("NARDY_GNUBG") or shutil.which("gnubg") or \
    ("/usr/games/gnubg" if Path("/usr/games/gnubg").exists() else None)
# The games gnubg ends differently from the site: a site awards a player who leaves the match
# all the points the opponent needs (4); gnubg makes it a resignation, at most a backgammon.
FORFEITS = {("BackgammonGalaxy_4419400.sgf", 5): 3, ("BackgammonGalaxy_5708914.sgf", 3): 3}

sys.path.insert(0, str(ROOT / "tools"))
from gnubg_sgf import gnubg_mat  # noqa: E402


def read(row) -> MatchRecord:
    parsed = parse_sgf(decode_sgf((DATA / row["sgf"]).read_bytes()), row["sgf"], strict=True)
    match, = parsed.matches
    return match


def hops(turn: TurnRecord):
    return [(a, b) for move in turn.moves for _ in range(move.count)
            for a, b in zip(move.points, move.points[1:])] if turn.moves is not None else None


# --- gnubg's files -----------------------------------------------------------------------------

def test_the_test_set_is_varied():
    assert len(ROWS) >= 20
    assert {row["gnubg"] for row in ROWS} == {"1.1.0a16"}
    sites = {row["mat"].split("_")[0] for row in ROWS}
    assert sites == {"BackgammonGalaxy", "BackgammonStudio"}
    endings = set()
    for row in ROWS:
        replayed = replay_match(read(row))
        endings |= {g.ending for g in replayed.games}
        assert any(g.winner is not None for g in replayed.games)
    assert {"single", "gammon", "backgammon", "drop", "resign"} <= endings


@pytest.mark.parametrize("row", ROWS, ids=[row["sgf"] for row in ROWS])
def test_gnubg_sgf_parses_and_replays(row):
    match = read(row)
    games = match.games
    assert (len(games), sum(len(g.turns) for g in games),
            sum(isinstance(a, CubeRecord) for g in games for a in g.actions)) == \
        (int(row["games"]), int(row["rolls"]), int(row["cube_actions"]))
    assert [g.number for g in games] == list(range(1, len(games) + 1))
    assert match.tags["Crawford"] == "On" and match.tags["Player 1"] == games[0].names[0]
    replayed = replay_match(match)
    for game in replayed.games:
        assert not game.errors and not game.warnings, (game.errors, game.warnings)
        assert game.winner is not None
    lines = (DATA / row["sgf"]).read_text("utf-8").split("\n")
    for action in (a for g in games for a in g.actions):
        assert lines[action.line - 1][action.column - 1:].startswith(action.text)


def test_gnubg_properties_and_positions_of_a_known_file():
    """BackgammonGalaxy_1000092.sgf, as gnubg wrote it: 16-point match, 4 moves each, then
    W doubles and B drops."""
    match = read(next(r for r in ROWS if r["sgf"] == "BackgammonGalaxy_1000092.sgf"))
    assert (match.length, match.names, match.tags["Site"], match.tags["EventDate"]) == \
        (16, ("p9d29", "pa79d50a"), "BackgammonGalaxy", "2024.07.09")
    game, = match.games
    first, second = game.actions[:2]
    assert (first.player, first.roll, first.text) == (0, Roll(4, 2), "W[42hdfd]")
    assert [(m.points, m.column, m.text) for m in first.moves] == [((8, 4), 6, "hd"),
                                                                    ((6, 4), 8, "fd")]
    assert [m.points for m in second.moves] == [(24, 18), (18, 13)]  # B[65aggl]
    cube = [(a.player, a.action, a.line) for a in game.actions if isinstance(a, CubeRecord)]
    assert cube == [(0, "double", 10), (1, "drop", 11)]
    result = game.actions[-1]
    assert (result.player, result.points, result.wins, result.text, result.line) == \
        (0, 1, True, "RE[W+1]", 1)
    assert ("RU", ("Crawford",)) in game.properties
    assert dict(game.properties)["GS"][0].startswith("M:0 0 4 4")


@pytest.mark.skipif(not CORPUS_FILES, reason=f"needs the shared corpus at {CORPUS} (NARDY_CORPUS)")
@pytest.mark.parametrize("row", ROWS, ids=[row["sgf"] for row in ROWS])
def test_gnubg_sgf_replays_as_its_mat(row):
    sgf = replay_match(read(row))
    mat, = (replay_match(m) for m in read_mat(CORPUS / row["mat"], strict=True).matches)
    assert len(sgf.games) == len(mat.games)
    for ours, theirs in zip(sgf.games, mat.games):
        assert (ours.record.names, ours.record.scores) == \
            (theirs.record.names, theirs.record.scores)
        assert [(t.player, t.roll) for t in ours.record.turns] == \
            [(t.player, t.roll) for t in theirs.record.turns]
        assert [(t.before, t.after) for t in ours.turns] == \
            [(t.before, t.after) for t in theirs.turns][:len(ours.turns)]
        assert ours.winner == theirs.winner
        forfeit = FORFEITS.get((row["sgf"], ours.number))
        if forfeit:
            assert (theirs.ending, ours.ending, ours.points) == ("forfeit", "resign", forfeit)
            continue
        # gnubg writes the game's full value; sites cap it at what the winner needs.
        needed = sgf.record.length - ours.record.scores[ours.winner]
        assert min(ours.points, needed) == min(theirs.points, needed)


def test_resignation_after_rolling_and_annotations():
    """gnubg writes a roll after which the player resigned as ``PL[B]DI[43]``, keeps its
    analysis on the node and says the resignation in ``RE``."""
    text = ("(;FF[4]GM[6]CA[UTF-8]MI[length:5][game:3][ws:1][bs:3]PW[a]PB[b]RU[Crawford]"
            "RE[W+2R]\n;W[42hdfd]LU[0.12345]GW[1]\n;B[65aggl]A[1][aggl E ver 3 0.5]"
            "\n;PL[B]DI[43]LU[-0.2])\n")
    game, = parse_sgf(text).matches[0].games
    roll, play, rest, result = game.actions
    assert (game.number, game.scores) == (4, (1, 3))
    assert roll.properties == (("LU", ("0.12345",)), ("GW", ("1",)))
    assert play.properties == (("A", ("1", "aggl E ver 3 0.5")),)
    assert (rest.player, rest.roll, rest.moves, rest.text, rest.line, rest.column) == \
        (1, Roll(4, 3), (), "PL[B]DI[43]", 4, 2)
    assert rest.properties == (("LU", ("-0.2",)),)
    assert (result.player, result.points, result.match_won) == (0, 2, False)


def test_escapes_charsets_and_several_matches():
    text = ("(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]PW[a\\]b\\\\c]PB[d\\\ne]"
            "GC[x]\n;W[31hefe])\n(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[p]PB[q])\n")
    first, second = parse_sgf(text).matches
    assert first.games[0].names == ("a]b\\c", "de") and first.tags["Comment"] == "x"
    assert (first.length, second.length, second.names) == (1, 3, ("p", "q"))
    latin = "(;FF[4]GM[6]PW[Þórður Ægisson]PB[x])".encode("latin-1")
    assert parse_sgf(decode_sgf(latin)).matches[0].names[0] == "Þórður Ægisson"
    utf8 = "(;FF[4]GM[6]CA[UTF-8]PW[Þórður]PB[x])".encode()
    assert parse_sgf(decode_sgf(utf8)).matches[0].names[0] == "Þórður"
    with pytest.raises(DecodeError) as error:
        decode_sgf(b"(;FF[4]CA[UTF-8]\n;PW[\xff])", "x.sgf")
    assert (error.value.offset, error.value.line, error.value.column) == (21, 2, 5)


def test_threads_read_the_same_records():
    texts = [(DATA / row["sgf"]).read_text("utf-8") for row in ROWS[:4]] * 4
    sequential = [parse_sgf(t) for t in texts]
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(parse_sgf, texts)) == sequential


# --- malformed SGF ----------------------------------------------------------------------------

GOOD = "(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[a]PB[b]\n;W[42hdfd]\n;B[65aggl])\n"


@pytest.mark.parametrize("text, line, column, words", [
    ("(;FF[4]GM[6]PW[a]\n;W[42hdfd)\n", 2, 3, "no closing ']'"),
    ("(;FF[4]GM[6]\n;W[42hdfd]\n", 2, 11, "not closed"),
    ("(;FF[4]GM[6]\n;W[42hdfd]x[1])\n", 2, 11, "unexpected 'x'"),
    ("(;FF[4]GM[6]\n;W[42hd!d])\n", 2, 8, "'!' is not a point to move from"),
    ("(;FF[4]GM[6]\n;B[42zd])\n", 2, 6, "'z' is not a point to move from"),
    ("(;FF[4]GM[6]\n;W[42hdf])\n", 2, 9, "'nothing' is not a point to move to"),
    ("(;FF[4]GM[6]\n;W[72hdfd])\n", 2, 4, "unknown dice '72'"),
    ("(;FF[4]GM[6]\n;W[4])\n", 2, 5, "unknown dice '4'"),
    ("(;FF[4]GM[6]\n;W[11aaaaaaaaaa])\n", 2, 14, "more than four checker steps"),
    ("(;FF[4]GM[1]PW[a])\n", 1, 8, "not a backgammon game tree (GM[1]"),
    ("(;FF[4]GM[6]MI[length:x])\n", 1, 13, "MI[length:x]: not a number"),
    ("(;FF[4]GM[6]RE[W+])\n(;FF[4]GM[6]RE[X])\n", 2, 13, "the result is W+N or B+N"),
    ("(;FF[4]GM[6]\n;AE[a:y]AB[a])\n", 2, 2, "a position set up other than right after a "
     "roll with no play"),
    ("(;FF[4]GM[6]\n;W[31hefe]\n;AE[a:y]AB[a])\n", 3, 2, "other than right after a roll"),
    ("(;FF[4]GM[6]\n;PL[W]DI[11]\n;AE[a:x]AW[a])\n", 3, 2, "only a set-up that clears the "
     "whole board first (AE[a:y])"),
    ("(;FF[4]GM[6]\n;PL[W]DI[11]\n;AW[a])\n", 3, 2, "only a set-up that clears"),
    ("(;FF[4]GM[6]\n;PL[W]DI[11]\n;AE[a:y]AW[a][z])\n", 3, 9, "'z' is not a point to set "
     "a checker on"),
    ("(;FF[4]GM[6]\n;PL[W]DI[11]\n;AE[a:y]AW[c]AB[c])\n", 3, 2, "AW and AB both set "
     "checkers on W's point 3"),
    ("(;FF[4]GM[6]\n;PL[W]DI[11]\n;PL[X]AE[a:y]AW[c])\n", 3, 2, "PL[X]: the player is W or "
     "B"),
    ("(;FF[4]GM[6]RU[Nackgammon])\n", 1, 13, "the variant Nackgammon is not supported"),
])
def test_malformed_sgf_is_reported_at_its_line_and_column(text, line, column, words):
    with pytest.raises(NotationError) as raised:
        parse_sgf(text, "bad.sgf", strict=True)
    error = raised.value
    assert (error.line, error.column, error.file) == (line, column, "bad.sgf")
    assert words in error.message
    collected = parse_sgf(text, "bad.sgf")
    assert (collected.errors[-1].line, collected.errors[-1].column) == (line, column)


def test_a_broken_game_is_skipped_and_the_others_kept():
    broken = GOOD.replace("game:0", "game:1").replace("W[42hdfd]", "W[42hd")
    parsed = parse_sgf(GOOD + broken + GOOD.replace("game:0", "game:2"))
    assert [g.number for m in parsed.matches for g in m.games] == [1, 3]
    error, = parsed.errors
    # "[42hd" runs on to the next "]": a value, but not a move; the "]" is missing at 5:8.
    assert (error.line, error.column, error.game) == (5, 8, 2)
    assert error.message.startswith("W[42hd: 'nothing' is not a point to move from")
    parsed = parse_sgf(GOOD + GOOD.replace("game:0", "game:1").replace("hdfd", "hdfq!"))
    assert [g.number for g in parsed.matches[0].games] == [1]
    assert (parsed.errors[0].line, parsed.errors[0].column, parsed.errors[0].game) == (5, 10, 2)


# --- writing SGF -------------------------------------------------------------------------------

def summary(match, ordered: bool = True) -> list:
    """Per game: names, scores, (player, roll, hops) of each roll (hops sorted unless
    ``ordered``), cube actions, results."""
    order = (lambda h: h) if ordered else (lambda h: h if h is None else sorted(h))
    return [(g.names, g.scores,
             [(a.player, a.roll, order(hops(a))) for a in g.actions
              if isinstance(a, TurnRecord)],
             [(a.player, a.action) for a in g.actions if isinstance(a, CubeRecord)],
             [(a.player if a.wins else 1 - a.player, a.points) for a in g.actions
              if isinstance(a, ResultRecord)][:1]) for g in match.games]


@pytest.mark.slow
@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(legal_matches().filter(lambda generated: not any(
    isinstance(a, CubeRecord) and a.action in ("beaver", "raccoon")
    for g in generated[0].games for a in g.actions)))
def test_random_legal_matches_round_trip(generated):
    record, expected = generated
    again, = parse_sgf(format_sgf(record), strict=True).matches
    assert summary(again) == summary(record)
    replayed, = parse_sgf(format_sgf(written_record(replay_match(record), merge=False)),
                          strict=True).matches
    games = replay_match(replayed).games
    assert not any(g.errors for g in games)
    for game, wanted in zip(games, expected):
        assert [(t.before, t.roll, t.after) for t in game.turns] == \
            [(before, roll, after) for before, roll, after, *_ in wanted.turns]
        assert (game.winner, game.points) == (wanted.result or (None, None))


def test_gnubg_files_round_trip():
    for row in ROWS:
        match = read(row)
        again, = parse_sgf(format_sgf(match), strict=True).matches
        assert summary(again) == summary(match)
        again, = parse_sgf(format_sgf(written_record(replay_match(match), merge=False)),
                           strict=True).matches
        assert summary(again, ordered=False) == summary(match, ordered=False)


def test_unwritable_records_raise():
    record, = parse_mat(" 0 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: ???   42: 8/4 6/4\n",
                        strict=True).matches
    with pytest.raises(NotationError) as error:
        format_sgf(record)
    assert (error.value.line, error.value.column) == (5, 6)
    assert "an unknown play cannot be written in SGF" in error.value.message


def test_a_replayed_match_is_written_one_step_per_die_in_the_order_played():
    """written_record(match, merge=False), as ``nardy convert --to sgf`` writes it: each
    replayed play one move per die, as played; each game's ending, which gives the result
    its R only where the game was resigned."""
    match, = replay_file(ROOT / "sample_games" / "BackgammonStudio_5407469.mat")
    written = written_record(match, merge=False)
    for game, record in zip(match.games, written.games):
        assert record.ending == game.ending
        by_record = {turn.record: turn for turn in game.turns}
        for original, action in zip(game.record.turns, record.turns):
            play = by_record[original].play
            if play is not None:
                assert [(m.points, m.hits, m.count) for m in action.moves] == \
                    [((m.start, m.end), (m.hit,), 1) for m in play.moves]
    assert [game.ending for game in match.games] == ["single", "resign"]
    results = r"RE\[[WB]\+\d+R?\]"
    assert re.findall(results, format_sgf(written)) == ["RE[W+2]", "RE[W+1R]"]
    # a record as read: R on every result that does not follow a drop
    assert re.findall(results, format_sgf(match.record)) == ["RE[W+2R]", "RE[W+1R]"]


def test_rules_of_the_tags_give_the_root_nodes_ru():
    record, = parse_mat(" 0 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/5\n",
                        strict=True).matches
    for tags, ru in (({}, ""), ({"Jacoby": " yes"}, "RU[Jacoby]"), ({"Jacoby": "Off"}, ""),
                     ({"Variation": "caucasian "}, "RU[Caucasian]"),
                     ({"Variation": "LongNardy"}, "RU[LongNardy]")):
        text = format_sgf(MatchRecord(0, tags, record.games, 1, 1))
        assert re.findall(r"RU\[[^\]]*\]", text) == ([ru] if ru else [])


def test_write_sgf_writes_utf8_with_lf(tmp_path):
    target = tmp_path / "out.sgf"
    match, = replay_file(ROOT / "sample_games" / "studio_style_bom_crlf.mat")
    write_sgf(written_record(match, merge=False), target)
    data = target.read_bytes()
    assert b"\r" not in data and not data.startswith(b"\xef\xbb\xbf")
    assert "Zoë Ångström" in data.decode("utf-8")
    assert parse_sgf(data.decode("utf-8"), strict=True).matches[0].names == match.record.names


@pytest.mark.skipif(GNUBG is None, reason="needs gnubg's command-line program (NARDY_GNUBG)")
@pytest.mark.parametrize("row", ROWS, ids=[row["sgf"] for row in ROWS])
def test_gnubg_reads_written_sgf_with_the_same_moves(row):
    """gnubg loads format_sgf's text (``load match``) and exports the same rolls and
    positions as ``.mat`` (``export match mat``)."""
    match = replay_match(read(row))
    with tempfile.TemporaryDirectory() as tmp:
        for written in (written_record(match, merge=False), match.record):
            path = Path(tmp) / "written.sgf"
            write_sgf(written, path)
            back, = parse_mat(gnubg_mat(GNUBG, path), strict=True).matches
            again = replay_match(back)
            assert len(again.games) == len(match.games)
            for ours, theirs in zip(match.games, again.games):
                assert [(t.player, t.roll) for t in theirs.record.turns] == \
                    [(t.player, t.roll) for t in ours.record.turns]
                assert [(t.before, t.after) for t in theirs.turns] == \
                    [(t.before, t.after) for t in ours.turns]
                assert (theirs.winner, theirs.points) == (ours.winner, ours.points)
                assert not theirs.errors and not theirs.warnings


# --- SGF through load and every command -------------------------------------------------------

STUDIO_SGF = DATA / "BackgammonStudio_6783333.sgf"
STUDIO_MAT = ROOT / "sample_games" / "BackgammonStudio_6783333.mat"
# The .mat's match_id is its Match ID tag, the SGF's its file name; SGF has no move numbers
# (the N) of .mat), and its plays are one step per die (13/8 8/5* for 13/5*).
NOT_IN_SGF = ("file", "match_id", "move", "play")


def run(*args):
    from click.testing import CliRunner

    from nardy_analysis.cli import main

    return CliRunner().invoke(main, [str(a) for a in args])


def rows_without(text: str, columns=("file",)) -> list[dict]:
    return [{k: v for k, v in row.items() if k not in columns}
            for row in csv.DictReader(text.splitlines())]


def test_load_reads_sgf_by_suffix_and_folders_hold_sgf(tmp_path):
    (tmp_path / "deep").mkdir()
    copy = tmp_path / "deep" / "MATCH.SGF"
    copy.write_bytes(STUDIO_SGF.read_bytes())
    assert match_files([tmp_path]).files == []  # folders are searched for *.sgf exactly
    shutil.copy(STUDIO_SGF, tmp_path / "deep" / "match.sgf")
    found = match_files([tmp_path]).files
    assert found == [tmp_path / "deep" / "match.sgf"]
    for path in (copy, found[0]):
        loaded = load_file(path)
        assert loaded.errors == () and not loaded.matches[0].errors
        assert [(t.before, t.roll, t.after) for t in loaded.matches[0].games[0].turns] == \
            [(t.before, t.roll, t.after) for t in replay_file(STUDIO_MAT)[0].games[0].turns]
    (tmp_path / "bad.sgf").write_bytes(b"(;FF[4]GM[6]CA[UTF-8]MI[length:3][game:0]PW[\xff])")
    assert [e.kind for e in load_file(tmp_path / "bad.sgf").errors] == ["encoding"]


def test_replay_stats_audit_and_plot_read_sgf_as_the_mat(tmp_path):
    replayed = json.loads(run("replay", "--json", STUDIO_SGF).stdout)
    assert (replayed["games"], replayed["turns"], replayed["errors"]) == (1, 72, [])
    sgf, mat = run("stats", STUDIO_SGF), run("stats", STUDIO_MAT)
    assert sgf.exit_code == mat.exit_code == 0
    assert rows_without(sgf.stdout, NOT_IN_SGF) == rows_without(mat.stdout, NOT_IN_SGF)
    assert sgf.stdout.count("\n") == 73
    sgf, mat = run("audit", "--json", STUDIO_SGF), run("audit", "--json", STUDIO_MAT)
    assert sgf.exit_code == 0  # the results; the first line says which file was read
    assert sgf.stdout.splitlines()[1:] == mat.stdout.splitlines()[1:]
    result = run("plot", STUDIO_SGF, "--game", "1", "--out", tmp_path / "race.svg")
    assert result.exit_code == 0 and (tmp_path / "race.svg").read_text().startswith("<?xml")


@pytest.mark.skipif(find_spec("gnubg_nn") is None, reason="needs the engine extra (gnubg-nn)")
def test_luck_reads_sgf_as_the_mat(tmp_path):
    assert run("luck", STUDIO_SGF, "--csv", tmp_path / "sgf.csv").exit_code == 0
    assert run("luck", STUDIO_MAT, "--csv", tmp_path / "mat.csv").exit_code == 0
    assert rows_without((tmp_path / "sgf.csv").read_text(), NOT_IN_SGF) == \
        rows_without((tmp_path / "mat.csv").read_text(), NOT_IN_SGF)


def test_convert_between_mat_and_sgf(tmp_path):
    to_mat = run("convert", STUDIO_SGF, "--to", "mat", "-o", tmp_path / "from_sgf.mat")
    assert to_mat.exit_code == 0, to_mat.output
    to_sgf = run("convert", STUDIO_MAT, "--to", "sgf", "-o", tmp_path / "from_mat.sgf")
    assert to_sgf.exit_code == 0, to_sgf.output
    want = [(t.before, t.roll, t.after) for t in replay_file(STUDIO_MAT)[0].games[0].turns]
    for path in (tmp_path / "from_sgf.mat", tmp_path / "from_mat.sgf"):
        match, = replay_file(path)
        assert [(t.before, t.roll, t.after) for t in match.games[0].turns] == want
        assert (match.games[0].winner, match.games[0].points) == (1, 8)


@pytest.mark.skipif(GNUBG is None, reason="needs gnubg's command-line program (NARDY_GNUBG)")
def test_gnubg_reads_convert_to_sgf_with_the_same_moves(tmp_path):
    """``nardy convert --to sgf`` of a .mat: gnubg loads it and exports the same moves."""
    source = ROOT / "sample_games" / "galaxy_style_crawford.mat"
    assert run("convert", source, "--to", "sgf", "-o", tmp_path / "m.sgf").exit_code == 0
    back, = parse_mat(gnubg_mat(GNUBG, tmp_path / "m.sgf"), strict=True).matches
    ours = replay_file(source)[0]
    theirs = replay_match(back)
    assert [[(t.player, t.roll, t.before, t.after) for t in g.turns] for g in theirs.games] == \
        [[(t.player, t.roll, t.before, t.after) for t in g.turns] for g in ours.games]
    assert [(g.winner, g.points) for g in theirs.games] == \
        [(g.winner, g.points) for g in ours.games]


@pytest.mark.parametrize("row", ROWS, ids=[row["sgf"] for row in ROWS])
def test_convert_of_gnubg_sgf_to_mat_replays_the_same(row, tmp_path):
    source = DATA / row["sgf"]
    result = run("convert", source, "--to", "mat", "-o", tmp_path / "out.mat")
    ours, theirs = load_file(source), load_file(tmp_path / "out.mat")
    errors = [(g, e) for m in ours.matches for g in m.games for e in g.errors]
    assert (result.exit_code, errors) == (0, [])
    assert theirs.errors == ()
    assert [[(t.before, t.roll, t.after) for t in g.turns] for g in theirs.matches[0].games] == \
        [[(t.before, t.roll, t.after) for t in g.turns] for g in ours.matches[0].games]
    assert [(g.winner, g.points) for g in theirs.matches[0].games] == \
        [(g.winner, g.points) for g in ours.matches[0].games]


ILLEGAL = ROOT / "tests" / "data" / "illegal_play"


def test_gnubgs_sgf_of_a_match_with_illegal_plays_has_the_mats_games_and_turns():
    # tests/data/illegal_play/README.md: gnubg 1.1.0a16 imported the .mat (one Illegal play
    # per game, tools/illegal_play_match.py) and wrote three game trees, each with a set-up.
    text = (ILLEGAL / "galaxy_1050517_illegal.sgf").read_text("utf-8")
    assert text.count("(;FF[4]GM[6]") == 3 and len(re.findall(r"RE\[[WB]\+", text)) == 3
    assert text.count("AE[a:y]") == 3
    # gnubg's artefact: a double after the drop that ends game 1 (it reads it back as no action).
    assert re.search(r"W\[drop\]\s*;B\[double\]\)", text)
    (mat,) = replay_file(ILLEGAL / "galaxy_1050517_illegal.mat")
    (sgf,) = replay_file(ILLEGAL / "galaxy_1050517_illegal.sgf")
    for match in (mat, sgf):
        assert not match.errors
        assert [w.kind for w in match.warnings] == ["recorded_illegal_play"] * 3
    assert [len(g.turns) for g in sgf.games] == [len(g.turns) for g in mat.games]
    assert sum(len(g.turns) for g in sgf.games) == 138
    assert [(g.winner, g.points, g.ending) for g in sgf.games] == \
        [(g.winner, g.points, g.ending) for g in mat.games]
    assert [t.before for t in sgf.games[0].turns] == [t.before for t in mat.games[0].turns]
    first = sgf.record.games[0].actions
    assert [a.action for a in first if isinstance(a, CubeRecord)][-2:] == ["double", "drop"]
