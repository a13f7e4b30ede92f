"""The file operations behind `modern.fault_tolerance`'s backups, on a local folder or on any
filesystem TensorFlow reads (`hdfs://`, `gs://`, `s3://` with their plugins).

Workers on several machines restore from one backup folder, so on a cluster it is usually shared
storage such as `hdfs://`. A local path keeps the POSIX operations (`os.replace`, `fsync`); a
path with a scheme goes through `tf.io.gfile`, where a rename is the filesystem's own (atomic on
HDFS). Keras writes HDF5 weights to local paths only, so remote weights pass through a local
temporary file.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from typing import Any

from tf1compat.shared.csv_files import local_path


def native(path: str) -> str:
    """`path` as the functions here take it: a file:// URL as its local path, any other URL
    (hdfs://namenode:8020/...) as it is."""
    return local_path(path) or path


def is_remote(path: str) -> bool:
    """A URL of a filesystem other than the local one, read through tf.io.gfile."""
    return local_path(path) is None


def _gfile():
    import tensorflow as tf

    return tf.io.gfile


def not_found_errors() -> tuple[type, ...]:
    """What a missing or unreadable backup raises, here and through tf.io.gfile."""
    import tensorflow as tf

    return (OSError, tf.errors.OpError)


def join(folder: str, name: str) -> str:
    return f"{folder.rstrip('/')}/{name}" if is_remote(folder) else os.path.join(folder, name)


def exists(path: str) -> bool:
    return _gfile().exists(path) if is_remote(path) else os.path.exists(path)


def isdir(path: str) -> bool:
    return _gfile().isdir(path) if is_remote(path) else os.path.isdir(path)


def listdir(path: str) -> list[str]:
    if is_remote(path):
        return [name.rstrip("/") for name in _gfile().listdir(path)]
    return os.listdir(path)


def makedirs(path: str) -> None:
    if is_remote(path):
        _gfile().makedirs(path)
    else:
        os.makedirs(path, exist_ok=True)


def rmtree(path: str) -> None:
    """Removes a folder and what it holds; nothing when it is not there."""
    if not is_remote(path):
        shutil.rmtree(path, ignore_errors=True)
    elif _gfile().exists(path):
        _gfile().rmtree(path)


def replace_folder(source: str, target: str) -> None:
    """`source` renamed to `target`, an older `target` removed first."""
    if not is_remote(target):
        if os.path.exists(target):
            shutil.rmtree(target)
        os.replace(source, target)
        return
    rmtree(target)
    _gfile().rename(source, target, overwrite=False)


def read_json(path: str) -> Any:
    if is_remote(path):
        with _gfile().GFile(path) as handle:
            return json.loads(handle.read())
    with open(path) as handle:
        return json.load(handle)


def write_json_atomically(path: str, document: Any) -> None:
    """Written beside `path`, then renamed over it: a reader sees the old or the new whole."""
    temporary = f"{path}.tmp-{os.getpid()}"
    if is_remote(path):
        with _gfile().GFile(temporary, "w") as handle:
            handle.write(json.dumps(document))
        _gfile().rename(temporary, path, overwrite=True)
        return
    with open(temporary, "w") as handle:
        json.dump(document, handle)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def save_weights(model: Any, path: str) -> None:
    if not is_remote(path):
        model.save_weights(path, overwrite=True)
        return
    with tempfile.TemporaryDirectory(prefix="tf1compat-backup-") as local:
        staged = os.path.join(local, os.path.basename(path))
        model.save_weights(staged, overwrite=True)
        _gfile().copy(staged, path, overwrite=True)


def load_weights(model: Any, path: str) -> None:
    if not is_remote(path):
        model.load_weights(path)
        return
    with tempfile.TemporaryDirectory(prefix="tf1compat-backup-") as local:
        staged = os.path.join(local, os.path.basename(path))
        _gfile().copy(path, staged, overwrite=True)
        model.load_weights(staged)
