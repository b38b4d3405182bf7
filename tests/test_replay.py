"""Replaying records against the rules: legal files, each kind of violation, the corpus."""

import pytest

from conftest import ROOT, SAMPLES, read_tsv
from nardy_analysis import (LENIENT, STANDARD, TAVLA, Position, RuleViolation, parse_mat,
                            replay_file, replay_match)

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
     "      Wins 2 point\n", "result", 7, 7, "not a possible result", AFTER_BOTH),
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
    assert (first.winner, first.points) == (0, 1)
    assert second.complete and len(second.turns) == 2 and not second.errors


def test_score_lines_are_checked_against_results():
    text = (HEADER.format(length=5)
            + "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
            + "  2)  Doubles => 2                Drops\n      Wins 1 point\n\n"
            + " Game 2\n alice : 2                       bob : 0\n")
    error = only_error(replay_match(parse_mat(text, strict=True).matches[0]))
    assert error.kind == "score" and "1-0" in error.message
    assert (error.line, error.column) == (10, 2)


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
        errors = [e for m in replay_file(path) for e in m.errors]
        error = errors[0]
        assert error.kind == row["kind"]
    assert (error.line, error.column) == (int(row["line"]), int(row["column"]))


def test_every_legal_sample_replays_without_violations():
    files = sorted(SAMPLES.glob("*.mat"))
    assert len(files) >= 10
    for path in files:
        for match in replay_file(path):
            assert not match.errors, (path.name, match.errors)


def test_corpus_replays_and_flags_only_known_records(corpus_files):
    known = {(r["file"], int(r["line"]), int(r["column"]), r["kind"])
             for r in read_tsv(ROOT / "tests" / "data" / "corpus_violations.tsv")}
    found, games, turns, files = set(), 0, 0, 0
    for path in corpus_files:
        files += 1
        for match in replay_file(path):
            games += len(match.games)
            turns += sum(len(g.turns) for g in match.games)
            found |= {(path.name, e.line, e.column, e.kind) for e in match.errors}
    assert files >= 1700 and games >= 5000 and turns >= 210_000
    assert found == known


def test_points_outside_the_board_are_illegal_not_a_crash():
    error = only_error(replay_text("  1) 31: 30/27 13/10\n"))
    assert (error.kind, error.line, error.column) == ("illegal_play", 5, 10)
    assert "no point 30" in error.message
    error = only_error(replay_text("  1) 31: 13/99\n"))
    assert "no point 99" in error.message


def test_a_merged_move_the_board_cannot_settle_is_reported_as_ambiguous():
    # No '*' anywhere: bob's 13/6 with 4-3 goes via his 9-point (alice's blot: a hit) or
    # via his 10-point (no hit); the game ends at once, so nothing settles it.
    error = only_error(replay_text("  1) 62: 24/16                   43: 13/6\n"
                                   "                                  Wins 1 point\n"))
    assert (error.kind, error.line, error.column) == ("ambiguous", 5, 34)
    assert "13/9*" in error.message and "13/10" in error.message


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
    dropped = text.replace("Takes", "Drops")
    (error,) = replay_match(parse_mat(dropped, strict=True).matches[0]).errors
    assert error.kind == "result" and error.line == 7


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
        "<ReplayedGame 1: 6 turns, player 0 wins 1 (drop), 0 errors>",
        "<ReplayedGame 2: 27 turns, player 1 wins 2 (gammon), 0 errors>",
        "<ReplayedGame 3: 4 turns, player 1 wins 1 (resign), 0 errors>"]
    assert repr(match.games[0].turns[0]) == "<ReplayedTurn move 1 player 0 31: 8/5 6/5>"
