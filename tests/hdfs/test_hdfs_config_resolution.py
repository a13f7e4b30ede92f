"""Cluster names resolved from HADOOP_CONF_DIR: an HA nameservice id and a viewfs
mount table, both pointing at the MiniDFS NameNode (hdfs-native reads the XML)."""

from __future__ import annotations

import hashlib
import os

import pytest
from hdfs_helpers import run_check

pytestmark = pytest.mark.hdfs


def write_site(dir_, name: str, props: dict) -> None:
    body = "".join(f"<property><name>{k}</name><value>{v}</value></property>" for k, v in props.items())
    (dir_ / name).write_text(f"<?xml version=\"1.0\"?><configuration>{body}</configuration>")


@pytest.fixture
def conf_dir(tmp_path, minidfs):
    conf = tmp_path / "hadoop-conf"
    conf.mkdir()
    nn = f"127.0.0.1:{minidfs.port}"
    write_site(conf, "hdfs-site.xml", {
        "dfs.nameservices": "ns1",
        "dfs.ha.namenodes.ns1": "nn1",
        "dfs.namenode.rpc-address.ns1.nn1": nn,
    })
    write_site(conf, "core-site.xml", {
        "fs.viewfs.mounttable.cluster.link./data": f"hdfs://{nn}/tests",
        # hdfs-native refuses a viewfs mount table without a fallback link.
        "fs.viewfs.mounttable.cluster.linkFallback": f"hdfs://{nn}/",
    })
    return conf


@pytest.fixture
def sample(minidfs, hdfs_dir):
    from hdfs_native import Client

    data = os.urandom(300_000)
    path = hdfs_dir.split(minidfs.url, 1)[1] + "/sample.bin"
    with Client(minidfs.url).create(path) as f:
        f.write(data)
    return path, hashlib.sha256(data).hexdigest()


def test_nameservice_uri_resolved_from_hadoop_conf_dir(plugin_env, conf_dir, sample):
    path, digest = sample

    got = run_check(dict(plugin_env, HADOOP_CONF_DIR=str(conf_dir)), "read_gfile", uri=f"hdfs://ns1{path}")

    assert got["sha256"] == digest


def test_viewfs_uri_through_mount_table(plugin_env, conf_dir, sample):
    path, digest = sample  # /tests/<dir>/sample.bin, mounted at viewfs://cluster/data

    got = run_check(
        dict(plugin_env, HADOOP_CONF_DIR=str(conf_dir)),
        "read_gfile", uri="viewfs://cluster/data" + path[len("/tests"):],
    )

    assert got["sha256"] == digest
