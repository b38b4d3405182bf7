"""The audit counted file by file: AuditCounts add up to the counts of all rolls together, so
the combined audit has the serial p-values (samples, a corpus slice, every grouping and
--player); nardy audit --jobs 2 and --dask (a real two-worker cluster on 127.0.0.1) give
the output of --jobs 1; audit_files takes jobs and a Client."""

import math
import pickle
import re

import numpy as np
import pandas as pd
import pytest
from conftest import SAMPLES, run_in
from hypothesis import given, settings
from hypothesis import strategies as st

from nardy_analysis import parallel
from nardy_analysis.analysis.audit import (
    TESTS,
    AuditCounts,
    audit_dice,
    count_tests,
    dice_tests,
    match_counts,
    merge_counts,
    roll_counts,
    rolls_frame,
    simulate_rolls,
)
from nardy_analysis.batch import audit_files
from nardy_analysis.cli.audit import _audit_file
from nardy_analysis.cli.common import FileErrors
from nardy_analysis.errors import InvalidArgument
from nardy_analysis.game.rules import VARIANTS
from nardy_analysis.load import load_file, load_files
from nardy_analysis.notation.writer import format_mat
from nardy_analysis.simulate import simulate_matches

SETTINGS = [{"by": None}, {"by": "player"}, {"by": "site"},
            {"by": None, "include_opening": True}, {"by": "site", "player": "alice"}]


@pytest.fixture(scope="module")
def sample_frames():
    """One rolls frame per sample file (with positions)."""
    return [rolls_frame(loaded.matches) for loaded in load_files(SAMPLES)]


def assert_same_tests(combined: pd.DataFrame, serial: pd.DataFrame):
    """Equal rows, every number to 1e-9 (NaN where the other is NaN)."""
    assert list(combined["test"]) == list(serial["test"])
    assert list(combined["group"]) == list(serial["group"])
    for column in ("n", "observed", "expected", "statistic", "p_value", "p_adjusted",
                   "effect", "ci_low", "ci_high"):
        np.testing.assert_allclose(combined[column].to_numpy(float),
                                   serial[column].to_numpy(float), rtol=1e-9, atol=1e-12,
                                   err_msg=column)
    for column in ("cell", "method", "note"):
        assert list(combined[column]) == list(serial[column]), column


def combined_and_serial(frames, **setting):
    whole = pd.concat(frames, ignore_index=True)
    serial = audit_dice(whole, **setting)
    combined = audit_dice(sum(roll_counts(frame, **setting) for frame in frames))
    return combined, serial


@pytest.mark.parametrize("setting", SETTINGS, ids=str)
def test_counts_of_the_files_give_the_p_values_of_all_rolls(sample_frames, setting):
    combined, serial = combined_and_serial(sample_frames, **setting)
    assert_same_tests(combined.frame, serial.frame)
    assert combined.files == serial.files and combined.counts.rolls == len(serial.rolls)
    assert combined.summary() == serial.summary().replace(  # one run may cross a minute
        f"{serial.created:%Y-%m-%d %H:%M}", f"{combined.created:%Y-%m-%d %H:%M}")
    assert set(combined.frame["test"]) == set(TESTS)
    assert combined.frame["p_value"].notna().sum() >= 4  # tests were run, not all empty


@pytest.mark.slow
@pytest.mark.parametrize("setting", [{"by": "player"}, {"by": "site"}], ids=str)
def test_counts_of_corpus_files_give_the_p_values_of_all_rolls(corpus_files, setting):
    frames = [rolls_frame(loaded.matches) for loaded in load_files(corpus_files[:40])]
    combined, serial = combined_and_serial(frames, **setting)
    assert_same_tests(combined.frame, serial.frame)
    assert serial.counts.rolls > 2000
    hits = serial.frame[(serial.frame["test"] == "hits_on_blots")
                        & (serial.frame["group"] == "all")]
    assert hits["n"].item() > 500 and hits["p_value"].notna().all()


@pytest.mark.slow
def test_a_player_audited_across_corpus_files(corpus_files):
    frames = [rolls_frame(loaded.matches, positions=False)
              for loaded in load_files(corpus_files[:60])]
    player = pd.concat(frames)["player"].value_counts().index[0]
    combined, serial = combined_and_serial(frames, by=None, player=player)
    assert_same_tests(combined.frame, serial.frame)
    assert 1 < len(combined.files) and 0 < combined.counts.rolls < sum(map(len, frames)) / 2


def test_the_normal_approximation_of_many_trials_adds_up_too():
    rolls = simulate_rolls(8000, players=4, seed=3)  # 12,800 at a blot: normal
    rolls["file"] = np.repeat([f"f{i}" for i in range(8)], 4000)
    parts = [part for _, part in rolls.groupby("file", sort=False)]
    combined, serial = combined_and_serial(parts, by="player")
    assert "normal" in " ".join(serial.frame["method"])
    assert_same_tests(combined.frame, serial.frame)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(0, 200), min_size=1, max_size=6), st.integers(0, 2 ** 16),
       st.sampled_from([None, "player"]))
def test_counts_of_parts_add_up_to_the_counts_of_the_whole(cuts, seed, by):
    rolls = simulate_rolls(100, players=2, seed=seed)
    rolls["file"] = np.searchsorted(np.sort(cuts), np.arange(len(rolls)), side="right")
    rolls["file"] = "f" + rolls["file"].astype(str)  # a file is a run of rows
    parts = [part for _, part in rolls.groupby("file", sort=False)]
    whole = roll_counts(rolls, by)
    assert merge_counts((roll_counts(part, by) for part in parts), by) == whole
    assert sum(roll_counts(part, by) for part in parts) == whole
    pairs = (rolls.groupby(["file", "player"]).size() - 1).sum()  # a game cut is 2 games
    assert whole.rolls == 200 and whole.table()[21:25].sum() == pairs


def simulated_files(folder, count: int = 4) -> list:
    """``count`` simulated matches of each variant, one .mat file each, in ``folder``."""
    paths = []
    for number, rules in enumerate(dict.fromkeys(VARIANTS.values())):
        for i, match in enumerate(simulate_matches(count, seed=7, rules=rules, length=1)):
            paths.append(folder / f"{number}-{i}.mat")
            paths[-1].write_text(format_mat([match]), encoding="utf-8")
    return paths


def assert_counted_as_the_frame(paths, settings_=SETTINGS, positions=(True, False), luck=False):
    """match_counts (straight from the rolls) equals roll_counts of the file's rolls_frame."""
    for path in paths:
        loaded = load_file(path)
        for with_positions in positions:
            frame = rolls_frame(loaded.matches, with_positions, luck)
            names = frame["player"].astype(str)
            real = [{"by": "player", "player": names.iloc[-1]}] if len(frame) else []
            for setting in list(settings_) + real:
                fast = match_counts(loaded, positions=with_positions, luck=luck, **setting)
                slow = roll_counts(frame, **setting)
                assert fast == slow and list(fast.groups) == list(slow.groups), \
                    (path, with_positions, setting)


@pytest.mark.slow
def test_match_counts_are_the_counts_of_the_rolls_frame(tmp_path):
    samples = sorted(p for p in SAMPLES.rglob("*") if p.suffix in (".mat", ".sgf", ".txt"))
    assert_counted_as_the_frame(samples + simulated_files(tmp_path))


@pytest.mark.slow
def test_match_counts_of_corpus_files_are_the_counts_of_the_rolls_frame(corpus_files):
    assert_counted_as_the_frame(corpus_files[::120])


def test_match_counts_with_luck_are_the_counts_of_the_rolls_frame():
    pytest.importorskip("gnubg_nn")
    assert_counted_as_the_frame(sorted(SAMPLES.glob("BackgammonStudio_*.mat"))[:1],
                                SETTINGS[:2], (True,), luck=True)


def test_counts_know_what_they_hold(sample_frames):
    counts = roll_counts(sample_frames[0], by="player")
    table = counts.table()
    assert counts.rolls == table[:21].sum() == len(sample_frames[0]) - \
        sample_frames[0]["opening"].sum()
    assert counts.files == (str(sample_frames[0]["file"][0]),) and counts.read == 1
    assert pickle.loads(pickle.dumps(counts)) == counts
    assert counts != roll_counts(sample_frames[1], by="player")
    empty = merge_counts([], "site")
    assert empty.rolls == 0 and empty.files == () and empty + empty == empty
    frame = count_tests(empty)
    assert list(frame["test"]) == list(TESTS) and frame["p_value"].isna().all()
    pd.testing.assert_frame_equal(count_tests(roll_counts(sample_frames[0], "site")),
                                  dice_tests(sample_frames[0], "site"))


def test_counts_of_other_settings_do_not_add(sample_frames):
    player, site = roll_counts(sample_frames[0], "player"), roll_counts(sample_frames[0], "site")
    with pytest.raises(InvalidArgument, match=r"cannot add audit counts made with \(by, "
                       r"include_opening, player\) = \('site', False, None\) to counts made "
                       r"with \('player', False, None\)"):
        player + site
    with pytest.raises(InvalidArgument, match="the counts were made with"):
        audit_dice(player, by="site")


def test_what_a_worker_sends_back_is_small():
    biggest = max(SAMPLES.glob("*.mat"), key=lambda p: p.stat().st_size)
    result = _audit_file(biggest, False, by="player", include_opening=False,
                         positions=True, player=None)
    assert [type(r) for r in result] == [FileErrors, bool, AuditCounts]
    counts = result[2]
    assert len(counts.groups) == 2  # 173 counts per player, however long the match
    assert len(pickle.dumps(result)) < 8_000


# --- the command and the API over many files ---------------------------------------------

ARGS = {
    "json by player": ["--json", "--by", "player"],
    "site with html": ["--by", "site", "--html", "audit.html"],
    "one player": ["--player", "pdf633", "--json", "--no-positions"],
    "no such player": ["--player", "nobody"],
}


def undated(text: str) -> str:
    """The audit's text with its date and time taken out."""
    return re.sub(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d\+00:00)?", "DATE", text)


def same_as_serial(name, inputs, tmp_path, monkeypatch, *more) -> dict:
    args = ARGS[name] + [str(p) for p in inputs]
    serial = run_in(tmp_path / "serial", ["audit", *args, "--jobs", "1"], monkeypatch,
                    undated)
    other = run_in(tmp_path / "other", ["audit", *args, *more], monkeypatch, undated)
    assert other == serial
    return serial


@pytest.mark.slow
@pytest.mark.parametrize("name", ARGS)
def test_jobs_2_gives_the_output_of_jobs_1_on_the_samples(name, tmp_path, monkeypatch):
    serial = same_as_serial(name, [SAMPLES], tmp_path, monkeypatch, "--jobs", "2")
    assert serial["exit"] == 1 and "forced_play" in serial["stderr"]
    if name == "no such player":
        assert "no rolls of player 'nobody' in 17 files" in serial["stderr"]
    else:
        assert serial["stdout"].count("\n") >= 8


def test_jobs_2_gives_the_output_of_jobs_1_on_the_corpus(corpus_files, tmp_path,
                                                         monkeypatch):
    serial = same_as_serial("json by player", corpus_files[:30], tmp_path, monkeypatch,
                            "--jobs", "2")
    assert serial["stdout"].count('"group"') > 100


@pytest.mark.slow
@pytest.mark.parametrize("name", ["json by player", "site with html", "one player"])
def test_a_real_dask_cluster_gives_the_output_of_jobs_1(name, cluster, tmp_path,
                                                        monkeypatch):
    import distributed

    def executed(dask_worker):
        return dask_worker.state.executed_count

    monkeypatch.setattr(parallel, "DASK_BATCH", 2)
    with distributed.Client(cluster) as client:  # the cluster does the work, both workers
        before = client.run(executed)
        same_as_serial(name, [SAMPLES], tmp_path, monkeypatch, "--dask", cluster)
        after = client.run(executed)
    assert all(after[w] > before[w] for w in after)
    assert sum(after.values()) - sum(before.values()) == \
        math.ceil(len(list(load_files(SAMPLES))) / 2)  # a task 2 files


@pytest.mark.slow
def test_the_library_takes_jobs_and_a_client(cluster):
    import distributed

    serial = audit_dice(load_files(SAMPLES), by="player")
    with distributed.Client(cluster) as client:
        for options in ({"jobs": 1}, {"jobs": 2}, {"client": client}):
            audit = audit_files(SAMPLES, by="player", **options)
            assert audit.rolls is None and audit.files == serial.files
            assert audit.counts == serial.counts
            assert_same_tests(audit.frame, serial.frame)
        with pytest.raises(InvalidArgument, match="no rolls of player 'nobody' in 17 files"):
            audit_files(SAMPLES, player="nobody", client=client)
