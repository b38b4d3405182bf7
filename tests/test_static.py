"""The lint (ruff) and the type check (mypy) pass, as pyproject.toml configures them: the
files they cover and their rules are there. Each skips when its tool is not installed (the
test extras pin both)."""

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> str:
    """The tool beside this Python (the venv's), else on the PATH; skip when neither."""
    beside = Path(sys.executable).with_name(name)
    found = str(beside) if beside.exists() else shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (pip install '.[test]')")
    return found


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True)


def test_ruff_finds_nothing():
    done = _run(_tool("ruff"), "check", "--no-cache", ".")
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
def test_mypy_finds_nothing():
    done = _run(_tool("mypy"))
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_package_is_installed():
    """pyproject.toml lists the packages a wheel holds: a package folder left out of the list
    installs nowhere, and only a non-editable install shows it."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(setuptools["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "nardy_analysis").rglob("__init__.py")
    }
    assert found <= listed, sorted(found - listed)
