"""TF 1.15's contrib source: found where it is named, fetched once from the official wheel
(checked by its SHA-256), refused with a reason otherwise."""

import subprocess
import sys
import zipfile

import pytest

from tf1compat.contrib import tf115_source


def _fresh(monkeypatch, tmp_path, **env):
    monkeypatch.setenv("TF1COMPAT_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv(tf115_source.ENV_SOURCE, raising=False)
    monkeypatch.delenv(tf115_source.ENV_OFFLINE, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    tf115_source.source_root.cache_clear()


@pytest.fixture(autouse=True)
def _forget_the_answer():
    yield
    tf115_source.source_root.cache_clear()


def test_a_named_folder_without_contrib_is_refused_naming_it(monkeypatch, tmp_path):
    _fresh(monkeypatch, tmp_path, TF1COMPAT_TF115_SOURCE=str(tmp_path))
    with pytest.raises(tf115_source.SourceUnavailable, match="TF1COMPAT_TF115_SOURCE=.*contrib"):
        tf115_source.source_root()


def test_offline_without_the_source_says_how_to_name_one(monkeypatch, tmp_path):
    _fresh(monkeypatch, tmp_path, TF1COMPAT_OFFLINE="1")
    with pytest.raises(tf115_source.SourceUnavailable, match="TF1COMPAT_OFFLINE=1 forbids"):
        tf115_source.source_root()
    assert not tf115_source.cached_root().exists()


def test_a_wheel_that_is_not_the_official_one_is_not_used(monkeypatch, tmp_path):
    _fresh(monkeypatch, tmp_path)
    forged = tmp_path / tf115_source.WHEEL
    with zipfile.ZipFile(forged, "w") as archive:
        archive.writestr("tensorflow_core/contrib/__init__.py", "import os\n")
    with pytest.raises(tf115_source.SourceUnavailable, match="not the official wheel"):
        tf115_source.fetch(tf115_source.cached_root(), wheel=forged)
    assert not tf115_source.cached_root().exists()


def test_the_official_wheel_gives_its_contrib_python_files_once(monkeypatch, tmp_path):
    _fresh(monkeypatch, tmp_path)
    root = tf115_source.source_root()  # downloads the wheel with pip (its cache, if warm)
    assert root == tf115_source.cached_root()
    assert (root / "contrib" / "graph_editor" / "select.py").is_file()
    kept = [path for path in root.rglob("*") if path.is_file()]
    assert kept and all(path.suffix == ".py" for path in kept)
    assert len(kept) == 941
    # a second process finds it and fetches nothing (offline is no obstacle now)
    probe = subprocess.run(
        [sys.executable, "-c", "from tf1compat.contrib import tf115_source; "
                               "print(tf115_source.source_root())"],
        capture_output=True, text=True, timeout=120,
        env={**__import__("os").environ, "TF1COMPAT_OFFLINE": "1"})
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.strip() == str(root) and "fetching" not in probe.stderr
