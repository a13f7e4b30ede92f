"""TextLineDataset and TF1 TextLineReader on hdfs:// give the same rows as locally."""

from __future__ import annotations

import pytest
from hdfs_helpers import make_csv, put, run_check

pytestmark = pytest.mark.hdfs


@pytest.fixture
def csv_on_hdfs(minidfs, hdfs_dir, tmp_path):
    local = tmp_path / "train.csv"
    make_csv(local, 150_000)  # ~4.9 MB: 5 blocks of 1 MiB
    uri = hdfs_dir + "/train.csv"
    put(minidfs, local, uri)
    return uri, str(local)


def test_text_line_dataset_matches_local(plugin_env, csv_on_hdfs):
    uri, local = csv_on_hdfs

    got = run_check(plugin_env, "text_line_dataset", uri=uri, local=local)

    assert got["registered"] is True
    assert got["hdfs"]["count"] == 150_000
    assert got["hdfs"] == got["local"]


def test_tf1_text_line_reader_in_session_matches_local(plugin_env, csv_on_hdfs):
    uri, local = csv_on_hdfs

    got = run_check(plugin_env, "tf1_text_line_reader", uri=uri, local=local)

    assert got["registered"] is True
    assert got["hdfs"]["count"] == 150_000
    assert got["hdfs"] == got["local"]


def test_file_deleted_after_listing_raises_not_found_naming_it(plugin_env, minidfs, hdfs_dir, tmp_path):
    for name in ("part-0.csv", "part-1.csv", "part-2.csv"):
        local = tmp_path / name
        make_csv(local, 1000)
        put(minidfs, local, f"{hdfs_dir}/{name}")
    victim = f"{hdfs_dir}/part-1.csv"

    got = run_check(
        plugin_env, "deleted_after_listing",
        root=hdfs_dir, namenode=minidfs.url, victim_path=victim.split(minidfs.url, 1)[1],
    )

    assert victim in got["listed"]
    assert got["read"]["class"] == "NotFoundError", got["read"]
    assert victim in got["read"]["message"]
