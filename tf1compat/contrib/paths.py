"""Where a `tensorflow.contrib` module path points: the public `tf.contrib` name it stands for.

TF 1.x scripts import contrib through its source tree as often as through
its public names: `from tensorflow.contrib.framework.python.ops import
arg_scope`, `tensorflow.contrib.layers.python.layers.initializers`,
`tensorflow.contrib.slim.python.slim.data.parallel_reader`. Each such path
names a public `tf.contrib` name (`framework.arg_scope`,
`layers.xavier_initializer`, `slim.parallel_reader`); `public_name` gives
it, with no TensorFlow import, for the census and for the module finder.
"""

from __future__ import annotations

# Package folders whose public name drops `python.<folder>`: `slim.python.slim.learning`
# is `slim.learning`; slim's data readers (`slim.python.slim.data.X`) are `slim.X`.
_SELF_NAMED = {"slim": ("data",), "learn": ()}
# Public subpackages kept under a self-named package: `slim.nets.resnet_v1`, `learn.datasets`.
_KEPT_SUBPACKAGES = {"slim": ("nets",), "learn": ("datasets", "preprocessing")}
# Module files that are a public namespace of their package, or the package itself (""):
# contrib.eager's names live in `eager/python/tfe.py`, its metrics in `metrics.py`.
_NAMED_MODULES = {"eager": {"tfe": "", "metrics": "metrics", "metrics_impl": "metrics"}}


# Namespaces TF 1.15 bound under two names: `tf.contrib.keras` *is* the package
# `tensorflow.contrib.keras.api.keras` (its __init__ star-imports it), so
# `tf.contrib.keras.api.keras.layers` is `tf.contrib.keras.layers`.
NAMESPACE_ALIASES = {"keras.api.keras": "keras"}
ALIAS_PARENTS = frozenset(alias.rpartition(".")[0] for alias in NAMESPACE_ALIASES)


def canonical_name(name: str) -> str:
    """'keras.api.keras.layers.Dense' -> 'keras.layers.Dense'; other names as they are."""
    for alias, canonical in NAMESPACE_ALIASES.items():
        if name == alias or name.startswith(alias + "."):
            return canonical + name[len(alias):]
    return name


def public_name(raw: str) -> str:
    """The public `tf.contrib` name of a path under `tensorflow.contrib.` ('layers.flatten').

    >>> public_name('framework.python.ops.arg_scope.arg_scope')
    'framework.arg_scope'
    >>> public_name('slim.python.slim.data.parallel_reader')
    'slim.parallel_reader'
    >>> public_name('learn.python.learn.datasets.mnist')
    'learn.datasets.mnist'
    >>> public_name('layers.python.layers.initializers.xavier_initializer')
    'layers.xavier_initializer'
    >>> public_name('eager.python.tfe.metrics.Mean'), public_name('eager.python.tfe')
    ('eager.metrics.Mean', 'eager')
    """
    parts = raw.split(".")
    if "python" not in parts[1:]:
        return _trim(parts)
    at = parts.index("python")
    namespace, rest = parts[:at], parts[at + 1:]
    top = namespace[0]
    named = _NAMED_MODULES.get(top, {})
    if rest[:1] and rest[0] in named:
        return _trim(namespace + ([named[rest[0]]] if named[rest[0]] else []) + rest[1:])
    if top in _SELF_NAMED and rest[:1] == [top]:
        rest = rest[1:]
        if rest[:1] and rest[0] in _SELF_NAMED[top]:
            rest = rest[1:]
        if rest[:1] and rest[0] in _KEPT_SUBPACKAGES[top]:
            # learn.preprocessing.text.VocabularyProcessor -> learn.preprocessing.VocabularyProcessor
            if rest[0] == "preprocessing" and len(rest) > 2:
                rest = [rest[0], *rest[2:]]
            return _trim(namespace + rest)
        if top == "learn" and len(rest) >= 2:
            rest = rest[1:]  # learn.python.learn.estimators.X -> learn.X
            if len(rest) >= 2:
                rest = rest[1:]
        return _trim(namespace + rest)
    rest = rest[1:]  # the folder: ops, layers, training, framework, kernel_tests ...
    if len(rest) >= 2:
        rest = rest[1:]  # the module file, when a name follows
    return _trim(namespace + rest)


def _trim(parts: list[str]) -> str:
    """Stops the chain after a class name followed by more parts (`learn.ModeKeys.TRAIN`)."""
    for index, part in enumerate(parts[1:], start=1):
        if part.startswith("__"):  # rnn.__dict__: a look at the module, not a name in it
            return ".".join(parts[:index])
        if part[:1].isupper() and index + 1 < len(parts):
            return ".".join(parts[:index + 1])
    return ".".join(parts)



# Module files their package shadows with a function of the same name, as TF 1.15 has them:
# `framework/python/ops/__init__.py` star-imports `arg_scope.py`, so the package's attribute
# `arg_scope` is the function (`from tensorflow.contrib.framework.python.ops import arg_scope`,
# then `with arg_scope([...])`), while importing the path itself (`from ....ops.arg_scope import
# add_arg_scope`) loads the module. Under TF 1.15, the only other contrib package attribute that
# is a function over a submodule of its name is `framework.python.framework.experimental` (the
# decorator contrib.learn's modules import that way).
MODULE_FILES = frozenset({"framework.python.ops.arg_scope",
                          "framework.python.framework.experimental"})


def at_module_file(raw: str) -> bool:
    """Whether a deep path ends where contrib's generic layout has a module file.

    `layers.python.layers.initializers` (`X.python.<folder>.<file>`): the last
    part may be a module file, or a name the folder's `__init__` re-exports.
    """
    parts = raw.split(".")
    if "python" not in parts[1:]:
        return False
    at = parts.index("python")
    return parts[0] not in _SELF_NAMED and len(parts) - at - 1 == 2
