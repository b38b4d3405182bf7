"""Per-turn frames: known values of a hand-checked game, shots against brute force, `stats`."""

from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner
from conftest import SAMPLES, brute_force_shots, read_tsv, side
from scipy.stats import binomtest

from nardy_analysis import (
    InvalidArgument,
    Position,
    load_file,
    load_files,
    parse_mat,
    replay_file,
    replay_match,
)
from nardy_analysis.analysis.turns import _ROW, DTYPES, _turn_rows, hit_rates, phase, turns_frame
from nardy_analysis.cli.stats import stats

STUDIO = SAMPLES / "BackgammonStudio_5407469.mat"
GOOD = sorted(SAMPLES.glob("*.mat"))
UNTAGGED_TWO = (" 1 point match\n\n Game 1\n alice : 0                       bob : 0\n"
                "  1) 42: 8/4 6/4                 31: 8/5 6/5\n\n"
                " 1 point match\n\n Game 1\n carol : 0                       dave : 0\n"
                "  1) 31: 8/5 6/5\n")


@pytest.fixture(scope="module")
def studio():
    return turns_frame(load_file(STUDIO))


@pytest.fixture(scope="module")
def samples():
    return turns_frame(load_files(GOOD))


def test_columns_and_dtypes(studio):
    assert list(studio.columns) == list(DTYPES)
    assert {c: str(t) for c, t in studio.dtypes.items()} == DTYPES
    assert turns_frame([]).columns.tolist() == list(DTYPES)


def test_one_row_per_turn_written(samples):
    # Turns counted from the files' bytes (sample_games/EXPECTED.tsv), dances and ??? included.
    expected = {row["file"]: int(row["turns"]) for row in read_tsv(SAMPLES / "EXPECTED.tsv")}
    counted = samples.groupby(samples["file"].map(lambda f: Path(f).name)).size().to_dict()
    assert counted == expected


def test_every_game_starts_at_167_pips_each(samples):
    first = samples[samples["turn"] == 1]
    assert len(first) == 23  # games in EXPECTED.tsv
    assert (first["pips_before"] == 167).all() and (first["opponent_pips_before"] == 167).all()
    assert (first["position_id_before"] == "4HPwATDgc/ABMA").all()  # gnubg's start ID


def test_the_opening_of_a_hand_checked_game(studio):
    # BackgammonStudio_5407469.mat, game 1, checked by hand from the file:
    # 1) pdf633 53: 8/3 6/3          p9be6 63: 24/18 13/10
    # 2) pdf633 43: 24/21 13/9       p9be6 52: 18/16* 16/11
    # Start: 2 on the 24-point, 5 on 13, 3 on 8, 5 on 6 (167 pips).
    game = studio[studio["game"] == 1].set_index("turn")
    rows = game.loc[[1, 2, 3, 4]]
    assert rows["player"].tolist() == ["pdf633", "p9be6", "pdf633", "p9be6"]
    assert rows["opponent"].tolist() == ["p9be6", "pdf633", "p9be6", "pdf633"]
    assert rows["side"].tolist() == [0, 1, 0, 1]
    assert rows["move"].tolist() == [1, 1, 2, 2]
    assert rows["dice"].tolist() == ["53", "63", "43", "52"]
    assert rows["play"].tolist() == ["8/3 6/3", "24/18 13/10", "24/21 13/9", "18/16* 16/11"]
    assert rows["pips_before"].tolist() == [167, 167, 159, 158]
    assert rows["pips_after"].tolist() == [159, 158, 152, 151]
    assert rows["opponent_pips_after"].tolist() == [167, 159, 158, 152 + 25 - 9]
    assert rows["pip_lead"].tolist() == [0, -8, -1, -6]
    assert rows["blot_points"].tolist() == [[], [10, 18, 24], [9, 21, 24], [10, 11, 24]]
    assert rows["blots"].tolist() == [0, 3, 3, 3]
    assert rows["hits"].tolist() == [0, 0, 0, 1]
    assert rows["opponent_bar"].tolist() == [0, 0, 0, 1]
    assert rows["opponent_hit"].tolist() == [False, False, True, True]
    # pdf633's 43 at turn 3 could hit p9be6's blot on his 24 (8/5/1*) but was played
    # 24/21 13/9: a hitting roll that did not hit. No blot at turn 1: no roll hits.
    assert rows["opponent_roll_hits"].tolist() == [False, True, True, True]
    assert rows["phase"].tolist() == ["contact"] * 4
    assert (rows["cube_value"] == 1).all() and rows["cube_owner"].isna().all()
    assert rows["opponent_shots"].iloc[0] == 0
    # 5) p9be6 66: 13/7*(2) 7/1*(2): a blot hit on the 7 and one on the 1.
    assert game.loc[10, "hits"] == 2 and game.loc[10, "opponent_bar"] == 2


def test_cube_value_and_owner_after_a_take(studio):
    # "13)  Doubles => 2   Takes": pdf633 doubles after move 12, p9be6 (side 1) takes.
    game = studio[studio["game"] == 1]
    before, after = game[game["move"] <= 12], game[game["move"] >= 14]
    assert (before["cube_value"] == 1).all() and before["cube_owner"].isna().all()
    assert (after["cube_value"] == 2).all() and (after["cube_owner"] == 1).all()


def test_the_last_bear_off_and_the_unknown_resignation(studio):
    game1 = studio[studio["game"] == 1]
    last = game1.iloc[-1]
    assert last["play"] == "4/off 3/off(2) 1/off" and last["off"] == 15
    assert last["pips_after"] == 0 and last["phase"] == "race" and pd.isna(last["opponent_hit"])
    game2 = studio[studio["game"] == 2]
    unknown = game2.iloc[-1]  # 31) 61: ????
    assert unknown["dice"] == "61" and pd.isna(unknown["play"])
    for column in ("pips_after", "blots", "opponent_shots", "opponent_roll_hits", "hits",
                   "position_id_after"):
        assert pd.isna(unknown[column])
    assert pd.isna(game2.iloc[-2]["opponent_hit"])  # the next play is unknown, its roll is not
    assert game2.iloc[-2]["opponent_roll_hits"] == False  # noqa: E712 (known: 61 is written)
    assert pd.isna(last["opponent_roll_hits"])  # no next roll in the game


@pytest.mark.slow
def test_opponent_shots_against_brute_force(samples):
    matches = [m for path in GOOD[:4] for m in replay_file(path)]
    frame = turns_frame(matches)
    turns = [t for m in matches for g in m.games for t in g.turns]
    assert len(frame) == len(turns)
    for (_, row), turn in zip(frame.iterrows(), turns):
        if turn.after is not None:
            assert row["opponent_shots"] == brute_force_shots(turn.after), row["position_id_after"]
    # The next roll hits when one of its legal plays (from the position after) hits.
    expected = []
    for game in (g for m in matches for g in m.games):
        for turn, following in zip(game.turns, [*game.turns[1:], None]):
            expected.append(None if turn.after is None or following is None else any(
                move.hit for play, _ in turn.after.legal_plays(following.roll)
                for move in play.moves))
    assert frame["opponent_roll_hits"].astype(object).where(
        frame["opponent_roll_hits"].notna(), None).tolist() == expected
    assert 0 < sum(e is True for e in expected) < sum(e is not None for e in expected)
    # Only a blot can be hit, and only when some roll can hit it.
    hit = samples[samples["opponent_hit"].fillna(False)]
    assert len(hit) > 10
    assert (hit["blots"] > 0).all() and (hit["opponent_shots"] > 0).all()


def test_sources_give_the_same_rows(studio):
    matches = replay_file(STUDIO)
    for source in (matches[0], matches, load_file(STUDIO), load_files([str(STUDIO)])):
        pd.testing.assert_frame_equal(turns_frame(source), studio)
    for path in (str(STUDIO), STUDIO, [STUDIO]):  # the analyses take matches, not paths
        with pytest.raises(ValueError, match="BackgammonStudio_5407469.mat"):
            turns_frame(path)
    with pytest.raises(InvalidArgument, match="got a DataFrame \\(columns file, match_id"):
        turns_frame(studio)  # nor frames


def test_folders_and_many_files(tmp_path, samples):
    folder = tmp_path / "deep" / "er"
    folder.mkdir(parents=True)
    (folder / "a.mat").write_bytes(STUDIO.read_bytes())
    frame = turns_frame(load_files([tmp_path, GOOD[0]]))
    assert len(frame) == 98 + 31
    assert frame["file"].iloc[0].endswith("a.mat") and frame["match_id"].iloc[0] == "5407469"


def test_match_ids_from_tags_or_the_file_stem(samples, tmp_path):
    ids = samples.groupby(samples["file"].map(lambda f: Path(f).stem))["match_id"].unique()
    assert list(ids["two_matches_anonymous"]) == ["7001", "7002"]
    assert list(ids["cp1251_cyrillic_names"]) == ["cp1251_cyrillic_names"]  # no header tags
    path = tmp_path / "club.mat"
    path.write_text(UNTAGGED_TWO)
    assert turns_frame(load_file(path))["match_id"].tolist() == ["club:1", "club:1", "club:2"]
    (match,) = parse_mat(UNTAGGED_TWO.split("\n\n 1 point")[0], strict=True).matches
    frame = turns_frame(replay_match(match))
    assert frame["match_id"].isna().all() and frame["file"].isna().all()


def test_a_player_is_followed_by_name_across_files(samples):
    # p9d29 plays in two real Backgammon Galaxy files (the left column in both).
    rows = samples[samples["player"] == "p9d29"]
    assert {Path(f).name: set(s) for f, s in rows.groupby("file")["side"]} == {
        "BackgammonGalaxy_3868853.mat": {0}, "BackgammonGalaxy_4440667.mat": {0}}
    cyrillic = samples[samples["file"].str.contains("cp1251")]
    assert set(cyrillic["player"]) == {"Дмитрий", "Иван Иванов"}


@pytest.mark.parametrize("mine, theirs, expected", [
    # my rearmost checker on my 12 = their 13; their rearmost on their 12 = my 13: passed.
    (side(p12=3, p6=5), side(p12=2, p1=4), "race"),
    (side(p14=1, p6=5), side(p12=2, p1=4), "contact"),   # my 14 is behind their 12 (my 13)
    (side(p12=3), side(p14=1), "contact"),                 # facing: my 12, their 14 (my 11)
    (side(p6=2), side(bar=1, p6=2), "contact"),            # a checker on the bar
    (side(p1=1), side(p1=1), "race"),
    (side(), side(p6=2), "race"),                          # a finished game
])
def test_phase(mine, theirs, expected):
    for turn in (0, 1):
        assert phase(Position.from_mover(mine, theirs, turn)) == expected
        assert phase(Position.from_mover(theirs, mine, turn)) == expected
    assert phase(Position.start()) == "contact"


@pytest.mark.slow
def test_no_hit_is_possible_in_a_race(samples):
    race = samples[samples["phase"] == "race"]
    assert len(race) > 50
    for pid, turn in zip(race["position_id_before"], race["side"]):
        position = Position.from_id(pid, turn=turn)
        assert brute_force_shots(position) == 0
        assert brute_force_shots(position.with_turn(1 - turn)) == 0


def test_hit_rates_groups_and_binomial_intervals():
    frame = pd.DataFrame({"blots": [1, 1, 1, 2, 1, 0, 1],
                          "opponent_shots": [11, 11, 11, 11, 36, 0, 20],
                          "opponent_hit": pd.array([True, False, False, True, True, None, None],
                                                   dtype="boolean")})
    table = hit_rates(frame)
    assert table["group"].tolist() == [11, 36]
    assert table["exposures"].tolist() == [4, 1] and table["hits"].tolist() == [2, 1]
    assert table["expected"].tolist() == pytest.approx([11 / 36, 1.0])
    interval = binomtest(2, 4).proportion_ci(confidence_level=0.9)
    low = hit_rates(frame, confidence=0.9).iloc[0]
    assert (low["ci_low"], low["ci_high"]) == pytest.approx((interval.low, interval.high))
    binned = hit_rates(frame, bins=2)
    assert binned["exposures"].tolist() == [4, 1]


def test_hit_rates_of_the_dice_and_by_point():
    """The dice alone (hitting rolls thrown, not hits played), and single blots by point."""
    frame = pd.DataFrame({
        "blots": [1, 1, 1, 2, 1, 0],
        "blot_points": [[6], [6], [20], [6, 9], [20], []],
        "opponent_shots": [11, 11, 20, 11, 20, 0],
        "opponent_hit": pd.array([False, False, True, True, None, None], dtype="boolean"),
        "opponent_roll_hits": pd.array([True, False, True, True, True, False],
                                       dtype="boolean")})
    dice = hit_rates(frame, kind="dice")
    assert dice["group"].tolist() == [11, 20]
    assert dice["exposures"].tolist() == [3, 2] and dice["hits"].tolist() == [2, 2]
    played = hit_rates(frame)  # the fifth exposure's next play is unknown
    assert played["exposures"].tolist() == [3, 1] and played["hits"].tolist() == [1, 1]
    points = hit_rates(frame, kind="dice", by="point")  # [6, 9] has two blots: left out
    assert points["group"].tolist() == [6, 20]
    assert points["exposures"].tolist() == [2, 2] and points["hits"].tolist() == [1, 2]
    assert points["expected"].tolist() == pytest.approx([11 / 36, 20 / 36])
    for wrong in ({"kind": "luck"}, {"by": "game"}):
        with pytest.raises(InvalidArgument, match="'luck'|'game'"):
            hit_rates(frame, **wrong)


def test_hitting_rolls_follow_the_dice_in_real_games(samples):
    """Each exposure is a Bernoulli trial with chance shots/36: with the samples' dice the
    count of hitting rolls is within 3 standard deviations of its expectation."""
    exposed = samples[(samples["blots"] > 0) & samples["opponent_roll_hits"].notna()]
    p = exposed["opponent_shots"].astype(int) / 36
    assert len(exposed) > 250
    observed, expected = int(exposed["opponent_roll_hits"].sum()), p.sum()
    assert abs(observed - expected) < 3 * (p * (1 - p)).sum() ** 0.5


def test_stats_writes_csv_and_parquet(tmp_path, studio):
    out_csv, out_parquet = tmp_path / "t.csv", tmp_path / "t.parquet"
    result = CliRunner().invoke(stats, [str(STUDIO), str(GOOD[0]), "--csv", str(out_csv),
                                        "--parquet", str(out_parquet), "--no-progress"])
    assert result.exit_code == 0, result.output
    read = pd.read_csv(out_csv)
    assert len(read) == 98 + 31 and list(read.columns) == list(DTYPES)
    parquet = pd.read_parquet(out_parquet)
    assert len(parquet) == 98 + 31
    assert list(parquet["blot_points"].iloc[3]) == list(studio["blot_points"].iloc[3])


def test_stats_to_stdout_and_skipped_files(tmp_path):
    bad = tmp_path / "bad.mat"
    bad.write_text(" 1 point match\n\n Game 1\n a : 0    b : 0\n  1) 31: 8/x5\n")
    result = CliRunner().invoke(stats, [str(SAMPLES / "mac_cr_right_starts.mat"), str(bad)])
    assert result.exit_code == 1
    assert "skipped" in result.stderr and "bad.mat" in result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split(",")[:3] == ["file", "match_id", "match_length"]
    assert len(lines) == 1 + 8


@pytest.mark.slow
def test_the_frame_built_by_column_is_the_frame_of_the_rows(corpus_files):
    """turns_frame builds each column once; it is the frame of its rows cast to DTYPES (the
    plain pandas way), missing values included (None or NaN in text columns, as pandas
    makes them), on samples (long nardy, unknown plays) and corpus files."""
    paths = sorted(p for p in SAMPLES.rglob("*") if p.suffix in (".mat", ".sgf", ".txt"))
    for loaded in load_files(paths + corpus_files[::200]):
        rows = _turn_rows(loaded)
        expected = pd.DataFrame(rows, columns=list(_ROW))[list(DTYPES)].astype(DTYPES)
        frame = turns_frame(loaded)
        pd.testing.assert_frame_equal(frame, expected, check_exact=True)
        for column in ("play", "phase", "blot_points", "position_id_after"):
            assert list(map(type, frame[column])) == list(map(type, expected[column]))
    pd.testing.assert_frame_equal(turns_frame([]),
                                  pd.DataFrame([], columns=list(DTYPES)).astype(DTYPES))
