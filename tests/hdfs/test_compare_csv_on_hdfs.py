"""`tf1compat compare --hdfs URL`: the CSV example pair reads its file from HDFS too."""

import json
import subprocess
import sys

import pytest

from hdfs_helpers import REPO

pytestmark = pytest.mark.hdfs


def test_csv_example_pair_agrees_on_hdfs(minidfs, plugin_env):
    done = subprocess.run(
        [sys.executable, "-m", "tf1compat.cli.main", "compare", "--only", "csv_pipeline",
         "--size", "small", "--hdfs", minidfs.url, "--json"],
        capture_output=True, text=True, timeout=600, cwd=str(REPO), env=plugin_env)
    assert done.returncode == 0, done.stderr[-3000:]
    (row,) = json.loads(done.stdout)
    assert row["agreement"] == "agree", row["detail"]
    for form in ("tf1", "tf2"):
        values = row[form]["values"]
        assert values["hdfs_sha256"] == values["sha256"]
        assert values["rows"] == 2000 and values["bad_rows"] == 1
        assert "hdfs:// identical" in row[form]["summary"]
