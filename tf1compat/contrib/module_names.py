"""The modules TF 1.15's contrib namespaces held as attributes, served as TF1 code read them.

TF 1.15's contrib packages star-imported their implementation modules, so `tf.contrib.slim`
also held `init_ops`, `variables`, `math_ops` and 71 more (`slim.init_ops.zeros_initializer()`
in TF1 code). `tf115_module_names.json` lists them, made under TF 1.15 by
tests/tf1_reference/tf115_contrib_module_names.py; a name the contrib table does not know is
looked up there: a TensorFlow module is TF 2.21's module of that path seen through
`private_views` (TF1's names that moved are served), a contrib module is tf1compat's.
"""

from __future__ import annotations

import functools
import os
from typing import Any, Optional

from tf1compat.contrib import digested

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf115_module_names.json")
REGENERATE = ("python tests/tf1_reference/tf115_contrib_module_names.py > "
              "tf1compat/contrib/tf115_module_names.json (under the TF 1.15 reference)")


@functools.lru_cache(maxsize=1)
def table() -> dict[str, dict[str, str]]:
    return digested.load(DATA, "namespaces", REGENERATE)


def module_of(name: str) -> Optional[str]:
    """'slim.init_ops' -> 'tensorflow.python.ops.init_ops' (TF 1.15's), or None."""
    namespace, _, attribute = name.rpartition(".")
    return table().get(namespace, {}).get(attribute)


def serve_tensorflow_module(module: str) -> Any:
    """What TF1 code gets for TF 1.15's `tensorflow.*` module `module` (a contrib one is the
    registry's): TF 2.21's, as TF1 code read it (ImportError where TF 2.21 lacks it)."""
    from tf1compat.contrib.private_views import view_of

    return view_of(module)
