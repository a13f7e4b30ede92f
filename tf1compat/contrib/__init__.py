"""`tf1compat.contrib`: what TF 1.x scripts used most from `tf.contrib`, on TF 2.21.

`tf1compat.contrib.layers.flatten`, `tf1compat.contrib.rnn.BasicLSTMCell`,
`tf1compat.contrib.seq2seq.sequence_loss`, `tf1compat.contrib.slim`, ... stand
where `tf.contrib.*` stood. What each name is (mapped to its TF2 home,
replaced here, or unsupported with the replacement to use) is one table,
`tf1compat.contrib.registry`, read by `tf1compat run` and `tf1compat migrate`.
Any other name raises `ContribError` naming it and its replacement, if known.

>>> import tf1compat.contrib as contrib
>>> contrib.layers.flatten.__name__
'flatten'
"""

from __future__ import annotations

from typing import Any

from tf1compat.contrib import finder, tf115_code
from tf1compat.contrib.registry import ContribError, hint, is_namespace, namespace_module

finder.install()  # tf1compat.contrib.X.python... imports, as `migrate` writes them
# TF 1.15's own contrib modules, importable by name in any process (a class's __module__, as
# pickle and a saved object name it); TF 1.15's source is fetched only when one is imported
tf115_code.install()

__all__ = ["ContribError"]


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    if is_namespace(name):
        return namespace_module(name)
    raise ContribError(name, hint(name))
