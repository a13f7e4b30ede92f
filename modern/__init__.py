"""modern: TF1 session options, done the TF2 way.

`modern.configure(growth=True)` applies what `tf1compat.session(growth=True)`
asks for, with `tf.config` calls in the order TF2 needs; `modern.plan` returns
those calls without running them and `modern.explain` prints them as code.
Importing this package does not import TensorFlow; once the program imports
it, `hdfs://` paths work (`tf1compat.hdfs.on_import`).
"""

from __future__ import annotations

from tf1compat.hdfs.on_import import register_after_tensorflow_import
from tf1compat.shared.lazy_exports import lazy_exports

from modern import runtime as _runtime

_runtime.install_watch()
register_after_tensorflow_import()

_EXPORTS = {
    "SessionOptions": "tf1compat.shared.options",
    "configure": "modern.config",
    "explain": "modern.config",
    "ConfigureReport": "modern.config",
    "plan": "modern.planning",
    "Status": "modern.planning",
    "Inventory": "modern.inventory",
    "memory_limit_mib": "modern.inventory",
    "Placement": "tf1compat.shared.placement",
    "RuntimeAlreadyInitializedError": "tf1compat.shared.errors",
    "slurm_cluster_resolver": "modern.slurm",
    "HParams": "tf1compat.shared.hparams",
}

__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports('modern', globals(), _EXPORTS)
