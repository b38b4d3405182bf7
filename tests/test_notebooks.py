"""A notebook copied out of the repository runs there: it finds the sample match files
installed with the package (nbmake runs the notebooks in ``notebooks/``, inside it)."""

import shutil

import nbformat
import pytest
from conftest import ROOT
from nbclient import NotebookClient


@pytest.mark.slow
def test_a_notebook_copied_out_of_the_repository_runs(tmp_path, monkeypatch):
    copy = tmp_path / "05_long_nardy.ipynb"  # the samples only, no engine extra needed
    shutil.copy(ROOT / "notebooks" / copy.name, copy)
    monkeypatch.chdir(tmp_path)
    notebook = nbformat.read(copy, as_version=4)
    NotebookClient(notebook, timeout=300, resources={"metadata": {"path": str(tmp_path)}}).execute()
