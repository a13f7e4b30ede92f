"""modern.fault_tolerance with its backups on hdfs://, the storage that workers on several
machines share: the interruption, torn pointer and resume of the local test
(tests/backup_scenario.py), with every file in the MiniDFS cluster."""

import pytest

from backup_scenario import assert_resumed_from_the_last_backup, interrupted_then_resumed

pytestmark = pytest.mark.hdfs


def test_backup_on_hdfs_resumes_after_an_interruption_and_survives_a_torn_pointer(
        minidfs, hdfs_dir, plugin_env):
    assert_resumed_from_the_last_backup(
        interrupted_then_resumed(hdfs_dir + "/backup", env=plugin_env))
