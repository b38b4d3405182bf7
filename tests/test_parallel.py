"""Per-file work in order: in this process, on worker processes and on a real Dask cluster
of two worker processes on 127.0.0.1 (started and stopped by the test)."""

import sys
from pathlib import Path

import pytest
from conftest import SAMPLES

from nardy_analysis.errors import InvalidArgument
from nardy_analysis.load import load_file
from nardy_analysis.parallel import cores, map_files

FILES = sorted(SAMPLES.glob("*.mat"))


def summary(path, strict=False):
    """What one file holds, as plain data (what a worker should send back)."""
    loaded = load_file(path, strict=strict)
    return (path.name, [len(game.turns) for match in loaded.matches for game in match.games],
            [(e.kind, e.line, e.column) for m in loaded.matches for e in m.errors])


def fails_on_money(path):
    if path.name.startswith("money"):
        raise ValueError(f"no good: {path.name}")
    return path.name


def test_worker_processes_give_the_serial_results_in_order():
    serial = list(map_files(summary, FILES))
    assert [name for name, *_ in serial] == [p.name for p in FILES]
    assert list(map_files(summary, FILES, jobs=2)) == serial
    assert list(map_files(summary, FILES, jobs=2, window=1, strict=True)) == \
        [summary(p, strict=True) for p in FILES]


@pytest.mark.parametrize("batch", [1, 3, 100])
def test_an_error_in_a_file_is_raised_at_that_file(batch):
    done = []
    with pytest.raises(ValueError, match="no good: money_beaver_raccoon.mat"):
        done.extend(map_files(fails_on_money, FILES, jobs=2, window=2, batch=batch))
    assert done == [p.name for p in FILES[:FILES.index(SAMPLES / "money_beaver_raccoon.mat")]]


def test_batches_of_files_give_the_serial_results_in_order():
    assert 5 < len(FILES) < 100  # batches of 2 and 5 end part-full; one of 100 holds all
    serial = list(map_files(summary, FILES))
    for batch in (2, 5, 100):
        assert list(map_files(summary, FILES, jobs=2, batch=batch)) == serial


def test_bad_jobs():
    with pytest.raises(InvalidArgument, match="jobs=0"):
        list(map_files(summary, FILES, jobs=0))
    assert cores() >= 1


@pytest.mark.slow
def test_a_real_dask_cluster_gives_the_serial_results(cluster, monkeypatch):
    import cloudpickle
    import distributed

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # workers lack tests/
    with distributed.Client(cluster) as client:
        assert cluster.startswith("tcp://127.0.0.1:")
        assert len(client.scheduler_info()["workers"]) == 2
        assert list(map_files(summary, FILES, client=client, window=3)) == \
            list(map_files(summary, FILES)) == \
            list(map_files(summary, FILES, client=client, window=2, batch=3))
        with pytest.raises(ValueError, match="no good: money_beaver_raccoon.mat"):
            list(map_files(fails_on_money, FILES, client=client, batch=4))
        # The workers keep the folder they started in: relative paths are sent absolute.
        monkeypatch.chdir(SAMPLES)
        relative = [Path(path.name) for path in FILES]
        assert list(map_files(summary, relative, client=client)) == \
            list(map_files(summary, relative))
