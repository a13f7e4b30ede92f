"""Installed libraries that are TF1 code (tflearn, written for TF 1.x), told apart where they fail.

`run` serves TF1 to user code only: an installed library gets TF 2.21, as it would without
`run` (Keras, tf_slim and the rest are TF 2 code). A library written for TF 1.x then fails at
a TF1 name (`from tensorflow.contrib... import`, `tf.get_variable`), and the fix is the
`--user-root` flag naming its folder: these find the folder to name.
"""

from __future__ import annotations

import os
import re
from typing import Optional

from tf1compat.runner.roots import installed_roots

# Import paths that only TF 1.x had: nothing in TF 2.21 answers them.
TF1_ONLY_PATHS = ("tensorflow.contrib", "tensorflow.examples.tutorials")
_MISSING_TF_NAME = re.compile(r"module 'tensorflow(\.[\w.]+)?' has no attribute '\w+'")


def is_tf1_name_error(error: BaseException) -> bool:
    """Whether `error` is TF 2.21 lacking a TF1 module or name."""
    if isinstance(error, ModuleNotFoundError):
        name = error.name or ""
        return any(name == path or name.startswith(path + ".") for path in TF1_ONLY_PATHS)
    return isinstance(error, AttributeError) and bool(_MISSING_TF_NAME.search(str(error)))


def library_of(filename: str) -> Optional[str]:
    """The top-level folder of the installed package holding `filename`, or None."""
    path = os.path.realpath(filename)
    # the deepest root: a venv's site-packages lies inside its lib/pythonX.Y
    for root in sorted(installed_roots(), key=len, reverse=True):
        if path.startswith(root + os.sep):
            top = path[len(root) + 1:].split(os.sep)[0]
            folder = os.path.join(root, top)
            return folder if os.path.isdir(folder) else None
    return None
