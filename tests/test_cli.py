"""The ``nardy`` command line: summaries, JSON objects, exit status."""

import csv
import gc
import importlib.util
import io
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ROOT, SAMPLES

from nardy_analysis import parse_mat, parse_sgf, read_mat
from nardy_analysis.cli import GC_THRESHOLD, main


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
        assert set(obj) >= {"file", "matches", "games", "turns", "errors", "warnings"}
        assert obj["errors"] or obj["warnings"]
        for error in obj["errors"] + obj["warnings"]:
            assert set(error) == {"game", "move", "line", "column", "text", "kind",
                                  "message", "position_id"}
    kinds = {e["kind"] for obj in objects for e in obj["errors"]}
    assert {"syntax", "illegal_play", "forced_play"} <= kinds
    # wrong_result_points.mat: the dropped 2-cube's 'Wins 2 point' is a warning.
    assert [(w["kind"], w["line"], w["column"]) for obj in objects for w in obj["warnings"]] \
        == [("result", 10, 7)]


def test_warnings_exit_0_and_strict_makes_them_errors():
    path = str(SAMPLES / "broken" / "wrong_result_points.mat")
    result = run("replay", path)
    assert result.exit_code == 0, result.output
    assert "2 turns: ok, 1 warning\n" in result.output
    assert "  10:7: game 1, move 2, result (warning): 2 points is not a possible" in \
        result.output
    obj = json.loads(run("replay", "--json", path).stdout)
    assert obj["errors"] == [] and [w["kind"] for w in obj["warnings"]] == ["result"]
    strict = run("replay", "--json", "--strict", path)
    assert strict.exit_code == 1
    obj = json.loads(strict.stdout)
    assert obj["warnings"] == [] and \
        [(e["kind"], e["line"], e["column"]) for e in obj["errors"]] == [("result", 10, 7)]
    both = run("replay", "--no-progress", path,
               str(SAMPLES / "broken" / "forced_play_violation.mat"))
    assert both.exit_code == 1
    assert "1 error, 1 warning; 1 of 2 files failed" in both.output


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


@pytest.mark.slow
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
    assert f"no match files found in {tmp_path / 'nothing'}\n" in result.stderr


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
    assert result.stdout == "" and len(result.stderr.splitlines()) == 1, result.output
    assert str(tmp_path / "nowhere") in result.stderr or "x.xyz" in result.stderr


# --- nothing lost: one broken game in a file ---------------------------------------------------

TEN = ROOT / "tests" / "data" / "luck" / "BackgammonStudio_8518258.mat"
# In game 4: a syntax error in its first move (line 76 of the file: the game cannot be read),
# or bob's play ignoring his checker on the bar (line 77).
SYNTAX = ("  1) 65: 24/13", "  1) 65: 24/x13")
VIOLATION = ("43: bar/18", "43: 13/9 13/10")
needs_engine = pytest.mark.skipif(importlib.util.find_spec("gnubg_nn") is None,
                                  reason="gnubg-nn (the engine extra) is not installed")


def ten_games(folder: Path, broken: tuple[str, str] | None = None) -> Path:
    """The first ten games of a real 19-game match, game 4 broken as ``broken`` says."""
    text = TEN.read_text("utf-8")
    text = text[:text.index(" Game 11\n")]
    if broken:
        start = text.index(" Game 4\n")
        end = text.index(" Game 5\n")
        assert text.count(broken[0], start, end) == 1
        text = text[:start] + text[start:end].replace(*broken) + text[end:]
    folder.mkdir(exist_ok=True)
    (folder / "ten.mat").write_text(text, "utf-8")
    return folder / "ten.mat"


@pytest.fixture
def ten(tmp_path):
    """The clean file, the one with a syntax error in game 4 and the one with a rule
    violation in game 4 (each named ten.mat, in its own folder)."""
    return (ten_games(tmp_path / "clean"), ten_games(tmp_path / "syntax", SYNTAX),
            ten_games(tmp_path / "violation", VIOLATION))


SYNTAX_ERROR = "ten.mat:76:10: game 4: syntax: "
VIOLATION_ERROR = "ten.mat:77:45: game 4, move 2: illegal_play: "


def csv_rows(text: str, drop=("file",)) -> list[dict]:
    return [{k: v for k, v in row.items() if k not in drop}
            for row in csv.DictReader(io.StringIO(text))]


def test_stats_uses_every_other_game_and_names_the_broken_one(ten):
    clean, syntax, violation = ten
    whole = run("stats", str(clean))
    assert whole.exit_code == 0 and whole.stderr == ""
    rows = csv_rows(whole.stdout)
    assert {row["game"] for row in rows} == {str(n) for n in range(1, 11)}
    result = run("stats", str(syntax))
    assert result.exit_code == 1
    assert SYNTAX_ERROR in result.stderr and "game 4 is skipped" in result.stderr
    assert csv_rows(result.stdout) == [row for row in rows if row["game"] != "4"]
    result = run("stats", str(violation))
    assert result.exit_code == 1
    assert VIOLATION_ERROR in result.stderr
    assert "the rest of game 4 is left out" in result.stderr
    kept = csv_rows(result.stdout)
    assert [row for row in kept if row["game"] != "4"] == \
        [row for row in rows if row["game"] != "4"]
    # game 4 up to the violation: both first plays and alice's second, whose reply (bob's
    # broken play, not replayed) is not known to hit or not, nor its roll to be a hitting one
    cut = [row for row in kept if row["game"] == "4"]
    unknown = {"opponent_hit": "", "opponent_roll_hits": ""}
    assert [row["turn"] for row in cut] == ["1", "2", "3"] and cut[2] | unknown == cut[2]
    assert [row | unknown for row in cut] == \
        [row | unknown for row in rows if row["game"] == "4"][:3]


def test_stats_uses_the_turns_of_a_game_before_its_bad_line(ten, tmp_path):
    """Game 4's move 3 (line 78) cannot be read: its moves 1 and 2 are used, game 5 takes
    its score line, nothing else is left out."""
    clean = ten[0]
    cut = ten_games(tmp_path / "cut", ("  3) 53: 8/3 6/3", "  3) 53: 8/x3 6/3"))
    result = run("stats", str(cut))
    assert result.exit_code == 1
    (line,) = result.stderr.splitlines()
    assert f"{cut}:78:10: game 4: syntax: unexpected '8/x3'" in line
    assert line.endswith("; the rest of game 4 is skipped")
    rows, whole = csv_rows(result.stdout), csv_rows(run("stats", str(clean)).stdout)
    assert [row for row in rows if row["game"] != "4"] == \
        [row for row in whole if row["game"] != "4"]
    assert [row["turn"] for row in rows if row["game"] == "4"] == ["1", "2", "3", "4"]


def test_a_violation_that_does_not_stop_the_game_says_the_rest_is_used(tmp_path):
    """A score line that disagrees with the results before it does not stop the replay: the
    game (here one that ends with an unknown play, ????) is used to its end, and the line
    says so; a later violation in that game still stops it there."""
    clean = SAMPLES / "BackgammonStudio_5407469.mat"
    text = clean.read_text().replace(" pdf633 : 2 ", " pdf633 : 1 ")  # game 2: 2-0
    score = tmp_path / "score.mat"
    score.write_text(text)
    result = run("stats", str(score))
    assert result.exit_code == 1
    (line,) = result.stderr.splitlines()
    assert "game 2: score: score line says 1-0, but the results before it make 2-0" in line
    assert line.endswith("; the rest of game 2 is used all the same")
    assert csv_rows(result.stdout) == csv_rows(run("stats", str(clean)).stdout)
    both = tmp_path / "both.mat"
    both.write_text(text.replace("  3) 42: 8/4 6/4 ", "  3) 42: 8/4 6/5 "))
    result = run("stats", str(both))
    first, second = result.stderr.splitlines()
    assert "score:" in first and first.endswith("; the rest of game 2 is used all the same")
    assert "game 2, move 3: illegal_play:" in second
    assert second.endswith("; the rest of game 2 is left out")


def audit_counts(result) -> dict:
    """``n`` of each test over all rolls, from ``nardy audit --json`` (after its first line,
    ``{"audit": ...}``)."""
    return {obj["test"]: obj["n"] for obj in map(json.loads, result.stdout.splitlines()[1:])
            if obj["group"] == "all"}


def test_audit_uses_every_other_game_and_names_the_broken_one(ten):
    clean, syntax, violation = ten
    whole = run("audit", "--json", str(clean))
    assert whole.exit_code == 0 and whole.stderr == ""
    game_4 = len(read_mat(clean, strict=True).matches[0].games[3].turns)  # rolls written in game 4
    result = run("audit", "--json", str(syntax))
    assert result.exit_code == 1 and SYNTAX_ERROR in result.stderr
    assert audit_counts(result)["doubles"] == audit_counts(whole)["doubles"] - (game_4 - 1)
    result = run("audit", "--json", str(violation))
    assert result.exit_code == 1 and VIOLATION_ERROR in result.stderr
    assert "every roll of game 4 counts" in result.stderr
    assert audit_counts(result)["doubles"] == audit_counts(whole)["doubles"]


@needs_engine
def test_luck_uses_every_other_game_and_names_the_broken_one(ten, tmp_path):
    clean, syntax, _ = ten
    assert run("luck", str(clean), "--csv", str(tmp_path / "clean.csv")).exit_code == 0
    result = run("luck", "--json", str(syntax), "--csv", str(tmp_path / "syntax.csv"))
    assert result.exit_code == 1 and SYNTAX_ERROR in result.stderr
    rows = csv_rows((tmp_path / "clean.csv").read_text(), drop=("file", "match_id"))
    assert csv_rows((tmp_path / "syntax.csv").read_text(), drop=("file", "match_id")) == \
        [row for row in rows if row["game"] != "4"]
    summary = json.loads(result.stdout)["summary"]
    assert sorted({row["game"] for row in summary if row["scope"] == "game"}) == \
        [1, 2, 3, 5, 6, 7, 8, 9, 10]


def test_plot_draws_another_game_and_names_the_broken_one(ten, tmp_path):
    _, syntax, violation = ten
    out = tmp_path / "game.png"
    result = run("plot", str(syntax), "--game", "5", "--out", str(out))
    assert result.exit_code == 1 and SYNTAX_ERROR in result.stderr
    assert out.read_bytes().startswith(b"\x89PNG")
    out.unlink()
    result = run("plot", str(syntax), "--game", "4", "--out", str(out))
    assert result.exit_code == 1 and "game 4 cannot be read; nothing is drawn" in result.stderr
    assert not out.exists()
    result = run("plot", str(violation), "--game", "4", "--out", str(out))
    assert result.exit_code == 1 and "game 4 is drawn up to there" in result.stderr
    assert out.exists()


@pytest.mark.parametrize("to", ["mat", "sgf"])
def test_convert_writes_every_other_game_and_names_the_broken_one(ten, to):
    clean, syntax, violation = ten
    result = run("convert", "--to", to, str(syntax))
    assert result.exit_code == 1 and SYNTAX_ERROR in result.stderr
    match, = parse_sgf(result.stdout, strict=True).matches if to == "sgf" else \
        parse_mat(result.stdout, strict=True).matches
    # SGF numbers the games 1, 2, ... as they come: the scores tell them apart
    clean_games = read_mat(clean, strict=True).matches[0].games
    assert [g.scores for g in match.games] == [g.scores for n, g in enumerate(clean_games, 1)
                                               if n != 4]
    result = run("convert", "--to", to, str(violation))
    assert result.exit_code == 1 and VIOLATION_ERROR in result.stderr


def test_only_warnings_or_nothing_exit_0(ten):
    clean = str(ten[0])
    for command in (["stats"], ["audit"], ["convert"], ["plot", "--game", "1", "--out",
                                                         str(ten[0].parent / "x.png")]):
        result = run(*command, clean)
        wrote = f"wrote {command[-1]} (" if command[0] == "plot" else None
        assert result.exit_code == 0, command
        assert (result.stderr.startswith(wrote) and result.stderr.count("\n") == 1
                if wrote else result.stderr == ""), command


# --- who played which side: header tags that name the players the other way round -----------

SWAPPED = ROOT / "tests" / "data" / "sides" / "xg_swapped_player_tags.mat"


def unswapped(tmp_path) -> Path:
    """xg_swapped_player_tags.mat with its Player 1/Player 2 tags back on the score lines'
    sides (as in the corpus record)."""
    text = SWAPPED.read_text()
    for key in ("Player 1", "Player 2"):
        text = text.replace(f'; [{key} "', f'; [{key}- "').replace(f'; [{key} Elo',
                                                                  f'; [{key}- Elo')
    text = text.replace("Player 1-", "Player 2").replace("Player 2-", "Player 1")
    path = tmp_path / "unswapped.mat"
    path.write_text(text)
    return path


def test_replay_json_of_swapped_player_tags_follows_the_score_columns(tmp_path):
    """p9d29, on the left of the score lines, wins 3-0, though the tags name p33c2a player 1:
    the result is that of the same record with the tags on the score lines' sides, and the
    tags are one warning."""
    swapped, plain = run("replay", "--json", str(SWAPPED)), run("replay", "--json",
                                                               str(unswapped(tmp_path)))
    assert swapped.exit_code == plain.exit_code == 0
    summary, reference = json.loads(swapped.stdout), json.loads(plain.stdout)
    (result,) = summary["results"]
    assert (result["players"], result["score"], result["winner"], result["points"]) == \
        (["p9d29", "p33c2a"], [3, 0], "p9d29", 3)
    assert summary["results"] == reference["results"] and reference["warnings"] == []
    assert [(w["kind"], w["line"], w["column"]) for w in summary["warnings"]] == \
        [("player_tags", 3, 4)]


def column_rolls(path: Path) -> dict:
    """The rolls written in each column of a Galaxy record (the right-hand one from column
    33 on), the first of each game (the opening roll) left out: ``{column: [dice, ...]}``."""
    rolls, first = {"left": [], "right": []}, False
    for line in path.read_text().splitlines():
        if line.startswith(" Game "):
            first = True
        for found in re.finditer(r"(?<![\d/])([1-6])([1-6]):", line):
            if not first:
                rolls["left" if found.start() < 33 else "right"].append(found[0])
            first = False
    return rolls


def test_audit_by_player_credits_each_roll_to_its_score_column(tmp_path):
    """On xg_swapped_player_tags.mat, p9d29's rolls are those of the left-hand column and
    p33c2a's those of the right-hand one, counted from the text; the groups are those of
    the same record with the tags on the score lines' sides."""
    def groups(path):
        result = run("audit", "--by", "player", "--json", str(path))
        assert result.exit_code == 0
        return {(row["group"], row["test"]): (row["n"], row["observed"])
                for row in map(json.loads, result.stdout.splitlines()[1:])
                if row["test"] in ("doubles", "faces")}

    rolls = column_rolls(SWAPPED)
    found = groups(SWAPPED)
    for name, column in (("p9d29", "left"), ("p33c2a", "right")):
        doubles = sum(r[0] == r[1] for r in rolls[column])
        assert found[name, "doubles"] == (len(rolls[column]), doubles)
        assert found[name, "faces"][0] == 2 * len(rolls[column])
    assert found == groups(unswapped(tmp_path))


# --- files that are not match records ---------------------------------------------------------

@pytest.mark.parametrize("command", [["stats"], ["audit"], ["replay"]])
def test_a_readme_in_a_folder_is_counted_not_an_error(tmp_path, command):
    (tmp_path / "README.txt").write_text("These are my matches.\n")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "README.txt").write_text("More.\n")
    (tmp_path / "good.mat").write_bytes((SAMPLES / "BackgammonStudio_5407469.mat").read_bytes())
    result = run(*command, str(tmp_path))
    assert result.exit_code == 0, result.output
    assert result.stderr == (f"2 files are not match records: {tmp_path / 'README.txt'}, "
                             f"{tmp_path / 'notes' / 'README.txt'}\n")
    named = run(*command, str(tmp_path / "good.mat"), str(tmp_path / "README.txt"))
    assert named.exit_code == 1
    assert "not_a_match: not a match record: no 'N point match' line" in named.output


@pytest.mark.parametrize("command", [["stats"], ["audit"], ["convert"],
                                     ["plot", "--game", "1", "--out", "{tmp}/x.png"]])
def test_every_command_shows_warnings_and_strict_makes_them_errors(command, tmp_path):
    """wrong_result_points.mat: a dropped double scored 2 points, a warning at 10:7 (the
    board and the cube give 1)."""
    path = str(SAMPLES / "broken" / "wrong_result_points.mat")
    args = [a.format(tmp=tmp_path) for a in command]
    result = run(*args, path)
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith(f"{path}:10:7: game 1, move 2: result (warning): 2 points "
                                    "is not a possible result here (expected 1 with the cube "
                                    "at 1)")
    strict = run(*args, "--strict", path)
    assert strict.exit_code == 1
    assert strict.stderr.startswith(f"{path}:10:7: game 1, move 2: result: 2 points")


def test_a_command_runs_with_the_cli_gc_threshold():
    """The nardy command collects young objects every GC_THRESHOLD allocations, not every
    700 (Python's default): fewer full collections over many files."""
    before = gc.get_threshold()
    try:
        gc.set_threshold(700, *before[1:])
        assert run("board", "4HPwATDgc/ABMA").exit_code == 0
        assert gc.get_threshold() == (GC_THRESHOLD, *before[1:]) and GC_THRESHOLD > 700
    finally:
        gc.set_threshold(*before)


@pytest.mark.parametrize("setting, threads", [(None, 1), ("2", 2)])
def test_the_command_line_loads_blas_on_one_thread_unless_told(setting, threads):
    """numpy loaded after the command line's module has one OpenBLAS thread, or the
    user's OPENBLAS_NUM_THREADS."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if setting:
        env["OPENBLAS_NUM_THREADS"] = setting
    code = ("import nardy_analysis.cli, numpy, threadpoolctl; "
            "print([p['num_threads'] for p in threadpoolctl.threadpool_info() "
            "if p['user_api'] == 'blas'])")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, check=True)
    assert done.stdout.strip() == f"[{threads}]"


def test_simulate_replay_and_convert_caucasian_matches(tmp_path):
    # Caucasian short nardy (a checker in its owner's home cannot be hit): simulated matches
    # carry their Variation tag and replay clean under it; under short nardy's rules their
    # dances in front of a safe blot are errors; convert keeps the variant in .mat and SGF.
    done = run("simulate", "3", "--rules", "caucasian", "--out", str(tmp_path), "--seed", "3")
    assert done.exit_code == 0, done.output
    files = sorted(map(str, tmp_path.glob("*.mat")))
    assert len(files) == 3 and '[Variation "Caucasian"]' in open(files[0]).read()
    done = run("replay", "--json", *files)
    assert done.exit_code == 0 and done.output.count('"errors": []') == 3
    done = run("replay", "--rules", "standard", *files)
    assert done.exit_code == 1 and "forced_play: no play written, and none of the" in done.output
    for to in ("mat", "sgf"):
        out = tmp_path / f"back.{to}"
        assert run("convert", "--to", to, files[0], "--output", str(out)).exit_code == 0
        back = run("replay", "--json", str(out))
        assert back.exit_code == 0 and '"errors": []' in back.output
    assert "RU[Crawford:Caucasian]" in (tmp_path / "back.sgf").read_text()


def test_main_help_names_the_short_nardy_only_commands():
    """luck and skill measure long nardy too (its engine ships with the package); only
    shots and the blot exposure chart are for short nardy only."""
    text = " ".join(run("--help").output.split())
    assert "shots and the blot exposure chart are for short nardy only" in text
    assert "luck, skill" not in text
