"""`tf.function` with TF 1.15's parameters, under `run` and as `tf.contrib.eager.function`.

TF 2.21 put `jit_compile` fourth, before TF 1.15's experimental_autograph_options. This
function has TF 1.15's parameters in its order, then TF 2.21's added ones keyword-only, and
passes TF 1.15's `experimental_compile` and `experimental_relax_shapes` on as their TF 2.21
successors, `jit_compile` and `reduce_retracing`, every argument by keyword to TF 2.21's
own `tf.function`. Every other name whose parameters TF 2.21 changed (`tf.matmul`,
`tf.shape`, `tf.nn.top_k`, ...) is served by `tf115_signatures` from TF 1.15's recorded
signature.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Optional

import tensorflow as tf

_v1 = tf.compat.v1


def function(func=None, input_signature=None, autograph=True,
             experimental_autograph_options=None, experimental_relax_shapes=False,
             experimental_compile=None, *, jit_compile=None, reduce_retracing=False,
             experimental_implements=None, experimental_attributes=None,
             experimental_follow_type_hints=None):
    # TF 2.21 put jit_compile fourth; its own renames of TF 1.15's last two are taken here
    return tf.function(func, input_signature=input_signature, autograph=autograph,
                       jit_compile=experimental_compile if jit_compile is None else jit_compile,
                       reduce_retracing=reduce_retracing or bool(experimental_relax_shapes),
                       experimental_implements=experimental_implements,
                       experimental_autograph_options=experimental_autograph_options,
                       experimental_attributes=experimental_attributes,
                       experimental_follow_type_hints=experimental_follow_type_hints)


# `tf.<path>` -> the function with TF 1.15's parameters (the paths TF 1.15 gave one function).
SERVED: dict[str, Callable] = {"function": function}


@functools.lru_cache(maxsize=None)
def _documented(path: str) -> Callable:
    served = SERVED[path]
    target: Any = _v1
    for part in path.split("."):
        target = getattr(target, part)
    # TF 2.21's docstring, not its signature (no __wrapped__: that would show TF 2.21's).
    served.__doc__ = getattr(target, "__doc__", None)
    return served


def serve(path: str) -> Optional[Callable]:
    """The function `tf.<path>` is under `run` when its TF 1.15 parameters differ, else None."""
    if path not in SERVED:
        return None
    return _documented(path)
