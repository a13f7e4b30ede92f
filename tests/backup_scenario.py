"""One Keras `fit` with `modern.fault_tolerance.BackupAndRestore`, interrupted at epoch 3, its
`latest.json` then torn as a crash would leave it, and resumed: run in a fresh process on any
backup folder TensorFlow reads (a local folder, hdfs://). The tests of each storage hold the
result to `assert_resumed_from_the_last_backup`."""

from __future__ import annotations

from isolated import run_json


def interrupted_then_resumed(backup_dir: str, env: dict | None = None) -> dict:
    return run_json(f"""
        import json
        import numpy as np, keras, tensorflow as tf
        from modern import keras_multi_worker
        from modern.fault_tolerance import BackupAndRestore

        assert keras_multi_worker.install()          # single-process fit is unchanged by it
        backup_dir = {backup_dir!r}
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
        names = sorted(name.rstrip("/") for name in tf.io.gfile.listdir(backup_dir))
        with tf.io.gfile.GFile(backup_dir + "/latest.json", "w") as f:
            f.write('{{"dir": "epo')                 # a pointer torn by a crash
        second = BackupAndRestore(backup_dir)
        history = model().fit(x, y, epochs=5, callbacks=[second], verbose=0).history
        print(json.dumps(dict(names=names, restored=second.restored_epoch,
                              epochs_run=len(history["loss"]),
                              history=[h["epoch"] for h in second.history],
                              deleted=not tf.io.gfile.exists(backup_dir))))
    """, timeout=180, env=env)


def assert_resumed_from_the_last_backup(result: dict) -> None:
    assert result["names"] == ["epoch-000002-batch-000000", "epoch-000003-batch-000000",
                               "latest.json"]  # two kept, temporaries gone
    assert result["restored"] == 3 and result["epochs_run"] == 2
    assert result["history"] == [0, 1, 2, 3, 4]  # the epochs before the restart kept
    assert result["deleted"]
