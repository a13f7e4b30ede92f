"""modern.fault_tolerance with its backups on hdfs://: the storage workers on several machines
share. The same interruption, torn pointer and resume as the local test
(tests/cluster/test_fault_tolerance.py), with every file in the MiniDFS cluster."""

import pytest

from isolated import run_json

pytestmark = pytest.mark.hdfs


def test_backup_on_hdfs_resumes_after_an_interruption_and_survives_a_torn_pointer(
        minidfs, hdfs_dir, plugin_env):
    result = run_json(f"""
        import json
        import numpy as np, keras, tensorflow as tf
        from modern.fault_tolerance import BackupAndRestore

        backup_dir = {hdfs_dir + "/backup"!r}
        x = np.random.default_rng(0).normal(size=(64, 4)).astype("float32")
        y = (x[:, 0] > 0).astype("int32")

        def model():
            keras.utils.set_random_seed(0)
            m = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)])
            m.compile("sgd", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
            return m

        class Stop(keras.callbacks.Callback):
            def on_epoch_begin(self, epoch, logs=None):
                if epoch == 3:
                    raise RuntimeError("interrupted")

        try:
            model().fit(x, y, epochs=5, callbacks=[BackupAndRestore(backup_dir), Stop()],
                        verbose=0)
        except RuntimeError:
            pass
        names = sorted(tf.io.gfile.listdir(backup_dir))
        with tf.io.gfile.GFile(backup_dir + "/latest.json", "w") as f:
            f.write('{{"dir": "epo')                 # a pointer torn by a crash
        second = BackupAndRestore(backup_dir)
        history = model().fit(x, y, epochs=5, callbacks=[second], verbose=0).history
        print(json.dumps(dict(names=names, restored=second.restored_epoch,
                              epochs_run=len(history["loss"]),
                              history=[h["epoch"] for h in second.history],
                              deleted=not tf.io.gfile.exists(backup_dir))))
    """, timeout=180, env=plugin_env)
    assert [name.rstrip("/") for name in result["names"]] == [
        "epoch-000002-batch-000000", "epoch-000003-batch-000000", "latest.json"]
    assert result["restored"] == 3 and result["epochs_run"] == 2
    assert result["history"] == [0, 1, 2, 3, 4]
    assert result["deleted"]
