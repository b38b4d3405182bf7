"""The README's command summary against the commands' own ``--help``."""

import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from nardy_analysis.cli import main

README = Path(__file__).resolve().parent.parent / "README.md"


def summary_lines():
    """The lines of the first code block of the README's "Command line" section that start
    with ``nardy``: each as (the commands it is about, the line). ``nardy replay|stats ...``
    is about replay and stats, ``nardy COMMAND ...`` about every command."""
    section = README.read_text(encoding="utf-8").split("\n## Command line\n", 1)[1]
    block = section.split("```sh\n", 1)[1].split("\n```", 1)[0]
    lines = []
    for line in block.splitlines():
        if line.startswith("nardy "):
            names = line.split()[1]
            lines.append((None if names == "COMMAND" else set(names.split("|")), line))
    return lines


COMMANDS = main.list_commands(click.Context(main))


def long_options(command):
    """The long options that ``nardy COMMAND --help`` lists (both names of an on/off flag),
    ``--help`` left out."""
    result = CliRunner().invoke(main, [command, "--help"])
    assert result.exit_code == 0, result.output
    options = result.output.split("\nOptions:\n", 1)[1]
    names = re.findall(r"(?m)^  (?:-\w, )?(--[\w-]+)(?: / (--[\w-]+))?", options)
    return sorted({name for pair in names for name in pair if name and name != "--help"})


def test_the_summary_names_every_command():
    named = set().union(*(names for names, _ in summary_lines() if names))
    assert set(COMMANDS) <= named, sorted(set(COMMANDS) - named)
    assert len(COMMANDS) == 13


@pytest.mark.parametrize("command", COMMANDS)
def test_the_summary_gives_every_long_option(command):
    text = "\n".join(line for names, line in summary_lines() if names is None or command in names)
    options = long_options(command)
    assert "--quiet" in options
    missing = [option for option in options
               if not re.search(re.escape(option) + r"(?![\w-])", text)]
    assert not missing, f"nardy {command}: {missing} not in the README's command summary"


def test_the_package_shows_only_its_api_and_modules():
    import types

    import nardy_analysis

    stray = [name for name, value in vars(nardy_analysis).items()
             if not name.startswith("_") and name not in nardy_analysis.__all__
             and not isinstance(value, types.ModuleType)]
    assert stray == []
    assert not hasattr(nardy_analysis, "version")
    assert isinstance(nardy_analysis.__version__, str)


def test_the_tour_runs_as_written(monkeypatch, capsys):
    readme = README.read_text(encoding="utf-8")
    tour = readme.split("\n## A short tour\n", 1)[1].split("\n## ", 1)[0]
    monkeypatch.chdir(README.parent)
    exec("\n".join(re.findall(r"```python\n(.*?)```", tour, re.S)), {})
    assert capsys.readouterr().out == ("3 ('pdf633', 'p9be6') 2\n"
                                       "1 37 0 2 single\n2 61 0 1 resign\n")
