"""Fetching a program's files from a bare mirror by blob id, and laying them out edited."""

from __future__ import annotations

import json
import subprocess

import pytest

from tf1compat.corpus import manifest, sources

SCRIPT = "import tensorflow as tf\nepochs = 20\nprint('data at /tmp/data/')\n"


@pytest.fixture
def mirror(tmp_path, monkeypatch):
    """A bare mirror of a one-commit repository at MIRRORS/someone+repo/repo; the cache in tmp."""
    monkeypatch.setenv("TF1COMPAT_CORPUS_CACHE", str(tmp_path / "cache"))
    work = tmp_path / "work"
    (work / "sub").mkdir(parents=True)
    (work / "sub" / "train.py").write_text(SCRIPT)
    (work / "book.ipynb").write_text(json.dumps({"cells": [
        {"cell_type": "markdown", "source": ["# title"]},
        {"cell_type": "code", "source": ["%matplotlib inline\n", "x = 1\n"]},
        {"cell_type": "code", "source": "!pip install foo\nprint(x + 1)"}]}))
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(work)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "one"], check=True)
    commit = subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True,
                            text=True).stdout.strip()
    mirrors = tmp_path / "mirrors"
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(mirrors / "someone+repo" / "repo")],
                   check=True)
    return mirrors, commit


def program(commit, path="sub/train.py", blob=None, edits=()):
    blob = blob or sources.blob_id(SCRIPT.encode())
    return manifest.Program(name="p", repo="someone/repo", commit=commit, date="2018-01-01",
                            kind="tutorial", script=manifest.SourceFile(path, blob),
                            shape="tutorial", edits=tuple(edits), success="done")


def test_blob_id_is_gits():
    done = subprocess.run(["git", "hash-object", "--stdin"], input=SCRIPT.encode(),
                          capture_output=True, check=True)
    assert sources.blob_id(SCRIPT.encode()) == done.stdout.decode().strip()


def test_fetch_then_lay_out_with_edits_and_placeholders(mirror, tmp_path):
    mirrors, commit = mirror
    edits = [manifest.Edit("sub/train.py", "epochs = 20", "epochs = 1"),
             manifest.Edit("sub/train.py", "/tmp/data/", "{data}/")]
    chosen = program(commit, edits=edits)
    assert not sources.available(chosen)
    assert sources.fetch(chosen, mirrors) == ["sub/train.py"]
    assert sources.fetch(chosen, mirrors) == []   # cached and checked
    script = sources.lay_out(chosen, tmp_path / "root", {"data": "/x/data"})
    assert script == tmp_path / "root" / "sub" / "train.py"
    assert script.read_text() == SCRIPT.replace("20", "1").replace("/tmp/data/", "/x/data/")


def test_a_blob_that_is_not_the_files_at_the_commit_is_refused(mirror):
    mirrors, commit = mirror
    wrong = program(commit, blob="0" * 40)
    with pytest.raises(sources.SourceError, match="is not blob 0000"):
        sources.fetch(wrong, mirrors)


def test_a_cached_file_that_changed_is_refused(mirror, tmp_path):
    mirrors, commit = mirror
    chosen = program(commit)
    sources.fetch(chosen, mirrors)
    (sources.cache_folder() / chosen.script.blob).write_text("tampered")
    with pytest.raises(sources.SourceError, match="is not blob"):
        sources.lay_out(chosen, tmp_path / "root", {})


def test_an_edit_whose_text_is_gone_is_refused(mirror, tmp_path):
    mirrors, commit = mirror
    chosen = program(commit, edits=[manifest.Edit("sub/train.py", "epochs = 99", "epochs = 1")])
    sources.fetch(chosen, mirrors)
    with pytest.raises(sources.SourceError, match="'epochs = 99' is not in the file"):
        sources.lay_out(chosen, tmp_path / "root", {})


def test_a_missing_mirror_says_how_to_make_one(tmp_path):
    with pytest.raises(sources.SourceError, match="git clone --bare https://github.com/someone/repo"):
        sources.fetch(program("a" * 40), tmp_path)


def test_a_notebook_becomes_its_code_cells_without_magics(mirror, tmp_path):
    mirrors, commit = mirror
    blob = subprocess.run(["git", f"--git-dir={mirrors / 'someone+repo' / 'repo'}", "rev-parse",
                           f"{commit}:book.ipynb"], capture_output=True, text=True).stdout.strip()
    chosen = program(commit, path="book.ipynb", blob=blob)
    sources.fetch(chosen, mirrors)
    script = sources.lay_out(chosen, tmp_path / "root", {})
    assert script.name == "book.py"
    text = script.read_text()
    assert "x = 1" in text and "print(x + 1)" in text
    assert "%matplotlib" not in text and "pip install" not in text and "# title" not in text
