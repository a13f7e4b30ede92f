"""Every `tf.contrib` name served from where TF 1.15 itself took it, by construction.

Most of TF 1.15's `tf.contrib` was not contrib code. `tf115_homes.json`, made under TF 1.15
by tests/tf1_reference/tf115_contrib_homes.py, records for each public contrib name

- its `alias`: the public `tf.*` name bound to the very same object
  (`framework.py_func` *is* `tf.py_func`): served as `tf.compat.v1.<that name>`;
- its `home`, `module:qualname` where it was defined. A `tensorflow.python.*` home
  (`quantization.Abs` is `gen_math_ops.Abs`) is served from TF 2.21's module of that path,
  seen as TF1 code read it (`private_views`); a contrib home whose module the tf_slim library
  carries on (`tensorflow/contrib/layers/python/layers/layers.py` is `tf_slim/layers/layers.py`)
  is served from tf_slim.

The contrib table (`registry.table`) holds these below every entry of its own: a name
tf1compat serves itself, or TensorFlow's upgrade table maps, keeps that service.
"""

from __future__ import annotations

import functools
import os
from typing import Any, Optional

from tf1compat.contrib import digested
from tf1compat.contrib.entries import Entry, Served, import_dotted

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf115_homes.json")
REGENERATE = ("python tests/tf1_reference/tf115_contrib_homes.py > "
              "tf1compat/contrib/tf115_homes.json (under the TF 1.15 reference)")

# The contrib modules the tf_slim library carries on (contrib.slim's own code, kept on PyPI):
# TF 1.15's module -> tf_slim's. Contrib's other modules (feature columns, encoders, hparam,
# bucketing, ...) are not in tf_slim.
_C = "tensorflow.contrib."
TF_SLIM_MODULES = {
    **{f"{_C}layers.python.layers.{name}": f"tf_slim.layers.{name}" for name in (
        "layers", "initializers", "normalization", "optimizers", "regularizers",
        "rev_block_lib", "summaries", "utils")},
    **{f"{_C}layers.python.ops.{name}": f"tf_slim.layers.{name}" for name in (
        "bucketization_op", "sparse_ops")},
    **{f"{_C}framework.python.ops.{name}": f"tf_slim.ops.{name}" for name in (
        "arg_scope", "variables")},
    f"{_C}metrics.python.ops.metric_ops": "tf_slim.metrics.metric_ops",
    f"{_C}metrics.python.ops.histogram_ops": "tf_slim.metrics.histogram_ops",
    f"{_C}metrics.python.metrics.classification": "tf_slim.metrics.classification",
    f"{_C}losses.python.losses.loss_ops": "tf_slim.losses.loss_ops",
    f"{_C}losses.python.metric_learning.metric_loss_ops": "tf_slim.losses.metric_learning",
    **{f"{_C}training.python.training.{name}": f"tf_slim.training.{name}" for name in (
        "evaluation", "training")},
    **{f"{_C}slim.python.slim.{name}": f"tf_slim.{name}" for name in (
        "evaluation", "learning", "model_analyzer", "queues", "summaries")},
    **{f"{_C}slim.python.slim.data.{name}": f"tf_slim.data.{name}" for name in (
        "data_decoder", "data_provider", "dataset", "dataset_data_provider", "parallel_reader",
        "prefetch_queue", "tfexample_decoder")},
}
# Names those modules had in TF 1.15 that tf_slim dropped (a kernel of contrib's own).
TF_SLIM_LACKS = frozenset({
    f"{_C}framework.python.ops.variables:zero_initializer",
})
# TensorFlow's modules TF 2.21 no longer has at that path, whose names are better left
# unserved than served from elsewhere by guess: TF 1.15's Keras (tf.contrib.keras is tf.keras,
# served through its alias).
NOT_TENSORFLOW_HOMES = ("tensorflow.python.keras.",)
# TensorFlow's helpers a contrib module imported for itself (`deprecated`, `tf_export`).
HELPER_MODULES = ("tensorflow.python.util.",)
# Aliases in namespaces TF 2.21's tf.compat.v1 serves otherwise: TF 1.15's `tf.keras` is
# tf_keras's TF1 API (what `run` serves and `migrate` writes for it), its `tf.estimator` is
# tensorflow-estimator's, served by tf1compat.estimator.
SERVED_ALIASES = (("tf.keras.", "tf_keras.api._v1.keras."),
                  ("tf.estimator.", "tf1compat.estimator."))
# The contrib table's `source` of a name served from here, by what it is served from.
SOURCES = {"alias": "tf115-alias", "tensorflow": "tf115-home", "tf_slim": "tf-slim"}
NOTES = {"alias": "the same object as TF 1.15's {record}",
         "tf_slim": "TF 1.15's {record}, carried on by the tf_slim library "
                    "(pip install 'tf1compat[slim]')",
         "tensorflow": "TF 1.15's {record}, from TF 2.21's module of that path"}


@functools.lru_cache(maxsize=1)
def records() -> dict[str, dict[str, str]]:
    """'framework.py_func' -> {'alias': 'tf.py_func', 'home': 'tensorflow.python...:py_func'}."""
    return digested.load(DATA, "names", REGENERATE)


def tf_slim_home(home: str) -> Optional[str]:
    """'tensorflow.contrib.layers.python.layers.layers:conv2d_transpose' ->
    'tf_slim.layers.layers.conv2d_transpose', or None where tf_slim has no such module."""
    module, _, qualname = home.partition(":")
    theirs = TF_SLIM_MODULES.get(module)
    return None if theirs is None or home in TF_SLIM_LACKS else f"{theirs}.{qualname}"


def tensorflow_home(home: str) -> Optional[str]:
    """'tensorflow.python.ops.gen_math_ops:Abs' as is, where TF 2.21 may have it; else None."""
    module = home.partition(":")[0]
    if not module.startswith("tensorflow.python.") or module.startswith(NOT_TENSORFLOW_HOMES):
        return None
    return home


def target_of(name: str) -> Optional[tuple[str, str]]:
    """How TF 1.15's `tf.contrib.<name>` is served by construction: ('alias', 'tf.compat.v1.X'),
    ('tf_slim', 'tf_slim.module.name') or ('tensorflow', 'tensorflow.python.module:qualname');
    None where its record names no home TF 2.21's side has."""
    record = records().get(name)
    if record is None:
        return None
    if "alias" in record:
        alias = record["alias"]
        for prefix, served in SERVED_ALIASES:
            if alias.startswith(prefix):
                return "alias", served + alias[len(prefix):]
        return "alias", "tf.compat.v1." + alias[len("tf."):]
    home = record.get("home", "")
    if tf_slim_home(home):
        return "tf_slim", tf_slim_home(home)
    if tensorflow_home(home):
        return "tensorflow", home
    return None


def note_of(name: str, kind: str) -> str:
    record = records()[name]
    return NOTES[kind].format(record=record.get("alias") or record["home"])


@functools.lru_cache(maxsize=1)
def namespaces() -> frozenset[str]:
    """Every namespace above a name served from its home ('layers', 'quantization.python');
    a module TF 1.15's namespace held (`slim.init_ops`, `module_names`) is not one, nor one
    whose only names are TensorFlow's helpers its module imported (`learn.datasets.base`
    held `deprecated`, and nothing else TF 2.21 can serve)."""
    from tf1compat.contrib import module_names

    found = set()
    for name in records():
        if target_of(name) is None or \
                records()[name].get("home", "").startswith(HELPER_MODULES):
            continue
        parts = name.split(".")
        found.update(".".join(parts[:end]) for end in range(1, len(parts)))
    return frozenset(name for name in found if module_names.module_of(name) is None)


def serve_tensorflow_home(home: str):
    """The object at TF 1.15's home 'tensorflow.python.ops.gen_math_ops:Abs' on TF 2.21 (TF1's
    names that moved out of the module served where they were). ImportError/AttributeError
    where TF 2.21 lacks it."""
    from tf1compat.contrib.private_views import view_of

    module, _, qualname = home.partition(":")
    value = view_of(module)
    for part in qualname.split("."):
        value = getattr(value, part)
    return value


@functools.lru_cache(maxsize=None)
def home_entry(name: str) -> Optional[Entry]:
    """`contrib.<name>` served from its TF 1.15 home (`homes.target_of`), or None where that
    home is not on this machine (the name is then unsupported, as before)."""
    found = target_of(name)
    if found is None:
        return None
    kind, target = found
    try:
        _serve_home(kind, target)
    except (AttributeError, ImportError):
        return None
    return Entry(name, Served.MAPPED, target, SOURCES[kind], note_of(name, kind))


def _serve_home(kind: str, target: str) -> Any:
    if kind == "tensorflow":
        return serve_tensorflow_home(target)
    if kind == "tf_slim":
        from tf1compat.contrib.tf_slim_compat import load

        load()  # tf_slim, made fit for TF 2.21 before any of it is used
    return import_dotted(target)
