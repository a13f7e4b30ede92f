"""TF 1.15's parameters for the `tf.*` functions whose signatures TF 2.21 changed, under `run`.

TF 2.21 put new parameters before `name` (`tf.matmul`'s output_type, grad_a and grad_b,
`tf.nn.top_k`'s index_type, `tf.scatter_nd`'s bad_indices_policy; `tf.function`'s jit_compile
before TF 1.15's experimental_autograph_options), so a TF1 call that passes them by position
gives them to other parameters there; and it made None the default of
`tf.shape`'s and `tf.size`'s `out_type`, where TF 1.15's default was `tf.int32`. Under
`run` these names are functions with TF 1.15's parameters, in its order and with its
defaults; the parameters TF 2.21 added come after them, keyword-only. Each passes every
argument by keyword to TF 2.21's own function, so what it computes is TF 2.21's.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Optional

import tensorflow as tf

_v1 = tf.compat.v1


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, name=None, *, output_type=None, grad_a=False,
           grad_b=False):
    return _v1.matmul(a, b, transpose_a=transpose_a, transpose_b=transpose_b,
                      adjoint_a=adjoint_a, adjoint_b=adjoint_b, a_is_sparse=a_is_sparse,
                      b_is_sparse=b_is_sparse, output_type=output_type, grad_a=grad_a,
                      grad_b=grad_b, name=name)


def shape(input, name=None, out_type=tf.int32):  # noqa: A002 - TF's own parameter name
    return _v1.shape(input, name=name, out_type=out_type)


def size(input, name=None, out_type=tf.int32):  # noqa: A002 - TF's own parameter name
    return _v1.size(input, name=name, out_type=out_type)


def top_k(input, k=1, sorted=True, name=None, *, index_type=tf.int32):  # noqa: A002
    return _v1.nn.top_k(input, k=k, sorted=sorted, index_type=index_type, name=name)


def scatter_nd(indices, updates, shape, name=None, *, bad_indices_policy=""):
    return _v1.scatter_nd(indices, updates, shape, bad_indices_policy=bad_indices_policy,
                          name=name)


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
SERVED: dict[str, Callable] = {
    "matmul": matmul, "linalg.matmul": matmul,
    "shape": shape,
    "size": size,
    "nn.top_k": top_k, "math.top_k": top_k,
    "scatter_nd": scatter_nd,
    "function": function,
}


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
