"""Loading files: the files a path names, and what reading and replaying each one gives,
against the counts and error places written in sample_games/EXPECTED.tsv and
sample_games/broken/EXPECTED.tsv."""

import csv
from pathlib import Path

import pytest
from conftest import SAMPLES

from nardy_analysis import (
    EmptyFile,
    LoadedFile,
    NotationError,
    RuleViolation,
    load_file,
    load_files,
    match_files,
    replay_file,
    sample_folder,
)

BROKEN = SAMPLES / "broken"


def expected(folder: Path) -> dict[str, dict]:
    with open(folder / "EXPECTED.tsv", newline="") as table:
        return {row["file"]: row for row in csv.DictReader(table, delimiter="\t")}


def test_every_sample_loads_with_the_counts_written_in_expected_tsv():
    loaded = list(load_files(SAMPLES))
    counts = {f.path.name: (len(f.records), sum(len(m.games) for m in f.matches),
                            sum(len(g.turns) for m in f.records for g in m.games))
              for f in loaded if f.path.parent == SAMPLES}
    assert counts == {name: (int(row["matches"]), int(row["games"]), int(row["turns"]))
                      for name, row in expected(SAMPLES).items()}
    assert all(f.errors == () and len(f.matches) == len(f.records) for f in loaded
               if f.path.parent == SAMPLES)


def test_a_syntax_error_is_data_and_the_other_games_are_kept():
    row = expected(BROKEN)["syntax_bad_move_token.mat"]
    place = (int(row["line"]), int(row["column"]))
    path = BROKEN / "syntax_bad_move_token.mat"
    kept = load_file(path)
    assert [(type(e), e.line, e.column) for e in kept.errors] == [(NotationError, *place)]
    assert len(kept.records) == len(kept.matches) == 1  # the match, without its broken game
    with pytest.raises(NotationError) as raised:
        replay_file(path)
    assert str(raised.value) == str(kept.errors[0])


@pytest.mark.parametrize("name", ["illegal_blocked_point.mat", "forced_play_violation.mat"])
def test_a_violation_is_the_matchs_or_in_strict_mode_stops_the_file(name):
    row = expected(BROKEN)[name]
    place = (row["kind"], int(row["line"]), int(row["column"]))
    lenient = load_file(BROKEN / name)
    assert lenient.errors == ()
    assert [(e.kind, e.line, e.column) for m in lenient.matches for e in m.errors] == [place]
    strict = load_file(BROKEN / name, strict=True)
    assert len(strict.records) == 1 and strict.matches == ()
    assert [(type(e), e.kind, e.line, e.column) for e in strict.errors] == [
        (RuleViolation, *place)]
    with pytest.raises(RuleViolation):
        replay_file(BROKEN / name, strict=True)


def test_files_that_cannot_be_read_are_reported_not_raised(tmp_path):
    (tmp_path / "folder.mat").mkdir()
    for path in (tmp_path / "folder.mat", tmp_path / "missing.mat"):
        loaded = load_file(path)
        assert loaded == LoadedFile(path, (), (), loaded.errors)
        assert len(loaded.errors) == 1 and isinstance(loaded.errors[0], OSError)
    with pytest.raises(FileNotFoundError):
        replay_file(tmp_path / "missing.mat")


@pytest.mark.parametrize("name, text, missing", [
    ("empty.mat", "", "'N point match' line"), ("blank.txt", " \n\t\n\n", "'N point match' line"),
    ("tags.mat", '; [Site "nowhere"]\n', "'N point match' line"),
    ("empty.sgf", "", "SGF game tree"), ("blank.sgf", "\r\n  \n", "SGF game tree")])
def test_a_file_without_a_match_is_an_empty_error_at_1_1(tmp_path, name, text, missing):
    path = tmp_path / name
    path.write_text(text)
    loaded = load_file(path)
    assert loaded.records == loaded.matches == ()
    (error,) = loaded.errors
    assert (type(error), error.kind, error.file, error.line, error.column) == (
        EmptyFile, "empty", str(path), 1, 1)
    assert error.message == f"no match in the file (no {missing})"
    with pytest.raises(EmptyFile):
        replay_file(path)


def test_match_files_searches_folders_and_keeps_files_as_given(tmp_path):
    (tmp_path / "deep" / "er").mkdir(parents=True)
    for name in ("b.mat", "a.txt", "deep/er/c.mat", "notes.md"):
        (tmp_path / name).write_text("")
    (tmp_path / "empty").mkdir()
    named = tmp_path / "notes.md"
    found = match_files([named, tmp_path, tmp_path / "empty"])
    assert found.files == [named, tmp_path / "a.txt", tmp_path / "b.mat",
                           tmp_path / "deep" / "er" / "c.mat"]
    assert found.empty == [tmp_path / "empty"]


def test_load_files_warns_about_a_folder_without_match_files(tmp_path):
    with pytest.warns(UserWarning, match=f"{tmp_path}: no \\*.mat or \\*.txt or \\*.sgf files"):
        assert list(load_files(tmp_path)) == []
    one = list(load_files(str(SAMPLES / "two_matches_anonymous.mat")))
    assert [len(f.matches) for f in one] == [2]


def test_the_samples_are_installed_with_the_package():
    """sample_folder() holds sample_games byte for byte: the repository's folder itself in an
    editable install, the package data of any other."""
    def files(folder):
        return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*")
                if p.suffix in (".mat", ".tsv", ".md")}

    installed = files(sample_folder())
    assert installed == files(SAMPLES)
    assert {Path("long/simulated_match.mat"), Path("broken/EXPECTED.tsv")} < set(installed)
