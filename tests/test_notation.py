"""The .mat reader: quirks of real exporters, records, and syntax errors with line:column."""

import codecs
from concurrent.futures import ThreadPoolExecutor
from dataclasses import FrozenInstanceError
from functools import lru_cache

import pytest
from conftest import ROOT, SAMPLES, read_tsv
from hypothesis import given, settings
from hypothesis import strategies as st

from nardy_analysis import (
    DecodeError,
    NotationError,
    Roll,
    RuleViolation,
    format_mat,
    parse_mat,
    read_mat,
    replay_file,
    replay_match,
)
from nardy_analysis.errors import NotAMatch
from nardy_analysis.notation.decoding import decode
from nardy_analysis.notation.records import (
    CubeRecord,
    ResultRecord,
    SnowiePosition,
    TurnRecord,
    WrittenMove,
    tags_by_side,
)

GALAXY = """\
; [Site "BackgammonGalaxy"]
; [Player 1 "alice"]
; [Player 2 "bob"]
; [Player 1 Elo "1534,20"]
; [Variation "Backgammon"]

3 point match

 Game 1
 alice : 0                       bob : 0
  1) 42: 8/4 6/4                 65: 24/18 18/13
  2) 42: 13/9 13/11              62: 24/18 18/16
  3)  Doubles => 2                Drops
      Wins 1 point
"""


def test_galaxy_match_records():
    (match,) = parse_mat(GALAXY, "g.mat", strict=True).matches
    assert match.length == 3
    assert match.tags["Player 1 Elo"] == "1534,20"
    assert match.names == ("alice", "bob")
    (game,) = match.games
    assert (game.number, game.names, game.scores) == (1, ("alice", "bob"), (0, 0))
    kinds = [type(a).__name__ for a in game.actions]
    assert kinds == ["TurnRecord"] * 4 + ["CubeRecord", "CubeRecord", "ResultRecord"]
    first = game.actions[0]
    assert (first.player, first.roll, first.move, first.line, first.column) == \
        (0, Roll(4, 2), 1, 11, 6)
    assert first.text == "42: 8/4 6/4"
    assert [m.points for m in first.moves] == [(8, 4), (6, 4)]
    assert [(m.line, m.column) for m in first.moves] == [(11, 10), (11, 14)]
    assert game.actions[1].player == 1 and game.actions[1].column == 34
    double, drop, result = game.actions[4:]
    assert (double.player, double.action, double.value) == (0, "double", 2)
    assert (drop.player, drop.action) == (1, "drop")
    assert (result.player, result.points, result.wins, result.match_won) == (0, 1, True, False)


@pytest.mark.parametrize("variant", [
    lambda t: t.replace("\n", "\r\n"),
    lambda t: t.replace("\n", "\r"),
    lambda t: "\ufeff" + t,
    lambda t: t.rstrip("\n"),
    lambda t: t.replace("\n", "   \n"),
    lambda t: t.replace("\n\n", "\n\n\n\n"),
    lambda t: t.replace(" Game 1", "; a comment line\n Game 1"),
])
def test_line_ends_bom_spaces_and_comments_do_not_change_the_records(variant):
    plain = parse_mat(GALAXY, strict=True).matches[0]
    other = parse_mat(variant(GALAXY), strict=True).matches[0]
    assert [(type(a), a.player, getattr(a, "roll", None)) for a in other.games[0].actions] == \
        [(type(a), a.player, getattr(a, "roll", None)) for a in plain.games[0].actions]
    assert other.tags == plain.tags


def test_move_notations():
    text = """ 0 point match

 Game 1
 Ivan Ivanov, Jr : 0            Jürgen : 0
  1) 25: 13/11 6/1               64: Bar/21 25/19*
  2) 33: 8/5*(2) 6/3(2)          55: 15/0 6/off
  3) 65: 24/13 13/7*/5           43: ????
  4) 21: Cannot Move             11:
  5) 44: bar/21 21/17 17/13 13/9
"""
    (match,) = parse_mat(text, strict=True).matches
    (game,) = match.games
    assert game.names == ("Ivan Ivanov, Jr", "Jürgen")
    turns = game.turns
    assert turns[0].roll == Roll(5, 2)
    assert [m.points for m in turns[1].moves] == [(25, 21), (25, 19)]
    assert turns[1].moves[1].hits == (True,)
    assert [(m.points, m.hits, m.count) for m in turns[2].moves] == \
        [((8, 5), (True,), 2), ((6, 3), (False,), 2)]
    assert [m.points for m in turns[3].moves] == [(15, 0), (6, 0)]
    assert [(m.points, m.hits) for m in turns[4].moves] == \
        [((24, 13), (False,)), ((13, 7, 5), (True, False))]
    assert turns[5].moves is None  # ???? : play unknown
    assert turns[6].moves == () and turns[7].moves == ()  # Cannot Move, empty play
    assert turns[8].moves[0].points == (25, 21)


@pytest.mark.parametrize("play, points", [
    ("b/22 22/21", [(25, 22), (22, 21)]),
    ("B/22 BAR/21", [(25, 22), (25, 21)]),
    ("bar/22 Bar/21", [(25, 22), (25, 21)]),
    ("6/o 5/O", [(6, 0), (5, 0)]),
    ("6/OFF 5/off", [(6, 0), (5, 0)]),
    ("b/20*/o", [(25, 20, 0)]),
])
def test_bar_and_off_spellings_gnubg_accepts(play, points):
    text = f" 0 point match\n\n Game 1\n a : 0     b : 0\n  1) 31: {play}\n"
    (turn,) = parse_mat(text, strict=True).matches[0].games[0].turns
    assert [m.points for m in turn.moves] == points
    assert [m.text for m in turn.moves] == play.split()
    assert [m.column for m in turn.moves] == [10 + play.index(t) for t in play.split()]


@pytest.mark.parametrize("play, column, found", [
    ("ba/22", 10, "ba/22"), ("bars/22", 10, "bars/22"), ("of/6", 10, "of/6"),
    ("x/22", 10, "x/22"), ("6/offf", 15, "f"), ("6/b o", 14, "o"),
])
def test_other_words_are_no_points(play, column, found):
    text = f" 0 point match\n\n Game 1\n a : 0     b : 0\n  1) 31: {play}\n"
    with pytest.raises(NotationError) as info:
        parse_mat(text, strict=True)
    assert (info.value.line, info.value.column) == (5, column)
    assert info.value.message.startswith(f"unexpected '{found}'")


FIBS = """\
 5 point match

 Game 1
 alice,1635 : 0                 bob, 1702.38 : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
      Wins 1 point

 Game 2
 alice,1635 : 1                 Doe, John : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
"""


def test_ratings_after_the_name_on_score_lines_fibs():
    first, second = parse_mat(FIBS, strict=True).matches[0].games
    assert first.names == ("alice", "bob") and first.ratings == (1635, 1702.38)
    assert second.names == ("alice", "Doe, John") and second.ratings == (1635, None)
    assert first.scores == (0, 0) and second.scores == (1, 0)
    assert parse_mat(FIBS).matches[0].names == ("alice", "bob")
    assert [a.player for a in second.actions] == [0, 1]  # columns still by the names


@pytest.mark.parametrize("name, bare, rating", [
    ("alice,1635", "alice", 1635), ("alice , 1635.5", "alice", 1635.5),
    ("Doe, John", "Doe, John", None), ("Smith, 3rd", "Smith, 3rd", None),
    (",1635", ",1635", None), ("a,b,1500", "a,b", 1500), ("1500", "1500", None),
    ("alice,", "alice,", None), ("alice,16.", "alice,16.", None),
])
def test_a_rating_is_a_number_after_the_last_comma(name, bare, rating):
    (game,) = parse_mat(f" 1 point match\n Game 1\n {name} : 0\n", strict=True).matches[0].games
    assert game.names[0] == bare and game.ratings == (rating, None)


def test_ratings_are_written_back():
    text = format_mat(parse_mat(FIBS, strict=True).matches)
    assert " alice,1635 : 0" in text and "bob,1702.38 : 0" in text and "Doe, John : 0" in text
    again = parse_mat(text, strict=True).matches[0].games
    assert [(g.names, g.ratings) for g in again] == \
        [(g.names, g.ratings) for g in parse_mat(FIBS).matches[0].games]


def test_left_column_empty_and_lone_entries_by_column():
    text = """ 5 point match

 Game 1
 alice : 0                       bob : 0
  1)                             52: 13/11 6/1
  2) 31: 8/5 6/5
  3)                              Doubles => 2
  4)  Takes                      64: 24/18 13/9
                                  Wins 2 points and the match
"""
    game = parse_mat(text, strict=True).matches[0].games[0]
    assert [a.player for a in game.actions] == [1, 0, 1, 0, 1, 1]
    result = game.actions[-1]
    assert isinstance(result, ResultRecord) and result.match_won and result.points == 2


def test_empty_second_name_and_two_matches():
    text = """; [Player 2 ""]
 1 point match

 Game 1
 alice : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
      Wins 1 point and the match

; [Site "x"]
 1 point match

 Game 1
 alice : 0                        : 0
  1) 31: 8/5 6/5
"""
    first, second = parse_mat(text, strict=True).matches
    assert first.games[0].names == ("alice", "")
    assert first.games[0].actions[1].player == 1
    assert second.tags == {"Site": "x"} and second.games[0].names == ("alice", "")


def test_site_losses_beside_wins():
    text = """ 3 point match

 Game 1
 a : 0                           b : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
  2)  Losses 2 point                                               Wins 2 point and the match

 Game 2
 a : 0                           b : 2
  1) 31: 8/5 6/5                 42: 8/4 6/4
  2) 22: 13/11 13/11 6/4 6/4      2)  Losses 1 point                                               Wins 1 point and the match

 Game 3
 a : 1                           b : 2
  1) 31: 8/5 6/5                 42: 8/4 6/4
 Losses 1 point

      Wins 1 point and the match
"""  # noqa: E501 (the score line as written)
    games = parse_mat(text, strict=True).matches[0].games
    results = [[(r.player, r.wins) for r in g.actions if isinstance(r, ResultRecord)]
               for g in games]
    assert results[0] == [(0, False), (1, True)]
    assert results[1] == [(1, False), (0, True)]
    assert results[2] == [(1, False), (0, True)]


def test_cube_actions():
    text = """ 0 point match

 Game 1
 a : 0                           b : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
  2)  Doubles => 2                Beavers => 4
  3)  Raccoons => 8
"""
    actions = parse_mat(text, strict=True).matches[0].games[0].actions
    cubes = [(a.player, a.action, a.value) for a in actions if isinstance(a, CubeRecord)]
    assert cubes == [(0, "double", 2), (1, "beaver", 4), (0, "raccoon", 8)]


@pytest.mark.parametrize("text, line, column, found", [
    (" 3 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/x5\n", 5, 14, "6/x5"),
    (" 3 point match\n\n Game 1\n a : 0   b : 0\n  1) 31 8/5 6/5\n", 5, 6, "31"),
    (" Game 1\n a : 0   b : 0\n", 1, 2, "Game"),
    (" 3 point match\n\n Game 1\n a : x   b : 0\n", 4, 6, "x"),
    (" 3 points match\n", 1, 9, "s"),
    (" 3 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/5   Doubles => \n", 5, 31, ""),
    (" 3 point match\n\n Game 1\n a : 0   b : 0\n  2)  Wins one point\n", 5, 12, "one"),
])
def test_syntax_errors_give_line_column_and_caret(text, line, column, found):
    with pytest.raises(NotationError) as info:
        parse_mat(text, "bad.mat", strict=True)
    error = info.value
    assert (error.line, error.column) == (line, column)
    assert error.file == "bad.mat"
    assert f"bad.mat:{line}:{column}:" in str(error)
    assert "expected" in error.message
    if found:
        assert f"'{found}'" in error.message
    caret_line = str(error).splitlines()[-1]
    assert caret_line.index("^") - 4 == column - 1


def test_decode_encodings():
    # A score line: a few bytes alone are too few for any detector to tell cp1252 from cp1251.
    line = " Иван Петров : 0                  bob : 0"
    western = line.replace("Иван Петров", "Jürgen Müller")
    assert decode(line.encode("cp1251")) == line
    assert decode(western.encode("cp1252")) == western
    assert decode(codecs.BOM_UTF8 + line.encode()) == line
    assert decode(line.encode("utf-16")) == line
    assert decode(line.encode()) == line


# Real-looking files: the sample match with Cyrillic names, its names replaced, with a header
# comment and tags in the same language; each written in the single-byte encoding its
# language's Windows systems use.
NAMES = [
    ("Þórður Ægisson", "Guðrún Jónsdóttir", "; Leikur í Reykjavík", "cp1252"),  # Icelandic
    ("Ólafur", "Þór", "", "cp1252"),
    ("François Lefèvre", "Hélène Dubois", "; Partie jouée à Nîmes", "cp1252"),  # French
    ("Noël", "Renée", "", "cp1252"),
    ("Jürgen Müller", "Günther Weiß", "; Turnier in Köln", "cp1252"),  # German
    ("Björk", "bob", "", "cp1252"),
    ("José Núñez", "Señora Peña", "; Partida en Logroño", "cp1252"),  # Spanish
    ("Smith, José", "Añejo", "", "cp1252"),
    ("Дмитрий", "Иван Иванов", "; Турнир в Москве", "cp1251"),  # Russian
    ("Ян", "bob", "", "cp1251"),  # two Cyrillic letters, in a sea of ASCII
    ("Ёж", "Ия", "", "cp1251"),
    ("Фёдор", "Щукин", "", "cp1251"),
]


@pytest.mark.parametrize("first, second, comment, encoding", NAMES)
def test_single_byte_files_decode_in_their_language(first, second, comment, encoding):
    sample = (SAMPLES / "cp1251_cyrillic_names.mat").read_bytes().decode("cp1251")
    text = (f"{comment}\n; [Player 1 \"{first}\"]\n; [Player 2 \"{second}\"]\n"
            + sample.replace("Дмитрий", first).replace("Иван Иванов", second))
    assert decode(text.encode(encoding)) == text
    assert decode(text.replace("\n", "\r\n").encode(encoding)) == text.replace("\n", "\r\n")
    (match,) = parse_mat(decode(text.encode(encoding)), strict=True).matches
    assert match.names == (first, second) and match.games[1].names == (first, second)


def test_undecodable_bytes_give_their_offset():
    # 0x81 is no cp1252 letter, 0x98 no cp1251 letter: neither encoding reads the text.
    with pytest.raises(DecodeError) as info:
        decode(b"abc \x81\x8d\x98 xyz")
    assert info.value.offset == 4
    assert "offset 4" in str(info.value) and "nor is the text cp1252 or cp1251" in str(info.value)


def test_records_are_immutable_hashable_and_repr_evaluates_back():
    match = parse_mat(GALAXY, strict=True).matches[0]
    game = match.games[0]
    turn = game.actions[0]
    assert isinstance(turn, TurnRecord)
    with pytest.raises(AttributeError, match="^can't set attribute$"):
        turn.player = 1
    with pytest.raises(FrozenInstanceError, match="^cannot assign to field 'names'$"):
        game.names = ("a", "b")
    with pytest.raises(AttributeError, match="'tuple' object has no attribute 'append'"):
        game.actions.append(turn)  # the containers are tuples too
    # Equal text gives equal records, usable as keys; a different play is a different record.
    again = parse_mat(GALAXY, strict=True).matches[0]
    assert again is not match and {match: "galaxy"}[again] == "galaxy"
    other = parse_mat(GALAXY.replace("42: 8/4 6/4", "42: 8/4 8/6", 1), strict=True).matches[0]
    assert other != match and other.games[0].actions[0] != turn
    # Every action is at its own place: all differ, and a set of them keeps them all.
    assert len(set(game.actions)) == len(game.actions) == 7
    namespace = {"TurnRecord": TurnRecord, "WrittenMove": WrittenMove, "Roll": Roll}
    assert eval(repr(turn), namespace) == turn
    assert str(turn.moves[0]) == "8/4" and turn.moves[0].notation(bar_off=False) == "8/4"


def test_records_print_short():
    (match,) = parse_mat(GALAXY, "g.mat").matches
    assert repr(match) == "MatchRecord(length=3, file='g.mat', games=1)"
    assert repr(match.games[0]) == \
        "GameRecord(number=1, names=('alice', 'bob'), scores=(0, 0), actions=7)"
    assert repr(parse_mat(GALAXY, "g.mat")) == \
        "ParsedFile(file='g.mat', matches=1, errors=0, warnings=0)"


def test_written_move_notation():
    move = WrittenMove((25, 7, 5, 0), (True, False, False), 2, 1, 1, "bar/7*/5/off(2)")
    assert str(move) == "bar/7*/5/off(2)"
    assert move.notation(bar_off=False) == "25/7*/5/0(2)"


@pytest.mark.parametrize("line, tag", [
    ('; [Site "x"]', ("Site", "x")),
    (' ;\t[  Player 1 Elo   "1534,20"  ]  trailing', ("Player 1 Elo", "1534,20")),
    ('; [Note "say "hi"" ]', ("Note", 'say "hi"')),
    ('; [Note "a"] b "c"]', ("Note", 'a"] b "c')),
    ('; [Empty ""]', ("Empty", "")),
    ('; [Site"x"]', None),       # a blank after the key
    ('; [Site x]', None),        # a quoted value
    ('; [Site "x"', None),       # the closing ']'
    ('; [Si"te "x"]', None),     # no '"' in the key
    ('; Site "x"', None),
])
def test_tags_are_comment_lines_that_read_as_tags(line, tag):
    """A comment line that is not a tag is an ordinary comment."""
    assert _tag_by_the_parser(line) == tag
    (match,) = parse_mat(f"{line}\n 1 point match\n", strict=True).matches
    assert match.tags == (dict([tag]) if tag else {})


def _tag_by_the_parser(line):
    """The tag of a comment line as the parser alone reads it (start rule "tag")."""
    from lark import UnexpectedInput

    from nardy_analysis.notation import mat_parser

    try:
        return mat_parser.parse(line, "tag")
    except UnexpectedInput:
        return None


def test_tags_belong_to_the_next_match_wherever_they_are():
    text = ('; [Site "one"]\n 1 point match\n Game 1\n a : 0  b : 0\n; [Site "two"]\n'
            '  1) 31: 8/5 6/5\n; [Round "2"]\n 3 point match\n; [Site "three"]\n')
    first, second = parse_mat(text, strict=True).matches
    assert first.tags == {"Site": "one"} and second.tags == {"Site": "two", "Round": "2"}
    assert [len(g.actions) for g in first.games] == [1]


def test_gnubg_text_export_is_not_a_match_and_says_to_export_mat():
    """tests/data/exporters: gnubg's ``export match text`` of a game (board diagrams that end
    in ``5 points match``, moves, statistics)."""
    path = ROOT / "tests" / "data" / "exporters" / "gnubg_text_BackgammonGalaxy_4440667_002.txt"
    parsed = read_mat(path)
    assert parsed.matches == ()
    (error,) = parsed.errors
    assert isinstance(error, NotAMatch) and error.kind == "not_a_match"
    assert (error.line, error.column) == (1, 1)
    assert "GNU Backgammon's text export" in error.message and "'export match mat'" in error.message
    assert error.text == "The score (after 1 game) is: p9d29 1, p5782e97242 0 (match to 5 points)"
    with pytest.raises(NotAMatch):
        read_mat(path, strict=True)


def test_strict_raises_the_error_the_lenient_reader_reports():
    text = GALAXY.replace("13/9 13/11", "13/9 13/x11")
    with pytest.raises(NotationError) as info:
        parse_mat(text, "g.mat", strict=True)
    parsed = parse_mat(text, "g.mat")
    (game,) = parsed.matches[0].games  # kept up to the line before the error
    assert game.cut_line == 12 and max(a.line for a in game.actions) == 11
    assert parsed.warnings == ()
    (error,) = parsed.errors
    assert (error.line, error.column, error.game) == (12, 15, 1) == \
        (info.value.line, info.value.column, 1)
    assert error.message == info.value.message + "; the rest of game 1 is skipped"


def test_parsing_holds_no_state_between_threads():
    """Parse and replay different files from several threads at once: every record, text
    and line is that of the sequential run."""
    files = sorted(SAMPLES.glob("*.mat")) + sorted((SAMPLES / "broken").glob("*.mat"))
    assert len(files) >= 8

    def read(path):
        parsed = read_mat(path)
        replayed = [replay_match(m) for m in parsed.matches]
        return (parsed.matches, [str(e) for e in parsed.errors],
                [[t.text for g in m.games for t in g.actions] for m in parsed.matches],
                [[(t.after, t.play) for g in m.games for t in g.turns] for m in replayed],
                [str(e) for m in replayed for e in m.errors])

    sequential = [read(path) for path in files]
    with ThreadPoolExecutor(max_workers=8) as pool:
        concurrent = list(pool.map(read, files * 6))
    assert concurrent == sequential * 6


def test_every_sample_has_the_expected_counts():
    rows = read_tsv(SAMPLES / "EXPECTED.tsv")
    assert len(rows) == len(list(SAMPLES.glob("*.mat")))
    for row in rows:
        matches = read_mat(SAMPLES / row["file"], strict=True).matches
        counts = (len(matches), sum(len(m.games) for m in matches),
                  sum(len(g.turns) for m in matches for g in m.games))
        assert counts == (int(row["matches"]), int(row["games"]), int(row["turns"])), row["file"]


# --- Illegal play (...) (XG, Snowie) ---------------------------------------------------------

ILLEGAL = ROOT / "tests" / "data" / "illegal_play"


def test_illegal_play_reads_the_snowie_position_list():
    parsed = read_mat(ILLEGAL / "real_shape.mat", strict=True)
    turn = parsed.matches[0].games[0].turns[2]
    recorded = turn.recorded_position
    assert (turn.player, turn.roll, turn.moves, turn.line, turn.column) == (0, Roll(1, 1), None,
                                                                            6, 6)
    assert turn.text.startswith("11: Illegal play (25;0;1;") and turn.text.endswith(";1;1;)")
    assert recorded.fields[:8] == (25, 0, 1, 0, 0, "alice", "bob", 0) and len(recorded.fields) == 40
    assert recorded.player == 0
    # Player 0 (negative numbers, points counted from the other side): 15 on her 1..6 points;
    # player 1: 13 on his 1..5 points and 2 on the bar.
    assert recorded.board == ((0, 2, 2, 2, 3, 3, 3) + (0,) * 19,
                              (0, 3, 4, 2, 2, 2) + (0,) * 19 + (2,))
    assert str(recorded) + ")" == turn.text.split("(", 1)[1]
    assert eval(repr(recorded), {"SnowiePosition": SnowiePosition}) == recorded
    assert parse_mat(FIBS, strict=True).matches[0].games[0].turns[0].recorded_position is None


@pytest.mark.parametrize("row", read_tsv(ILLEGAL / "gnubg_positions.tsv"), ids=lambda r: r["file"])
def test_replay_goes_on_from_the_recorded_position_as_gnubg_does(row):
    (match,) = replay_file(ILLEGAL / row["file"])
    (game,) = match.games
    assert not game.errors
    (warning,) = game.warnings
    illegal = [t for t in game.turns if t.record.recorded_position is not None]
    assert (warning.kind, warning.line, warning.column) == ("recorded_illegal_play",
                                                            illegal[0].record.line,
                                                            illegal[0].record.column)
    # gnubg's text export prints the position before every play it keeps, not the illegal one.
    assert [t.before.id() for t in game.turns if t not in illegal] == \
        row["gnubg_position_ids"].split()
    assert illegal[0].after is None and illegal[0].play is None
    with pytest.raises(RuleViolation) as info:
        replay_file(ILLEGAL / row["file"], strict=True)
    assert info.value.kind == "recorded_illegal_play"


def test_illegal_play_is_written_back_and_read_in_any_case():
    text = (ILLEGAL / "real_shape.mat").read_text("utf-8")
    (match,) = parse_mat(text, strict=True).matches
    again = parse_mat(format_mat(match), strict=True).matches[0]
    assert [t.recorded_position for t in again.games[0].turns] == \
        [t.recorded_position for t in match.games[0].turns]
    upper = parse_mat(text.replace("Illegal play", "ILLEGAL  PLAY"), strict=True).matches[0]
    assert upper.games[0].turns[2].recorded_position == match.games[0].turns[2].recorded_position


# --- the LINES and GAME_HEAD tokens: common lines read as their separate tokens would be -----

@lru_cache(maxsize=1)
def _token_by_token():
    """A reader's parser from the grammar without its LINES token (every line token by
    token, as before it)."""
    from importlib.resources import files

    from lark import Lark

    from nardy_analysis.notation import mat_parser

    grammar = files("nardy_analysis.grammars").joinpath("mat.lark").read_text("utf-8")
    text = grammar.replace("\n    | LINES\n", "\n").replace("\n    | GAME_HEAD line*\n", "\n")
    assert text.count("LINES") == grammar.count("LINES") - 1
    assert text.count("GAME_HEAD") == grammar.count("GAME_HEAD") - 1
    return Lark(text, parser="lalr", lexer="contextual", transformer=mat_parser._Records(),
                start=["start", "game", "game_line", "match_line", "tag"])


def _both_ways(text, monkeypatch):
    """The ParsedFile of ``text`` with the LINES token and without: its matches and its
    errors as text (the errors are exceptions, which compare by identity)."""
    from nardy_analysis.notation import mat, mat_parser

    fast = mat.parse_mat(text, "f.mat")
    with monkeypatch.context() as patched:
        patched.setattr(mat_parser, "_parser", _token_by_token)
        slow = mat.parse_mat(text, "f.mat")
    return [(f.matches, [repr(e) for e in f.errors]) for f in (fast, slow)]


def test_lines_token_reads_the_bundled_files_as_the_tokens_do(monkeypatch):
    files = sorted(SAMPLES.glob("*.mat")) + sorted((ROOT / "tests" / "malformed").glob("*.mat"))
    assert len(files) > 40
    for path in files:
        try:
            text = decode(path.read_bytes())
        except DecodeError:
            continue
        fast, slow = _both_ways(text, monkeypatch)
        assert fast == slow, path


_ENTRIES = ["52: 13/8 6/4", "31: 8/5* 6/5", "66: 24/18(2) 13/7*(2)", "43:", "43: Cannot Move",
            "43: Cannot  Move", "Doubles => 2", "Doubles=>4", "Takes", "Drops", "52: ???",
            "52: 13/8 6/4x", "61: bar/24 13/7", "21: 6/off 5/off", "Wins 1 point", "12)", "77: 1/2",
            " Beavers => 4", "Wins 2 points and the match", "Wins  4 points  and the match",
            "Wins 1 pointand the match", "Losses 1 point", "Losses 2 points and the match",
            "Losses 3", "Wins 1 point 2)"]


# Score lines (of the GAME_HEAD token), some of which it does not cover, or which are wrong.
_SCORE_LINES = [" alice : 0           bob : 0", " alice : 0", " : 0    bob : 3", "  bob : 12",
                " Doe, John : 1   x 2 : 3", " alice,1635 : 0  bob, 1500.5 : 2", " a : 1 : 2",
                " 1bob : 0 2 : 1", " alice : 0   bob", " a : 0 b : 1 c : 2", " alice: 0\tbob:0  ",
                " a : 1234567890", " a : 01b : 2", " a ; b : 1", " alice 0   bob : 1",
                " alice : 0   bob 1"]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["Game 1", "Game  12", "Game1", "Game 2 ", "Game 1 x", "Game", "Game 01",
                        "Game 1 a : 0"]),
       st.sampled_from(["", "\n; b: 2"]), st.sampled_from(_SCORE_LINES),
       st.sampled_from(["", "\n", "\n; a: 3", "\n  \n"]),
       st.lists(st.tuples(st.one_of(st.none(), st.integers(1, 99)),
                          st.lists(st.sampled_from(_ENTRIES), max_size=3),
                          st.sampled_from(["", " ", "  ", "\t", " \f"]),
                          st.sampled_from(["", " ", "        ", "\t"]),
                          st.sampled_from(["", "\n", "\n; a comment", "\n   \n"])),
                min_size=1, max_size=6))
def test_lines_token_reads_random_lines_as_the_tokens_do(game, after_game, scores, after_scores,
                                                         lines):
    text = f"1 point match\n\n {game}{after_game}\n{scores}{after_scores}\n"
    for number, entries, lead, gap, after in lines:
        text += lead + (f"{number}) " if number else "") + gap.join(entries) + after + "\n"
    with pytest.MonkeyPatch.context() as monkeypatch:
        fast, slow = _both_ways(text, monkeypatch)
    assert fast == slow


# tests/data/sides/xg_swapped_player_tags.mat: corpus match BackgammonGalaxy_5770330 (XG's
# header tags) with the Player 1 / Player 2 tags, and their Elo tags, written the other way
# round: the score lines have p9d29 on the left, who wins 3-0.
SWAPPED = ROOT / "tests" / "data" / "sides" / "xg_swapped_player_tags.mat"


def test_player_tags_the_other_way_round_take_the_score_lines_sides():
    parsed = read_mat(SWAPPED)
    (match,) = parsed.matches
    assert match.names == match.games[0].names == ("p9d29", "p33c2a")
    # Each player's tags go with the name; the other tags keep their order.
    assert list(match.tags.items())[2:6] == [("Player 1", "p9d29"), ("Player 2", "p33c2a"),
                                            ("Player 1 Elo", "3,00/0"),
                                            ("Player 2 Elo", "0,00/0")]
    assert list(match.tags)[6:8] == ["EventDate", "EventTime"]
    (warning,) = parsed.warnings
    assert (warning.kind, warning.line, warning.column, warning.game) == ("player_tags", 3, 4,
                                                                         None)
    assert warning.text == '; [Player 1 "p33c2a"]' and warning.file == str(SWAPPED)
    assert "'p9d29' on the left" in warning.message and "line 17" in warning.message
    assert str(warning).startswith(f"{SWAPPED}:3:4: the header tags name 'p33c2a' player 1")


@pytest.mark.parametrize("tags, names, moved", [
    # As the score line has them (blanks and case aside), or naming neither: kept.
    ({"Player 1": "Alice ", "Player 2": "bob"}, ("alice", "bob"), None),
    ({"Player 1": "Carol", "Player 2": "Dave"}, ("alice", "bob"), None),
    ({"Player 1": "bob", "Player 2": "bob"}, ("alice", "bob"), None),
    ({}, ("alice", "bob"), None),
    # The other way round, one tag enough; a player's other tags move with the name.
    ({"Player 1": "bob", "Player 2": "alice", "Player 1 Elo": "1600", "Player 2 Elo": "1500",
      "Site": "x"}, ("alice", "bob"),
     {"Player 1": "alice", "Player 2": "bob", "Player 1 Elo": "1500", "Player 2 Elo": "1600",
      "Site": "x"}),
    ({"Player 1": "bob", "Player 1 Rank": "3"}, ("alice", "bob"),
     {"Player 2": "bob", "Player 2 Rank": "3"}),
    ({"Player 2": "alice", "Player 10": "x"}, ("alice", "bob"),
     {"Player 1": "alice", "Player 10": "x"}),
])
def test_tags_by_side(tags, names, moved):
    assert tags_by_side(tags, names) == moved


def test_no_names_on_the_score_lines_leave_the_tags_as_written():
    text = ('; [Player 1 "bob"]\n; [Player 2 "alice"]\n 1 point match\n\n Game 1\n'
            ' : 0                               : 0\n  1) 31: 8/5 6/5\n')
    parsed = parse_mat(text, strict=True)
    assert parsed.matches[0].names == ("bob", "alice") and not parsed.warnings
