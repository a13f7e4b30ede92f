"""hdfs:// in every program that imports tf1compat or modern, once TensorFlow is imported.

`import tf1compat` (or `import modern`) arranges, without importing TensorFlow,
for `ensure_registered()` to run right after `import tensorflow` finishes (or at
once, when TensorFlow was imported first). Registering the plugin loads a shared
object and starts no TensorFlow runtime, so device options (`modern.configure`)
can still be set afterwards.

Quiet when there is nothing to register (the plugin was not built, or
TF1COMPAT_HDFS_PLUGIN=0): programs that never use hdfs:// see no warning, and
the explicit `ensure_registered()` and the pipelines still say what is missing.
"""

from __future__ import annotations

import os

from tf1compat.shared import import_watch

_arranged = False


def register_if_built(_module=None) -> bool:
    """Registers hdfs:// when the plugin is built and not disabled; False otherwise."""
    from tf1compat.hdfs import plugin

    path = plugin.plugin_path()
    if plugin.plugin_disabled() or path is None or not os.path.exists(path):
        return False
    return plugin.ensure_registered()


def register_after_tensorflow_import() -> None:
    """Registers hdfs:// once `tensorflow` is imported (now, if it already is). Idempotent."""
    global _arranged
    if _arranged:
        return
    _arranged = True
    import_watch.when_imported("tensorflow", register_if_built)
