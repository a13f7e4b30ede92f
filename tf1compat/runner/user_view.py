"""The TF1 view a script under `tf1compat run` gets, opened in this process.

For tools that hold what `run` serves against something else (the surface probe):
the choices `bootstrap` makes before a script starts (legacy Keras, TF1 behaviour)
and the same import hook, with source run as the lines of a user script run:
`import tensorflow as tf` gets the TF1 module, `from tensorflow.contrib import slim`
is served as under `run`, `import tensorflow.python.ops.nn_ops` is the real module.
Nothing is installed process-wide: the hook is the `__import__` of the source's own
builtins. The session and device hooks of `run` are left out: they change what a
session does, not which names there are (the session hook keeps `__wrapped__`, so
signatures read through it are TensorFlow's).
"""

from __future__ import annotations

import builtins
import os
import tempfile
from typing import Any, Optional

from tf1compat.runner import shim
from tf1compat.runner.bootstrap import prepare_environment


class UserView:
    """Runs source as a user script under `run` would run it."""

    def __init__(self, hook: shim.ImportHook, script: str):
        self.hook = hook
        self.script = script
        self._builtins = dict(vars(builtins), __import__=hook)

    @property
    def tf1(self) -> shim.TF1Module:
        """What `import tensorflow as tf` gives a user script."""
        return self.hook.tf1

    def namespace(self) -> dict[str, Any]:
        """Fresh globals of a user script (its `__file__` is under a user root)."""
        return {"__name__": "__main__", "__file__": self.script,
                "__builtins__": self._builtins}

    def run(self, source: str, namespace: Optional[dict[str, Any]] = None) -> dict[str, Any]:
        """Runs `source` as lines of a user script; returns the namespace it ran in.

        Raises what the source raises (a name `run` does not serve raises the error
        a script would see).
        """
        namespace = self.namespace() if namespace is None else namespace
        exec(compile(source, self.script, "exec"), namespace)  # noqa: S102 - the caller's source
        return namespace


def open_view() -> UserView:
    """The view, after the same preparation as `bootstrap` (call it before TensorFlow loads,
    so that legacy Keras can be chosen)."""
    legacy_keras = prepare_environment()
    import tensorflow as tf

    from tf1compat.shared import tf_internals

    with tf_internals.quiet_deprecations():
        tf.compat.v1.disable_v2_behavior()
    folder = os.path.join(tempfile.gettempdir(), "tf1compat-user-view")
    tf1 = shim.TF1Module(tf.compat.v1, "", legacy_keras=legacy_keras is not None)
    hook = shim.ImportHook(tf1, user_roots=[folder])
    return UserView(hook, os.path.join(folder, "script.py"))
