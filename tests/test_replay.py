"""Replaying records against the rules: legal files, each kind of violation, the corpus."""

import random
from unittest.mock import patch

import pytest
from conftest import ROOT, SAMPLES, read_tsv
from hypothesis import find, given, settings
from hypothesis import strategies as st
from test_position import reachable

from nardy_analysis import (
    CAUCASIAN,
    LENIENT,
    STANDARD,
    TAVLA,
    Position,
    RecordWarning,
    RuleViolation,
    parse_mat,
    replay_file,
    replay_match,
)
from nardy_analysis.game.moves import ALL_ROLLS, Roll
from nardy_analysis.game.rules import BAR, OFF
from nardy_analysis.load import load_file
from nardy_analysis.notation.records import GameRecord, MatchRecord, TurnRecord, WrittenMove
from nardy_analysis.replay import MOST_INFERRED, MOST_TRIED, Hop, realise
from nardy_analysis.replay.matching import all_readings, as_written
from nardy_analysis.replay.replayer import _GameReplayer, _Stop

HEADER = " {length} point match\n\n Game 1\n alice : 0                       bob : 0\n"


def replay_text(body: str, length: int = 5, **kwargs):
    (match,) = parse_mat(HEADER.format(length=length) + body, "t.mat", strict=True).matches
    return replay_match(match, **kwargs)


def only_error(replayed) -> RuleViolation:
    (error,) = replayed.errors
    return error


def test_a_legal_game_replays_to_its_positions():
    replayed = replay_text("  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
                           "  2) 65: 24/13                   11: 6/5(2) 4/3(2)\n")
    game = replayed.games[0]
    assert not game.errors and game.complete
    # gnubg prints 4HPwATDgc/ABMA for the start and sGfwATDgc/ABMA after 31: 8/5 6/5
    # (the ID is written from the side of the player not on roll first).
    assert game.turns[0].before.id() == "4HPwATDgc/ABMA"
    assert game.turns[0].after.id() == "sGfwATDgc/ABMA"
    assert [t.before.pip_count(0) for t in game.turns] == [167, 163, 163, 152]
    assert str(game.turns[2].play) == "24/18 18/13"


# Position IDs before the violating action, from gnubg_nn.position_id of the boards written
# out by hand: the start; alice played 31: 8/5 6/5; both played their first roll (alice on
# roll); alice played 8/5 6/5 twice and bob 8/4 6/4 (bob on roll). The first two are also the
# ones gnubg prints (see above).
START, AFTER_31, AFTER_BOTH, AFTER_ALICE_TWICE = \
    "4HPwATDgc/ABMA", "sGfwATDgc/ABMA", "mGfwATCwZ/ABMA", "8E7wATCYZ/ABMA"


@pytest.mark.parametrize("body, kind, line, column, words, before", [
    ("  1) 64: 24/20 24/18             42: 8/4 6/4\n"
     "  2) 31: 8/5 6/5                 63: 24/18 13/10\n", None, None, None, None, None),
    ("  1) 31: 8/5 6/5                 64: 24/20 24/18\n", "illegal_play", 5, 38, "closed",
     AFTER_31),
    ("  1) 31: 8/5 6/5                 52: 13/8\n", "forced_play", 5, 38, "2 can be played",
     AFTER_31),
    ("  1) 31: 8/5 6/5                 42: 8/4 6/4\n  2) 31: 8/5 6/5\n  3) 52: 13/8 13/11\n",
     "turn_order", 7, 6, "out of turn", AFTER_ALICE_TWICE),
    ("  1) 31: 7/4 6/5                 42: 8/4 6/4\n", "illegal_play", 5, 10, "no checker",
     START),
    ("  1) 31: 8/5 6/off               42: 8/4 6/4\n", "illegal_play", 5, 14, "bear off",
     START),
    ("  1) 31: 8/5 5/9\n", "illegal_play", 5, 14, "wrong way", START),
    ("  1) 31: 8/4 6/5\n", "illegal_play", 5, 6, "take 5 pips but 31 gives 4", START),
    ("  1) 33: 8/5(2) 6/3(2)\n", "opening_roll", 5, 6, "double", START),
    ("  1) 31: 8/5 6/5                 42: 8/4 6/4\n  2)  Takes\n", "cube", 6, 7, "no double",
     AFTER_BOTH),
    ("  1) 31: 8/5 6/5                 42: 8/4 6/4\n  2)                              "
     "Doubles => 2\n", "cube", 6, 35, "not their turn", AFTER_BOTH),
    ("  1) 31: 8/5 6/5                 42: 8/4 6/4\n  2)  Doubles => 4\n", "cube", 6, 7,
     "goes to 2", AFTER_BOTH),
    ("  1) 31: 8/5 6/5                 42: 8/4 6/4\n  2)  Doubles => 2                Drops\n"
     "      Wins 1 point                Wins 1 point\n", "result", 7, 35, "two different",
     AFTER_BOTH),
    # An empty play where several plays are legal, and the game goes on: each of bob's 14
    # plays of 42 lets alice's 61 follow; none lets bob's 21: 3/1 6/5 (no checker on his 3).
    ("  1) 31: 8/5 6/5                 42:\n  2) 61: 13/7 8/7\n", "forced_play", 5, 34,
     "14 of the 14 legal plays of 42 let the rest of the game replay", AFTER_31),
    ("  1) 31: 8/5 6/5                 42:\n  2) 61: 13/7 8/7                 21: 3/1 6/5\n",
     "forced_play", 5, 34, "none of the 14 legal plays of 42 (e.g. ", AFTER_31),
    ("  1) 31: 8/5 6/5                 42: 8/4 6/4\n  2) 43: ???\n  3) 61: 13/7 8/7\n",
     "unknown_play", 6, 6, "cannot be checked", AFTER_BOTH),
])
def test_each_violation_names_rule_line_and_column(body, kind, line, column, words, before):
    replayed = replay_text(body)
    if kind is None:
        assert not replayed.errors
        return
    error = only_error(replayed)
    assert (error.kind, error.line, error.column) == (kind, line, column)
    assert words in error.message
    assert error.file == "t.mat" and error.game == 1
    assert error.position_id == before
    assert error.text in (HEADER + body).splitlines()[line - 1]


@pytest.mark.parametrize("body, kind, line, column, words, result", [
    # Galaxy's 'Wins 2 point' for a dropped 2-cube: the dropped cube gives 1.
    ("  1) 31: 8/5 6/5                 42: 8/4 6/4\n  2)  Doubles => 2                Drops\n"
     "      Wins 2 point\n", "result", 7, 7, "not a possible result", (0, 1, "drop")),
    # The player who dropped is said to win: the doubler wins the cube before the double.
    ("  1) 31: 8/5 6/5                 42: 8/4 6/4\n  2)  Doubles => 2                Drops\n"
     "                                  Wins 1 point\n", "result", 7, 35,
     "player 1's double was dropped: kept as player 1's win of 1 point", (0, 1, "drop")),
    # 'Wins 100 points' in a 5-point match: a resignation gives at most a backgammon.
    ("  1) 31: 8/5 6/5                 42: 8/4 6/4\n      Wins 100 points\n", "result", 6, 7,
     "kept as 3 points (resign), rounded up to a value a resignation", (0, 3, "resign")),
    # 'and the match' at 0-0 of a 5-point match, for a single game.
    ("  1) 31: 8/5 6/5                 42: 8/4 6/4\n      Wins 1 point and the match\n",
     "result", 6, 7, "has not reached 5 points", (0, 1, "resign")),
    # No '*' anywhere: bob's 13/6 with 4-3 goes via his 9-point (alice's blot: a hit) or via
    # his 10-point (no hit); nothing settles it, so gnubg's reading: no hit on the way (gnubg
    # 1.1.0a16 imports this record to alice's blot still on her 16-point).
    ("  1) 62: 24/16                   43: 13/6\n                                  Wins 1 point\n",
     "ambiguous_resolved", 5, 34, "read as 13/10 10/6, hitting nothing on the way",
     (1, 1, "resign")),
    # Galaxy 1018208 game 1 with alice's forced 61: 25/24* left out, as FIBS writes it.
    ("  1) 64: 24/18 13/9              65: 13/7 6/1\n  2) 61:                         "
     "62: 25/23 13/7\n", "unwritten_forced_play", 6, 6, "bar/24* is the only legal play",
     (None, None, None)),
])
def test_each_warning_names_kind_line_and_column_and_the_game_goes_on(body, kind, line, column,
                                                                       words, result):
    replayed = replay_text(body)
    assert not replayed.errors
    (warning,) = replayed.warnings
    assert isinstance(warning, RecordWarning)
    assert (warning.kind, warning.line, warning.column) == (kind, line, column)
    assert words in warning.message, warning.message
    assert warning.file == "t.mat" and warning.game == 1 and warning.position_id
    assert warning.text in (HEADER + body).splitlines()[line - 1]
    (game,) = replayed.games
    assert game.complete and (game.winner, game.points, game.ending) == result
    assert all(t.after is not None for t in game.turns)
    # Strict mode raises it as a violation of the same kind and place, saying what the record
    # does but not how the lenient replay reads it (strict mode stops there).
    with pytest.raises(RuleViolation) as info:
        replay_text(body, strict=True)
    assert (info.value.kind, info.value.line, info.value.column) == (kind, line, column)
    strict = info.value.message
    assert warning.message.startswith(strict) and len(strict) > 20
    for words in ("kept as", "; read as", "it is replayed", "goes on"):
        assert words not in strict, strict


def test_an_unwritten_forced_play_is_replayed():
    game = replay_text("  1) 64: 24/18 13/9              65: 13/7 6/1\n"
                       "  2) 61:                         62: 25/23 13/7\n").games[0]
    forced = game.turns[2]
    assert str(forced.play) == "bar/24*" and forced.after.board[1][25] == 1  # bob on the bar
    assert str(game.turns[3].play) == "bar/23 13/7"


@pytest.mark.parametrize("winner", [0, 1])
@pytest.mark.parametrize("points, cube, ending", [(1, 1, "resign"), (2, 1, "resign"),
                                                  (3, 1, "resign"), (4, 2, "resign")])
def test_a_roll_with_no_play_then_a_win_is_a_resignation(points, cube, ending, winner):
    # gnubg's export and FIBS write a player who resigns after rolling this way (winner 1);
    # with the roller's win (winner 0), the opponent resigned on seeing the roll.
    double = "  2)  Doubles => 2                Takes\n" if cube == 2 else ""
    wins = "Wins %d point%s" % (points, "s" * (points > 1))
    body = ("  1) 31: 8/5 6/5                 42: 8/4 6/4\n" + double + "  3) 63:"
            + (f"\n      {wins}\n" if winner == 0 else f"                          {wins}\n"))
    replayed = replay_text(body, length=7)
    assert not replayed.errors and not replayed.warnings
    (game,) = replayed.games
    assert (game.winner, game.points, game.ending, game.complete) == (winner, points, ending,
                                                                      True)
    last = game.turns[-1]
    assert (str(last.roll), last.player, last.play, last.after) == ("63", 0, None, None)


CUBE_AT_4 = ("  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
             "  2)  Doubles => 2                Takes\n"
             "  3) 63: 24/15                    Doubles => 4\n  4)  Takes\n")


@pytest.mark.parametrize("written, kept", [(4, 4), (8, 8), (12, 12), (5, 8), (6, 8), (9, 12),
                                           (13, 12), (1, 4)])
def test_a_resignation_the_cube_cannot_give_is_rounded_up_as_gnubg_imports_it(written, kept):
    # gnubg 1.07.001 (Debian) and 1.1.0a16 (PyPI) import this 15-point match game and show
    # the score alice 8 for 'Wins 5' and 'Wins 6', 12 for 'Wins 9' and 'Wins 13' ('show
    # score' after 'import mat'): the resignation rounded up to a multiple of the cube, at
    # most a backgammon.
    wins = f"{written} point" + "s" * (written > 1)
    replayed = replay_text(CUBE_AT_4 + f"      Wins {wins}\n", length=15)
    (game,) = replayed.games
    assert not replayed.errors and (game.winner, game.points, game.ending) == (0, kept, "resign")
    if written == kept:
        assert not replayed.warnings
        return
    (warning,) = replayed.warnings
    assert (warning.kind, warning.line, warning.column) == ("result", 9, 7)
    assert warning.message == (f"{wins} is not a possible result here (expected 4 or "
                               f"8 or 12 with the cube at 4); kept as {kept} points (resign), "
                               "rounded up to a value a resignation can have")


@pytest.mark.parametrize("length, before, written", [(5, 0, 5), (9, 6, 3), (9, 8, 1)])
def test_the_last_game_credited_with_the_points_needed_is_no_warning(length, before, written):
    # Galaxy's convention on the line that ends a match: the winner gets the points he needs
    # (e.g. BackgammonGalaxy_1024669.mat line 74, 'Wins 3 points' of a 3-point match with the
    # cube at 4).
    text = HEADER.replace("alice : 0", f"alice : {before}").format(length=length)
    (match,) = parse_mat(text + CUBE_AT_4 + f"      Wins {written} points\n", "t.mat",
                         strict=True).matches
    replayed = replay_match(match)
    assert not replayed.errors and not replayed.warnings
    assert replayed.games[0].points == written


@pytest.mark.parametrize("jacoby, double, written, kept", [
    ("On", "", 2, 1), ("On", "", 1, 1), ("Off", "", 2, 2),
    ("On", "  2)  Doubles => 2                Takes\n", 4, 4)])
def test_a_money_resignation_under_the_jacoby_rule_scores_single_until_the_cube_is_turned(
        jacoby, double, written, kept):
    # RULES.md, "Doubling cube, matches, house rules": a resigned gammon counts single too.
    # gnubg 1.07.001's importer scores 'Wins 2 points' here 2 with or without 'set jacoby on'.
    text = (f'; [Jacoby "{jacoby}"]\n\n' + HEADER.format(length=0)
            + "  1) 31: 8/5 6/5                 42: 8/4 6/4\n" + double
            + f"      Wins {written} point{'s' * (written > 1)}\n")
    (match,) = parse_mat(text, "t.mat", strict=True).matches
    replayed = replay_match(match)
    assert replayed.games[0].points == kept
    assert [w.kind for w in replayed.warnings] == ["result"] * (written != kept)


def test_gnubgs_own_export_of_resignations_after_rolling_replays_clean():
    """tests/data/exporters: gnubg's ``export match mat`` of five Studio matches with a
    resignation after rolling (README there)."""
    files = sorted((ROOT / "tests" / "data" / "exporters").glob("gnubg_*.mat"))
    assert len(files) == 5
    resigned = 0
    for path in files:
        for match in replay_file(path):
            assert not match.errors and not match.warnings, (path.name, match.errors)
            for game in match.games:
                if game.turns and game.turns[-1].after is None:
                    assert game.ending == "resign" and game.complete
                    resigned += 1
    assert resigned == 7  # each a roll, then the opponent's 'Wins' (grep)


def test_a_file_ending_right_after_a_roll_leaves_the_game_unfinished():
    replayed = replay_text("  1) 31: 8/5 6/5                 42: 8/4 6/4\n  2) 63:\n")
    assert not replayed.errors and not replayed.warnings
    (game,) = replayed.games
    assert (game.winner, game.points, game.ending, game.complete) == (None, None, None, False)
    assert len(game.turns) == 3 and game.turns[-1].after is None


def test_strict_mode_raises_the_first_violation():
    with pytest.raises(RuleViolation) as info:
        replay_text("  1) 31: 8/5 6/5                 64: 24/20 24/18\n", strict=True)
    assert info.value.kind == "illegal_play" and info.value.move == 1


def test_lenient_mode_stops_the_bad_game_and_keeps_the_next():
    text = (HEADER.format(length=5)
            + "  1) 31: 8/5 6/5                 64: 24/20 24/18\n"
            + "  2)  Doubles => 2                Drops\n      Wins 1 point\n\n"
            + " Game 2\n alice : 1                       bob : 0\n"
            + "  1) 31: 8/5 6/5                 42: 8/4 6/4\n")
    replayed = replay_match(parse_mat(text, strict=True).matches[0])
    first, second = replayed.games
    assert not first.complete and [e.kind for e in first.errors] == ["illegal_play"]
    assert first.stopped and not second.stopped
    assert (first.winner, first.points) == (0, 1)
    assert second.complete and len(second.turns) == 2 and not second.errors


def test_score_lines_are_checked_against_results():
    text = (HEADER.format(length=5)
            + "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
            + "  2)  Doubles => 2                Drops\n      Wins 1 point\n\n"
            + " Game 2\n alice : 2                       bob : 0\n")
    replayed = replay_match(parse_mat(text, strict=True).matches[0])
    error = only_error(replayed)
    assert error.kind == "score" and "1-0" in error.message
    assert (error.line, error.column) == (10, 2)
    assert not replayed.games[1].stopped  # the game goes on past a wrong score line


@pytest.mark.parametrize("line, written", [(26, "0 ... 0"), (44, "1 ... 1")])
def test_a_wrong_score_line_is_one_error_and_the_results_keep_the_score(line, written):
    """sample_games/galaxy_style_crawford.mat (scores 0-0, 1-0, 1-2; bob.k wins 1-3) with one
    score line wrong: that line is the only error, and the score before each game, the
    Crawford game and the match result still come from the results."""
    lines = (SAMPLES / "galaxy_style_crawford.mat").read_text().splitlines(keepends=True)
    first, second = written.split(" ... ")
    lines[line - 1] = f" alice_b : {first}                    bob.k : {second}\n"
    match = replay_match(parse_mat("".join(lines)).matches[0])
    assert [(e.kind, e.line) for e in match.errors] == [("score", line)]
    assert [game.scores for game in match.games] == [(0, 0), (1, 0), (1, 2)]
    assert [game.crawford for game in match.games] == [False, False, True]
    assert (match.score, match.finished, match.winner) == ((1, 3), True, 1)


@pytest.mark.parametrize("line, written, scores", [
    (17, "999999999 ... 0", (999999999, 0)), (26, "3 ... 0", (1, 0))])
def test_a_score_line_at_or_above_the_match_length_is_a_score_error(line, written, scores):
    """sample_games/galaxy_style_crawford.mat, a 3-point match, with a score line that gives a
    player the match before the game: one ``score`` error at that line, quoting it; the
    first game's line is the only score there is, a later game's score comes from the
    results before it."""
    lines = (SAMPLES / "galaxy_style_crawford.mat").read_text().splitlines(keepends=True)
    first, second = written.split(" ... ")
    lines[line - 1] = f" alice_b : {first}                    bob.k : {second}\n"
    match = replay_match(parse_mat("".join(lines), "g.mat").matches[0])
    (error,) = match.errors
    assert (error.kind, error.line, error.column) == ("score", line, 2)
    assert "at or above the match length (3)" in error.message
    assert error.text == f"alice_b : {first}   bob.k : {second}"
    assert match.games[line > 17].scores == scores
    assert all(not game.stopped for game in match.games)


def test_merged_hops_hits_and_bear_off_by_the_board():
    # The file never marks hits: 65: 24/13 passes bob's blot? No: decided by the board.
    replayed = replay_text("  1) 41: 13/9 24/23              65: 24/13\n")
    game = replayed.games[0]
    assert not game.errors
    assert game.turns[1].after.board[0][25] == 0  # 24/18/13 or 24/19/13 hits nothing here


def test_rule_variants():
    # Tavla: an opening double is allowed.
    assert not replay_text("  1) 33: 8/5(2) 6/3(2)\n", rules=TAVLA).errors
    # Lenient site: a play that leaves a number unused is accepted.
    assert not replay_text("  1) 31: 8/5 6/5                 52: 13/8\n",
                           rules=LENIENT).errors


def test_crawford_game_forbids_doubling():
    text = (" 3 point match\n\n Game 1\n a : 0                           b : 0\n"
            "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
            "  2)  Doubles => 2                Drops\n      Wins 1 point\n\n"
            " Game 2\n a : 1                           b : 0\n"
            "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
            "  2)  Doubles => 2                Drops\n      Wins 1 point\n\n"
            " Game 3\n a : 2                           b : 0\n"
            "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
            "  2)  Doubles => 2                Drops\n      Wins 1 point and the match\n")
    errors = replay_match(parse_mat(text, strict=True).matches[0]).errors
    assert [(e.kind, e.game, e.line) for e in errors] == [("cube", 3, 18)]
    assert "Crawford" in errors[0].message


@pytest.mark.parametrize("row", read_tsv(SAMPLES / "broken" / "EXPECTED.tsv"),
                         ids=lambda row: row["file"])
def test_broken_samples_report_the_expected_place(row):
    path = SAMPLES / "broken" / row["file"]
    if row["kind"] == "syntax":
        from nardy_analysis import NotationError
        with pytest.raises(NotationError) as info:
            replay_file(path)
        error = info.value
    else:
        errors = [e for m in replay_file(path) for e in m.errors or m.warnings]
        error = errors[0]
        assert error.kind == row["kind"]
    assert (error.line, error.column) == (int(row["line"]), int(row["column"]))


def test_every_legal_sample_replays_without_violations():
    files = sorted(SAMPLES.glob("*.mat"))
    assert len(files) >= 10
    for path in files:
        for match in replay_file(path):
            assert not match.errors, (path.name, match.errors)


@pytest.mark.slow
def test_corpus_replays_with_no_error_and_only_the_known_warnings(corpus_files):
    """The shared corpus: no violation; the six result lines the board contradicts
    (tests/data/corpus_warnings.tsv) are warnings and the only ones."""
    known = {(r["file"], int(r["game"]), int(r["line"]), int(r["column"]), r["kind"],
              r["text"], r["message"])
             for r in read_tsv(ROOT / "tests" / "data" / "corpus_warnings.tsv")}
    found, games, turns, files, errors = set(), 0, 0, 0, []
    for path in corpus_files:
        files += 1
        for match in replay_file(path):
            games += len(match.games)
            turns += sum(len(g.turns) for g in match.games)
            errors += match.errors
            found |= {(path.name, w.game, w.line, w.column, w.kind, w.text, w.message)
                      for w in match.warnings}
    assert files >= 1700 and games >= 5000 and turns >= 210_000
    assert errors == []
    assert len(known) == 6 and found == known


def test_points_outside_the_board_are_illegal_not_a_crash():
    error = only_error(replay_text("  1) 31: 30/27 13/10\n"))
    assert (error.kind, error.line, error.column) == ("illegal_play", 5, 10)
    assert "no point 30" in error.message
    error = only_error(replay_text("  1) 31: 13/99\n"))
    assert "no point 99" in error.message


def test_a_merged_move_the_board_cannot_settle_is_reported_as_ambiguous():
    # Bob's 13/6 with 4-3 hits on the way either way: alice has blots on his 9- and 10-points;
    # nothing settles which.
    error = only_error(replay_text("  1) 62: 24/16                   21: 24/22 24/23\n"
                                   "  2) 54: 24/15                   43: 13/6\n"))
    assert (error.kind, error.line, error.column) == ("ambiguous", 6, 34)
    assert "13/9* 9/6" in error.message and "13/10* 10/6" in error.message
    # In a file that marks hits, an unmarked merged move that can hit nothing is read so.
    game = replay_text("  1) 62: 24/16*                  43: 13/6\n").games[0]
    assert not game.warnings and str(game.turns[1].play) == "13/10 10/6"


def test_the_next_play_settles_a_merged_move():
    # Alice's next play enters from the bar, so bob's 13/6 must have hit on the way.
    game = replay_text("  1) 62: 24/16                   43: 13/6\n"
                       "  2) 31: bar/22 6/5\n").games[0]
    assert not game.errors
    assert str(game.turns[1].play) == "13/9* 9/6"


def test_hit_marks_settle_a_merged_move_in_a_file_that_marks_hits():
    # The match marks hits (game 2 has a '*'), so game 1's unmarked 13/6 went via 10.
    text = (HEADER.format(length=5)
            + "  1) 62: 24/16                   43: 13/6\n"
            + "                                  Wins 1 point\n\n"
            + " Game 2\n alice : 0                       bob : 1\n"
            + "  1) 62: 24/16                   43: 13/9*/6\n")
    first, second = replay_match(parse_mat(text, strict=True).matches[0]).games
    assert not first.errors and not second.errors
    assert str(first.turns[1].play) == "13/10 10/6"
    assert str(second.turns[1].play) == "13/9* 9/6"


def test_a_forfeited_match_gives_the_winner_what_they_need():
    # Galaxy writes a player's leaving as 'Losses N' / 'Wins N ... and the match' with N the
    # points the winner still needs, whatever the cube.
    text = (" 5 point match\n\n Game 1\n a : 0                           b : 1\n"
            "  1) 52: 13/8 24/22              61: 13/7 8/7\n"
            "  2)  Losses 4 point                                               "
            "Wins 4 point and the match\n")
    (game,) = replay_match(parse_mat(text, strict=True).matches[0]).games
    assert not game.errors and (game.winner, game.points, game.ending) == (1, 4, "forfeit")


def test_the_final_score_written_as_the_points_of_the_last_game():
    # One site writes 'Wins <match length> point and the match' for the deciding game.
    text = (" 3 point match\n\n Game 1\n a : 1                           b : 0\n"
            "  1) 52: 13/8 24/22              61: 13/7 8/7\n"
            "  2)  Doubles => 2                Takes\n"
            "      Wins 3 point and the match\n")
    assert not replay_match(parse_mat(text, strict=True).matches[0]).errors
    # A dropped 2-cube gives 1 point: 1 + 1 does not reach 3, so the line is wrong.
    dropped = replay_match(parse_mat(text.replace("Takes", "Drops"), strict=True).matches[0])
    assert not dropped.errors
    assert [(w.kind, w.line) for w in dropped.warnings] == [("result", 7)] * 2
    assert dropped.games[0].points == 1


# --- what the replayed game knows -------------------------------------------------------------

@pytest.mark.parametrize("name, expected", [
    # sample_games/README.md: 3 games, the third the Crawford game (scores 0-0, 1-0, 1-2)
    ("galaxy_style_crawford.mat", [(False, False), (False, False), (True, False)]),
    # a Crawford game (0-2) then a post-Crawford game (1-2)
    ("cp1251_cyrillic_names.mat", [(False, False), (True, False), (False, True)]),
])
def test_replayed_games_know_the_crawford_game(name, expected):
    (match,) = replay_file(SAMPLES / name)
    assert [(g.crawford, g.post_crawford) for g in match.games] == expected


GAMES = {  # games of a 3-point match, a : b
    2: " Game 2\n a : 1                           b : 0\n"
       "  1) 31: 8/5 6/5                 42: 8/4 6/4\n      Wins 1 point\n\n",
    3: " Game 3\n a : 2                           b : 0\n"
       "  1) 31: 8/5 6/5                 42: 8/4 6/4\n{cube}",
    4: " Game 4\n a : 2                           b : 1\n"
       "  1) 31: 8/5 6/5                 42: 8/4 6/4\n",
}
DOUBLE = "  2)  Doubles => 2                Drops\n      Wins 1 point and the match\n"
SINGLE = "                                  Wins 1 point\n\n"


@pytest.mark.parametrize("games, expected, errors", [
    # Starts at 2-0, 1-away: a's double in game 3 says the Crawford game is behind.
    ([3], [(False, True)], []),
    # Starts at 2-0 and nobody doubles: game 3 may be the Crawford game; game 4 is after it.
    ([3, 4], [(True, False), (False, True)], []),
    # Starts at 1-0 (mid-match, but the file shows game 3 at 2-0 after game 2 at 1-0): game 3
    # is the Crawford game and the double is flagged.
    ([2, 3], [(False, False), (True, False)], [("cube", 3, "Crawford")]),
])
def test_a_file_starting_mid_match_flags_crawford_doubles_only_when_it_shows_the_crawford_game(
        games, expected, errors):
    cube = SINGLE if 4 in games else DOUBLE
    text = " 3 point match\n\n" + "".join(GAMES[n].format(cube=cube) for n in games)
    replayed = replay_match(parse_mat(text, strict=True).matches[0])
    assert [(e.kind, e.game, "Crawford") for e in replayed.errors
            if "Crawford" in e.message] == errors and len(replayed.errors) == len(errors)
    assert [(g.crawford, g.post_crawford) for g in replayed.games] == expected
    assert not replayed.warnings


def test_load_file_gives_every_warning_and_strict_stops_at_the_first(tmp_path):
    from nardy_analysis import load_file
    path = tmp_path / "w.mat"
    path.write_text(HEADER.format(length=5) + "  1) 62: 24/16                   43: 13/6\n"
                    "  2) 21:                         Wins 100 points\n", "utf-8")
    loaded = load_file(path)
    assert loaded.errors == () and loaded.warnings == tuple(loaded.matches[0].warnings)
    assert [(w.kind, w.line) for w in loaded.warnings] == [("ambiguous_resolved", 5),
                                                           ("result", 6)]
    strict = load_file(path, strict=True)
    assert strict.warnings == () and [(type(e), e.kind, e.line) for e in strict.errors] == \
        [(RuleViolation, "ambiguous_resolved", 5)]


def test_without_the_crawford_rule_every_game_at_one_away_is_free():
    (match,) = parse_mat((SAMPLES / "cp1251_cyrillic_names.mat").read_bytes().decode("cp1251"),
                         strict=True).matches
    replayed = replay_match(match, STANDARD.override(crawford=False), tags=False)
    assert [(g.crawford, g.post_crawford) for g in replayed.games] == \
        [(False, False), (False, True), (False, True)]


def test_rules_are_a_variant_the_tags_refine_unless_told_not_to():
    text = ('; [Variation "Tavla"]\n; [Jacoby "On"]\n\n 0 point match\n\n Game 1\n'
            ' a : 0                           b : 0\n  1) 52: 13/8 24/22\n')
    (match,) = parse_mat(text, strict=True).matches
    assert replay_match(match).rules == TAVLA.override(jacoby=True)
    assert replay_match(match, LENIENT).rules == LENIENT.override(jacoby=True)
    assert replay_match(match, LENIENT, tags=False).rules == LENIENT
    assert replay_match(match, tags=False).rules == STANDARD


def test_replayed_results_print_short():
    (match,) = replay_file(SAMPLES / "galaxy_style_crawford.mat")
    assert repr(match) == ("<ReplayedMatch " + str(SAMPLES / "galaxy_style_crawford.mat")
                           + ": 3-point, standard rules, 3 games, 0 errors>")
    assert [repr(g) for g in match.games] == [
        "<ReplayedGame 1: 6 turns, player 1 (alice_b) wins 1 point (drop), 0 errors>",
        "<ReplayedGame 2: 27 turns, player 2 (bob.k) wins 2 points (gammon), 0 errors>",
        "<ReplayedGame 3: 4 turns, player 2 (bob.k) wins 1 point (resign), 0 errors>"]
    # Players numbered as the Player 1 and Player 2 tags number them; plurals.
    assert repr(match.games[0].turns[0]) == "<ReplayedTurn move 1 player 1 31: 8/5 6/5>"
    one = replay_match(parse_mat(" 1 point match\n\n Game 1\n a : 0      b : 0\n"
                                 "  1) 31: 8/5 6/5\n").matches[0])
    assert repr(one).endswith(": 1-point, standard rules, 1 game, 0 errors>")
    assert repr(one.games[0]) == "<ReplayedGame 1: 1 turn, unfinished, 0 errors>"


# --- the direct check of a written play and the search agree ---------------------------------

def _readings(found) -> dict:
    """realise's answer (or the direct check's one reading) with each play's moves in their
    order (Play equality ignores it)."""
    if isinstance(found, tuple):
        after, play, agrees = found
        found = {after: (play, len(play), agrees)}
    return {after: (play.moves, used, agrees) for after, (play, used, agrees) in found.items()}


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(reachable(), st.sampled_from(ALL_ROLLS), st.sampled_from([STANDARD, LENIENT]),
       st.integers(0, 2 ** 32 - 1))
def test_a_play_checked_as_written_reads_as_the_search_reads_it(position, roll, rules, seed):
    """Every legal play, written one die per move in a random order with random ``*`` marks:
    where the direct check answers, the search gives the same answer (the position after,
    the moves in their order and their hits, the dice used, whether the marks agree), and
    that answer holds the play."""
    rng = random.Random(seed)
    for play, after in position.legal_plays(roll, rules):
        moves = list(play.moves)
        rng.shuffle(moves)
        hops = [Hop(m.start, m.end, rng.random() < 0.5) for m in moves]
        direct = as_written(position, roll.dice, hops, rules)
        if direct is not None:
            assert _readings(direct) == _readings(all_readings(position, roll.dice, hops, rules))
            assert after == direct[0]


def _match_play(position: Position, record: TurnRecord, rules, marks_hits: bool):
    """What the replay makes of ``record`` played from ``position``: the position after, the
    moves in their order and the warnings, or the violations."""
    game = GameRecord(1, ("a", "b"), (0, 0), (record,), 1, 1, 2, 1)
    replayer = _GameReplayer(MatchRecord(5, {}, (game,), 1, 1), game, (0, 0), rules, False,
                             False, False)
    replayer.marks_hits = marks_hits
    replayer.position = position
    try:
        after, play = replayer.match_play(record)
    except _Stop:
        return [(e.kind, str(e)) for e in replayer.result.errors]
    return after, play.moves, [(w.kind, str(w)) for w in replayer.result.warnings]


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(reachable(), st.sampled_from(ALL_ROLLS), st.sampled_from([STANDARD, LENIENT]),
       st.booleans(), st.integers(0, 2 ** 32 - 1))
def test_a_turn_replayed_through_the_direct_check_reads_as_the_full_search(position, roll,
                                                                           rules, marks, seed):
    """The replay of a written play (every legal play and the play without its last move, one
    die per move in a random order with random ``*`` marks, and random plays of single-die
    moves, mostly illegal) gives the
    same position, moves, warnings or violations as the replay without the direct check
    (every play through the search and the forced-play, ``*`` and next-turn checks)."""
    rng = random.Random(seed)
    plays = [[(m.start, m.end) for m in play.moves[:size]]
             for play, _ in position.legal_plays(roll, rules) for size in (None, -1)]
    for _ in range(5):
        starts = [rng.choice([BAR] + list(range(1, 25))) for _ in roll.dice]
        plays.append([(start, max(start - die, 0)) for start, die in zip(starts, roll.dice)])
    for play in plays:
        rng.shuffle(play)
        moves = tuple(WrittenMove((start, end), (rng.random() < 0.5,), 1, 1, 5 + 6 * i, "m")
                      for i, (start, end) in enumerate(play))
        record = TurnRecord(position.turn, roll, moves, 1, 1, 1, "t")
        fast = _match_play(position, record, rules, marks)
        with patch("nardy_analysis.replay.replayer.as_written", return_value=None):
            assert _match_play(position, record, rules, marks) == fast


@pytest.mark.parametrize("hops, roll, direct", [
    ([(8, 5, False), (6, 5, False)], "31", True),  # the usual turn
    ([(13, 10, False), (13, 10, False), (6, 3, False), (6, 3, False)], "33", True),
    ([(24, 13, False)], "65", True),  # a merged move, the smaller die first
    ([(13, 7, False), (13, 7, False)], "33", True),  # merged, die by die
    ([(13, 8, False)], "52", False),  # fewer moves than dice
    ([(6, 1, False), (8, 5, False)], "43", False),  # 6/1 takes no die of 43
])
def test_the_direct_check_answers_the_plain_turns(hops, roll, direct):
    position, roll, hops = Position.start(), Roll.from_str(roll), [Hop(*hop) for hop in hops]
    found = as_written(position, roll.dice, hops, STANDARD)
    assert (found is not None) == direct
    if direct:
        assert _readings(found) == _readings(all_readings(position, roll.dice, hops, STANDARD))


def test_the_direct_check_leaves_two_hits_on_one_blot_to_the_search():
    # Bob's blot on alice's 5-point: 8/5 or 6/5 hits it, whichever comes first.
    board = [0] * 26
    board[20], board[6], board[13] = 1, 5, 9  # bob: his 20 is alice's 5
    position = Position((Position.start().board[0], board), 0)
    hops = [Hop(8, 5, False), Hop(6, 5, True)]
    assert as_written(position, (3, 1), hops, STANDARD) is None
    ((play, _, agrees),) = all_readings(position, (3, 1), hops, STANDARD).values()
    assert agrees and str(play) == "8/5 6/5*"  # the order that agrees with the marks
    # every order disagrees: the first is the answer
    unmarked = [Hop(8, 5, False), Hop(6, 5, False)]
    assert _readings(as_written(position, (3, 1), unmarked, STANDARD)) == \
        _readings(all_readings(position, (3, 1), unmarked, STANDARD))


# --- every fast path reads a written play as the whole search does ----------------------------

def _written_hops(moves, rng: random.Random) -> list[Hop]:
    """Moves as a file may write them: steps of one checker merged at random (``24/18 18/13``
    as ``24/13``), in a random order, with random ``*`` marks."""
    journeys = []
    for move in moves:
        chain = next((j for j in journeys if j[1] == move.start != OFF), None)
        if chain is not None and rng.random() < 0.7:
            chain[1] = move.end
        else:
            journeys.append([move.start, move.end])
    rng.shuffle(journeys)
    return [Hop(start, end, rng.random() < 0.3) for start, end in journeys]


def _mismatches(position: Position, roll: Roll, rules, seed: int) -> list:
    """The written plays (up to 12 legal plays, each whole and without its last move, merged
    and marked at random) that realise (the direct checks, and the search stopping at its
    first play) reads otherwise than the whole search (every order of steps and dice)."""
    rng = random.Random(seed)
    legal = position.legal_plays(roll, rules)
    found = []
    for play, after in rng.sample(legal, min(len(legal), 12)):
        for moves in (play.moves, play.moves[:-1]):
            hops = _written_hops(moves, rng)
            fast = _readings(realise(position, roll.dice, hops, rules))
            with patch("nardy_analysis.replay.matching._one_reading", return_value=False):
                full = _readings(all_readings(position, roll.dice, hops, rules))
            if fast != full or (moves == play.moves and after not in fast):
                found.append((position.id(), str(roll), hops, fast, full))
    return found


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(reachable(), st.sampled_from(ALL_ROLLS), st.sampled_from([STANDARD, LENIENT]),
       st.integers(0, 2 ** 32 - 1))
def test_every_fast_path_reads_a_written_play_as_the_whole_search(position, roll, rules, seed):
    """Merged moves (``24/13``, ``8/2(2)``, ``bar/20``), bear-offs, hits and doubles from
    random positions: the direct checks and the search's early stop give the whole search's
    answer (positions, moves in their order, dice used, agreement with the marks), and a
    whole legal play reads as its position."""
    assert _mismatches(position, roll, rules, seed) == []


@pytest.mark.slow
def test_the_fast_path_test_fails_when_the_shortcut_is_widened():
    """With the condition for one reading always true (every merged move settled by its
    first order), the property above finds a play that it reads wrongly."""
    with patch("nardy_analysis.replay.matching._one_reading", return_value=True):
        find(st.tuples(reachable(), st.sampled_from(ALL_ROLLS), st.integers(0, 2 ** 32 - 1)),
             lambda case: _mismatches(case[0], case[1], STANDARD, case[2]),
             settings=settings(max_examples=2000, database=None, deadline=None))


def test_a_merged_move_over_a_blot_goes_to_the_search():
    # Bob's blot on alice's 19: 24/13 with 65 hits it on the way (5 first) or not (6 first).
    bob = [0] * 26
    bob[24], bob[13], bob[8], bob[6], bob[5] = 2, 5, 3, 1, 4  # his 6 is alice's 19
    position = Position((Position.start().board[0], bob), 0)
    hops = [Hop(24, 13, False)]
    assert as_written(position, (6, 5), hops, STANDARD) is None
    assert len(all_readings(position, (6, 5), hops, STANDARD)) == 2


def test_caucasian_rules_refuse_a_hit_in_the_owners_home():
    # Bob leaves a blot on his 5-point (alice's 20); 43: 24/20* hits it. Short nardy allows
    # the hit; under Caucasian rules (a checker in its owner's home cannot be hit) it is an
    # illegal play that names the rule, at the move's line and column.
    body = ("  1) 31: 8/5 6/5                 21: 13/11 6/5\n"
            "  2) 43: 24/20* 13/10\n")
    assert not replay_text(body).errors
    error = only_error(replay_text(body, rules=CAUCASIAN))
    assert error.kind == "illegal_play" and (error.line, error.column) == (6, 10)
    assert "point 20 is closed" in error.message and "own home board" in error.message
    assert "caucasian rules" in error.message
    tagged = parse_mat('; [Variation "Caucasian"]\n' + HEADER.format(length=5) + body,
                       strict=True).matches[0]
    assert replay_match(tagged).rules == CAUCASIAN and replay_match(tagged).errors


# Real records with one thing changed each (tests/data/README.md, "sides/").
SIDES = ROOT / "tests" / "data" / "sides"


def test_the_score_lines_decide_who_wins_whatever_the_player_tags_say():
    """xg_swapped_player_tags.mat: p9d29, on the left of the score lines, wins 3-0 (as in
    the corpus record, and as gnubg 1.1.0a16 imports the swapped file: 'p9d29 3, p33c2a 0');
    the tags name p33c2a player 1."""
    loaded = load_file(SIDES / "xg_swapped_player_tags.mat")
    (match,) = loaded.matches
    assert not match.errors and match.record.names == ("p9d29", "p33c2a")
    assert (match.score, match.winner) == ((3, 0), 0)
    assert [(w.kind, w.line, w.column) for w in loaded.warnings] == [("player_tags", 3, 4)]
    # Strict mode takes the warning for an error, as any other.
    strict = load_file(SIDES / "xg_swapped_player_tags.mat", strict=True)
    assert [(e.kind, e.line, e.column) for e in strict.errors] == [("player_tags", 3, 4)]


def test_either_player_may_resign_after_a_roll():
    """resigned_after_roll.mat: corpus match BackgammonStudio_1481011 with two games cut
    short after a roll with no play, each winner's result kept: game 2 after p27409's own
    64 (one legal play, which does not end the game), game 3 after pd65818c8d70cd's own 31
    (13 legal plays). gnubg 1.1.0a16 imports both as resignations by the other player (game
    2 with the forced play played first)."""
    (match,) = replay_file(SIDES / "resigned_after_roll.mat")
    assert not match.errors and not match.warnings
    for number, winner, roll in [(2, 1, "64"), (3, 0, "31")]:
        game = match.games[number - 1]
        last = game.turns[-1]
        assert (game.winner, game.points, game.ending, game.complete) == (winner, 2, "resign",
                                                                          True)
        assert (last.player, str(last.roll), last.play, last.after) == (winner, roll, None, None)
    assert (match.score, match.winner) == ((8, 14), 1)  # as the corpus record


def test_an_unwritten_last_play_that_bears_off_is_filled_in():
    """unwritten_last_play.mat: corpus match BackgammonGalaxy_529831 with its last play,
    '30) 62: 1/0', written '30) 62:' before 'Wins 4 point and the match'. gnubg 1.1.0a16
    imports it with the play 1/0 and p9d29 winning 4 points, not by resignation."""
    (match,) = replay_file(SIDES / "unwritten_last_play.mat")
    (warning,) = match.warnings
    assert (warning.kind, warning.line, warning.column) == ("unwritten_forced_play", 45, 6)
    assert "1/off is the only legal play of 62" in warning.message
    (game,) = match.games
    last = game.turns[-1]
    assert str(last.play) == "1/off" and last.after.is_over
    assert (game.winner, game.points, game.ending, game.complete) == (0, 4, "single", True)
    assert not match.errors and (match.score, match.winner) == ((4, 0), 0)


# The plays left out of inferred_play.mat and inferred_play_bound.mat, as the corpus record
# BackgammonStudio_1481011 writes them, and the number of legal plays of each roll.
LEFT_OUT = {(90, 7): ("54: 5/1 5/off", 2), (100, 41): ("42: 8/4 6/4", 18),
            (129, 41): ("62: 24/16*", 17), (136, 6): ("63: 13/4*", 22),
            (143, 41): ("51: 22/21 13/8*", 12)}


def test_an_unwritten_play_is_inferred_from_the_rest_of_the_game():
    """inferred_play.mat: four plays of BackgammonStudio_1481011 left unwritten (the roll
    kept). Three are inferred, each the play the record wrote; two of them in one game
    (game 6: the first is tried with the second inferred in turn). In game 4, 9 of the 18
    plays of the opening 42 fit (the game ends in a drop six moves on)."""
    loaded = load_file(SIDES / "inferred_play.mat")
    (match,) = loaded.matches
    inferred = [(w.line, w.column) for w in match.warnings]
    assert [w.kind for w in match.warnings] == ["inferred_play"] * 3
    assert inferred == [(90, 7), (129, 41), (136, 6)]
    turns = {(t.record.line, t.record.column): t for g in match.games for t in g.turns}
    for where, warning in zip(inferred, match.warnings):
        written, legal = LEFT_OUT[where]
        play = written[4:]
        assert f"of the {legal} legal plays of {written[:2]}, only {play} lets" in \
            warning.message
        assert written.startswith(turns[where].record.text)
        # The play replayed is the one written in the record (the file's notation).
        turn = turns[where]
        assert realise(turn.before, turn.roll.dice,
                       [Hop._make(m.points + m.hits) for m in parse_mat(
                           HEADER.format(length=1) + f"  1) {written}\n").matches[0]
                        .games[0].turns[0].moves], STANDARD).keys() == {turn.after}
    (error,) = match.errors
    assert (error.kind, error.line, error.column, error.game) == ("forced_play", 100, 41, 4)
    assert error.message.startswith("no play written, and 9 of the 18 legal plays of 42 let "
                                    "the rest of the game replay")
    assert match.games[3].ending is None and match.games[3].winner == 1  # as written
    # The other games replay as the record: the match ends as it did.
    assert (match.score, match.winner) == ((8, 14), 1)
    with pytest.raises(RuleViolation) as info:
        replay_file(SIDES / "inferred_play.mat", strict=True)
    assert (info.value.kind, info.value.line, info.value.column) == ("inferred_play", 90, 7)


def test_unwritten_plays_beyond_the_bound_keep_the_error():
    """inferred_play_bound.mat: three plays of game 6 left unwritten; two are inferred
    (MOST_INFERRED), the third keeps the error a roll with no play has."""
    assert MOST_INFERRED == 2 and MOST_TRIED == 40
    (match,) = replay_file(SIDES / "inferred_play_bound.mat")
    assert [(w.kind, w.line, w.column) for w in match.warnings] == [
        ("inferred_play", 129, 41), ("inferred_play", 136, 6)]
    (error,) = match.errors
    assert (error.kind, error.line, error.column) == ("forced_play", 143, 41)
    assert error.message.startswith("plays 0 of the roll's 2 steps when 2 can be played")
