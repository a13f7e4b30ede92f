"""tf.io.gfile on hdfs:// through the plugin, against a real MiniDFS."""

from __future__ import annotations

import hashlib
import os

import pytest
from hdfs_helpers import make_csv, run_check

pytestmark = pytest.mark.hdfs


def test_gfile_write_then_read_back_is_byte_identical(plugin_env, hdfs_dir, tmp_path, minidfs):
    local = tmp_path / "data.csv"
    data = make_csv(local, 120_000)  # ~3.9 MB: 4 blocks
    uri = hdfs_dir + "/written_by_gfile.csv"

    got = run_check(plugin_env, "gfile_roundtrip", uri=uri, local=str(local))

    assert got["registered"] is True
    assert got["read"] == got["local"] == hashlib.sha256(data).hexdigest()
    assert got["middle_ok"] and got["appended_ok"]
    assert got["size"] == len(data) + len(b"appended\n")
    # What the plugin wrote is a normal HDFS file for other clients too.
    from hdfs_native import Client

    with Client(minidfs.url).read(uri.split(minidfs.url, 1)[1]) as f:
        assert f.read() == data + b"appended\n"


def test_gfile_reads_file_written_by_hdfs_native(plugin_env, hdfs_dir, tmp_path, minidfs):
    from hdfs_native import Client

    data = os.urandom(2_500_000)  # binary, not line-shaped, crosses block boundaries
    path = hdfs_dir.split(minidfs.url, 1)[1] + "/random.bin"
    with Client(minidfs.url).create(path) as f:
        f.write(data)

    got = run_check(plugin_env, "read_gfile", uri=minidfs.url + path)

    assert got["sha256"] == hashlib.sha256(data).hexdigest()


def test_stat_listdir_glob_rename_remove(plugin_env, hdfs_dir):
    got = run_check(plugin_env, "fs_ops", root=hdfs_dir)

    assert got["listdir"] == ["b", "x1.csv", "x2.csv", "y.txt"]
    assert got["glob"] == [hdfs_dir + "/a/x1.csv", hdfs_dir + "/a/x2.csv"]
    assert got["glob_dirs"] == [hdfs_dir + "/a/b"]
    assert got["isdir_dir"] is True and got["isdir_file"] is False
    assert got["exists"] is True and got["exists_missing"] is False
    assert got["stat_len"] == len("x1.csv") and got["stat_isdir"] is True
    assert got["mtime_recent"] is True
    assert got["after_rename"] == ["b", "x1.csv", "x2.csv", "z.txt"]
    assert got["after_remove"] == ["b", "x1.csv", "x2.csv"]
    assert got["mkdir_existing"] is None
    assert got["mkdir_no_parent"] == "NotFoundError"
    assert got["open_dir"] == "FailedPreconditionError"
    assert got["after_rmtree"] is False


def test_missing_path_is_not_found_naming_the_path(plugin_env, hdfs_dir):
    uri = hdfs_dir + "/no/such/file.csv"

    got = run_check(plugin_env, "missing_path_errors", uri=uri)

    for op, err in got.items():
        assert err["class"] == "NotFoundError", (op, err)
        assert uri in err["message"], (op, err)


def test_permission_denied_names_user_and_path(plugin_env, minidfs):
    from hdfs_native import Client

    private = f"/private-{os.getpid()}"
    Client(minidfs.url).mkdirs(private, 0o700, True)
    env = dict(plugin_env, HADOOP_USER_NAME="mallory")

    got = run_check(env, "permission_denied", uri=minidfs.url + private)

    err = got["listdir"]
    assert err["class"] == "PermissionDeniedError", err
    assert minidfs.url + private in err["message"]
    assert "mallory" in err["message"]
