"""BackupAndRestore and ClusterCheckpoint in one process: atomic backups, resume, history kept."""

from isolated import run_json


def test_backup_resumes_after_an_interruption_and_survives_a_torn_pointer(tmp_path):
    result = run_json(f"""
        import json, os
        import numpy as np, keras
        from modern import keras_multi_worker
        from modern.fault_tolerance import BackupAndRestore

        assert keras_multi_worker.install()          # single-process fit is unchanged by it
        backup_dir = {str(tmp_path / "backup")!r}
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

        first = BackupAndRestore(backup_dir)
        try:
            model().fit(x, y, epochs=5, callbacks=[first, Stop()], verbose=0)
        except RuntimeError:
            pass
        names = sorted(os.listdir(backup_dir))
        with open(os.path.join(backup_dir, "latest.json"), "w") as f:
            f.write('{{"dir": "epo')                 # a pointer torn by a crash
        second = BackupAndRestore(backup_dir)
        history = model().fit(x, y, epochs=5, callbacks=[second], verbose=0).history
        print(json.dumps(dict(names=names, restored=second.restored_epoch,
                              epochs_run=len(history["loss"]),
                              history=[h["epoch"] for h in second.history],
                              deleted=not os.path.exists(backup_dir))))
    """, timeout=120)
    assert result["names"] == ["epoch-000002-batch-000000", "epoch-000003-batch-000000",
                               "latest.json"]  # two kept, temporaries gone
    assert result["restored"] == 3 and result["epochs_run"] == 2
    assert result["history"] == [0, 1, 2, 3, 4]
    assert result["deleted"]


def test_non_chief_workers_do_not_write_the_backup(tmp_path, monkeypatch):
    result = run_json(f"""
        import json, os
        os.environ["TF_CONFIG"] = json.dumps({{"cluster": {{"worker": ["127.0.0.1:1",
            "127.0.0.1:2"]}}, "task": {{"type": "worker", "index": 1}}}})
        import numpy as np, keras, tensorflow as tf
        from modern.fault_tolerance import BackupAndRestore, ClusterCheckpoint
        backup_dir = {str(tmp_path / "backup")!r}
        m = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)])
        m.compile("sgd", "mse")
        callback = BackupAndRestore(backup_dir, delete_checkpoint=False)
        m.fit(np.zeros((8, 4)), np.zeros((8, 2)), epochs=2, callbacks=[callback], verbose=0)
        step = tf.Variable(5)
        ckpt = ClusterCheckpoint(tf.train.Checkpoint(step=step), {str(tmp_path / "ckpt")!r})
        ckpt.save()
        print(json.dumps(dict(writer=callback.is_writer, wrote=os.path.exists(backup_dir),
                              chief=ckpt.is_chief,
                              ckpt=sorted(os.listdir({str(tmp_path / "ckpt")!r})))))
    """, timeout=120)
    assert result == {"writer": False, "wrote": False, "chief": False, "ckpt": []}
