"""Cheap imports, and the hook for hdfs:// paths (tf1compat.hdfs, faked here)."""

from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path

import pytest
import tensorflow as tf

from tf1compat.shared.errors import InputFileError

from .suite import INTS, csv_text, int_rows

ROOT = Path(__file__).resolve().parents[2]


def test_importing_the_pipelines_does_not_import_tensorflow():
    code = ("import sys\n"
            "import tf1compat.input_pipeline, modern.input_pipeline\n"
            "import tf1compat.input_pipeline._queue_graph, tf1compat.input_pipeline._feeder\n"
            "import modern.input_pipeline._dataset, modern.input_pipeline._arrow\n"
            "loaded = [m for m in ('tensorflow', 'pyarrow', 'pandas') if m in sys.modules]\n"
            "assert not loaded, loaded\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr


def _tf1_rows(path: str) -> list:
    from tf1compat.input_pipeline import input_pipeline
    graph = tf.Graph()
    with graph.as_default(), tf.compat.v1.Session(graph=graph) as session:
        with input_pipeline(path, INTS, session=session) as pipe:
            return [r for b in pipe for r in zip(*[c.tolist() for c in b])]


def _modern_rows(path: str) -> list:
    from modern.input_pipeline import input_pipeline
    return [r for b in input_pipeline(path, INTS) for r in zip(*[c.tolist() for c in b])]


@pytest.mark.parametrize("read", [_tf1_rows, _modern_rows])
def test_hdfs_path_without_hdfs_support_is_a_clear_error(monkeypatch, read):
    monkeypatch.setitem(sys.modules, "tf1compat.hdfs", None)   # import fails
    with pytest.raises(InputFileError, match=r"hdfs://nn:8020/data/a\.csv.*tf1compat\.hdfs"):
        read("hdfs://nn:8020/data/a.csv")


@pytest.fixture
def fake_hdfs(monkeypatch, tmp_path):
    """tf1compat.hdfs without the TensorFlow plugin: glob and lines from local files."""
    (tmp_path / "a.csv").write_text(csv_text(int_rows(3)))
    (tmp_path / "b.csv").write_text(csv_text(int_rows(2, 10)))
    module = types.ModuleType("tf1compat.hdfs")
    module.calls = []

    def local(url: str) -> str:
        return str(tmp_path / url.rsplit("/", 1)[-1])

    def ensure_registered(scheme: str = "hdfs") -> bool:
        module.calls.append(scheme)
        return False

    module.ensure_registered = ensure_registered
    module.glob = lambda pattern: ["hdfs://nn/d/b.csv", "hdfs://nn/d/a.csv"]
    module.text_line_dataset = lambda url: tf.data.TextLineDataset(local(url))
    monkeypatch.setitem(sys.modules, "tf1compat.hdfs", module)
    # `import tf1compat.hdfs as hdfs` reads the package attribute first: when another test
    # of this process imported the real module, the attribute must be replaced too.
    import tf1compat

    monkeypatch.setattr(tf1compat, "hdfs", module, raising=False)
    return module


def test_hdfs_fallback_reads_lines_on_the_tf_data_side(fake_hdfs):
    assert _modern_rows("hdfs://nn/d/*.csv") == int_rows(3) + int_rows(2, 10)
    assert _modern_rows("viewfs://cluster/d/a.csv") == int_rows(3)
    assert set(fake_hdfs.calls) == {"hdfs", "viewfs"}


def test_hdfs_without_the_plugin_is_a_clear_error_on_the_tf1_side(fake_hdfs):
    with pytest.raises(InputFileError, match=r"hdfs://nn/d/a\.csv.*plugin"):
        _tf1_rows("hdfs://nn/d/a.csv")


def test_hdfs_with_the_plugin_registered_uses_tensorflow_filesystems(fake_hdfs):
    fake_hdfs.ensure_registered = lambda scheme="hdfs": True   # TF itself still lacks hdfs here
    with pytest.raises(InputFileError, match=r"hdfs://nn/d/a\.csv"):
        _modern_rows("hdfs://nn/d/a.csv")
