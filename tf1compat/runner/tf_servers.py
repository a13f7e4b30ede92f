"""Who answers `tf.X` for a script under `run`: one ordered list of servers.

A script reads `tf.train.AdamOptimizer`; the TF1 view (`shim.TF1Module`) asks each server of
`SERVERS` in turn, and the first that answers gives the value and how it was served (what the
run's report says). The order is the design:

1. `compat.v1`: the TF1 module itself (`import tensorflow.compat.v1 as tf`);
2. TensorFlow's own modules (`tf.python`, `tf.pywrap_tensorflow`): a tree of views that
   records its own reads;
3. overrides: names the run answers itself (the device listings of `--device-map`);
4. namespaces already served: the view's one cache, a namespace wrapped once;
5. TF 0.x calls (`tf.pack`, `tf.concat(0, values)`);
6. TF 1.15's calls where TF 2.21 moved or re-defaulted them;
7. TF 1.15's one object served under its contrib name (`TPUClusterResolver`);
8. TF 1.15's Keras 2: a `tf.keras` name tf_keras dropped or changed, as tf1compat's Keras 2
   serves it (`tf.keras.Sequential` with `predict_classes`, `tf.keras.utils.HDF5Matrix`);
9. native: TF 2.21's `tf.compat.v1`, a function given TF 1.15's parameters where they differ;
10. served modules: what TF 2.21 lacks and tf1compat serves (`tf.contrib`, `tf.examples`);
11. contrib aliases: a TF 1.15 name TF 2.21 lacks, as the contrib name TF 1.15 gave the same
    object serves it (`tf.config.experimental_list_devices`).

None answering, the view raises the error that says why (native's, kept on the request).
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import types
from typing import Any, Callable, Optional

from tf1compat.keras2 import dropped
from tf1compat.runner import (other_spellings, private_modules, served, tf0_calls)
from tf1compat.runner.usage import usage

# `tf.` paths the run answers itself, with how the report shows them (filled before the script
# starts: the device listings of --device-map, tf1compat.runner.device_listing).
overrides: dict[str, tuple[Any, served.Symbol]] = {}
# TensorFlow's own modules under `tf.`: `tf.python`, and those TF 1.15's API named itself
PRIVATE_MODULE_NAMES = {"python": "tensorflow.python", **served.TF1_OWN_MODULES}


class How(enum.Enum):
    """How an answer is recorded and given to the script."""

    ITSELF = "the TF1 module or TensorFlow's own tree: not a read of a name"
    AS_IS = "a read, given as it is (a namespace view, a value whose server recorded it)"
    AS_SYMBOL = "a read, served as the answer's symbol says"
    CLASSIFIED = "a read, served as the serving tables classify the path"
    FOUND = ("a value found by name: a module becomes a namespace view; anything else is "
             "classified and given TF 1.15's parameters where TF 2.21's differ")


class Answer:
    """A server's answer: the value, and how it is recorded and given to the script."""

    __slots__ = ("value", "how", "symbol")  # one per `tf.X` read: kept small

    def __init__(self, value: Any, how: How, symbol: Optional[served.Symbol] = None) -> None:
        self.value, self.how, self.symbol = value, how, symbol


class Request:
    """One read of `tf.<path>` (`name` on `view`); `error`: why TF 2.21's module lacks it,
    once the native server was asked."""

    __slots__ = ("view", "name", "path", "error")

    def __init__(self, view: Any, name: str, path: str) -> None:
        self.view, self.name, self.path = view, name, path
        self.error: Optional[Exception] = None


def compat_v1(request: Request) -> Optional[Answer]:
    # `import tensorflow.compat.v1 as tf` (the "swap" of half-migrated scripts) is the same
    # TF1 module, tf.contrib and all, as `import tensorflow as tf`.
    if request.path == "compat.v1":
        return Answer(request.view._tf1_root, How.ITSELF)
    return None


def own_modules(request: Request) -> Optional[Answer]:
    if request.path not in PRIVATE_MODULE_NAMES:
        return None
    tree = private_modules.tree_of(request.view._tf1_root, usage)
    return Answer(tree.module(PRIVATE_MODULE_NAMES[request.path]), How.ITSELF)


def run_overrides(request: Request) -> Optional[Answer]:
    if request.path not in overrides:
        return None
    value, symbol = overrides[request.path]
    return Answer(value, How.AS_SYMBOL, dataclasses.replace(symbol))


def served_namespaces(request: Request) -> Optional[Answer]:
    child = request.view._tf1_children.get(request.name)
    return None if child is None else Answer(child, How.AS_IS)


def tf0(request: Request) -> Optional[Answer]:
    value = tf0_calls.serve(request.path, request.view._tf1_root._view_target_module)
    return None if value is None else Answer(value, How.CLASSIFIED)


def tf115(request: Request) -> Optional[Answer]:
    value = tf115_calls().serve(request.path)
    return None if value is None else Answer(value, How.CLASSIFIED)


def contrib_spellings(request: Request) -> Optional[Answer]:
    value = other_spellings.of_contrib_name(request.path)
    return None if value is None else Answer(value, How.CLASSIFIED)


def tf115_keras(request: Request) -> Optional[Answer]:
    target = dropped.served_name(request.path)
    if target is None:
        return None
    value = dropped.load(target)
    note = "TF 1.15's tf.keras (Keras 2), which tf_keras dropped or changed"
    usage.noted_as(request.path, served.Symbol(served.Served.REPLACED, dropped.dotted(target),
                                               note))
    return Answer(value, How.FOUND)


def native(request: Request) -> Optional[Answer]:
    try:
        return Answer(getattr(request.view._view_target_module, request.name), How.FOUND)
    except (AttributeError, ImportError) as error:  # ImportError: a lazy namespace failed
        request.error = error
        return None


def served_modules(request: Request) -> Optional[Answer]:
    module = served_module(request.path)
    return None if module is None else Answer(module, How.FOUND)


def contrib_aliases(request: Request) -> Optional[Answer]:
    found = other_spellings.contrib_alias(request.path)
    if found is None:
        return None
    value, symbol = found
    usage.noted_as(request.path, symbol)
    return Answer(value, How.FOUND)


SERVERS: tuple[Callable[[Request], Optional[Answer]], ...] = (
    compat_v1, own_modules, run_overrides, served_namespaces, tf0, tf115, contrib_spellings,
    tf115_keras, native, served_modules, contrib_aliases)


def answer(request: Request) -> Optional[Answer]:
    """The first server's answer to `request`, or None when no server has the name."""
    for server in SERVERS:
        found = server(request)
        if found is not None:
            return found
    return None


def record(path: str, found: Answer, module: bool) -> None:
    """Writes the read of `tf.<path>` answered by `found` into the usage record (`module`:
    the value is a module, which the view serves as a namespace)."""
    how = found.how
    if how is How.ITSELF:
        return
    if how is How.AS_SYMBOL:
        usage.served_as(path, found.symbol)
    elif how is How.AS_IS or (how is How.FOUND and module):
        usage.count(path)
    else:
        usage.served(path, counted=True)


def served_module(path: str) -> Optional[types.ModuleType]:
    """The module tf1compat serves for `tensorflow.<path>`, if TF 2.21 lacks it."""
    module_name = served.served_module(path)
    if module_name is not None:
        return importlib.import_module(module_name)
    if served.is_served_package(path):
        return types.ModuleType(f"tensorflow.{path}", "served by tf1compat run")
    return None


_tf115_module: Optional[types.ModuleType] = None


def tf115_calls() -> types.ModuleType:
    """`tf115_calls`, which imports TensorFlow (so not before the run does); `shim.install`
    loads it before user code starts, so no thread of the script's ever imports it half-way.
    Kept here: every `tf.X` a script reads asks for it."""
    global _tf115_module
    if _tf115_module is None:
        from tf1compat.runner import tf115_calls as module

        _tf115_module = module
    return _tf115_module
