"""replay, stats and luck over many files: --jobs N and --dask ADDRESS give the output of
--jobs 1 byte for byte (stdout, stderr, exit status, files written), on the samples, on a
slice of the corpus and on a real Dask cluster of two worker processes on 127.0.0.1; the
partitioned Parquet datasets of --parquet DIR; the library's turns_frames and luck_frames."""

import gc
import importlib.util
import math
import os
import socket
import subprocess
import sys

import pandas as pd
import pytest
from click.testing import CliRunner
from conftest import SAMPLES, run_in

from nardy_analysis import parallel
from nardy_analysis.analysis.luck import ROLL_DTYPES, luck_frame
from nardy_analysis.analysis.turns import DTYPES, turns_frame
from nardy_analysis.batch import luck_frames, turns_frames
from nardy_analysis.cli import common, main
from nardy_analysis.load import load_files
from nardy_analysis.parquet import ParquetParts

HAS_ENGINE = importlib.util.find_spec("gnubg_nn") is not None
needs_engine = pytest.mark.skipif(not HAS_ENGINE, reason="gnubg-nn (the engine extra) is "
                                  "not installed")

COMMANDS = {  # outputs are relative paths: each run writes into a folder of its own
    "replay": ["replay", "{input}"],
    "replay --json --strict": ["replay", "--json", "--strict", "{input}"],
    "stats": ["stats", "{input}"],
    "stats files": ["stats", "{input}", "--csv", "t.csv", "--parquet", "t.parquet"],
    "stats dataset": ["stats", "{input}", "--parquet", "turns"],
    "luck": ["luck", "{input}"],
    "luck files": ["luck", "--json", "{input}", "--csv", "r.csv", "--parquet", "rolls"],
    "luck --by player": ["luck", "--by", "player", "{input}", "--csv", "p.csv"],
}


def same_as_serial(name, inputs, tmp_path, monkeypatch, *more) -> dict:
    """The run of COMMANDS[name] with ``more`` options equals that with --jobs 1."""
    args = [a for a in COMMANDS[name] if a != "{input}"] + [str(p) for p in inputs]
    if name.startswith("luck") and not HAS_ENGINE:
        pytest.skip("gnubg-nn (the engine extra) is not installed")
    serial = run_in(tmp_path / "serial", args + ["--jobs", "1"], monkeypatch)
    other = run_in(tmp_path / "other", args + list(more), monkeypatch)
    assert other == serial
    return serial


@pytest.mark.slow
@pytest.mark.parametrize("name", COMMANDS)
def test_jobs_2_gives_the_output_of_jobs_1_on_the_samples(name, tmp_path, monkeypatch):
    serial = same_as_serial(name, [SAMPLES], tmp_path, monkeypatch, "--jobs", "2")
    assert serial["exit"] == 1  # sample_games/broken: every kind of output is exercised
    assert "forced_play" in serial["stdout"] + serial["stderr"]
    if name.startswith("stats") or name == "luck files":
        assert serial["files"] or serial["stdout"].count("\n") > 400


@pytest.mark.parametrize("name", ["replay --json --strict", "stats files", "stats dataset"])
def test_jobs_2_gives_the_output_of_jobs_1_on_the_corpus(name, corpus_files, tmp_path,
                                                         monkeypatch):
    serial = same_as_serial(name, corpus_files[:30], tmp_path, monkeypatch, "--jobs", "2")
    assert serial["stdout"] or serial["files"]


def test_the_default_is_all_cores(monkeypatch):
    monkeypatch.setattr(common, "cores", lambda: 3)
    used = []
    monkeypatch.setattr(common, "map_files", lambda work, files, jobs, **kw: used.append(jobs)
                        or (result for result in ()))  # a generator, as map_files
    for files in ([1, 2, 3, 4], [1, 2], [1]):
        with common.file_results(print, files, False, None, None):
            pass
    with common.file_results(print, [1], False, 5, None):
        pass
    assert used == [3, 2, 1, 5]  # by default never more processes than files


# --- partitioned Parquet ---------------------------------------------------------------

def test_a_dataset_is_parts_of_one_schema_that_pandas_and_dask_read(tmp_path):
    import pyarrow.parquet as pq

    dd = pytest.importorskip("dask.dataframe")
    frames = [turns_frame(loaded) for loaded in load_files(SAMPLES)]
    parts = ParquetParts(tmp_path / "turns", {**DTYPES, "blot_points": "list"}, rows=100)
    for frame in frames + [turns_frame([])]:
        parts.write(frame)
    parts.close()
    whole = pd.concat(frames, ignore_index=True)
    files = sorted((tmp_path / "turns").iterdir())
    assert [f.name for f in files] == [f"part-{n:05d}.parquet" for n in range(len(files))]
    sizes = [pq.read_metadata(f).num_rows for f in files]
    assert len(sizes) > 2 and min(sizes[:-1]) >= 100 and sum(sizes) == len(whole)
    assert len({str(pq.read_schema(f)) for f in files}) == 1
    read = pd.read_parquet(tmp_path / "turns")
    assert len(read) == len(whole) == 413 + 180  # short nardy samples, the long nardy one
    single = tmp_path / "one.parquet"  # as nardy stats --parquet one.parquet writes it
    whole.to_parquet(single, index=False)
    pd.testing.assert_frame_equal(read, pd.read_parquet(single))
    by_dask = dd.read_parquet(tmp_path / "turns").compute().reset_index(drop=True)
    pd.testing.assert_frame_equal(by_dask, read, check_dtype=False)  # its own string dtype


def test_no_rows_is_one_empty_part_with_the_columns(tmp_path):
    parts = ParquetParts(tmp_path / "rolls", ROLL_DTYPES)
    parts.write(luck_frame([]))
    parts.close()
    (part,) = (tmp_path / "rolls").iterdir()
    read = pd.read_parquet(tmp_path / "rolls")
    assert part.name == "part-00000.parquet" and len(read) == 0
    assert list(read.columns) == list(ROLL_DTYPES)
    assert read["dance"].dtype == bool and read["luck"].dtype == "float64"


def test_a_part_that_cannot_be_written_is_an_os_error_naming_it(tmp_path):
    parts = ParquetParts(tmp_path / "no" / "rolls", ROLL_DTYPES)
    parts.write(luck_frame([]))
    with pytest.raises(OSError):
        parts.close()
    assert parts.next_part == tmp_path / "no" / "rolls" / "part-00000.parquet"
    assert (parts.parts, parts.written) == (0, 0)


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_a_parquet_folder_must_be_new_or_hold_no_parquet_file(tmp_path):
    good = SAMPLES / "galaxy_style_crawford.mat"
    (tmp_path / "empty").mkdir()
    result = run("stats", good, "--parquet", tmp_path / "empty")
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith(f"wrote {tmp_path / 'empty'} (")
    assert result.stderr.endswith(" rows in 1 part)\n")
    again = run("stats", good, "--parquet", tmp_path / "empty")
    assert again.exit_code == 2
    assert again.stderr == (f"Error: cannot write {str(tmp_path / 'empty')!r}: the folder "
                            "holds .parquet files already: name a new folder or one without any\n")
    (tmp_path / "plain").write_text("")
    result = run("stats", good, "--parquet", tmp_path / "plain")
    assert result.exit_code == 2 and "it is a file (the name of one Parquet file ends in " \
        ".parquet)" in result.stderr


# --- --dask --------------------------------------------------------------------------------

def test_dask_without_the_extra_is_one_line_and_exit_2(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    result = run("stats", SAMPLES, "--dask", "tcp://127.0.0.1:8786")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == "Error: --dask needs dask.distributed: pip install " \
                            "nardy-analysis[dask]\n"


def test_an_unreachable_scheduler_is_one_line_and_exit_2(monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr(common, "DASK_TIMEOUT", 1)
    result = run("replay", SAMPLES, "--dask", "tcp://127.0.0.1:9")  # discard: no scheduler
    assert result.exit_code == 2 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith("Error: cannot reach the Dask scheduler 'tcp://127.0.0.1:9': ")


@pytest.mark.slow
def test_an_unreachable_scheduler_is_the_same_one_line_every_time(tmp_path):
    """``nardy replay --dask`` with nothing listening, run as a user runs it (a process of
    its own, so that what Python prints when it collects the objects left is seen too)."""
    pytest.importorskip("distributed")
    script = ("import sys; from nardy_analysis.cli import common, main; "
              "common.DASK_TIMEOUT = 1; main(sys.argv[1:])")
    args = [sys.executable, "-c", script, "replay", "--dask", "tcp://127.0.0.1:9", str(SAMPLES)]
    for _ in range(4):
        done = subprocess.run(args, capture_output=True, text=True, cwd=tmp_path)
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr == ("Error: cannot reach the Dask scheduler 'tcp://127.0.0.1:9': "
                               "Timed out trying to connect to tcp://127.0.0.1:9 after 1 s\n")


@pytest.mark.slow
def test_a_peer_that_never_answers_is_one_line_too(tmp_path):
    """A port that takes the connection and says nothing (not a scheduler): distributed's
    timeout does not bound its handshake, the command's wait does."""
    pytest.importorskip("distributed")
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()  # the system takes connections; nothing reads or answers them
        address = "tcp://127.0.0.1:%d" % silent.getsockname()[1]
        script = ("import sys; from nardy_analysis.cli import common, main; "
                  "common.DASK_TIMEOUT = 1; main(sys.argv[1:])")
        done = subprocess.run([sys.executable, "-c", script, "replay", "--dask", address,
                               str(SAMPLES)], capture_output=True, text=True, cwd=tmp_path,
                              timeout=60)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"Error: cannot reach the Dask scheduler {address!r}: no answer " \
                          "within 2 s\n"


class _Client:
    """A Dask client that does the work at once and whose futures, like real ones, cannot
    be cancelled once it is closed (``RuntimeError: IOLoop is closed``)."""

    def __init__(self, address, timeout):
        self.closed = False

    def nthreads(self):
        return {"worker": 1}

    def submit(self, function, *args, pure=True):
        client, result = self, function(*args)

        class Future:
            def result(self):
                return result

            def cancel(self):
                if client.closed:
                    raise RuntimeError("IOLoop is closed")
        return Future()

    def close(self):
        self.closed = True


def test_leaving_early_cancels_the_files_in_flight_before_the_client_closes(monkeypatch):
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(distributed, "Client", _Client)
    unraisable = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    files = [f"{n}.mat" for n in range(200)]  # 13 tasks of 16 files, 4 in flight
    with pytest.raises(KeyError):
        with common.file_results(str.upper, files, False, None, "tcp://x:1") as results:
            assert next(results) == os.path.abspath("0.mat").upper()
            raise KeyError("an error while the results are handled")
    del results
    gc.collect()
    assert unraisable == []


@pytest.mark.slow
@pytest.mark.parametrize("name", ["replay --json --strict", "stats files", "stats dataset",
                                  pytest.param("luck files", marks=needs_engine)])
def test_a_real_dask_cluster_gives_the_output_of_jobs_1(name, cluster, tmp_path,
                                                        monkeypatch):
    import distributed

    def executed(dask_worker):
        return dask_worker.state.executed_count

    monkeypatch.setattr(parallel, "DASK_BATCH", 2)
    with distributed.Client(cluster) as client:  # the cluster does the work: a task 2 files
        before = sum(client.run(executed).values())
        same_as_serial(name, [SAMPLES], tmp_path, monkeypatch, "--dask", cluster)
        after = sum(client.run(executed).values())
    assert after - before == math.ceil(len(list(load_files(SAMPLES))) / 2)


@pytest.mark.slow
def test_the_library_takes_jobs_and_a_client(cluster):
    import distributed

    whole = turns_frame(load_files(SAMPLES))
    with distributed.Client(cluster) as client:
        for options in ({"jobs": 2}, {"client": client}):
            frames = list(turns_frames(SAMPLES, strict=True, **options))
            assert len(frames) == len(list(load_files(SAMPLES)))
            assert [len(f) for f in frames] == [len(turns_frame(f)) for f in
                                                load_files(SAMPLES, strict=True)]
        pd.testing.assert_frame_equal(pd.concat(turns_frames(SAMPLES, client=client),
                                                ignore_index=True), whole)
        if HAS_ENGINE:
            files = sorted(SAMPLES.glob("*.mat"))[:3]
            pd.testing.assert_frame_equal(
                pd.concat(luck_frames(files, client=client), ignore_index=True),
                luck_frame(load_files(files)))
