"""The test helpers themselves: where the shared corpus is found."""

import subprocess

from conftest import corpus_folder


def git(*args, cwd):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
                   cwd=cwd, check=True, capture_output=True)


def test_the_corpus_is_found_beside_the_main_checkout_of_a_worktree(tmp_path, monkeypatch):
    main, worktree = tmp_path / "main", tmp_path / "elsewhere" / "wt"
    main.mkdir()
    git("init", "-q", cwd=main)
    git("commit", "-q", "--allow-empty", "-m", "start", cwd=main)
    git("worktree", "add", "-q", "--detach", str(worktree), cwd=main)
    corpus = tmp_path / "shared" / "corpus" / "mat"
    corpus.mkdir(parents=True)
    monkeypatch.delenv("NARDY_CORPUS", raising=False)
    assert corpus_folder(main) == corpus_folder(worktree) == corpus
    (tmp_path / "elsewhere" / "shared" / "corpus" / "mat").mkdir(parents=True)
    assert corpus_folder(worktree) == tmp_path / "elsewhere" / "shared" / "corpus" / "mat"
    outside = tmp_path / "plain" / "copy"  # no git: beside the folder only, absent here
    outside.mkdir(parents=True)
    assert corpus_folder(outside) == tmp_path / "plain" / "shared" / "corpus" / "mat"
    monkeypatch.setenv("NARDY_CORPUS", str(tmp_path / "mine"))
    assert corpus_folder(worktree) == tmp_path / "mine"
