"""Placement as data for TF2 code: which op of a function (or eager code) ran where.

TensorFlow records the partition graphs of a function, every node with its
device, when the function is instantiated, which happens once per trace. So
`run` calls the code as a new `tf.function` (a fresh copy when it is one
already) with run metadata on, and reads those graphs: the placement is
TF's own, after soft placement and Grappler. The same metadata holds each
function's graph before optimization, the ops as the user wrote them, so an
op Grappler or oneDNN fused into another node is reported on that node's
device, saying so (see `tf1compat.shared.written_ops`).

It returns the same `Placement` object as `tf1compat.placement.run` does for
a session, so the two worlds are checked with one set of assertions.
"""

from __future__ import annotations

from typing import Any, Callable

from tf1compat.shared.placement import PlacedOp, Placement, short_device

__all__ = ["Placement", "PlacedOp", "run", "short_device", "tensor_device"]


def _fresh_function(fn: Callable) -> Callable:
    import tensorflow as tf

    python_function = getattr(fn, "python_function", None)
    if python_function is None:
        return tf.function(fn)
    keywords = {}
    signature = getattr(fn, "input_signature", None)
    if signature is not None:
        keywords["input_signature"] = signature
    jit = getattr(fn, "_jit_compile", None)
    if jit is not None:
        keywords["jit_compile"] = jit
    return tf.function(python_function, **keywords)


def run(fn: Callable, *args: Any, **kwargs: Any):
    """Calls `fn(*args, **kwargs)` as a new tf.function and returns (result, Placement).

    Args:
      fn: a `tf.function`, or a Python callable made of TF ops (eager code,
        a Keras model or layer call).
      *args, **kwargs: its arguments.

    Returns:
      (what `fn` returns, the `Placement` of every node that ran).

    Raises:
      DeviceError: an op asks for a device that does not exist and soft
        placement is off; the message lists the devices that exist.

    Note:
      A fresh copy of `fn` is traced: Python side effects inside it happen
      once more, as on any retrace.
    """
    from tf1compat.shared import tf_internals

    tf_internals.require(tf_internals.RUN_METADATA)
    from tensorflow.python.eager import context

    function = _fresh_function(fn)
    from tf1compat.shared.device_errors import tf2_checked

    context.enable_run_metadata()
    try:
        result = tf2_checked(function)(*args, **kwargs)
        metadata = context.export_run_metadata()
    finally:
        context.disable_run_metadata()
    return result, Placement.merged(
        Placement.from_graph_defs(graphs.partition_graphs, str(number),
                                  written_graph=graphs.pre_optimization_graph)
        for number, graphs in enumerate(metadata.function_graphs))


def tensor_device(tensor: Any) -> str:
    """Where an eager tensor lives, short form ('CPU:1')."""
    return short_device(tensor.device)
