"""TensorFlow's import in tf1compat's own processes (`run`'s script process, `migrate`) without
its eager load of Keras.

`import tensorflow` ends by importing Keras' optimizers (`keras.src.optimizers`, or
`tf_keras.src.optimizers` when TF_USE_LEGACY_KERAS is set, as under `run`) "so that any
function that needs to happen at load time will trigger", which loads the whole Keras
package: about a quarter of the CPU time a run takes to start, and of `migrate`'s. It is a
try/except ImportError in TensorFlow's `__init__`, and `tf.keras` is a lazy module either way,
so a TF1 script that never touches Keras, and a migration that reads no Keras signature, need
not pay for it. While TensorFlow loads, those two module names are held as None in
`sys.modules` (the import system's own "not importable" mark, which it checks before importing
the parent package); right after, the marks go, and the first `tf.keras`, Keras layer or
`import keras` loads Keras as it would have loaded anyway, with its load-time registrations.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from typing import Iterator

from tf1compat.shared import patches

# What TensorFlow 2.21's __init__ imports eagerly (one of the two, by TF_USE_LEGACY_KERAS).
EAGER_KERAS_MODULES = ("keras.src.optimizers", "tf_keras.src.optimizers")
# The public TensorFlow module names that Keras' own import enters in sys.modules, where code
# can look them up (`sys.modules['tensorflow.compat.v1']`): entered right after TensorFlow
# loads, so the modules a script sees are the same with Keras deferred.
NAMES_KERAS_ENTERS = {False: ("tensorflow.experimental",),
                      True: ("tensorflow.compat.v1.logging", "tensorflow.compat.v2.experimental")}
PATCH = "python.keras-deferred"


def _legacy_keras() -> bool:
    """TensorFlow's own reading of TF_USE_LEGACY_KERAS."""
    return os.environ.get("TF_USE_LEGACY_KERAS", None) in ("true", "True", "1")


def _mark_unimportable():
    marked = [name for name in EAGER_KERAS_MODULES if name not in sys.modules]
    for name in marked:
        sys.modules[name] = None

    def unmark() -> None:
        for name in marked:
            if name in sys.modules and sys.modules[name] is None:
                del sys.modules[name]

    return marked, unmark


@contextlib.contextmanager
def while_tensorflow_loads() -> Iterator[None]:
    """A block in which `import tensorflow` does not load Keras; a no-op once TensorFlow is
    loaded. The marks are gone when the block ends, however it ends."""
    if "tensorflow" in sys.modules:
        yield
        return
    patches.apply(PATCH, _mark_unimportable)
    try:
        yield
    finally:
        patches.undo(PATCH)
    if "tensorflow" in sys.modules:
        for name in NAMES_KERAS_ENTERS[_legacy_keras()]:
            importlib.import_module(name)
