"""TensorFlow, imported when first asked for: `import tf1compat` and `import modern` stay
light, and TensorFlow loads on the first call that needs it."""

from __future__ import annotations

import types


def tensorflow() -> types.ModuleType:
    """The `tensorflow` module (imported on the first call)."""
    import tensorflow as tf

    return tf


def tensorflow_v1() -> types.ModuleType:
    """`tf.compat.v1` (TensorFlow imported on the first call)."""
    return tensorflow().compat.v1
