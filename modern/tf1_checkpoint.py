"""TF1 checkpoints (`model.ckpt-N`, written by `tf.train.Saver`) loaded into TF2 variables and
Keras layers by TF1 variable name (`dense/kernel`, `scope/w`).

A TF1 checkpoint is name-based: `tf.train.Checkpoint.restore` cannot read it into objects, so
each value is read with `tf.train.load_checkpoint` and assigned to the variable of that
name. A variable's TF1 name is its name without `:0` (a `tf.Variable(name="scope/w")`) or,
for a Keras layer's weight, its path (`dense/kernel` of a `Dense(name="dense")`).

Programs written by `tf1compat migrate --to tf2` call `load_initial(...)` where the TF1
script initialized its variables: with `TF1_INIT_CHECKPOINT` set (a checkpoint prefix, or a
folder whose latest checkpoint is taken) they start from that checkpoint's values instead of
their own initializers, which is how `tf1compat compare --migrated-tf2` starts TF 1.15 and
TF2 from the same weights.

Optimizer state in the checkpoint (Adam's slots and beta powers, momentum accumulators) is
not loaded: the Keras optimizer starts its own, as a TF1 optimizer does at step 0.
"""

from __future__ import annotations

import os
import re
from typing import Iterable, Mapping, Optional

from tf1compat.shared.errors import Tf1CompatError
from tf1compat.shared.initial_checkpoint import INIT_CHECKPOINT_VARIABLE


# What TF1 optimizers add beside the variables they train: slots named after the variable
# (`dense/kernel/Adam`, `.../Adam_1`, `.../Momentum`, `.../RMSProp`, `.../Adagrad`) and
# Adam's step-dependent powers.
_OPTIMIZER_STATE = re.compile(
    r"(^|/)(beta1_power|beta2_power)(_\d+)?$|"
    r"/(Adam|Momentum|RMSProp|Adagrad|Adadelta|Ftrl|GradientDescent)(_\d+)?$")


class CheckpointMismatchError(Tf1CompatError, ValueError):
    """The checkpoint's names or shapes are not the program's."""


def checkpoint_path(checkpoint: str) -> str:
    """A checkpoint prefix, or a folder's latest checkpoint; raises naming what was given."""
    import tensorflow as tf

    if os.path.isdir(checkpoint):
        latest = tf.train.latest_checkpoint(checkpoint)
        if latest is None:
            raise CheckpointMismatchError(
                f"TF1 checkpoint {checkpoint}: a folder with no checkpoint (no 'checkpoint' "
                "file naming one); give a prefix such as model.ckpt-0")
        return latest
    if not os.path.exists(checkpoint + ".index"):
        raise CheckpointMismatchError(
            f"TF1 checkpoint {checkpoint}: no {checkpoint}.index; give the prefix a TF1 "
            "Saver wrote (model.ckpt-N, without .index/.data-*) or its folder")
    return checkpoint


def tf1_name(variable) -> str:
    """The name TF1 gave a variable (its op name): a Keras weight's path (`dense/kernel`),
    a tf.Variable's name without `:0` (`scope/w`). TF1 code reads it as `v.op.name`."""
    name = getattr(variable, "path", None) or variable.name
    return name[:-2] if name.endswith(":0") else name


def tf1_names(objects: Iterable) -> dict[str, object]:
    """{TF1 name: variable} of tf.Variables and (built) Keras layers."""
    named: dict[str, object] = {}
    for item in objects:
        weights = getattr(item, "weights", None)
        variables = list(weights) if weights is not None and not hasattr(item, "assign") \
            else [item]
        for variable in variables:
            name = tf1_name(variable)
            if name in named and named[name] is not variable:
                raise CheckpointMismatchError(
                    f"two variables of the program are both named {name!r}: a TF1 checkpoint "
                    "names each variable once (give them the names TF1 gave them)")
            named[name] = variable
    return named


# Keras layers that hold no variables: nothing of theirs is in a checkpoint, built or not.
_WEIGHTLESS = ("MaxPooling2D", "AveragePooling2D", "Flatten", "Dropout")


def _build_layers(objects: Iterable, shapes: Mapping[str, list[int]], checkpoint: str) -> None:
    """Builds each unbuilt Keras layer whose input size the checkpoint's kernel gives
    (Dense: `NAME/kernel` of shape [inputs, units]; Conv2D: [height, width, inputs, filters]),
    as its first call would."""
    for item in objects:
        kind = type(item).__name__
        if hasattr(item, "assign") or getattr(item, "built", True) or kind in _WEIGHTLESS:
            continue
        kernel = shapes.get(f"{item.name}/kernel")
        if kind == "Dense" and kernel is not None and len(kernel) == 2:
            item.build((None, kernel[0]))
        elif kind == "Conv2D" and kernel is not None and len(kernel) == 4:
            channels_first = getattr(item, "data_format", "channels_last") == "channels_first"
            item.build((None, kernel[2], None, None) if channels_first
                       else (None, None, None, kernel[2]))
        else:
            raise CheckpointMismatchError(
                f"TF1 checkpoint {checkpoint}: layer {item.name!r} is not built yet and its "
                "input shape cannot be read from the checkpoint (only a Dense or Conv2D "
                f"layer's {item.name}/kernel can give it); call the layer once first")


def load(checkpoint: str, objects: Iterable) -> list[str]:
    """Assigns every variable of `objects` (tf.Variables, Keras layers) the checkpoint's value
    of the same TF1 name. Returns the names loaded.

    Raises:
      CheckpointMismatchError: no such checkpoint; a variable the checkpoint lacks; a
        checkpoint variable (not optimizer state) the program lacks; a shape that differs.
    """
    import tensorflow as tf

    objects = list(objects)
    path = checkpoint_path(checkpoint)
    shapes = dict(tf.train.list_variables(path))
    _build_layers(objects, shapes, path)
    named = tf1_names(objects)
    missing = sorted(set(named) - set(shapes))
    extra = sorted(name for name in set(shapes) - set(named)
                   if not _OPTIMIZER_STATE.search(name))
    wrong = [f"{name}: checkpoint {shapes[name]}, program {list(named[name].shape)}"
             for name in sorted(set(named) & set(shapes))
             if list(shapes[name]) != list(named[name].shape)]
    if missing or extra or wrong:
        parts = ([f"missing from the checkpoint: {', '.join(missing)}"] if missing else []) + \
            ([f"in the checkpoint, not in the program: {', '.join(extra)}"] if extra else []) + \
            ([f"shapes differ: {'; '.join(wrong)}"] if wrong else [])
        raise CheckpointMismatchError(
            f"TF1 checkpoint {path} does not match the program's variables by TF1 name ("
            + "; ".join(parts) + "); the checkpoint holds: "
            + ", ".join(f"{name} {shape}" for name, shape in sorted(shapes.items())))
    reader = tf.train.load_checkpoint(path)
    for name, variable in named.items():
        variable.assign(reader.get_tensor(name))
    return sorted(named)


def load_initial(objects: Iterable, environ: Optional[Mapping[str, str]] = None
                 ) -> Optional[str]:
    """`load($TF1_INIT_CHECKPOINT, objects)` when the variable is set; the checkpoint loaded,
    or None (the variables keep their initializers' values)."""
    environ = os.environ if environ is None else environ
    checkpoint = environ.get(INIT_CHECKPOINT_VARIABLE)
    if not checkpoint:
        return None
    load(checkpoint, objects)
    return checkpoint


__all__ = ["CheckpointMismatchError", "INIT_CHECKPOINT_VARIABLE", "checkpoint_path", "load",
           "load_initial", "tf1_name", "tf1_names"]
