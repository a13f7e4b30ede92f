"""`tf.contrib.eager` (`import tensorflow.contrib.eager as tfe`) on TF 2.21.

Most of TF 1.15's `tfe` was TensorFlow core under another name, and TF 2.21
still has that core: `tfe.Variable` is the resource variable,
`tfe.implicit_gradients` TensorFlow's `backprop.implicit_grad`,
`tfe.run_test_in_graph_and_eager_modes` its test decorator. Those are served
as the same objects. What contrib wrote itself is rewritten here: the
`Iterator` (a tf.data iterator read in sync mode), `tfe.metrics`
(`tf1compat.contrib.eager_metrics`), `tfe.Network`/`tfe.Sequential`
(`tf1compat.contrib.eager_network`), and `defun`, which TF 2.21 dropped
for `tf.function`.

`enable_eager_execution` is TensorFlow's own: called at the top of a
script under `tf1compat run` (which starts scripts in graph mode, as TF1
did), it switches the process to eager, and called after graph ops exist it
raises TF1's error ("must be called at program startup"). TF1 kept its v1
behaviours (v1 shapes, v1 control flow) under eager execution; so does this.

Other names (`tfe.Saver`, the execution callbacks) raise `ContribError`
naming what to use instead.
"""

from __future__ import annotations

from typing import Any

from tf1compat.shared import tf_internals

# One clear error naming what is missing, rather than an ImportError from the lines below.
tf_internals.require_feature("tf.contrib.eager")

from tensorflow.python.data.ops import iterator_ops  # noqa: E402
from tensorflow.python.eager import backprop, context, def_function  # noqa: E402
from tensorflow.python.framework import ops, tensor_spec, test_util  # noqa: E402
from tensorflow.python.ops import custom_gradient as _custom_gradient  # noqa: E402
from tensorflow.python.ops import resource_variable_ops, script_ops, template, variable_scope  # noqa: E402
from tensorflow.python.checkpoint import checkpoint as _checkpoint  # noqa: E402
from tensorflow.python.trackable import autotrackable  # noqa: E402

from tf1compat.contrib import registry  # noqa: E402
from tf1compat.runner import tf115_calls  # noqa: E402

__all__ = [
    "enable_eager_execution", "executing_eagerly", "in_eager_mode", "Variable", "Iterator",
    "implicit_gradients", "implicit_value_and_gradients", "gradients_function",
    "value_and_gradients_function", "GradientTape", "defun", "function", "num_gpus",
    "list_devices", "py_func", "Checkpoint", "Checkpointable", "custom_gradient",
    "make_template", "run_test_in_graph_and_eager_modes", "run_all_tests_in_graph_and_eager_modes",
    "metrics", "Network", "Sequential", "get_optimizer_variables", "EagerVariableStore",
    "TensorSpec", "DEVICE_PLACEMENT_EXPLICIT", "DEVICE_PLACEMENT_WARN", "DEVICE_PLACEMENT_SILENT",
    "SYNC", "ASYNC", "execution_mode", "set_execution_mode", "async_wait", "async_clear_error",
    "run",
]

# TensorFlow core under contrib's names (tensorflow/contrib/eager/python/tfe.py in TF 1.15).
enable_eager_execution = ops.enable_eager_execution
executing_eagerly = context.executing_eagerly
in_eager_mode = context.executing_eagerly
Variable = resource_variable_ops.ResourceVariable
implicit_gradients = backprop.implicit_grad
implicit_value_and_gradients = backprop.implicit_val_and_grad
gradients_function = backprop.gradients_function
value_and_gradients_function = backprop.val_and_grad_function
GradientTape = backprop.GradientTape
function = tf115_calls.function  # TF 1.15's def_function.function: its parameters' order
num_gpus = context.num_gpus
py_func = script_ops.eager_py_func
Checkpoint = _checkpoint.CheckpointV1
Checkpointable = autotrackable.AutoTrackable
custom_gradient = _custom_gradient.custom_gradient
make_template = template.make_template_internal
run_test_in_graph_and_eager_modes = test_util.run_in_graph_and_eager_modes
run_all_tests_in_graph_and_eager_modes = test_util.run_all_in_graph_and_eager_modes
EagerVariableStore = variable_scope.EagerVariableStore
TensorSpec = tensor_spec.TensorSpec
DEVICE_PLACEMENT_EXPLICIT = context.DEVICE_PLACEMENT_EXPLICIT
DEVICE_PLACEMENT_WARN = context.DEVICE_PLACEMENT_WARN
DEVICE_PLACEMENT_SILENT = context.DEVICE_PLACEMENT_SILENT
SYNC = context.SYNC
ASYNC = context.ASYNC
execution_mode = context.execution_mode
set_execution_mode = context.set_execution_mode
async_wait = context.async_wait
async_clear_error = context.async_clear_error
run = ops.eager_run


def list_devices() -> list[str]:
    """The names of the devices eager ops can run on ('/job:localhost/replica:0/task:0/device:CPU:0')."""
    context.ensure_initialized()
    return context.context().devices()


def defun(func=None, input_signature=None, autograph=True, experimental_autograph_options=None,
          experimental_relax_shapes=False):
    """TF1's `tfe.defun`: a Python function compiled into a graph function (TF 2.21's tf.function).

    TF 1.15's defun took the same arguments; `experimental_relax_shapes` is
    tf.function's `reduce_retracing`.
    """
    def wrap(fn):
        return def_function.function(
            fn, input_signature=input_signature, autograph=autograph,
            experimental_autograph_options=experimental_autograph_options,
            reduce_retracing=experimental_relax_shapes)

    return wrap if func is None else wrap(func)


def get_optimizer_variables(optimizer) -> list:
    """The variables a `tf.compat.v1.train.Optimizer` created (its `variables()`)."""
    return optimizer.variables()


class Iterator(iterator_ops.OwnedIterator):
    """contrib's eager iterator over a `tf.data.Dataset`: `next()`, `get_next()`, a Python iterator.

    Made for eager execution (in graph mode TF 1.15 built one too, as TF 2.21's
    iterator does; graph scripts use `dataset.make_one_shot_iterator()`).
    """

    def _next_internal(self):
        # As TF1's: iterators signal their end through an error status, read in sync mode.
        with context.execution_mode(context.SYNC):
            return super()._next_internal()


def __getattr__(name: str) -> Any:
    if name == "metrics":
        from tf1compat.contrib import eager_metrics

        return eager_metrics
    if name in ("Network", "Sequential"):
        from tf1compat.contrib import eager_network

        return getattr(eager_network, name)
    return registry.attribute("eager", name)
