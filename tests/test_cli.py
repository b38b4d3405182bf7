"""The ``nardy`` command line: summaries, JSON objects, exit status."""

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import ROOT, SAMPLES, read_tsv
from nardy_analysis.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_replay_of_a_good_file_exits_0():
    result = run("replay", str(SAMPLES / "BackgammonStudio_5407469.mat"))
    assert result.exit_code == 0, result.output
    assert "98 turns: ok" in result.output


def test_json_objects_and_exit_1_for_violations():
    result = run("replay", "--json", "--no-progress", str(SAMPLES / "broken"))
    assert result.exit_code == 1
    objects = [json.loads(line) for line in result.stdout.splitlines()]
    for obj in objects:
        assert set(obj) >= {"file", "matches", "games", "turns", "errors"}
        for error in obj["errors"]:
            assert set(error) >= {"game", "move", "line", "column", "text", "kind",
                                  "message", "position_id"}
    # Each file's one error where sample_games/broken/EXPECTED.tsv puts it, found by hand.
    found = {Path(o["file"]).name: [(e["kind"], e["line"], e["column"]) for e in o["errors"]]
             for o in objects}
    assert found == {row["file"]: [(row["kind"], int(row["line"]), int(row["column"]))]
                     for row in read_tsv(SAMPLES / "broken" / "EXPECTED.tsv")}
    assert len(objects) == len(list((SAMPLES / "broken").glob("*.mat"))) == 4


def test_folder_counts_turns_of_every_file(tmp_path):
    result = run("replay", "--json", str(SAMPLES))
    objects = [json.loads(line) for line in result.stdout.splitlines()]
    studio = next(o for o in objects if o["file"].endswith("BackgammonStudio_5407469.mat"))
    assert (studio["matches"], studio["games"], studio["turns"]) == (1, 2, 98)


def test_usage_errors_exit_2():
    assert run("replay").exit_code == 2
    assert run("replay", "/no/such/file.mat").exit_code == 2
    assert run("replay", "--rules", "chess", str(SAMPLES)).exit_code == 2


def test_unreadable_text_is_reported_not_raised(tmp_path):
    bad = tmp_path / "bad.mat"
    bad.write_bytes(b" 3 point match\n\n Game 1\n a : 0  b : 0\n  1) 31: 8/5 6/x5\n")
    result = run("replay", "--json", str(tmp_path))
    (obj,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.exit_code == 1
    assert obj["errors"][0]["kind"] == "syntax"
    assert (obj["errors"][0]["line"], obj["errors"][0]["column"]) == (5, 14)


def test_module_entry_point():
    done = subprocess.run([sys.executable, "-m", "nardy_analysis", "replay", "--json",
                           str(SAMPLES / "BackgammonStudio_5407469.mat")],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["turns"] == 98


@pytest.mark.skipif(os.environ.get("CI") is None and not (ROOT / ".venv").exists(),
                    reason="builds a wheel; run in CI")
def test_wheel_ships_the_grammar(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                    str(tmp_path), str(ROOT)], check=True)
    (wheel,) = tmp_path.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "nardy_analysis/grammars/mat.lark" in names


def test_files_that_cannot_be_used_are_reported_and_the_run_goes_on(tmp_path):
    (tmp_path / "x.mat").mkdir()
    (tmp_path / "empty.mat").write_bytes(b"")
    (tmp_path / "cp.mat").write_bytes(b"\x81\x98 3 point match\n")
    (tmp_path / "dangling.mat").symlink_to(tmp_path / "nowhere.mat")
    (tmp_path / "good.mat").write_bytes((SAMPLES / "BackgammonStudio_5407469.mat").read_bytes())
    (tmp_path / "nothing").mkdir()
    result = run("replay", "--json", str(tmp_path), str(tmp_path / "nothing"))
    assert result.exit_code == 1
    objects = {Path(o["file"]).name: o for o in map(json.loads, result.stdout.splitlines())}
    kinds = {name: [e["kind"] for e in o["errors"]] for name, o in objects.items()}
    assert kinds == {"x.mat": ["io"], "empty.mat": ["empty"], "cp.mat": ["encoding"],
                     "dangling.mat": ["io"], "good.mat": []}
    assert "nothing: no *.mat or *.txt files" in result.stderr


def test_turns_count_every_roll_written_even_after_a_violation():
    result = run("replay", "--json", str(SAMPLES / "broken" / "forced_play_violation.mat"))
    assert json.loads(result.stdout)["turns"] == 2
    strict = run("replay", "--json", "--strict",
                 str(SAMPLES / "broken" / "forced_play_violation.mat"))
    obj = json.loads(strict.stdout)
    assert (obj["turns"], [e["kind"] for e in obj["errors"]]) == (2, ["forced_play"])


def test_rules_option_keeps_the_cube_tags():
    # The money session has a Jacoby tag: a gammon with the cube never turned scores 1.
    path = str(SAMPLES / "money_beaver_raccoon.mat")
    assert run("replay", path).exit_code == 0
    assert run("replay", "--rules", "standard", path).exit_code == 0


@pytest.mark.parametrize("args", [
    ["stats", "{sample}", "--csv", "{missing}/x.csv"],
    ["plot", "{sample}", "--game", "1", "--out", "{missing}/x.png"],
    ["plot", "{sample}", "--game", "1", "--out", "{tmp}/x.xyz"],
    ["audit", "{sample}", "--html", "{missing}/x.html"],
    ["convert", "{sample}", "--to", "mat", "-o", "{missing}/x.mat"],
])
def test_output_files_that_cannot_be_written_are_usage_errors(tmp_path, args):
    sample = str(SAMPLES / "BackgammonGalaxy_3868853.mat")
    filled = [a.format(sample=sample, missing=tmp_path / "nowhere", tmp=tmp_path) for a in args]
    result = run(*filled)
    assert result.exit_code == 2, result.output
    assert "Invalid value" in result.output
