"""BackupAndRestore and ClusterCheckpoint in one process: atomic backups, resume, history kept."""

from backup_scenario import assert_resumed_from_the_last_backup, interrupted_then_resumed
from isolated import run_json


def test_backup_resumes_after_an_interruption_and_survives_a_torn_pointer(tmp_path):
    assert_resumed_from_the_last_backup(interrupted_then_resumed(str(tmp_path / "backup")))


def test_a_file_url_backup_folder_is_the_local_folder(tmp_path):
    assert_resumed_from_the_last_backup(interrupted_then_resumed(f"file://{tmp_path}/backup"))


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
