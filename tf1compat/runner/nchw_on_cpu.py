"""NCHW convolutions and pools on the CPU, for scripts `--device-map` sends down GPU code paths.

A TF1 script that sees GPUs (as under `--device-map 'gpu:*=cpu:*'`) often picks the layout
cuDNN prefers: `data_format='NCHW'`, `channels_first` layers. On a GPU, TensorFlow 1.15 ran
those ops; on a CPU, TensorFlow's own kernels refuse them ("Default MaxPoolingOp only supports
NHWC on device type CPU", "Conv2DCustomBackpropInputOp only supports NHWC") unless oneDNN is
on, whose kernels take NCHW themselves. So where oneDNN is off, `install` makes each NCHW
convolution or pool the script builds the NHWC op between two transposes: the same values
(the kernels compute the same sums, in another memory order), gradients through the
transposes and the NHWC op's own gradient, and the name the script gave the op is the name
of the NCHW result it gets (`pool5:0` for a freeze or `get_tensor_by_name`).
"""

from __future__ import annotations

import functools
import importlib
import inspect
from typing import Any, Callable

from tf1compat.shared import patches, tf_internals

TO_NHWC = (0, 2, 3, 1)
TO_NCHW = (0, 3, 1, 2)
# The generated op functions wrapped, each with its arguments laid out per dimension (NCHW
# order, to be given in NHWC order) and the argument holding the NCHW input.
WRAPPED = {
    "conv2d": ("input", ("strides", "dilations"), ("explicit_paddings",)),
    "depthwise_conv2d_native": ("input", ("strides", "dilations"), ("explicit_paddings",)),
    "max_pool": ("input", ("ksize", "strides"), ("explicit_paddings",)),
    "avg_pool": ("value", ("ksize", "strides"), ()),
    "conv2d_backprop_input": ("out_backprop", ("strides", "dilations"), ("explicit_paddings",)),
}


def needed() -> bool:
    """Whether this process's CPU kernels refuse NCHW (oneDNN is off)."""
    try:
        util_port = tf_internals.resolve(tf_internals.ONEDNN_STATUS, "IsMklEnabled")
    except tf_internals.MissingInternalError:
        return True
    return not util_port()


def install() -> None:
    """The registry's change "tf.nchw-on-cpu" (once; undone with the run's other patches)."""
    patches.apply("tf.nchw-on-cpu", _wrap_kernels)


def _wrap_kernels() -> tuple[None, Callable[[], None]]:
    gen_nn_ops = importlib.import_module(tf_internals.NCHW_KERNELS.module)
    originals = {name: tf_internals.resolve(tf_internals.NCHW_KERNELS, name) for name in WRAPPED}
    for name, original in originals.items():
        setattr(gen_nn_ops, name, as_nhwc(original, *WRAPPED[name]))

    def undo() -> None:
        for name, original in originals.items():
            setattr(gen_nn_ops, name, original)

    return None, undo


def _permuted(values: Any) -> Any:
    """A per-dimension list in NCHW order ([1, 1, 2, 2]) in NHWC order ([1, 2, 2, 1])."""
    if values is None or len(values) not in (4, 8):
        return values
    step = len(values) // 4  # explicit paddings: two numbers a dimension
    parts = [list(values[i * step:(i + 1) * step]) for i in range(4)]
    return [value for index in TO_NHWC for value in parts[index]]


def as_nhwc(original: Callable[..., Any], tensor: str, per_dimension: tuple[str, ...],
            paddings: tuple[str, ...]) -> Callable[..., Any]:
    """`original` (a generated op function) building its NCHW ops as NHWC ones."""
    signature = inspect.signature(original)

    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(*args, **kwargs)
        layout = bound.arguments.get("data_format", "NHWC")
        if (layout.decode() if isinstance(layout, bytes) else layout) != "NCHW":
            return original(*args, **kwargs)
        import tensorflow as tf

        arguments = dict(bound.arguments)
        arguments["data_format"] = "NHWC"
        arguments[tensor] = tf.transpose(arguments[tensor], TO_NHWC)
        for name in per_dimension + paddings:
            if name in arguments:
                arguments[name] = _permuted(arguments[name])
        if "input_sizes" in arguments:  # the NCHW shape of the input a gradient is for
            arguments["input_sizes"] = tf.gather(arguments["input_sizes"], TO_NHWC)
        name = arguments.get("name")
        if name:  # the script's name goes to what it gets: the result, in its layout
            arguments["name"] = f"{name}_nhwc"
        return tf.transpose(original(**arguments), TO_NCHW, name=name)

    return wrapper
