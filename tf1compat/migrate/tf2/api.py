"""The TF1 calls `--to tf2` knows: same-named TF2 ops, renames, losses, layers, optimizers.

A call not listed here is not guessed at: the block that uses it is left to the
tf1compat pipeline and the report names the call.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Optional

import libcst as cst

# TF1 names whose TF 2 namesake computes the same values.
SAME = frozenset("""
matmul add add_n subtract multiply divide transpose square sqrt exp log abs maximum minimum
reduce_mean reduce_sum reduce_max reduce_min equal not_equal greater less argmax argmin cast
constant zeros ones zeros_like ones_like reshape concat stack identity tanh sigmoid shape
expand_dims split
float16 float32 float64 int32 int64 bool string device
nn.relu nn.relu6 nn.tanh nn.sigmoid nn.softmax nn.log_softmax nn.sigmoid_cross_entropy_with_logits
nn.softmax_cross_entropy_with_logits nn.sparse_softmax_cross_entropy_with_logits nn.bias_add
nn.l2_loss math.log math.exp executing_eagerly nn.softplus nn.softsign nn.elu nn.selu nn.leaky_relu
train.Coordinator errors.OpError errors.OutOfRangeError errors.InvalidArgumentError
errors.NotFoundError
""".split())

# tf.data names whose TF 2 namesake is the same API; TF1's iterator constructors are not
# (TF 2 iterates a dataset in Python).
DATA_KEPT_OUT = frozenset({"data.Iterator", "data.make_one_shot_iterator",
                           "data.make_initializable_iterator", "data.get_output_types",
                           "data.get_output_shapes", "data.get_output_classes"})


@functools.lru_cache(maxsize=None)
def same_object_in_tf2(v1: str) -> bool:
    """Whether TF 2.21 exports one object as both `tf.compat.v1.<v1>` and `tf.<v1>` (`nn.softplus`,
    `sin`, `clip_by_value`): TensorFlow's own API says the TF1 function is the TF 2 one. A
    class (`tf.Variable` is not even that) and a module are not taken: only functions."""
    import inspect

    import tensorflow as tf

    if v1 in _GRAPH_CONTROL:
        return False
    found = []
    for root in (tf.compat.v1, tf):
        value = root
        try:
            for part in v1.split("."):
                value = getattr(value, part)
        except AttributeError:
            return False
        found.append(value)
    if found[0] is not found[1] or not inspect.isfunction(inspect.unwrap(found[0])):
        return False
    # and TF 1.15's own function took the same parameters (TF 2.21's top_k, the same object
    # in both APIs, has `index_type` where TF 1.15's had `name`)
    from tf1compat.migrate.rules.tf115_positions import tf115_parameters
    from tf1compat.surface import compare, reading

    theirs = tf115_parameters(f"tf.{v1}")
    ours = reading.describe(found[1]).get("parameters")
    return theirs is not None and ours is not None and \
        compare.signature_difference(theirs, ours) is None


# Same objects in both APIs that order a TF1 graph rather than compute values: a step function
# orders its ops itself.
_GRAPH_CONTROL = frozenset({"control_dependencies", "group", "no_op", "tuple"})


def is_same_data_name(v1: str) -> bool:
    return v1.startswith("data.") and v1 not in DATA_KEPT_OUT


# TF 2 names the rules write (seen again when a rewritten statement is read).
TF2_NAMES = frozenset({"function", "GradientTape", "Variable", "TensorSpec",
                       "config.list_logical_devices",
                       "random.set_seed", "random.normal", "random.uniform",
                       "random.truncated_normal", "math.squared_difference",
                       "nest.map_structure"})

# TF1 name -> its TF 2 name (same arguments, same values).
RENAMED = {
    "nn.softmax_cross_entropy_with_logits_v2": "nn.softmax_cross_entropy_with_logits",
    "set_random_seed": "random.set_seed",
    "random_normal": "random.normal",
    "random_uniform": "random.uniform",
    "truncated_normal": "random.truncated_normal",
    "squared_difference": "math.squared_difference",
    "to_float": None,  # no TF 2 namesake: written as a cast below
}

# TF1 names TF 2 has no class for, served to TF2 code by `modern` (the same object tf1compat
# serves TF1 code): TF1 name -> its name in `modern`.
MODERN = {"contrib.training.HParams": "HParams"}

# TF1 modules whose names tf_upgrade_v2's own tables move to TF 2 ones taking the same
# arguments (with the keyword renames it lists): `tf.gfile.Glob(filename)` ->
# `tf.io.gfile.glob(pattern)`. Its compat.v1 targets (`FastGFile`) are not TF 2 names.
UPGRADE_TABLE_MODULES = ("gfile.",)


def upgraded(v1: str) -> Optional[tuple[str, dict[str, str]]]:
    """(TF 2 name, {TF1 keyword: TF 2 keyword}) from tf_upgrade_v2's tables for a name of
    `UPGRADE_TABLE_MODULES`, or None."""
    if not v1.startswith(UPGRADE_TABLE_MODULES):
        return None
    from tf1compat.migrate.upgrade_v2 import keyword_renames, renamed_to

    target = renamed_to(f"tf.{v1}")
    if not target or not target.startswith("tf.") or target.startswith("tf.compat."):
        return None
    return target[len("tf."):], keyword_renames(f"tf.{v1}")


# TF1 initializer -> the Keras initializer with the same distribution (the random values
# differ: TF 2 draws from another generator; compare starts both sides from one checkpoint).
INITIALIZERS = {
    "glorot_uniform_initializer": "keras.initializers.GlorotUniform",
    "glorot_normal_initializer": "keras.initializers.GlorotNormal",
    "zeros_initializer": "keras.initializers.Zeros",
    "ones_initializer": "keras.initializers.Ones",
    "constant_initializer": "keras.initializers.Constant",
    "random_normal_initializer": "keras.initializers.RandomNormal",
    "random_uniform_initializer": "keras.initializers.RandomUniform",
    "truncated_normal_initializer": "keras.initializers.TruncatedNormal",
}

# tf.layers.dense keywords Keras' Dense takes under the same name and meaning.
DENSE_KEYWORDS = frozenset({"activation", "use_bias", "kernel_initializer", "bias_initializer",
                            "kernel_regularizer", "bias_regularizer", "trainable"})
_CONV_KEYWORDS = DENSE_KEYWORDS | {"strides", "padding", "data_format", "dilation_rate"}
_POOL_KEYWORDS = frozenset({"strides", "padding", "data_format"})


@dataclasses.dataclass(frozen=True)
class LayerRule:
    """A `tf.layers` function -> the Keras layer TF1's layer object was: its TF1 positional
    parameters, those written by position in the Keras call (its own leading ones), the
    keywords both take under the same name and meaning, and TF1's default name (TF1 names
    unnamed layers conv2d, conv2d_1, ... per kind, in creation order)."""

    keras: str
    positional: tuple[str, ...]
    leading: tuple[str, ...]
    keywords: frozenset[str]
    default_name: str


WEIGHTLESS_LAYERS = frozenset({"MaxPooling2D", "AveragePooling2D", "Flatten"})
LAYERS = {
    "layers.dense": LayerRule("Dense", ("inputs", "units", "activation", "use_bias",
                                        "kernel_initializer", "bias_initializer"),
                              ("units",), DENSE_KEYWORDS, "dense"),
    "layers.conv2d": LayerRule("Conv2D", ("inputs", "filters", "kernel_size", "strides",
                                          "padding", "data_format", "dilation_rate",
                                          "activation", "use_bias", "kernel_initializer",
                                          "bias_initializer"),
                               ("filters", "kernel_size"), _CONV_KEYWORDS, "conv2d"),
    "layers.max_pooling2d": LayerRule("MaxPooling2D", ("inputs", "pool_size", "strides",
                                                       "padding", "data_format"),
                                      ("pool_size",), _POOL_KEYWORDS, "max_pooling2d"),
    "layers.average_pooling2d": LayerRule("AveragePooling2D", ("inputs", "pool_size",
                                                               "strides", "padding",
                                                               "data_format"),
                                          ("pool_size",), _POOL_KEYWORDS, "average_pooling2d"),
    "layers.flatten": LayerRule("Flatten", ("inputs",), (), frozenset({"data_format"}),
                                "flatten"),
}

# TF1 optimizer -> (Keras optimizer, {TF1 keyword: Keras keyword}, TF1 positional order,
# keywords TF1 defaults differently from Keras, written out).
OPTIMIZERS = {
    "train.GradientDescentOptimizer": ("SGD", {"learning_rate": "learning_rate"},
                                       ("learning_rate",), {}),
    # The same formula as TF1's Adam (epsilon-hat form); TF1's epsilon is 1e-8, Keras' 1e-7.
    "train.AdamOptimizer": ("Adam", {"learning_rate": "learning_rate", "beta1": "beta_1",
                                     "beta2": "beta_2", "epsilon": "epsilon"},
                            ("learning_rate", "beta1", "beta2", "epsilon"),
                            {"learning_rate": "0.001", "epsilon": "1e-08"}),
    # TF1 accumulates gradients and scales by the rate when applying, Keras' SGD scales
    # first: the same steps while the learning rate is constant (a literal here).
    "train.MomentumOptimizer": ("SGD", {"learning_rate": "learning_rate",
                                        "momentum": "momentum", "use_nesterov": "nesterov"},
                                ("learning_rate", "momentum", "use_locking", "name",
                                 "use_nesterov"), {}),
}
# Left as is and why: their Keras namesakes compute another update.
OPTIMIZERS_KEPT = {
    "train.RMSPropOptimizer": "TF1's RMSProp starts its mean square at 1.0 and adds epsilon "
                              "(1e-10) inside the square root; Keras' starts at 0 and adds it "
                              "outside",
    "train.AdagradOptimizer": "TF1's Adagrad starts its accumulator at 0.1 and has no "
                              "epsilon; Keras' adds epsilon 1e-7",
}


def tf_attribute(alias: str, dotted: str) -> cst.BaseExpression:
    """'nn.relu' -> the expression `tf.nn.relu` under the file's alias."""
    return cst.parse_expression(f"{alias}.{dotted}")


def is_literal(node: cst.BaseExpression) -> bool:
    """A number, string, True/False/None, or a unary minus on a number."""
    if isinstance(node, (cst.Integer, cst.Float, cst.SimpleString)):
        return True
    if isinstance(node, cst.Name) and node.value in ("True", "False", "None"):
        return True
    return isinstance(node, cst.UnaryOperation) and is_literal(node.expression)


def keyword_arguments(call: cst.Call, positional: tuple[str, ...]
                      ) -> Optional[dict[str, cst.BaseExpression]]:
    """The call's arguments by keyword (positional ones named by `positional`); None when
    it has * or ** arguments or more positionals than named."""
    named: dict[str, cst.BaseExpression] = {}
    index = 0
    for arg in call.args:
        if arg.star:
            return None
        if arg.keyword is None:
            if index >= len(positional):
                return None
            named[positional[index]] = arg.value
            index += 1
        else:
            named[arg.keyword.value] = arg.value
    return named
