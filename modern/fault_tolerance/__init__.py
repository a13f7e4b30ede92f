"""Training that survives a lost worker: backups that every worker can restore from.

Keras 3's `keras.callbacks.BackupAndRestore(backup_dir)` is not multi-worker
aware: every worker writes the same `latest.weights.h5` in place, so two
workers collide ("unable to lock file", errno 11) and a worker killed while
writing leaves a torn file. `BackupAndRestore` here keeps Keras's contract
(same arguments, `fit` resumes at the epoch after the last backup) and adds:

- only the chief writes (weights are identical on every worker under
  MultiWorkerMirroredStrategy, so one copy is the truth); every task restores
  from it, so `backup_dir` must be storage all tasks see (one machine, or a
  shared filesystem);
- each backup is written to a new directory and then published by renaming a
  small `latest.json`: a process killed at any instant leaves the previous
  backup intact (nothing that was saved is lost);
- `backup_dir` may be on any filesystem TensorFlow reads, `hdfs://` included
  (`modern.fault_tolerance._files`), as workers on several machines need;
- the per-epoch logs of every finished epoch are kept with the backup, so
  `callback.history` is the whole run's history across restarts.

For custom training loops, `ClusterCheckpoint` does the same with
`tf.train.Checkpoint`: the chief writes to the directory, other workers to a
temporary directory they delete (TF's documented multi-worker pattern: every
worker must call save, because saving can run collectives).
"""

from __future__ import annotations

import os
import warnings
from typing import Any, Optional

import keras

from modern.fault_tolerance import _files as files
from tf1compat.shared.cluster_spec import Cluster

_LATEST = "latest.json"
_WEIGHTS = "model.weights.h5"
_STATE = "state.json"


def _task_of(model: Any = None) -> tuple[Optional[str], Optional[int]]:
    """This process's (task type, index): from the model's strategy, else TF_CONFIG."""
    strategy = getattr(model, "distribute_strategy", None) if model is not None else None
    resolver = getattr(strategy, "cluster_resolver", None)
    if resolver is not None and getattr(resolver, "task_type", None):
        return resolver.task_type, resolver.task_id
    if os.environ.get("TF_CONFIG", "").strip():
        cluster = Cluster.from_tf_config()
        return cluster.task_type, cluster.task_index
    return None, None


def is_chief_task(task_type: Optional[str], task_index: Optional[int],
                  has_chief_job: bool = False) -> bool:
    """TF's rule: the chief task, or worker 0 when the cluster has no chief; a lone process is chief."""
    if task_type is None or task_type == "chief":
        return True
    return task_type == "worker" and task_index == 0 and not has_chief_job


def _has_chief_job(model: Any = None) -> bool:
    strategy = getattr(model, "distribute_strategy", None)
    resolver = getattr(strategy, "cluster_resolver", None)
    if resolver is not None:
        try:
            return bool(resolver.cluster_spec().as_dict().get("chief"))
        except Exception as error:  # noqa: BLE001 - any resolver's failure: said, then TF_CONFIG
            fallback = "TF_CONFIG" if os.environ.get("TF_CONFIG", "").strip() else \
                "none (no TF_CONFIG either), so worker 0 writes the backups"
            warnings.warn(f"BackupAndRestore: the strategy's {type(resolver).__name__} gave no "
                          f"cluster spec ({type(error).__name__}: {error}); the chief is "
                          f"taken from {fallback}", RuntimeWarning, stacklevel=2)
    if os.environ.get("TF_CONFIG", "").strip():
        return bool(Cluster.from_tf_config().addresses("chief"))
    return False


def _plain_logs(logs: Optional[dict]) -> dict[str, float]:
    return {key: float(value) for key, value in (logs or {}).items()
            if isinstance(value, (int, float)) or hasattr(value, "__float__")}


class BackupAndRestore(keras.callbacks.BackupAndRestore):
    """`keras.callbacks.BackupAndRestore` that is safe with several workers.

    Args:
      backup_dir: where the chief keeps backups; every task reads from it.
      save_freq: "epoch" or a number of batches (as in Keras).
      delete_checkpoint: remove the backups when `fit` ends (Keras's default).
      keep: how many backups to keep (older ones are removed after a newer
        one is published).

    Attributes:
      history: one dict per finished epoch ({"epoch": i, "loss": ...}), including
        the epochs run before a restart.
      restored_epoch: the epoch `fit` resumed at (0 when nothing was restored).
    """

    def __init__(self, backup_dir: str, save_freq: Any = "epoch",
                 delete_checkpoint: bool = True, keep: int = 2):
        super().__init__(files.native(backup_dir), save_freq=save_freq, double_checkpoint=False,
                         delete_checkpoint=delete_checkpoint)
        self.keep = max(1, int(keep))
        self.history: list[dict[str, float]] = []
        self.restored_epoch = 0

    # -- which task writes ----------------------------------------------------

    @property
    def is_writer(self) -> bool:
        task_type, task_index = _task_of(self.model)
        return is_chief_task(task_type, task_index, _has_chief_job(self.model))

    # -- restore ----------------------------------------------------------------

    def latest(self) -> Optional[dict[str, Any]]:
        """The state of the newest complete backup ({"epoch", "batch", "history", "dir"}), or None."""
        unreadable = files.not_found_errors() + (ValueError, KeyError, TypeError)
        candidates = []
        try:
            candidates.append(files.read_json(files.join(self.backup_dir, _LATEST))["dir"])
        except unreadable:
            pass
        if files.isdir(self.backup_dir):  # the pointer is missing or torn: newest complete one
            candidates += sorted((name for name in files.listdir(self.backup_dir)
                                  if name.startswith("epoch-")), reverse=True)
        for name in candidates:
            directory = files.join(self.backup_dir, name)
            try:
                state = files.read_json(files.join(directory, _STATE))
            except unreadable:
                continue
            if files.exists(files.join(directory, _WEIGHTS)):
                state["dir"] = directory
                return state
        return None

    def on_train_begin(self, logs=None):
        self._load_model()

    def _load_model(self):
        if not self.model.built:
            raise ValueError(
                "To use the BackupAndRestore callback, the model must be built before "
                f"fit() (call it on a batch, or model.build(shape)). Received an unbuilt "
                f"model: {self.model}")
        state = self.latest()
        if state is None:
            return
        if self.model.optimizer is not None and not self.model.optimizer.built:
            self.model.optimizer.build(self.model.trainable_variables)
        files.load_weights(self.model, files.join(state["dir"], _WEIGHTS))
        self.model._initial_epoch = int(state["epoch"])
        self.restored_epoch = int(state["epoch"])
        self.history = list(state.get("history", []))[: self.restored_epoch]

    # -- save ---------------------------------------------------------------------

    def on_epoch_end(self, epoch, logs=None):
        self.history.append({"epoch": int(epoch), **_plain_logs(logs)})
        super().on_epoch_end(epoch, logs)

    def _save_model(self):
        if not self.is_writer:
            return
        files.makedirs(self.backup_dir)
        name = f"epoch-{self._current_epoch:06d}-batch-{self._last_batch_seen:06d}"
        temporary = files.join(self.backup_dir, f".{name}.tmp-{os.getpid()}")
        files.rmtree(temporary)
        files.makedirs(temporary)
        files.save_weights(self.model, files.join(temporary, _WEIGHTS))
        files.write_json_atomically(files.join(temporary, _STATE), {
            "epoch": self._current_epoch, "batch": self._last_batch_seen,
            "history": self.history})
        files.replace_folder(temporary, files.join(self.backup_dir, name))
        files.write_json_atomically(files.join(self.backup_dir, _LATEST), {"dir": name})
        self._prune(keep_name=name)

    def _prune(self, keep_name: str) -> None:
        names = sorted(name for name in files.listdir(self.backup_dir)
                       if name.startswith("epoch-"))
        for name in names[:-self.keep]:
            if name != keep_name:
                files.rmtree(files.join(self.backup_dir, name))

    def on_train_end(self, logs=None):
        if self.delete_checkpoint and self.is_writer and files.exists(self.backup_dir):
            files.rmtree(self.backup_dir)


class ClusterCheckpoint:
    """`tf.train.CheckpointManager` for multi-worker custom loops.

    The chief writes to `directory`; every other worker writes to a private
    temporary directory that is removed after each save. Every task restores
    from `directory`.

    >>> # ckpt = ClusterCheckpoint(tf.train.Checkpoint(model=m, epoch=epoch_var), "/tmp/ckpt")
    >>> # ckpt.restore()   # -> the path restored, or None
    >>> # ckpt.save()      # call it in every worker
    """

    def __init__(self, checkpoint: Any, directory: str, cluster: Any = None,
                 max_to_keep: int = 2):
        import tensorflow as tf

        if cluster is None and os.environ.get("TF_CONFIG", "").strip():
            cluster = Cluster.from_tf_config()
        resolved = Cluster.coerce(cluster) if cluster is not None else None
        task_type = resolved.task_type if resolved else None
        task_index = resolved.task_index if resolved else None
        directory = files.native(directory)
        self.checkpoint = checkpoint
        self.directory = directory
        self.is_chief = is_chief_task(task_type, task_index,
                                      bool(resolved and resolved.addresses("chief")))
        self.write_directory = directory if self.is_chief else files.join(
            directory, f".{task_type}-{task_index}-tmp")
        self.manager = tf.train.CheckpointManager(checkpoint, self.write_directory,
                                                  max_to_keep=max_to_keep)

    def restore(self) -> Optional[str]:
        """Restores the chief's latest checkpoint, if there is one; returns its path."""
        import tensorflow as tf

        path = tf.train.latest_checkpoint(self.directory)
        if path:
            self.checkpoint.restore(path).expect_partial()
        return path

    def save(self, checkpoint_number: Optional[int] = None) -> str:
        path = self.manager.save(checkpoint_number=checkpoint_number)
        if not self.is_chief:
            files.rmtree(self.write_directory)
        return path
