"""The shared CSV pipeline suite, run on files in the MiniDFS cluster through hdfs:// URLs.

Every test of tests/input_pipeline/suite.py runs here again against every
pipeline implementation, with the files written into HDFS (by hdfs-native,
not by TensorFlow) and read back through `hdfs://127.0.0.1:PORT/...`; the
suite's expectations are the local-file results, row for row.
"""

from __future__ import annotations

import itertools
import os
import sys
from pathlib import Path
from typing import Union

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from input_pipeline.roots import CsvRoot, LocalRoot  # noqa: E402
from input_pipeline.sides import SIDES, rows_of  # noqa: E402
from input_pipeline.suite import PipelineSuite, csv_text, int_rows  # noqa: E402

pytestmark = pytest.mark.hdfs
_numbers = itertools.count()


class HdfsRoot(CsvRoot):
    """A fresh directory on the cluster; files written with the hdfs-native client."""

    def __init__(self, url: str, directory: str):
        from hdfs_native import Client

        self.client = Client(url)
        self.base_url = url.rstrip("/")
        self.directory = directory
        self.client.mkdirs(directory, 0o755, True)

    def write(self, name: str, data: Union[bytes, str]) -> str:
        path = f"{self.directory}/{name}"
        self.client.mkdirs(path.rsplit("/", 1)[0], 0o755, True)
        with self.client.create(path) as handle:
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
        return self.url(name)

    def mkdir(self, name: str) -> str:
        self.client.mkdirs(f"{self.directory}/{name}", 0o755, True)
        return self.url(name)

    def url(self, name: str) -> str:
        return f"{self.base_url}{self.directory}/{name}"


@pytest.fixture(scope="module")
def registered_plugin(plugin_env):
    """The hdfs:// plugin loaded into this test process."""
    if "TF1COMPAT_HDFS_PLUGIN_PATH" in plugin_env:
        os.environ["TF1COMPAT_HDFS_PLUGIN_PATH"] = plugin_env["TF1COMPAT_HDFS_PLUGIN_PATH"]
    from tf1compat.hdfs import ensure_registered

    assert ensure_registered(), "the hdfs:// plugin did not load (see the warning above)"


@pytest.fixture(params=sorted(SIDES))
def side(request):
    """Each pipeline implementation in turn, as in tests/input_pipeline."""
    return SIDES[request.param]


@pytest.fixture
def csv_root(minidfs, registered_plugin):
    return HdfsRoot(minidfs.url, f"/pipelines/test-{os.getpid()}-{next(_numbers)}")


class TestHdfsFiles(PipelineSuite):
    """The shared suite on hdfs:// files; expectations are those of local files."""


def test_hdfs_rows_equal_local_rows_on_every_side(csv_root, tmp_path, side):
    text = csv_text(int_rows(3000)) + "bad,row\n" + csv_text(int_rows(50, start=5000))
    local = LocalRoot(tmp_path).write("big.csv", text)
    remote = csv_root.write("big.csv", text)
    options = dict(batch_size=256, on_bad_row="skip")
    local_batches, local_pipe = side.read(local, [[0], [0], [0]], **options)
    remote_batches, remote_pipe = side.read(remote, [[0], [0], [0]], **options)
    assert rows_of(remote_batches) == rows_of(local_batches)
    assert len(rows_of(remote_batches)) == 3050
    assert remote_pipe.bad_rows.total == local_pipe.bad_rows.total == 1
