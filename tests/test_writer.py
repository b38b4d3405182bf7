"""Writing .mat text: the canonical layout, round trips of random legal matches and of real
files, the IDs of every position reached, and ``nardy convert``."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from click.testing import CliRunner
from conftest import CORPUS_FILES, SAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_notation import GALAXY

from nardy_analysis import (
    NardyError,
    Position,
    Roll,
    parse_mat,
    read_mat,
    replay_file,
    replay_match,
    written_record,
)
from nardy_analysis.cli.convert import convert
from nardy_analysis.game.ids import GameState, MatchState, match_from_id, match_id
from nardy_analysis.game.position import BAR, OFF
from nardy_analysis.notation.records import (
    CubeRecord,
    GameRecord,
    MatchRecord,
    ResultRecord,
    TurnRecord,
    WrittenMove,
)
from nardy_analysis.notation.writer import format_mat, write_mat

NAMES = st.text(st.sampled_from("abcxyzAZ09_.-ÄжΩ "), min_size=1, max_size=12).map(str.strip) \
    .filter(bool)
TAG_KEYS = st.sampled_from(["Site", "Event", "EventDate", "Round", "Annotator"])
TAG_VALUES = st.text(st.sampled_from('abz019 .,:;"[]é'), max_size=15)


# --- known layout ------------------------------------------------------------------------------

CANONICAL = GALAXY[:GALAXY.index("\n\n") + 2] + """\
 3 point match

 Game 1
 alice : 0                       bob : 0
  1) 42: 8/4 6/4                 65: 24/13
  2) 42: 13/11 13/9              62: 24/16*
  3)  Doubles => 2                Drops
      Wins 1 point

"""


def test_replayed_match_is_written_in_gnubgs_layout():
    """One checker's steps merged, hits marked where the board has them (bob's 62 hits
    alice's blot on his 16-point), highest point first, columns at 6 and 34."""
    (match,) = parse_mat(GALAXY, strict=True).matches
    assert format_mat(written_record(replay_match(match))) == CANONICAL
    # Records are written as recorded, in the same layout.
    assert format_mat(match) == CANONICAL.replace("24/13", "24/18 18/13").replace(
        "13/11 13/9", "13/9 13/11").replace("24/16*", "24/18 18/16")


def test_hits_from_the_board_bar_off_as_numbers_and_repeats():
    text = (" 0 point match\n\n Game 1\n a : 0                           b : 0\n"
            "  1) 31: 8/5 6/5                 64: 24/18 13/9\n"
            "  2) 66: 24/18 24/18 13/7 13/7   43: 25/21 13/10\n")
    replayed = replay_match(parse_mat(text, strict=True).matches[0])
    assert not replayed.errors
    written = written_record(replayed)
    lines = format_mat(written, bar_off=False).splitlines()
    # The first 13/7 hits bob's blot (his 18-point): the board decides, the file did not say.
    assert lines[5] == "  2) 66: 24/18(2) 13/7* 13/7     43: 25/21 13/10"
    assert format_mat(written).splitlines()[5].endswith("43: bar/21 13/10")


def test_dances_unknown_plays_cube_and_both_result_columns():
    text = (" 0 point match\n\n Game 1\n a : 0                           b : 0\n"
            "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
            "  2)  Doubles => 2                Beavers => 4\n"
            "  3)  Raccoons => 8\n"
            "  4) 64: ???\n"
            "                                  Wins 8 points\n\n"
            " Game 2\n a : 0                           b : 8\n"
            "  1)                             65: Cannot Move\n"
            "      Losses 2 points             Wins 2 points and the match\n")
    # A dance is a bare roll. "Losses" and "Wins" of one result are one line, but a money
    # game has no "and the match": the two disagree, so both are kept, as "Wins".
    (match,) = parse_mat(text, strict=True).matches
    assert format_mat(match) == text.replace("65: Cannot Move", "65:").replace(
        "      Losses 2 points             Wins 2 points and the match\n",
        "                                  Wins 2 points\n"
        "                                  Wins 2 points and the match\n\n")


def test_unwritable_names_and_tags_raise():
    (match,) = parse_mat(GALAXY, strict=True).matches
    game = match.games[0]
    bad_name = MatchRecord(3, {}, (GameRecord(1, ("a:b", "c"), (0, 0), (), 1, 1, 1, 1),), 1, 1)
    with pytest.raises(NardyError, match="a:b"):
        format_mat(bad_name)
    bad_tag = MatchRecord(3, {"Site": "two\nlines"}, (game,), 1, 1)
    with pytest.raises(NardyError, match="Site"):
        format_mat(bad_tag)


# --- random legal matches ----------------------------------------------------------------------

@dataclass
class ExpectedGame:
    """What the generator did in one game: per turn (before, roll, after, play, cube value,
    cube owner), the cube actions, the result."""

    scores: tuple[int, int]
    crawford: bool
    turns: list = field(default_factory=list)
    cubes: list = field(default_factory=list)
    result: tuple[int, int] | None = None
    offers: list = field(default_factory=list)  # (position, MatchState) with a double offered


def written(play) -> tuple[WrittenMove, ...]:
    return tuple(WrittenMove((m.start, m.end), (m.hit,), 1, 0, 0, "") for m in play.moves)


def multiple(position: Position, winner: int) -> int:
    """Gammons and backgammons as RULES.md scores them (standard rules, no Jacoby)."""
    loser = position.board[1 - winner]
    if loser[OFF]:
        return 1
    return 3 if loser[BAR] or any(loser[19:25]) else 2


def pick(draw, chance: int) -> bool:
    """True about once in ``chance`` draws (a middle value: hypothesis favours the ends)."""
    return draw(st.integers(0, chance - 1)) == chance // 2


@st.composite
def legal_games(draw, length: int, score: list[int], crawford: bool, last: bool):
    """One game of random legal plays and cube actions; returns (GameRecord, ExpectedGame)."""
    expected = ExpectedGame(tuple(score), crawford)
    actions = []
    turn = draw(st.integers(0, 1))
    position = Position.start(turn)
    cube, owner = 1, None
    to_the_end = pick(draw, 3)  # no cube action, no resignation: the game is borne off
    while True:
        # A double, with a beaver and a raccoon, makes the cube 8 times bigger: it stays
        # within the 32768 the IDs can hold.
        if expected.turns and not (crawford or to_the_end) and owner in (None, turn) \
                and cube <= 4096 and pick(draw, 12):
            state = dict(cube=cube, cube_owner=owner, player=turn, crawford=crawford,
                         match_length=length, score=tuple(score), doubled=True,
                         turn=1 - turn)
            expected.offers.append((position, MatchState(**state)))
            actions.append(CubeRecord(turn, "double", 2 * cube, None, 0, 0, ""))
            answer = draw(st.sampled_from(["take", "take", "drop"] + ["beaver"] * (length == 0)))
            if answer == "drop":
                actions.append(CubeRecord(1 - turn, "drop", None, None, 0, 0, ""))
                expected.result = (turn, cube)
                break
            if answer == "take":
                actions.append(CubeRecord(1 - turn, "take", None, None, 0, 0, ""))
                cube, owner = 2 * cube, 1 - turn
            else:
                expected.offers.append((position, MatchState(**state | dict(beavers=1,
                                                                            turn=turn))))
                actions.append(CubeRecord(1 - turn, "beaver", 4 * cube, None, 0, 0, ""))
                cube, owner = 4 * cube, 1 - turn
                if pick(draw, 2):
                    actions.append(CubeRecord(turn, "raccoon", 2 * cube, None, 0, 0, ""))
                    cube, owner = 2 * cube, turn
        if expected.turns and not to_the_end and pick(draw, 50):
            if last and pick(draw, 2):
                break  # the file stops in the middle of the game
            winner = draw(st.integers(0, 1))
            expected.result = (winner, cube * draw(st.integers(1, 3)))  # a resignation
            break
        dice = draw(st.tuples(st.integers(1, 6), st.integers(1, 6)).filter(
            lambda d: expected.turns or d[0] != d[1]))
        roll = Roll(*dice)
        plays = dict((after, play) for play, after in position.legal_plays(roll))
        after = draw(st.sampled_from(sorted(plays, key=Position.id)))
        expected.turns.append((position, roll, after, plays[after], cube, owner))
        actions.append(TurnRecord(turn, roll, written(plays[after]), None, 0, 0, ""))
        position, turn = after, 1 - turn
        if position.is_over:
            winner = 1 - turn
            expected.result = (winner, cube * multiple(position, winner))
            break
    expected.cubes = [(a.player, a.action, a.value) for a in actions
                      if isinstance(a, CubeRecord)]
    if expected.result:
        winner, points = expected.result
        won = 0 < length <= score[winner] + points
        actions.append(ResultRecord(winner, points, True, won, None, 0, 0, ""))
    return actions, expected


@st.composite
def legal_matches(draw):
    """A MatchRecord of random legal games and what each game should replay to."""
    length = draw(st.sampled_from([0, 1, 3, 5]))
    names = (draw(NAMES), draw(NAMES))
    tags = draw(st.dictionaries(TAG_KEYS, TAG_VALUES, max_size=3))
    score, games, expected = [0, 0], [], []
    crawford_played = False
    count = draw(st.integers(1, 3))
    for number in range(1, count + 1):
        crawford = (length > 0 and not crawford_played and score.count(length - 1) == 1
                    and max(score) == length - 1)
        crawford_played |= crawford
        actions, game = draw(legal_games(length, score, crawford, number == count))
        games.append(GameRecord(number, names, tuple(score), tuple(actions), 0, 0, 0, 0))
        expected.append(game)
        if game.result is None:
            break
        score[game.result[0]] += game.result[1]
        if 0 < length <= max(score):
            break
    return MatchRecord(length, tags, tuple(games), 0, 0), expected


def check_replay(replayed, record: MatchRecord, expected: list[ExpectedGame], exact_plays):
    assert not replayed.errors
    assert replayed.record.tags == record.tags
    assert replayed.record.length == record.length
    assert len(replayed.games) == len(expected)
    for game, wanted, original in zip(replayed.games, expected, record.games):
        assert game.record.names == original.names
        assert game.record.scores == wanted.scores
        assert [(t.before, t.roll, t.after, t.cube_value, t.cube_owner) for t in game.turns] == \
            [(before, roll, after, cube, owner) for before, roll, after, _, cube, owner
             in wanted.turns]
        for turn, (_, _, _, play, _, _) in zip(game.turns, wanted.turns):
            assert len(turn.play) == len(play)
            if exact_plays:
                assert turn.play == play
        cubes = [(a.player, a.action, a.value) for a in game.record.actions
                 if isinstance(a, CubeRecord)]
        assert cubes == wanted.cubes
        assert (game.winner, game.points) == (wanted.result or (None, None))


@pytest.mark.slow
@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(legal_matches(), min_size=1, max_size=2), st.booleans())
def test_random_legal_matches_round_trip(generated, bar_off):
    records = [record for record, _ in generated]
    # Records -> text -> records -> replay: the moves exactly as generated.
    again = parse_mat(format_mat(records, bar_off=bar_off), strict=True).matches
    assert len(again) == len(records)
    for match, (record, expected) in zip(again, generated):
        check_replay(replay_match(match), record, expected, exact_plays=True)
    # Replayed -> text (merged moves, hits from the board) -> replay: the same positions.
    replayed = [replay_match(record) for record in records]
    for match, (record, expected) in zip(replayed, generated):
        check_replay(match, record, expected, exact_plays=True)
    again = parse_mat(format_mat(map(written_record, replayed), bar_off=bar_off),
                      strict=True).matches
    for match, (record, expected) in zip(again, generated):
        check_replay(replay_match(match), record, expected, exact_plays=False)


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(legal_matches())
def test_ids_of_every_position_reached_round_trip(generated):
    """Position ID, Match ID and XGID of legal positions from real play, with the match and
    cube state of the moment (the XGID also with a double, beaver or raccoon on offer)."""
    record, expected = generated
    for game in expected:
        for before, roll, after, _, cube, owner in game.turns:
            for position in (before, after):
                assert Position.from_id(position.id(), position.turn) == position
            state = MatchState(cube=cube, cube_owner=owner, player=before.turn,
                               crawford=game.crawford, game_state=GameState.PLAYING,
                               dice=(roll.high, roll.low), match_length=record.length,
                               score=game.scores)
            assert match_from_id(match_id(state)) == state
            assert Position.from_xgid(before.xgid(state)) == (before, state)
        for position, state in game.offers:
            assert Position.from_xgid(position.xgid(state)) == (position, state)


# --- real files --------------------------------------------------------------------------------

def files_to_check():
    files = sorted(SAMPLES.glob("*.mat")) + sorted((SAMPLES / "broken").glob("*.mat"))
    files += CORPUS_FILES[::40]  # a spread of the corpus (when present), every 40th file
    return files


def outcome(replayed):
    """What a replay says, apart from where the text is: positions, plays, cube, results and
    the kinds of violation per game."""
    return [[(t.before, t.roll, t.after, t.cube_value, t.cube_owner) for t in g.turns]
            + [(g.winner, g.points, g.ending, len(g.record.turns)),
               [(e.kind, e.game) for e in g.errors]]
            for g in replayed.games]


@pytest.mark.parametrize("path", files_to_check(), ids=lambda p: p.name)
def test_real_files_round_trip(path):
    matches = read_mat(path).matches
    assert matches
    replayed = [replay_match(m) for m in matches]
    for source in (matches, [written_record(m) for m in replayed]):
        for bar_off in (True, False):
            text = format_mat(source, bar_off=bar_off)
            again = [replay_match(m) for m in parse_mat(text, strict=True).matches]
            assert [outcome(m) for m in again] == [outcome(m) for m in replayed]
            assert [m.record.tags for m in again] == [m.record.tags for m in replayed]


def test_write_mat_writes_utf8_with_lf(tmp_path):
    target = tmp_path / "out.mat"
    write_mat(map(written_record, replay_file(SAMPLES / "studio_style_bom_crlf.mat")), target)
    data = target.read_bytes()
    assert b"\r" not in data and not data.startswith(b"\xef\xbb\xbf")
    assert "Zoë Ångström" in data.decode("utf-8")


# --- nardy convert -----------------------------------------------------------------------------

def test_convert_normalises_any_exporter(tmp_path):
    source = SAMPLES / "cp1251_cyrillic_names.mat"
    target = tmp_path / "out.mat"
    result = CliRunner().invoke(convert, [str(source), "--to", "mat", "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert [outcome(m) for m in replay_file(target)] == [outcome(m) for m in replay_file(source)]
    assert "Дмитрий" in target.read_text("utf-8")
    numbers = tmp_path / "numbers.mat"
    to_stdout = CliRunner().invoke(convert, [str(source), "--numbers"])
    assert to_stdout.exit_code == 0
    numbers.write_text(to_stdout.stdout, "utf-8")
    assert "bar/" in target.read_text("utf-8") and "bar/" not in to_stdout.stdout
    assert [outcome(m) for m in replay_file(numbers)] == [outcome(m) for m in replay_file(source)]


def test_convert_reports_a_skipped_game_and_exits_1(tmp_path):
    source = tmp_path / "in.mat"
    source.write_text(GALAXY + "\n Game 2\n alice : 0                       bob : 1\n"
                      "  1) 42: 8/4 6/x4\n\n Game 3\n alice : 0                       bob : 1\n"
                      "  1) 42: 8/4 6/4\n")
    result = CliRunner().invoke(convert, [str(source)])
    assert result.exit_code == 1
    line = GALAXY.count("\n") + 4
    assert f"in.mat:{line}:14:" in result.stderr and "game 2 is skipped" in result.stderr
    games = [g.number for m in parse_mat(result.stdout, strict=True).matches for g in m.games]
    assert games == [1, 3]


def test_convert_usage_errors():
    assert CliRunner().invoke(convert, ["/no/such.mat"]).exit_code == 2
    assert CliRunner().invoke(convert, [str(SAMPLES / "galaxy_style_crawford.mat"),
                                        "--to", "pdf"]).exit_code == 2
