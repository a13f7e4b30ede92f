"""The pure-Python path (hdfs-native, no plugin) and how a missing plugin is reported."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hdfs_helpers import REPO, make_csv, put, run_check


@pytest.mark.hdfs
def test_forced_fallback_yields_same_lines_as_plugin(plugin_env, minidfs, hdfs_dir, tmp_path):
    local = tmp_path / "rows.csv"
    make_csv(local, 60_000)
    with open(local, "ab") as f:
        f.write(b"crlf,line\r\nlast line without newline")  # TF's line rules, both paths
    uri = hdfs_dir + "/rows.csv"
    put(minidfs, local, uri)

    via_plugin = run_check(plugin_env, "text_line_dataset", uri=uri, local=str(local))
    forced = run_check(dict(plugin_env, TF1COMPAT_HDFS_PLUGIN="0"), "fallback_dataset", uri=uri, local=str(local))

    assert via_plugin["registered"] is True
    assert forced["plugin"] is False
    assert forced["hdfs"] == via_plugin["hdfs"] == forced["local"]
    assert forced["hdfs"]["count"] == 60_002
    assert len(forced["warnings"]) == 1 and "TF1COMPAT_HDFS_PLUGIN" in forced["warnings"][0]


@pytest.mark.hdfs
def test_fallback_missing_file_error_names_path(plugin_env, hdfs_dir):
    uri = hdfs_dir + "/gone.csv"

    got = run_check(dict(plugin_env, TF1COMPAT_HDFS_PLUGIN="0"), "fallback_missing", uri=uri)

    assert got["read"]["class"] is not None
    assert uri in got["read"]["message"]


@pytest.mark.hdfs
def test_fallback_read_lines_and_glob_without_tensorflow(minidfs, hdfs_dir, tmp_path):
    from tf1compat.shared.errors import HdfsNotFoundError
    from tf1compat.hdfs import exists, glob, read_lines

    for name in ("a1.csv", "a2.csv", "b.txt"):
        local = tmp_path / name
        make_csv(local, 500)
        put(minidfs, local, f"{hdfs_dir}/{name}")

    assert glob(hdfs_dir + "/a?.csv") == [hdfs_dir + "/a1.csv", hdfs_dir + "/a2.csv"]
    assert glob(hdfs_dir + "/[^a]*") == [hdfs_dir + "/b.txt"]
    assert list(read_lines(hdfs_dir + "/a1.csv")) == (tmp_path / "a1.csv").read_bytes().splitlines()
    assert exists(hdfs_dir + "/b.txt") and not exists(hdfs_dir + "/nope")
    with pytest.raises(HdfsNotFoundError, match=hdfs_dir + "/nope.csv"):
        list(read_lines(hdfs_dir + "/nope.csv"))



@pytest.mark.hdfs
def test_range_reads_give_the_local_bytes_across_blocks_and_at_the_end(minidfs, hdfs_dir, tmp_path):
    # the modern pipeline reads its byte ranges this way (one hdfs-native call each)
    from tf1compat.shared.csv_files import read_range
    from tf1compat.shared.errors import HdfsNotFoundError

    local = tmp_path / "rows.csv"
    make_csv(local, 120_000)  # 3 MB: three 1 MiB blocks
    data = local.read_bytes()
    uri = hdfs_dir + "/ranges.csv"
    put(minidfs, local, uri)

    size = len(data)
    for start, length in ((0, 1), (7, 65_536), ((1 << 20) - 9, 20), (size // 3, size // 2), (size - 5, 100),
                          (size, 10), (size + 3, 10)):
        assert read_range(uri, start, length) == data[start:start + length], (start, length)
    pieces = [read_range(uri, s, 1 << 18) for s in range(0, size, 1 << 18)]
    assert b"".join(pieces) == data
    with pytest.raises(HdfsNotFoundError, match=hdfs_dir + "/absent.csv"):
        read_range(hdfs_dir + "/absent.csv", 0, 10)

def test_missing_plugin_warns_once_and_says_what_to_do(tmp_path):
    code = (
        "import warnings\n"
        "from tf1compat.hdfs import ensure_registered, plugin_status\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n"
        "    first, second = ensure_registered(), ensure_registered()\n"
        "print(first, second, len(w))\n"
        "print(w[0].message)\n"
        "print(plugin_status()['built'])\n"
    )
    env = {"PYTHONPATH": str(REPO), "TF1COMPAT_HDFS_PLUGIN_PATH": str(tmp_path / "missing.so"), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)

    lines = out.stdout.splitlines()
    assert lines[0] == "False False 1", out.stderr[-3000:]
    assert str(tmp_path / "missing.so") in lines[1]
    assert lines[2] == "False"


def test_importing_tf1compat_hdfs_does_not_import_tensorflow():
    code = "import sys, tf1compat.hdfs; print('tensorflow' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={"PYTHONPATH": str(REPO)}, timeout=60)

    assert out.stdout.strip() == "False", out.stderr
