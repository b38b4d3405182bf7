"""What every command shares: output files checked before the work and on writing, empty
input, binary files, --quiet, 'wrote' lines, the progress bar on a terminal; and the
commands' own gaps: replay's results, plot's game numbers, shots' XGIDs, nardy board."""

import csv
import fcntl
import importlib.util
import io
import json
import os
import pty
import re
import struct
import subprocess
import sys
import termios
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import SAMPLES, brute_force_shots, side

from nardy_analysis.cli import common, main
from nardy_analysis.cli.plot import _ranges
from nardy_analysis.game.ids import MatchState
from nardy_analysis.game.position import Position

GOOD = SAMPLES / "galaxy_style_crawford.mat"  # 3 games, bob.k wins 3-1
BROKEN = SAMPLES / "broken" / "forced_play_violation.mat"
WARNING = SAMPLES / "broken" / "wrong_result_points.mat"
NARDY = Path(sys.executable).with_name("nardy")
HAS_ENGINE = importlib.util.find_spec("gnubg_nn") is not None


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_error_line(result, *words, before_the_work=True):
    """Exit 2, one line on stderr holding ``words``, no traceback; before the work, nothing
    on stdout either."""
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.stdout == "" or not before_the_work
    (line,) = result.stderr.splitlines()
    assert line.startswith("Error: "), line
    for word in words:
        assert str(word) in line, (word, line)
    return line


# --- output files ------------------------------------------------------------------------

WRITERS = {  # every option that names a file to write; {out} is the file, {input} a match
    "plot": ["plot", "{input}", "--game", "1", "--out", "{out}.png"],
    "stats --csv": ["stats", "{input}", "--csv", "{out}.csv"],
    "stats --parquet": ["stats", "{input}", "--parquet", "{out}.parquet"],
    "audit --html": ["audit", "{input}", "--html", "{out}.html"],
    "luck --csv": ["luck", "{input}", "--csv", "{out}.csv"],
    "convert -o": ["convert", "{input}", "-o", "{out}.mat"],
    "board --svg": ["board", "4HPwATDgc/ABMA", "--svg", "{out}.svg"],
    "board --png": ["board", "4HPwATDgc/ABMA", "--png", "{out}.png"],
}


def writer(name, out, path=BROKEN):
    """The command line of WRITERS[name], writing ``out`` (plus its suffix) and reading
    ``path``: a file with an error, so that reading it would show on stderr."""
    args = [a.format(input=path, out=out) for a in WRITERS[name]]
    return args, next(a for a in args if a.startswith(str(out)))


@pytest.fixture
def read_only(tmp_path, monkeypatch):
    """A read-only folder holding a read-only file ``old``; as root, whom chmod does not
    stop, ``os.access`` answers for these two as it would for another user."""
    folder = tmp_path / "read-only"
    folder.mkdir()
    (folder / "old").write_text("")
    (folder / "old").chmod(0o444)
    folder.chmod(0o555)
    if os.geteuid() == 0:
        access = os.access
        monkeypatch.setattr(os, "access", lambda path, mode, **kw: (
            False if mode & os.W_OK and Path(path).is_relative_to(folder) else
            access(path, mode, **kw)))
    yield folder
    folder.chmod(0o755)


@pytest.mark.parametrize("name", WRITERS)
def test_an_output_file_that_cannot_be_written_is_one_line_before_any_work(
        name, tmp_path, read_only):
    (tmp_path / "folder.png").mkdir()
    cases = [(tmp_path / "nowhere" / "x", "does not exist"),
             (read_only / "x", "is not writable"),
             (read_only / "old", "read-only file")]
    for out, reason in cases:
        args, path = writer(name, out)
        if reason == "read-only file":  # the file itself, without a suffix
            args = [str(out) if a == path else a for a in args]
            path = str(out)
        # the input's error would be on stderr had it been read
        one_error_line(run(*args), repr(path), reason)
    args, path = writer(name, tmp_path / "folder")
    args = [str(tmp_path / "folder.png") if a == path else a for a in args]
    if name != "stats --parquet":  # a folder is a Parquet dataset: test_parallel_commands
        one_error_line(run(*args), repr(str(tmp_path / "folder.png")), "it is a folder")
    assert sorted(p.name for p in read_only.iterdir()) == ["old"]


@pytest.mark.slow
@pytest.mark.parametrize("name", WRITERS)
def test_a_write_that_fails_is_one_line_and_exit_2(name, monkeypatch):
    """/proc takes no new file, even from root: the check before the work cannot see it
    (as root), so the write itself fails; here the check is skipped to make sure."""
    if name == "luck --csv" and not HAS_ENGINE:
        pytest.skip("gnubg-nn (the engine extra) is not installed")
    monkeypatch.setattr(common, "_unwritable", lambda path: None)
    args, path = writer(name, "/proc/nardy-x", path=GOOD)
    one_error_line(run(*args), f"cannot write {path!r}: ", before_the_work=False)


@pytest.mark.parametrize("name", WRITERS)
@pytest.mark.parametrize("out", ["/proc/nardy-x", "/sys/nardy-x"])
def test_places_that_take_no_new_file_are_found_before_the_work(name, out):
    """/proc and /sys take no new file, even from root, whatever access() says: the check
    before the work tries to create the file (and removes it)."""
    if name == "luck --csv" and not HAS_ENGINE:
        pytest.skip("gnubg-nn (the engine extra) is not installed")
    args, path = writer(name, out, path=GOOD)
    one_error_line(run(*args), f"cannot write {path!r}: ")


def test_a_folder_simulate_cannot_write_into_is_one_line_before_any_work(tmp_path, read_only):
    (tmp_path / "file").write_text("")
    cases = [("/proc/simdir", "No such file or directory"),
             ("/proc/simdir/deeper", "No such file or directory"),
             (tmp_path / "file", "it is a file"),
             (tmp_path / "file" / "sims", f"'{tmp_path / 'file'}' is a file"),
             (read_only / "sims", f"folder '{read_only}' is not writable"),
             (read_only / "sims" / "deeper", f"folder '{read_only}' is not writable")]
    for out, reason in cases:
        if str(out).startswith("/proc") and not Path("/proc").is_dir():
            continue
        line = one_error_line(run("simulate", "2", "--out", out))
        assert line == f"Error: cannot write '{out}': {reason}"
    assert sorted(p.name for p in read_only.iterdir()) == ["old"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "read-only"]  # no trial left
    result = run("simulate", "2", "--out", tmp_path / "new" / "sims")  # made with its parents
    assert result.exit_code == 0 and len(list((tmp_path / "new" / "sims").iterdir())) == 2


def test_the_trial_file_is_removed(tmp_path):
    out = tmp_path / "x.png"
    result = run("plot", BROKEN, "--game", "99", "--out", out)
    assert result.exit_code == 2 and not out.exists()


def test_plot_of_a_game_broken_at_its_first_roll(tmp_path):
    broken = tmp_path / "first.mat"
    lines = Path(GOOD).read_text(encoding="utf-8").splitlines()
    first = next(i for i, line in enumerate(lines) if line.lstrip().startswith("1)"))
    lines[first] = lines[first].split(")")[0] + ")" + " " * 29 + "53: 8/3 6/2"
    broken.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run("plot", broken, "--game", "1", "--out", tmp_path / "x.png")
    assert result.exit_code == 1 and not (tmp_path / "x.png").exists()
    assert "illegal_play" in result.stderr
    assert "game 1 breaks a rule at its first roll; nothing is drawn" in result.stderr


def test_the_suffix_of_a_picture_is_checked_first(tmp_path):
    one_error_line(run("plot", BROKEN, "--game", "1", "--out", tmp_path / "x.xyz"),
                   "x.xyz", "the suffix must be one of", ".png")


def test_wrote_lines_name_the_file_and_its_rows_or_size(tmp_path):
    out = tmp_path / "turns.csv"
    result = run("stats", GOOD, "--csv", out, "--parquet", tmp_path / "t.parquet")
    rows = len(out.read_text().splitlines()) - 1
    assert rows > 30
    assert result.stderr == (f"wrote {tmp_path / 't.parquet'} ({rows:,} rows)\n"
                             f"wrote {out} ({rows:,} rows)\n")
    mat = tmp_path / "x.mat"
    result = run("convert", GOOD, "-o", mat)
    assert result.stderr == f"wrote {mat} ({mat.stat().st_size:,} bytes)\n"
    assert run("convert", GOOD).stderr == ""  # standard output: nothing to say
    assert run("convert", GOOD, "-o", mat, "-q").stderr == ""


# --- empty input -------------------------------------------------------------------------

@pytest.mark.parametrize("command", [["replay"], ["replay", "--json"], ["stats"], ["audit"],
                                     ["audit", "--json"], ["luck"], ["convert"],
                                     ["plot", "--game", "1", "--out", "{tmp}/x.png"]])
def test_an_empty_folder_is_exit_1_and_one_line(command, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.doc").write_text("no match here")
    result = run(*[a.format(tmp=tmp_path) for a in command], empty)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == f"no match files found in {empty}\n"


def test_an_empty_folder_beside_match_files_is_a_note(tmp_path):
    (tmp_path / "empty").mkdir()
    result = run("stats", GOOD, tmp_path / "empty")
    assert result.exit_code == 0 and result.stdout.startswith("file,")
    assert result.stderr == f"no match files found in {tmp_path / 'empty'}\n"
    assert run("stats", "-q", GOOD, tmp_path / "empty").stderr == ""


def test_plot_and_convert_take_one_file_not_a_folder():
    result = run("plot", SAMPLES, "--game", "1", "--out", "x.png")
    assert result.exit_code == 2 and "is a folder: name one match file" in result.stderr
    result = run("convert", SAMPLES)
    assert result.exit_code == 2 and "is a folder: name one match file" in result.stderr


# --- file names that are not UTF-8, empty files ---------------------------------------

BAD_NAME = os.fsdecode(b"bad\xffname.mat")  # as Python gives a name that is not UTF-8
SHOWN = "bad\\xffname.mat"  # as every output writes it

NAMED = {  # every command reading match files; {bad} a file of that name, {folder} its
    "replay": ["replay", "{folder}"],  # folder (with a good file), {out} a file to write
    "replay --json": ["replay", "--json", "{folder}"],
    "stats": ["stats", "{folder}"],
    "stats --csv": ["stats", "{folder}", "--csv", "{out}.csv"],
    "stats --parquet": ["stats", "{folder}", "--parquet", "{out}.parquet"],
    "stats --parquet DIR": ["stats", "{folder}", "--parquet", "{out}"],
    "audit": ["audit", "{folder}"],
    "audit --html": ["audit", "{folder}", "--html", "{out}.html"],
    "audit --json": ["audit", "--json", "{folder}"],
    "luck": ["luck", "{folder}"],
    "luck --json": ["luck", "--json", "{folder}"],
    "luck --csv": ["luck", "{folder}", "--csv", "{out}.csv"],
    "luck --by player": ["luck", "--by", "player", "--json", "{folder}"],
    "skill": ["skill", "{folder}"],
    "skill --csv": ["skill", "{folder}", "--csv", "{out}.csv"],
    "report": ["report", "{bad}", "--out", "{out}.html"],
    "convert": ["convert", "{bad}"],
    "plot": ["plot", "{bad}", "--game", "1", "--out", "{out}.png"],
}


def output_text(result, out: Path) -> str:
    """stdout, stderr and the files written at ``out`` (its suffixes, a folder of parts)."""
    import pandas as pd

    texts = [result.stdout, result.stderr]
    for path in sorted(out.parent.glob(out.name + "*")):
        if path.suffix == ".png":
            continue
        if path.suffix == ".parquet" or path.is_dir():
            texts.append(pd.read_parquet(path).to_csv())
        else:
            texts.append(path.read_text(encoding="utf-8"))
    return "\n".join(texts)


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMED)
def test_a_file_name_that_is_not_utf8_is_written_with_escapes_everywhere(name, tmp_path):
    if name.split()[0] in ("luck", "skill") and not HAS_ENGINE:
        pytest.skip("gnubg-nn (the engine extra) is not installed")
    folder = tmp_path / "files"
    folder.mkdir()
    (folder / "good.mat").write_bytes(GOOD.read_bytes())
    (folder / BAD_NAME).write_bytes(BROKEN.read_bytes())  # its error names the file
    out = tmp_path / "out"
    result = run(*[a.format(folder=folder, bad=folder / BAD_NAME, out=out)
                   for a in NAMED[name]])
    assert isinstance(result.exception, SystemExit), result.exception  # no traceback
    assert result.exit_code == 1, result.output  # the broken file's error
    text = output_text(result, out)
    assert "\udcff" not in text and "\ufffd" not in text
    if name.startswith("replay"):  # its own lines on stdout
        assert "forced_play" in result.stdout and result.stderr == ""
    else:
        assert f"{folder / SHOWN}:8:38: game 1, move 1: forced_play: " in result.stderr
    if "{folder}" in NAMED[name] and name != "audit":  # both files' rows, whatever the names
        assert SHOWN in text.replace("\\\\", "\\")  # JSON doubles a backslash
        assert "good.mat" in text or "alice_b" in text or name.startswith("audit")


@pytest.mark.parametrize("command", [["stats"], ["stats", "--parquet", "{tmp}/t"],
                                     ["replay"], ["replay", "--json"], ["audit"],
                                     ["audit", "--json"], ["luck"], ["luck", "--by", "player"],
                                     ["skill"], ["convert"], ["report", "--out", "{tmp}/x.html"],
                                     ["plot", "--game", "1", "--out", "{tmp}/x.png"]])
@pytest.mark.parametrize("text", ["", " \n\n\t\n", "; [Site \"nowhere\"]\n"])
def test_an_empty_file_is_exit_1_and_one_line(command, text, tmp_path):
    if command[0] in ("luck", "skill") and not HAS_ENGINE:
        pytest.skip("gnubg-nn (the engine extra) is not installed")
    empty = tmp_path / "empty.mat"
    empty.write_text(text)
    result = run(*[a.format(tmp=tmp_path) for a in command], empty)
    assert isinstance(result.exception, SystemExit), result.exception
    line = f"{empty}:1:1: empty: no match in the file (no 'N point match' line)"
    if command == ["replay"]:
        assert result.exit_code == 1 and result.stderr == ""
        assert "  1:1: empty: no match in the file" in result.stdout
    elif command == ["replay", "--json"]:
        assert result.exit_code == 1 and result.stderr == ""
        (error,) = json.loads(result.stdout)["errors"]
        assert (error["line"], error["column"], error["kind"]) == (1, 1, "empty")
    else:
        assert (result.exit_code, result.stdout, result.stderr) == (1, "", line + "\n")
    assert not any(tmp_path.glob("t*")) and not any(tmp_path.glob("x.*"))


# --- a missing engine extra ---------------------------------------------------------------

@pytest.mark.parametrize("command", [["skill"], ["luck"], ["audit", "--luck"]])
def test_a_missing_engine_extra_is_one_line_and_exit_2(command, monkeypatch):
    """Without gnubg-nn the commands that need it stop at a short nardy file, as for any
    usage error, naming the extra that installs it."""
    from nardy_analysis.analysis import engine

    monkeypatch.setitem(sys.modules, "gnubg_nn", None)  # as if not installed
    monkeypatch.setattr("nardy_analysis.analysis.engine.default_evaluator",
                        engine.default_evaluator.__wrapped__)  # the cached one has the engine
    one_error_line(run(*command, GOOD), "pip install 'nardy-analysis[engine]'")


# --- binary files ------------------------------------------------------------------------

def binary_files(folder: Path, suffix: str) -> list[Path]:
    """A PNG, a GIF, a ZIP and a PDF (one with a 'Game 1' line in it), each named *suffix."""
    png = run("board", "4HPwATDgc/ABMA", "--png", folder / f"board{suffix}")
    assert png.exit_code == 0, png.output
    (folder / f"pic{suffix}").write_bytes(b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff")
    with zipfile.ZipFile(folder / f"archive{suffix}", "w") as archive:
        archive.writestr("a.mat", " 1 point match\n\n Game 1\n")
    (folder / f"doc{suffix}").write_bytes(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n Game 1\n"
                                          b" 3 point match\n")
    return sorted(folder.glob(f"*{suffix}"))


@pytest.mark.parametrize("suffix", [".mat", ".sgf"])
def test_binary_files_are_not_match_records(tmp_path, suffix):
    files = binary_files(tmp_path, suffix)
    result = run("replay", "--json", *files)
    assert result.exit_code == 1
    errors = [obj["errors"] for obj in map(json.loads, result.stdout.splitlines())]
    assert errors == [[{"game": None, "move": None, "line": 1, "column": 1, "text": "",
                        "kind": "not_a_match", "message": "not a match record: binary data",
                        "position_id": None}]] * 4
    # found in a folder beside a match file: counted, not errors
    (tmp_path / "good.mat").write_bytes(GOOD.read_bytes())
    result = run("stats", tmp_path)
    assert result.exit_code == 0
    assert result.stderr.startswith(f"{len(files)} files are not match records: ")
    assert "encoding" not in result.stderr and "cp1251" not in result.stderr


# --- --quiet ------------------------------------------------------------------------------

def test_quiet_leaves_errors_results_and_exit_status(tmp_path):
    (tmp_path / "README.txt").write_text("my matches\n")
    (tmp_path / "good.mat").write_bytes(GOOD.read_bytes())
    (tmp_path / "warning.mat").write_bytes(WARNING.read_bytes())
    loud = run("stats", "--progress", tmp_path, "--csv", tmp_path / "x.csv")
    assert "wrote" in loud.stderr and "not a match record" in loud.stderr
    assert "result (warning)" in loud.stderr and "%|" in loud.stderr
    quiet = run("stats", "--progress", "--quiet", tmp_path, "--csv", tmp_path / "x.csv")
    assert (quiet.exit_code, quiet.stderr) == (0, "")
    assert run("stats", "-q", tmp_path).stdout == run("stats", tmp_path).stdout
    failed = run("stats", "-q", BROKEN)
    assert failed.exit_code == 1 and "forced_play" in failed.stderr
    json_loud, json_quiet = run("replay", "--json", SAMPLES), run("replay", "--json", "-q",
                                                                  SAMPLES)
    assert json_quiet.stdout == json_loud.stdout
    assert json_quiet.exit_code == json_loud.exit_code == 1


def test_quiet_replay_shows_only_the_files_with_errors():
    result = run("replay", "-q", SAMPLES)
    assert result.exit_code == 1
    files = [line.split(":")[0] for line in result.stdout.splitlines()
             if not line.startswith(" ")]
    assert [Path(f).name for f in files] == ["forced_play_violation.mat",
                                             "illegal_blocked_point.mat",
                                             "syntax_bad_move_token.mat"]


@pytest.mark.parametrize("command", sorted(main.list_commands(None)))
def test_every_command_has_quiet(command):
    assert "--quiet" in run(command, "--help").stdout


# --- the progress bar on a terminal ------------------------------------------------------

def on_terminal(*args) -> str:
    """What ``nardy ARGS`` shows on a 100-column terminal: stdout and stderr both the
    terminal, each line as the terminal draws it (a carriage return goes back to the start
    of the line; later characters overwrite earlier ones)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    process = subprocess.Popen([NARDY, *map(str, args)], stdout=slave, stderr=slave,
                               stdin=subprocess.DEVNULL)
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait()
    os.close(master)
    lines = []
    for raw in b"".join(chunks).decode().replace("\r\n", "\n").split("\n"):
        shown: list[str] = []
        column = 0
        for char in raw:
            if char == "\r":
                column = 0
                continue
            shown[column:column + 1] = [char]
            column += 1
        lines.append("".join(shown).rstrip())
    return lines


BAR = re.compile(r"\s*\d+%\|.*\| *\d+/\d+ \[.*\]")


@pytest.mark.slow
@pytest.mark.skipif(not NARDY.exists(), reason="the nardy script is not installed")
@pytest.mark.parametrize("command", [["replay"], ["audit", "--no-positions"]])
def test_the_progress_bar_never_mixes_with_printed_lines(command):
    paths = [SAMPLES / "broken", GOOD, SAMPLES / "money_beaver_raccoon.mat"]
    shown = on_terminal(*command, "--progress", *paths)
    plain = run(*command, "--no-progress", *paths)
    printed = [line.rstrip() for line in (plain.stdout + plain.stderr).splitlines()]
    bars = [line for line in shown if BAR.fullmatch(line)]
    assert len(bars) >= 1  # the bar was shown (the last one is left)
    minute = re.compile(r"\d\d:\d\d UTC")  # the audit's run time: the runs may straddle a minute
    assert sorted(minute.sub("", line) for line in shown if line and not BAR.fullmatch(line)) \
        == sorted(minute.sub("", line) for line in printed if line)


def test_the_progress_bar_goes_to_stderr_only():
    result = run("stats", "--progress", SAMPLES / "broken", GOOD)
    assert "%|" in result.stderr and "%|" not in result.stdout
    assert result.stdout == run("stats", "--no-progress", SAMPLES / "broken", GOOD).stdout


# --- replay: results ---------------------------------------------------------------------

def test_replay_prints_winner_score_and_points_per_match():
    result = run("replay", GOOD, SAMPLES / "money_beaver_raccoon.mat",
                 SAMPLES / "unfinished_trailing_spaces.mat", WARNING)
    lines = result.stdout.splitlines()
    # the files' results: bob.k wins game 3 at 1-2 (3-point match); Anna wins 8, loses 1,
    # wins 4; erin and frank stop in game 2 at 0-1; wrong_result_points' "Wins 2 point" is
    # a dropped 1-cube, so 1 point
    for expected in ["  alice_b 1 - bob.k 3 (3-point match): bob.k wins by 2 points",
                     "  Anna 12 - Boris 1 (money session): Anna wins by 11 points",
                     "  erin 0 - frank 1 (5-point match): unfinished",
                     "  alice 1 - bob 0 (3-point match): unfinished"]:
        assert expected in lines
    objects = [json.loads(line) for line in run("replay", "--json", GOOD, WARNING,
                                                SAMPLES / "two_matches_anonymous.mat")
               .stdout.splitlines()]
    assert [r for o in objects for r in o["results"]] == [
        {"players": ["alice_b", "bob.k"], "length": 3, "score": [1, 3], "finished": True,
         "winner": "bob.k", "points": 2},
        {"players": ["alice", "bob"], "length": 3, "score": [1, 0], "finished": False,
         "winner": None, "points": None},
        {"players": ["alice", "player 2"], "length": 1, "score": [1, 0], "finished": True,
         "winner": "alice", "points": 1},
        {"players": ["alice", "player 2"], "length": 1, "score": [0, 1], "finished": True,
         "winner": "player 2", "points": 1}]
    shown = run("replay", SAMPLES / "two_matches_anonymous.mat").stdout
    assert "  alice 0 - player 2 1 (1-point match): player 2 wins by 1 point" in shown


ANONYMOUS = {  # how each output names the players of two_matches_anonymous.mat ("" unnamed)
    "stats": (["stats"], lambda out: {r["player"] for r in csv_rows(out)}),
    "audit --by player": (["audit", "--json", "--by", "player"],
                          lambda out: {json.loads(line)["group"] for line in out.splitlines()[1:]}
                          - {"all"}),
    "luck": (["luck"], lambda out: {line[10:31].strip() for line in out.splitlines()
                                    if line.startswith("  game")}),
    "luck --json": (["luck", "--json"], lambda out: {r["player"] for line in out.splitlines()
                                                     for r in json.loads(line)["summary"]}),
    "luck --csv": (["luck", "-q", "--csv", "{out}"],
                   lambda out: {r["player"] for r in csv_rows(out)}),
    "luck --by player": (["luck", "--by", "player", "--json"],
                         lambda out: {json.loads(line)["player"] for line in out.splitlines()}),
    "skill --by player": (["skill", "--by", "player", "--json"],
                          lambda out: {json.loads(line)["player"] for line in out.splitlines()}),
}


def csv_rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


@pytest.mark.parametrize("name", ANONYMOUS)
def test_a_player_with_no_name_is_player_2_in_every_output(name, tmp_path):
    args, players = ANONYMOUS[name]
    if args[0] in ("luck", "skill") and not HAS_ENGINE:
        pytest.skip("gnubg-nn (the engine extra) is not installed")
    out = tmp_path / "out.csv"
    result = run(*[a.format(out=out) for a in args], SAMPLES / "two_matches_anonymous.mat")
    assert result.exit_code == 0, result.output
    assert players(out.read_text() if "{out}" in args else result.stdout) == {"alice",
                                                                              "player 2"}


# --- plot, shots, board --------------------------------------------------------------------

def test_plot_names_the_games_a_file_has():
    result = run("plot", GOOD, "--game", "99", "--out", "x.png")
    assert result.exit_code == 2
    assert "has no game 99 with turns; it has games 1-3" in result.stderr
    assert _ranges([1, 2, 3, 5, 7, 8]) == "1-3, 5, 7-8" and _ranges([4]) == "4"


BLOTS = Position.from_mover(side(p13=2, p8=4, p6=5, p5=1, p3=3),
                            side(p24=1, p21=1, p13=5, p8=3, p6=5))


def test_shots_takes_an_xgid_that_starts_with_a_dash():
    xgid = BLOTS.xgid(MatchState())
    bare = xgid.removeprefix("XGID=")
    assert bare.startswith("-")
    results = [json.loads(run("shots", "--json", text).stdout)
               for text in (bare, xgid, BLOTS.id())]
    assert results[0] == results[1] == results[2]
    assert results[0]["rolls"] == brute_force_shots(BLOTS) > 0
    both = run("shots", "--json", BLOTS.id(), bare)
    assert both.exit_code == 0 and len(both.stdout.splitlines()) == 2


@pytest.mark.parametrize("bad, why", [("nonsense", "expected 14 characters"),
                                      ("4HPwATDgc/ABMA:xyz", "Match ID 'xyz'"),
                                      ("XGID=-b----E-C", "fields")])
def test_bad_ids_are_one_line_and_exit_2(bad, why):
    for command in ("board", "shots"):
        result = run(command, bad)
        assert result.exit_code == 2 and result.stdout == ""
        (line,) = result.stderr.splitlines()
        assert why in line and (repr(bad) in line or ":" in bad)


def test_board_prints_the_position_and_what_the_ids_say():
    start = run("board", "4HPwATDgc/ABMA")
    assert start.exit_code == 0
    assert start.stdout == str(Position.start()) + "\nX (player 1) is on roll; O is player 2.\n"
    assert "pips: X 167 O 167" in start.stdout
    # gnubg's Match ID UQngADAAEAAE: 7-point match, 2-3, cube 2 owned by player 1 (test_ids)
    xgid = run("board", "-b----E-C---eE---c-e----B-:1:1:1:00:2:3:0:7:10")
    assert xgid.exit_code == 0, xgid.output
    assert xgid.stdout.splitlines()[-3:] == [
        "X (player 2) is on roll; O is player 1.", "cube: 2, owned by player 2",
        "score: player 1 3, player 2 2 in a 7-point match"]
    with_dice = run("board", "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10").stdout
    assert "dice: 52" in with_dice and "cube: 1, centred" in with_dice


def test_board_pictures(tmp_path):
    svg, png = tmp_path / "b.svg", tmp_path / "b.png"
    result = run("board", "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10",
                 "--svg", svg, "--png", png)
    assert result.exit_code == 0 and result.stdout == ""
    assert result.stderr.splitlines() == [f"wrote {svg} ({svg.stat().st_size:,} bytes)",
                                          f"wrote {png} ({png.stat().st_size:,} bytes)"]
    text = svg.read_text()
    assert text.startswith("<svg") and text.count('<circle class="checker') == 30
    data = png.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", data[16:24])  # the IHDR chunk
    assert width == 2 * int(re.search(r'width="(\d+)"', text).group(1))
    assert 0.5 < height / width < 1.5


def test_board_pictures_show_the_cube_and_score(tmp_path):
    # Player 1 owns a 2-cube at 1-2 in a 5-point match, against a centred cube at 0-0.
    owned, centred = tmp_path / "owned.svg", tmp_path / "centred.svg"
    run("board", "XGID=-b----E-C---eE---c-e----B-:1:1:1:52:2:1:0:5:10", "--svg", owned)
    run("board", "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10", "--svg", centred)
    owned, centred = owned.read_text(), centred.read_text()
    assert "player 2 (dark): score 2, 167 pips" in owned
    assert "player 1 (light): score 0, 167 pips" in centred
    assert re.findall(r'class="cube-value"[^>]*>(\d+)<', owned) == ["2"]
    assert re.findall(r'class="cube-value"[^>]*>(\d+)<', centred) == ["1"]


def test_a_named_file_that_is_not_a_match_prints_nothing(tmp_path):
    fake = tmp_path / "fake.mat"
    fake.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    for command in (["stats"], ["audit"], ["audit", "--json"]):
        result = run(*command, fake)
        assert (result.exit_code, result.stdout) == (1, ""), command
        assert "not_a_match" in result.stderr
