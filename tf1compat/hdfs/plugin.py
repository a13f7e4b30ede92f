"""Finding and registering the hdfs:// TensorFlow filesystem plugin.

TensorFlow 2.21 has no hdfs:// support of its own ("File system scheme 'hdfs' not
implemented"). `pip install` builds `native/hdfs_plugin` (Rust, hdfs-native) into this
package as a shared object when cargo is available; `ensure_registered()` hands it to
`tf.experimental.register_filesystem_plugin`, after which `tf.io.gfile`, `TextLineReader`
and `tf.data.TextLineDataset` read `hdfs://host:port/path` unchanged.

Environment:
  TF1COMPAT_HDFS_PLUGIN=0        never load the plugin (forces the pure-Python fallback)
  TF1COMPAT_HDFS_PLUGIN_PATH=... load this .so instead of the one built into the package
"""

from __future__ import annotations

import ctypes
import glob
import os
import shutil
import threading
import warnings

from tf1compat.shared.errors import HdfsPluginWarning, OptionError

PLUGIN_ENV = "TF1COMPAT_HDFS_PLUGIN"
PLUGIN_PATH_ENV = "TF1COMPAT_HDFS_PLUGIN_PATH"
SCHEMES = ("hdfs", "viewfs")  # the plugin registers both at once

_lock = threading.Lock()
_state: dict = {"registered": False, "error": None, "warned": False}


def plugin_path() -> str | None:
    """Path of the plugin shared object, or None when it was not built.

    `TF1COMPAT_HDFS_PLUGIN_PATH` wins; otherwise the file setuptools-rust put next to
    this module (`tf1compat_hdfs*.so`; its exact suffix depends on the build tool).
    """
    override = os.environ.get(PLUGIN_PATH_ENV)
    if override:
        return override
    here = os.path.dirname(os.path.abspath(__file__))
    found = sorted(glob.glob(os.path.join(here, "*tf1compat_hdfs*.so")))
    return found[0] if found else None


def plugin_disabled() -> bool:
    """True when TF1COMPAT_HDFS_PLUGIN is set to 0/false/no/off."""
    return os.environ.get(PLUGIN_ENV, "").strip().lower() in ("0", "false", "no", "off")


def _missing_reason() -> str:
    if plugin_disabled():
        return f"the hdfs plugin is disabled by {PLUGIN_ENV}={os.environ[PLUGIN_ENV]!r}; unset it to use it"
    override = os.environ.get(PLUGIN_PATH_ENV)
    if override:
        return f"{PLUGIN_PATH_ENV}={override!r} does not exist; point it at a built libtf1compat_hdfs.so"
    if shutil.which("cargo") is None:
        return (
            "the hdfs plugin was not built: cargo (Rust) was not found at install time; "
            "install Rust (https://rustup.rs) and reinstall with `pip install -e '.[test]'`"
        )
    return (
        "the hdfs plugin was not built although cargo is on PATH now; reinstall with "
        "`pip install -v -e .` and look for errors building tf1compat.hdfs.tf1compat_hdfs"
    )


def _warn_once(message: str) -> None:
    if not _state["warned"]:
        _state["warned"] = True
        warnings.warn(message, HdfsPluginWarning, stacklevel=3)


def ensure_registered(scheme: str = "hdfs") -> bool:
    """Registers the hdfs:// (and viewfs://) TensorFlow filesystem once per process.

    Idempotent and thread-safe. Imports TensorFlow on first call (not at import time).

    Args:
      scheme: "hdfs" or "viewfs"; both are registered together.

    Returns:
      True when TensorFlow can now open `scheme://` paths; False (after one warning
      naming what is missing and how to get it) when the plugin is disabled, was not
      built, or fails to load.

    Raises:
      OptionError: `scheme` is not one the plugin provides.

    >>> from tf1compat.hdfs import ensure_registered
    >>> ensure_registered("s3")
    Traceback (most recent call last):
    ...
    tf1compat.shared.errors.OptionError: invalid scheme: received scheme='s3'; accepted: 'hdfs' or 'viewfs'
    """
    if scheme not in SCHEMES:
        raise OptionError("scheme", scheme, "'hdfs' or 'viewfs'")
    with _lock:
        if _state["registered"]:
            return True
        path = plugin_path()
        if plugin_disabled() or path is None or not os.path.exists(path):
            _state["error"] = _missing_reason()
            _warn_once(_state["error"])
            return False
    # Lazy (importing tf1compat.hdfs must stay cheap), and outside the lock: the first import
    # of TensorFlow runs tf1compat's after-import hook, which registers through this function.
    import tensorflow as tf

    with _lock:
        if _state["registered"]:
            return True
        try:
            tf.experimental.register_filesystem_plugin(path)
        except tf.errors.AlreadyExistsError:
            pass  # registered by an earlier load of the same plugin in this process
        except Exception as e:  # noqa: BLE001 - any load failure means "unavailable"
            _state["error"] = (
                f"the hdfs plugin at {path} failed to load into TensorFlow {tf.__version__}: "
                f"{type(e).__name__}: {e}; rebuild it with `pip install -e .` against this TensorFlow"
            )
            _warn_once(_state["error"])
            return False
        _state["registered"] = True
        _state["error"] = None
        return True


def _plugin_version(path: str) -> str | None:
    """The version string compiled into the plugin (loads the .so, not TensorFlow)."""
    try:
        lib = ctypes.CDLL(path)
        fn = lib.tf1compat_hdfs_plugin_version
        fn.restype = ctypes.c_char_p
        return fn().decode()
    except (OSError, AttributeError):
        return None


def plugin_status() -> dict:
    """A small report for `tf1compat doctor`: is the hdfs:// plugin usable here?

    Returns:
      dict with keys: built (bool), path (str or None), loaded (registered in this
      process), disabled (by TF1COMPAT_HDFS_PLUGIN), plugin_version (includes the Rust
      hdfs-native version), hdfs_native_python (version of the fallback client or
      None), error (why it is unusable, or None).
    """
    from importlib import metadata

    path = plugin_path()
    built = bool(path and os.path.exists(path))
    try:
        py_version = metadata.version("hdfs-native")
    except metadata.PackageNotFoundError:
        py_version = None
    error = _state["error"]
    if error is None and (not built or plugin_disabled()):
        error = _missing_reason()
    return {
        "built": built,
        "path": path,
        "loaded": _state["registered"],
        "disabled": plugin_disabled(),
        "plugin_version": _plugin_version(path) if built else None,
        "hdfs_native_python": py_version,
        "error": error,
    }


def _reset_for_tests() -> None:
    """Forgets the warn-once flag and errors (registration itself cannot be undone)."""
    with _lock:
        _state.update(error=None, warned=False)
