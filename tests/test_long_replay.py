"""Long nardy records: replayed, written back, simulated, framed and audited.

Known values are worked out by hand from the rules (RULES.md, "Long nardy"); the property
tests write random single illegal plays into simulated matches and expect the replay to stop
on that play's line and column (found in the text itself), with the rule's kind.
"""

from dataclasses import replace

import numpy as np
import pytest
from click.testing import CliRunner
from conftest import SAMPLES
from hypothesis import given, settings
from hypothesis import strategies as st

from nardy_analysis.analysis.audit import audit_dice
from nardy_analysis.analysis.turns import longest_run, turns_frame
from nardy_analysis.cli import main
from nardy_analysis.game.long import HEAD, LongPosition
from nardy_analysis.game.rules import LONG, LONG_FEDERATION, STANDARD
from nardy_analysis.load import load_file
from nardy_analysis.notation.mat import parse_mat
from nardy_analysis.notation.records import TurnRecord, WrittenMove
from nardy_analysis.notation.writer import format_mat
from nardy_analysis.replay import replay_match, written_record
from nardy_analysis.simulate import simulate_match

SAMPLE = SAMPLES / "long" / "simulated_match.mat"

# Player 0 builds 24..20 (five points in a row) and then closes 19 with 41, six in a row
# that no checker of player 1 has passed (all of player 1's are on its own 24..19, behind).
HEADER = f'; [Variation "LongNardy"]\n\n 1 point match\n\n Game 1\n{" alice : 0":<33}bob : 0\n'
LINES = ["  1) 21: 24/23 24/22             31: 24/21 21/20",
         "  2) 11: 24/23 23/22 22/21 21/20 21: 24/22 22/21",
         "  3) 21: 22/21 24/22             32: 24/21 21/19"]


def record(*lines: str, rules=None, tags: bool = True):
    """The replayed match of the hand-made game with ``lines`` after the first three."""
    text = HEADER + "\n".join(LINES + list(lines)) + "\n"
    [match] = parse_mat(text).matches
    return replay_match(match, rules, tags=tags), text


def at(text: str, line: int, column: int) -> str:
    """The text from 1-based ``line`` and ``column`` on, to the end of the line."""
    return text.splitlines()[line - 1][column - 1:]


def test_the_hand_made_game_replays_cleanly_and_the_start_has_360_pips():
    match, _ = record()
    assert match.rules == LONG and not match.errors and not match.warnings
    first = match.games[0].turns[0]
    assert first.before == LongPosition.start() and first.before.pip_count(0) == 360
    assert first.before.pip_count(1) == 360
    # after move 3 player 0 holds 24 (11 checkers), 23, 22, 21 and 20
    after = match.games[0].turns[4].after
    assert after.board[0][HEAD] == 11 and [after.board[0][p] for p in (23, 22, 21, 20)] \
        == [1, 1, 1, 1]
    assert after.pip_count(0) == 11 * 24 + 23 + 22 + 21 + 20


def test_an_unpassed_six_point_block_stops_the_game_on_its_line():
    match, text = record("  4) 41: 24/20 20/19")
    [error] = match.errors
    assert (error.kind, error.line) == ("six_block", 10)
    assert at(text, error.line, error.column).startswith("24/20 20/19")
    assert "24, 23, 22, 21, 20, 19" in error.message
    assert error.position_id == "24x11,23,22,21,20/24x12,21,20,19/0"


def test_the_same_six_points_with_a_checker_past_them_are_allowed():
    # alice brings head checkers to her 20 while bob jumps one checker from his 19 over
    # alice's 24..20 (his 12..8) to his 7 and on to his 6, past them; then 41 closes 19.
    match, _ = record("  4) 11: 24/23 23/22 22/21 21/20 65: 19/13 21/16",
                      "  5) 11: 24/23 23/22 22/21 21/20 61: 13/7 7/6",
                      "  6) 41: 24/20 20/19")
    assert not match.errors, match.errors
    assert longest_run(match.games[0].turns[-1].after, 0) == 6


def test_a_second_checker_off_the_head_is_caught_where_written():
    match, text = record("  4) 42: 24/20 24/22")
    [error] = match.errors
    assert (error.kind, error.line) == ("head_rule", 10)
    assert at(text, error.line, error.column) == "24/22"
    match, text = record("  4) 33: 24/21 21/18 24/21 21/18")  # 24/18(2) as single steps
    assert match.errors[0].kind == "head_rule"
    assert at(text, match.errors[0].line, match.errors[0].column) == "24/21 21/18"


def test_a_landing_on_an_opposing_checker_is_caught_where_written():
    # bob holds his 21, 20 and 19: alice's 9, 8 and 7
    match, text = record("  4) 65: 20/14 14/9")
    [error] = match.errors
    assert (error.kind, error.line) == ("closed_point", 10)
    assert at(text, error.line, error.column) == "14/9" and "point 9" in error.message
    match, text = record("  4) 65: 20/9")  # merged: both readings end on 9
    [error] = match.errors
    assert error.kind == "closed_point" and at(text, error.line, error.column) == "20/9"


def test_a_merged_hop_is_read_through_either_point_and_a_bad_one_is_named():
    match, _ = record("  4) 63: 22/13")
    assert not match.errors
    after = match.games[0].turns[-1].after
    assert (after.board[0][22], after.board[0][13]) == (0, 1)
    match, text = record("  4) 63: 22/12")
    [error] = match.errors
    assert error.kind == "illegal_play" and at(text, error.line, error.column) == "22/12"
    assert "cannot be played with 63" in error.message


def test_a_cube_action_in_a_long_record_is_a_violation():
    match, text = record("  4)  Doubles => 2")
    [error] = match.errors
    assert error.kind == "cube" and at(text, error.line, error.column).startswith("Doubles")


def test_a_double_and_drop_stop_the_game_and_the_next_game_is_scored_as_written():
    game2 = f" Game 2\n{' alice : 1':<33}bob : 0\n" + LINES[0] + "\n      Wins 1 point\n"
    text = (HEADER.replace(" 1 point", " 3 point") + LINES[0]
            + "\n  2)  Doubles => 2               Drops\n      Wins 1 point\n\n" + game2)
    match = replay_match(parse_mat(text).matches[0])
    [error] = match.errors
    assert (error.kind, error.line) == ("cube", 8) and "no doubling cube" in error.message
    first, second = match.games
    assert not first.complete and first.ending != "drop" and first.points == 1
    assert not second.errors and not match.warnings  # no knock-on score error


def test_a_result_warning_in_long_nardy_names_oin_mars_and_home_mars():
    match, _ = record("      Wins 5 points")
    [warning] = match.warnings
    assert "oin 1, mars 2, home mars 3" in warning.message and "cube" not in warning.message


def test_the_rules_option_replays_an_untagged_record_as_long_nardy():
    text = HEADER.replace('; [Variation "LongNardy"]\n\n', "") + "\n".join(LINES) + "\n"
    [untagged] = parse_mat(text).matches
    assert replay_match(untagged).errors  # short nardy: 24/23 24/22 is not a legal opening
    long = replay_match(untagged, LONG)
    assert long.rules == LONG and not long.errors
    federation = replay_match(untagged, LONG_FEDERATION)
    [error] = federation.errors  # the federation's first turn: 21 takes one off the head
    assert (error.kind, error.line) == ("head_rule", 5)
    assert at(text, error.line, error.column).startswith("24/22")


def simulated(seed: int, rules=LONG):
    return simulate_match(np.random.default_rng(seed), length=3, rules=rules)


@settings(max_examples=12, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2 ** 32 - 1), rules=st.sampled_from([LONG, LONG_FEDERATION]))
def test_simulated_long_matches_replay_cleanly_and_write_back(seed, rules):
    record_ = simulated(seed, rules)
    [parsed] = parse_mat(format_mat(record_)).matches
    match = replay_match(parsed)
    assert match.rules == rules and not match.errors and not match.warnings
    assert [len(g.turns) for g in match.games] == [len(g.turns) for g in record_.games]
    assert all(t.after is not None for g in match.games for t in g.turns)
    assert all(g.ending in ("oin", "mars", "home_mars") and g.final.is_over
               for g in match.games)
    text = format_mat(written_record(match))
    assert "bar" not in text and ("/off" in text) and "*" not in text
    [again] = parse_mat(text).matches
    back = replay_match(again)
    assert back.rules == rules and not back.errors and not back.warnings
    assert [t.after for g in back.games for t in g.turns] == \
        [t.after for g in match.games for t in g.turns]
    assert [(g.winner, g.points, g.ending) for g in back.games] == \
        [(g.winner, g.points, g.ending) for g in match.games]


def _illegal(before: LongPosition, roll, kind: str):
    """Moves of one illegal play of ``kind`` for the player on roll, or None."""
    me, opp = before.on_roll, before.opponent
    if kind == "head_rule" and me[HEAD] >= 2 and not roll.is_double:
        if all(not opp[LongPosition.facing(HEAD - d)] for d in (roll.high, roll.low)):
            return [(HEAD, HEAD - roll.high), (HEAD, HEAD - roll.low)]
    if kind == "closed_point":
        for point in range(24, 1, -1):
            for die in sorted(set(roll.dice), reverse=True):
                if me[point] and point - die >= 1 and opp[LongPosition.facing(point - die)]:
                    return [(point, point - die)]
    return None


@settings(max_examples=15, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2 ** 32 - 1), kind=st.sampled_from(["head_rule", "closed_point"]),
       pick=st.floats(0, 1))
def test_a_random_illegal_play_is_the_first_error_on_its_line(seed, kind, pick):
    record_ = simulated(seed)
    [parsed] = parse_mat(format_mat(record_)).matches
    match = replay_match(parsed)
    moved = set()
    places = []  # (game index, action index, moves): turns where the illegal play exists
    for g, game in enumerate(match.games):
        moved.clear()
        turns = iter(game.turns)
        for a, action in enumerate(game.record.actions):
            if not isinstance(action, TurnRecord):
                continue
            turn = next(turns)
            first = action.player not in moved
            moved.add(action.player)
            moves = None if first else _illegal(turn.before, action.roll, kind)
            if moves:
                places.append((g, a, moves))
    if not places:
        return
    g, a, moves = places[int(pick * (len(places) - 1))]
    games = list(record_.games)
    actions = list(games[g].actions)
    actions[a] = actions[a]._replace(moves=tuple(
        WrittenMove((start, end), (False,), 1, 0, 0, "") for start, end in moves))
    games[g] = replace(games[g], actions=tuple(actions))
    text = format_mat(replace(record_, games=tuple(games)))
    [broken] = parse_mat(text).matches
    written = broken.games[g].actions[a]
    blamed = written.moves[-1] if kind == "head_rule" else written.moves[0]
    errors = replay_match(broken).errors
    assert errors and errors[0].kind == kind, errors[:1]
    assert (errors[0].line, errors[0].column) == (blamed.line, blamed.column)
    assert at(text, blamed.line, blamed.column).startswith(blamed.text)
    assert len(errors) == 1  # the game stops there; the others are legal


def test_the_turns_frame_of_a_long_match():
    match, _ = record()
    frame = turns_frame(match)
    assert frame["pips_before"].iloc[0] == frame["opponent_pips_before"].iloc[0] == 360
    first = frame.iloc[0]  # alice 21: 24/23 24/22
    assert (first["pips_after"], first["home"], first["longest_run"]) == (360 - 3, 0, 3)
    # bob's first turn: only 66 cannot be played in full (24/18 twice, and 18/12 is alice's 24)
    assert first["opponent_blocked_rolls"] == 1
    # each side's run of held points along the other's path (worked out by hand)
    assert frame["longest_run"].tolist() == [3, 1, 3, 2, 5, 3]
    # bob's turn after alice's 11: 44 and 66 are blocked; after her third move only 66
    assert frame["opponent_blocked_rolls"].tolist() == [1, 0, 2, 0, 1, 0]
    assert frame["blots"].isna().all() and frame["opponent_shots"].isna().all()
    assert frame["phase"].isna().all() and frame["hits"].isna().all()
    assert frame["position_id_before"].iloc[0] == "24x15/24x15/0"


def test_longest_run_counts_along_the_opponents_path():
    # my 2, 1, 24, 23 are the opponent's 14, 13, 12, 11: a run of four for it, not for me
    assert longest_run(LongPosition.from_notation("24x12,23,2,1/24x15/0"), 0) == 4
    # my 13 and 12 are the opponent's 1 and 24: no run, though my own path joins them
    assert longest_run(LongPosition.from_notation("24x13,13,12/5x15/0"), 0) == 1
    assert longest_run(LongPosition.start(), 1) == 1


def test_the_dice_audit_says_bar_entry_and_hits_do_not_apply():
    audit = audit_dice([replay_match(simulated(3))])
    rows = audit.frame.set_index("test")
    assert rows.loc["doubles", "n"] > 0 and rows.loc["pips", "n"] > 0
    for test in ("bar_entry", "hits_on_blots"):
        assert rows.loc[test, "n"] == 0
        assert rows.loc[test, "note"] == "does not apply to long nardy (no bar, no hitting)"
    assert "does not apply to long nardy" in audit.summary()
    assert "(opening rolls included: in long nardy they are ordinary rolls)" in audit.scope()
    short = audit_dice(load_file(SAMPLES / "BackgammonStudio_6783333.mat"))
    assert "long nardy" not in short.summary()
    both = audit_dice([replay_match(simulated(3)), *load_file(
        SAMPLES / "BackgammonStudio_6783333.mat").matches])
    assert both.frame.set_index("test").loc["bar_entry", "n"] > 0


def test_the_sample_long_match_replays_cleanly():
    loaded = load_file(SAMPLE)
    [match] = loaded.matches
    assert match.rules == LONG and not loaded.errors and not match.errors
    assert len(match.games) >= 2 and all(g.final.is_over for g in match.games)


def test_the_cli_simulates_replays_and_draws_long_nardy(tmp_path):
    runner = CliRunner()
    done = runner.invoke(main, ["simulate", "2", "--rules", "long", "--out", str(tmp_path),
                                "--length", "1", "--seed", "4"])
    assert done.exit_code == 0, done.output
    files = sorted(tmp_path.glob("*.mat"))
    assert len(files) == 2 and '[Variation "LongNardy"]' in files[0].read_text()
    done = runner.invoke(main, ["replay", "--json", *map(str, files)])
    assert done.exit_code == 0 and '"errors": []' in done.output
    untagged = tmp_path / "untagged.mat"
    untagged.write_text(files[0].read_text().replace('; [Variation "LongNardy"]\n', ""))
    assert runner.invoke(main, ["replay", str(untagged)]).exit_code == 1
    assert runner.invoke(main, ["replay", "--rules", "long", str(untagged)]).exit_code == 0
    board = runner.invoke(main, ["board", "24x14,20/24x15/1"])
    assert board.exit_code == 0 and "pips: X 360 O 356" in board.output
    svg = tmp_path / "b.svg"
    assert runner.invoke(main, ["board", "24x14,20/24x15/1", "--svg", str(svg)]).exit_code == 0
    assert svg.read_text().startswith("<svg")
    shots = runner.invoke(main, ["shots", "24x15/24x15/0"])
    assert shots.exit_code == 2 and "shots do not apply to long nardy" in shots.output
    assert runner.invoke(main, ["shots", "--rules", "long", "4HPwATDgc/ABMA"]).exit_code == 2
    assert STANDARD.game == "short"


def test_the_blocked_rolls_chart_and_the_pip_race_of_a_long_game():
    from matplotlib.figure import Figure

    from nardy_analysis.errors import InvalidArgument
    from nardy_analysis.plots import plot_blocked_rolls, plot_pip_race

    frame = turns_frame(record()[0])
    ax = Figure().subplots()
    assert plot_blocked_rolls(frame, ax) is ax
    alice, bob = ax.containers
    assert [bar.get_height() for bar in alice] == [1, 2, 1]  # as in the turns frame test
    assert [bar.get_x() + bar.get_width() / 2 for bar in alice] == [1, 3, 5]
    assert [bar.get_height() for bar in bob] == [0, 0, 0]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["alice", "bob"]
    ax = plot_pip_race(frame, Figure().subplots())
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["alice", "bob"]  # no hits
    assert ax.lines[0].get_ydata()[0] == 360
    short = turns_frame(load_file(SAMPLES / "BackgammonStudio_6783333.mat"))
    with pytest.raises(InvalidArgument, match="long nardy games only"):
        plot_blocked_rolls(short, Figure().subplots())


def test_the_turns_frame_leaves_the_cube_and_the_bar_empty_for_long_nardy():
    frame = turns_frame(record()[0])
    for column in ("cube_value", "bar", "opponent_bar"):
        assert frame[column].isna().all(), column
    assert frame["off"].notna().all()
    short = turns_frame(load_file(SAMPLES / "BackgammonStudio_6783333.mat"))
    assert (short["cube_value"] >= 1).all() and short["bar"].notna().all()


def test_exposure_refuses_long_nardy():
    from matplotlib.figure import Figure

    from nardy_analysis.errors import InvalidArgument
    from nardy_analysis.plots import plot_blot_exposure

    match, _ = record()
    with pytest.raises(InvalidArgument, match="blot exposure does not apply to long nardy"):
        plot_blot_exposure(turns_frame(match), Figure().subplots())


def test_blot_exposure_refuses_a_long_match(tmp_path):
    runner = CliRunner()
    done = runner.invoke(main, ["plot", str(SAMPLE), "--game", "1", "--kind", "exposure",
                                "--out", str(tmp_path / "e.png")])
    assert done.exit_code == 2 and "blot exposure does not apply to long nardy" in done.output
    assert not (tmp_path / "e.png").exists()
    done = runner.invoke(main, ["plot", str(SAMPLE), "--game", "1", "--out",
                                str(tmp_path / "r.png")])
    assert done.exit_code == 0 and (tmp_path / "r.png").stat().st_size > 0


@pytest.mark.slow
@pytest.mark.parametrize("command", ["stats", "audit", "convert", "plot", "report", "luck",
                                     "skill", "replay"])
def test_every_command_that_reads_matches_takes_the_rules_option(command, tmp_path):
    runner = CliRunner()
    untagged = tmp_path / "untagged.mat"
    untagged.write_text(SAMPLE.read_text().replace('; [Variation "LongNardy"]\n', ""))
    extra = {"plot": ["--game", "1", "--out", str(tmp_path / "r.png")],
             "report": ["-o", str(tmp_path / "r.html"), "--no-luck"]}.get(command, [])
    help_text = runner.invoke(main, [command, "--help"]).output
    assert "long (= longnardy)" in " ".join(help_text.split())
    plain = runner.invoke(main, [command, str(untagged), *extra])
    assert plain.exit_code == 1 and "illegal_play" in plain.output + plain.stderr
    done = runner.invoke(main, [command, "--rules", "long", str(untagged), *extra])
    assert done.exit_code == 0, done.output


def test_the_dice_audit_of_long_nardy_counts_the_first_roll_of_each_game():
    match = replay_match(simulated(3))
    rolls = sum(len(game.record.turns) for game in match.games)
    assert len(match.games) > 1  # so that leaving out first rolls would show
    assert audit_dice([match]).frame.set_index("test").loc["doubles", "n"] == rolls
    short = load_file(SAMPLES / "BackgammonStudio_6783333.mat").matches[0]
    written = sum(len(game.record.turns) for game in short.games)
    assert audit_dice([short]).frame.set_index("test").loc["doubles", "n"] == written - 1


@pytest.mark.parametrize("rules", [LONG, LONG_FEDERATION])
def test_sgf_keeps_long_nardy_both_ways(rules):
    from nardy_analysis.notation.sgf import parse_sgf
    from nardy_analysis.notation.sgf_writer import format_sgf

    match = replay_match(simulated(5, rules))
    # from the board, and as recorded
    for source in (written_record(match, merge=False), match.record):
        text = format_sgf(source)
        assert f"RU[{'LongNardy' if rules == LONG else 'long-federation'}]" in text
        [back] = parse_sgf(text).matches
        again = replay_match(back)
        assert again.rules == rules and not again.errors and not again.warnings
        assert [[t.after for t in g.turns] for g in again.games] == \
            [[t.after for t in g.turns] for g in match.games]
    assert "RU[" not in format_sgf(written_record(replay_match(simulated(5, STANDARD)))).replace(
        "RU[Crawford]", "")


def test_convert_to_sgf_then_replay_a_long_match(tmp_path):
    runner = CliRunner()
    sgf = tmp_path / "t.sgf"
    done = runner.invoke(main, ["convert", "--to", "sgf", str(SAMPLE), "-o", str(sgf)])
    assert done.exit_code == 0, done.output
    done = runner.invoke(main, ["replay", str(sgf)])
    assert done.exit_code == 0 and ": ok" in done.output, done.output


@pytest.mark.parametrize("text, message", [
    ("24x15/24x15", "not a long nardy position '24x15/24x15'"),
    ("24x15,abc/24x15/0", "bad point 'abc' of player 1 in long nardy position "
                          "'24x15,abc/24x15/0'"),
    ("24x15,23/24x15/2", "not a long nardy position '24x15,23/24x15/2'"),
])
def test_board_names_what_is_wrong_with_malformed_long_notation(text, message):
    done = CliRunner().invoke(main, ["board", text])
    assert done.exit_code != 0 and message in done.output, done.output
    assert "Position ID" not in done.output


@pytest.mark.parametrize("text", ["6/-/1", "4HPwATDgc/ABMA", "24x15/24x15/0"])
def test_board_still_reads_short_ids_and_plain_long_notation(text):
    assert CliRunner().invoke(main, ["board", text]).exit_code == 0


def test_the_head_rule_message_says_why_only_one_may_leave():
    match, _ = record("  4) 42: 24/20 24/22")
    assert "1 allowed (two only on the player's first turn of the game)" in \
        match.errors[0].message
    text = HEADER.replace('; [Variation "LongNardy"]\n\n', "") + LINES[0] + "\n"
    [error] = replay_match(parse_mat(text).matches[0], LONG_FEDERATION).errors
    assert "1 allowed (on the first turn only 66, 44 and 33 allow two: the federation rule)" \
        in error.message


def test_a_merged_move_whose_middle_points_are_both_closed_names_both():
    # alice brings a checker to her 14; bob holds her 9 and 8 (his 21 and 20): 65 14/3
    # passes through 8 (6 first) or 9 (5 first), both closed
    match, text = record("  4) 63: 20/14 23/20              61: 24/18 18/17",
                         "  5) 65: 14/3")
    [error] = match.errors
    assert error.kind == "closed_point" and at(text, error.line, error.column) == "14/3"
    assert "points 8 and 9 are held by the opponent" in error.message


def test_the_main_help_names_both_games():
    text = " ".join(CliRunner().invoke(main, ["--help"]).output.split())
    assert "short nardy (backgammon) and long nardy (--rules long" in text
