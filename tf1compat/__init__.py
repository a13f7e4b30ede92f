"""tf1compat: TensorFlow 1 session code on TensorFlow 2.21.

`tf1compat.session(growth=True)` gives a `tf.compat.v1.Session` with the
ConfigProto options of a TF1 script; `modern.configure(growth=True)` applies
the same options the TF2 way. Importing this package does not import
TensorFlow: each name below is loaded on first use. Once the program imports
TensorFlow (before or after this package), `hdfs://` paths work in it
(`tf1compat.hdfs.on_import`). In IPython, `%load_ext tf1compat` serves TF1 to
the notebook's cells (`tf1compat.notebook`).
"""

from __future__ import annotations

from tf1compat.hdfs.on_import import register_after_tensorflow_import
from tf1compat.shared.lazy_exports import lazy_exports

register_after_tensorflow_import()

__version__ = "0.1.0"

_EXPORTS = {
    "SessionOptions": "tf1compat.shared.options",
    "JitLevel": "tf1compat.shared.options",
    "session": "tf1compat.compat_session",
    "config_proto": "tf1compat.compat_session",
    "tf1_module": "tf1compat.runner.outside_run",
    "test_argv": "tf1compat.shared.test_flags",
    "GpuOptionsIgnoredWarning": "tf1compat.compat_session",
    "Placement": "tf1compat.shared.placement",
    "Tf1CompatError": "tf1compat.shared.errors",
    "OptionError": "tf1compat.shared.errors",
    "UnmappedConfigError": "tf1compat.shared.errors",
    "DeviceError": "tf1compat.shared.errors",
    "RuntimeAlreadyInitializedError": "tf1compat.shared.errors",
}

__all__ = sorted(_EXPORTS)


def load_ipython_extension(ipython) -> None:
    """`%load_ext tf1compat`: the notebook's own code gets TF1 from that cell on
    (tf1compat.notebook.extension; TensorFlow is imported then, not before)."""
    from tf1compat.notebook.extension import load

    load(ipython)
__getattr__, __dir__ = lazy_exports('tf1compat', globals(), _EXPORTS)
