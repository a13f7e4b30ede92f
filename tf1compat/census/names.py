"""The census's one way of writing a TensorFlow name, and how to find it again.

Every use is first a full dotted path from `tensorflow` (`tensorflow.train.
AdamOptimizer`, `tensorflow.python.framework.graph_util.convert_variables_to_
constants`), whatever the script bound on the way (`import ... as`, `from ...
import`, `slim = tf.contrib.slim`). `canonical` writes that path:

- a path that starts with none of `INTERNAL` and has no `python` part (contrib's
  `tensorflow.contrib.X.python...`) is public API: `tf.` and the path
  (`tf.train.AdamOptimizer`), with `compat.v1.` dropped (TF1's own API), and
  `tf` for the module itself;
- any other is `tensorflow.<all but the last part>:<last part>`
  (`tensorflow.python.framework.graph_util:convert_variables_to_constants`).

`kept` ends a path where it stops naming an API and starts reading a member:
after a class (a part that starts upper-case, `tf.estimator.ModeKeys.TRAIN`
is `tf.estimator.ModeKeys`), after a dtype object (`tf.float32.max` is
`tf.float32`), and before a dunder (`tf.nn.__dict__` is `tf.nn`; the
module's version attributes, `tf.__version__`, are names of their own).

`resolve` finds a name in a TensorFlow module tree (TensorFlow 1.15 for the
surface probe); it runs on Python 3.7.
"""

from __future__ import annotations

# First parts that are the source tree, not the public API: `tensorflow.python...`,
# `tensorflow.core.protobuf...`, `tensorflow.examples...`, TF 0.x's `tensorflow.models...`,
# and the bundled TensorBoard of TF <= 1.2 (`tf.keras.models` and
# `tf.contrib.tensorboard` are public). A `python` part anywhere is source tree too.
INTERNAL = frozenset({"python", "core", "examples", "tools", "compiler", "include", "models",
                      "tensorboard", "stream_executor", "_api"})
DTYPES = frozenset({"float16", "half", "float32", "float64", "double", "bfloat16", "int8",
                    "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool",
                    "string", "complex64", "complex128", "qint8", "qint16", "qint32",
                    "quint8", "quint16", "resource", "variant"})
VERSION_ATTRIBUTES = frozenset({"__version__", "__git_version__", "__compiler_version__",
                                "__cxx11_abi_flag__", "__monolithic_build__"})


def kept(parts: list[str]) -> int:
    """How many parts of a path from `tensorflow` name an API (the rest read a member)."""
    for index, part in enumerate(parts[1:], start=1):
        if part in VERSION_ATTRIBUTES:
            return index + 1
        if part.startswith("__"):
            return index
        if (part[:1].isupper() or part in DTYPES) and index + 1 < len(parts):
            return index + 1
    return len(parts)


def canonical(path: str) -> str:
    """The census name of a full path from `tensorflow` (already cut by `kept`).

    >>> canonical("tensorflow.compat.v1.train.AdamOptimizer")
    'tf.train.AdamOptimizer'
    >>> canonical("tensorflow.python.framework.graph_util.convert_variables_to_constants")
    'tensorflow.python.framework.graph_util:convert_variables_to_constants'
    >>> canonical("tensorflow"), canonical("tensorflow.compat.v1")
    ('tf', 'tf.compat.v1')
    """
    parts = path.split(".")
    if parts[0] != "tensorflow":
        raise ValueError(f"not a path from tensorflow: {path!r}")
    rest = parts[1:]
    if rest[:2] == ["compat", "v1"] and len(rest) > 2:
        rest = rest[2:]
    if rest and (rest[0] in INTERNAL or "python" in rest):
        return ".".join(["tensorflow", *rest[:-1]]) + ":" + rest[-1]
    return ".".join(["tf", *rest])


def public(name: str) -> bool:
    """Whether a census name is public API (`tf.` ...) rather than `module:attribute`."""
    return ":" not in name


def module_path(name: str) -> str:
    """The dotted path from `tensorflow` a census name stands for."""
    if ":" in name:
        return name.replace(":", ".")
    return "tensorflow" + name[len("tf"):]


def resolve(name, tensorflow, import_module):
    """The object a census name stands for, as the script that used it got it.

    `tf.a.b` is read from the module `tensorflow` attribute by attribute;
    `tensorflow.m.n:x` from `import_module("tensorflow.m.n")`; where a part is no
    attribute (yet), it is a submodule the script imported (`import
    tensorflow.contrib.slim.nets`, `from tensorflow.python.framework import
    graph_util`): `import_module` of the path so far, and on. Raises what the
    last failing step raised (AttributeError, ImportError) when the name is
    not there.
    """
    if ":" in name:
        module, _, chain = name.partition(":")
        parts = chain.split(".")
        try:
            value, done = import_module(module), module
        except ImportError:  # the part before the colon is an object, not a module
            head, _, last = module.rpartition(".")
            value, done, parts = import_module(head), head, [last] + parts
    else:
        value, done = tensorflow, "tensorflow"
        parts = name.split(".")[1:]
    for part in parts:
        done = done + "." + part
        try:
            value = getattr(value, part)
        except AttributeError:
            value = import_module(done)
    return value


CONTRIB = "tensorflow.contrib"


def is_contrib(name: str) -> bool:
    """Whether a census name is under `tf.contrib` (`tf.contrib.slim.conv2d`, or a source-tree
    path `tensorflow.contrib.framework.python.ops:arg_scope`)."""
    return name == "tf.contrib" or name.startswith(("tf.contrib.", CONTRIB + ".", CONTRIB + ":"))


def contrib_path(name: str) -> str:
    """The path under `tf.contrib` a contrib census name is at, as the contrib table reads
    it: 'tf.contrib.layers.flatten' -> 'layers.flatten',
    'tensorflow.contrib.framework.python.ops:arg_scope' -> 'framework.arg_scope'."""
    from tf1compat.contrib.paths import public_name

    if name.startswith("tf.contrib"):
        return name[len("tf.contrib."):]
    raw = name[len(CONTRIB) + 1:].replace(":", ".")
    return public_name(raw) if raw else ""
