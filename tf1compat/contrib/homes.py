"""Every `tf.contrib` name served from where TF 1.15 itself took it, by construction.

Most of TF 1.15's `tf.contrib` was not contrib code. `tf115_homes.json`, made under TF 1.15
by tests/tf1_reference/tf115_contrib_homes.py, records for each public contrib name

- its `alias`: the public `tf.*` name bound to the very same object
  (`framework.py_func` *is* `tf.py_func`): served as `tf.compat.v1.<that name>`;
- its `home`, `module:qualname` where it was defined. A `tensorflow.python.*` home
  (`quantization.Abs` is `gen_math_ops.Abs`) is served from TF 2.21's module of that path,
  seen as TF1 code read it (`private_views`); a contrib home whose module the tf_slim library
  carries on (`tensorflow/contrib/layers/python/layers/layers.py` is `tf_slim/layers/layers.py`)
  is served from tf_slim, and one whose module TensorFlow Probability carries on
  (`tensorflow/contrib/distributions/python/ops/mvn_diag.py` is
  `tensorflow_probability/python/distributions/mvn_diag.py`) from TensorFlow Probability.

The contrib table (`registry.table`) holds these below every entry of its own: a name
tf1compat serves itself, or TensorFlow's upgrade table maps, keeps that service.
"""

from __future__ import annotations

import functools
import os
from typing import Any, Optional

from tf1compat.contrib import constant_homes, digested, tf115_code
from tf1compat.contrib.carriers import (  # noqa: F401 - homes' vocabulary, read by its users
    OWN_MODULES, TF_SLIM_LACKS, keras_home, TF_SLIM_MODULES, TFP_MODULE_PREFIXES, TFP_MOVED, import_carried,
    probability_home, tf_slim_home)
from tf1compat.contrib.entries import Entry, Served
from tf1compat.keras2 import dropped

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf115_homes.json")
REGENERATE = ("python tests/tf1_reference/tf115_contrib_homes.py > "
              "tf1compat/contrib/tf115_homes.json (under the TF 1.15 reference)")

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
SOURCES = {"alias": "tf115-alias", "tensorflow": "tf115-home", "tf_slim": "tf-slim",
           "probability": "tensorflow-probability", "tf115_code": "tf115-source",
           "own": "tf1compat-on-core", "tf_keras": "tf-keras", "keras2": "tf1compat-keras2"}
NOTES = {"alias": "the same object as TF 1.15's {record}",
         "tf_slim": "TF 1.15's {record}, carried on by the tf_slim library "
                    "(pip install 'tf1compat[slim]')",
         "probability": "TF 1.15's {record}, carried on by TensorFlow Probability "
                        "(pip install 'tf1compat[probability]')",
         "tensorflow": "TF 1.15's {record}, from TF 2.21's module of that path",
         "tf115_code": "TF 1.15's {record}, TF 1.15's own source run on TF 2.21's core",
         "own": "TF 1.15's {record}, served by tf1compat on TF 2.21's kernels",
         "tf_keras": "TF 1.15's {record}, carried on by the tf_keras library",
         "keras2": "TF 1.15's {record}, which tf_keras dropped or changed, as tf1compat's "
                   "Keras 2 serves it"}


@functools.lru_cache(maxsize=1)
def records() -> dict[str, dict[str, str]]:
    """'framework.py_func' -> {'alias': 'tf.py_func', 'home': 'tensorflow.python...:py_func'}."""
    return digested.load(DATA, "names", REGENERATE)


@functools.lru_cache(maxsize=1)
def _by_alias() -> dict[str, tuple[str, ...]]:
    found: dict[str, list[str]] = {}
    for name, record in records().items():
        if "alias" in record:
            found.setdefault(record["alias"], []).append(name)
    return {alias: tuple(sorted(names)) for alias, names in found.items()}


def contrib_names_of(alias: str) -> tuple[str, ...]:
    """The contrib names whose TF 1.15 object was also the public `alias` ('tf.config.
    experimental_list_devices' -> ('eager.list_devices',)): one object, two spellings."""
    return _by_alias().get(alias, ())


def tf115_code_home(home: str) -> Optional[str]:
    """'tensorflow.contrib.graph_editor.select:select_ops' ->
    'tf1compat.contrib.from_tf115.contrib.graph_editor.select.select_ops', or None where the
    home's package is not served from TF 1.15's source."""
    module, _, qualname = home.partition(":")
    served = tf115_code.served_module(module)
    return None if served is None else f"{served}.{qualname}"


def tensorflow_home(home: str) -> Optional[str]:
    """'tensorflow.python.ops.gen_math_ops:Abs' as is, where TF 2.21 may have it; else None."""
    module = home.partition(":")[0]
    if not module.startswith("tensorflow.python.") or module.startswith(NOT_TENSORFLOW_HOMES):
        return None
    return home


def targets_of(name: str) -> list[tuple[str, str]]:
    """How TF 1.15's `tf.contrib.<name>` may be served by construction, best first:
    ('probability', 'tensorflow_probability.python...') for contrib.distributions,
    ('alias', 'tf.compat.v1.X'), ('tf_slim', 'tf_slim.module.name'),
    ('tf115_code', 'tf1compat.contrib.from_tf115...') for TF 1.15's own source, or
    ('tensorflow', 'tensorflow.python.module:qualname'); [] where its record names no home
    TF 2.21's side has."""
    record = _record(name)
    if record is None:
        return []
    found = []
    home = record.get("home", "")
    if name.startswith("distributions.") and probability_home(home):
        found.append(("probability", probability_home(home)))
    if "alias" in record:
        alias = record["alias"]
        keras2 = dropped.served_name(alias[len("tf."):])
        if keras2 is not None:  # tf.contrib.keras is tf.keras: the name tf_keras lacks
            return [*found, ("keras2", dropped.dotted(keras2))]
        for prefix, served in SERVED_ALIASES:
            if alias.startswith(prefix):
                return [*found, ("alias", served + alias[len(prefix):])]
        return [*found, ("alias", "tf.compat.v1." + alias[len("tf."):])]
    return found + _module_targets(home)


def _module_targets(home: str) -> list[tuple[str, str]]:
    """How the object at TF 1.15's `home` ('module:qualname') is served: from the library
    that carries its module on, TF 1.15's file run here, or TF 2.21's module of that path."""
    module, _, qualname = home.partition(":")
    if tf_slim_home(home):
        return [("tf_slim", tf_slim_home(home))]
    if module in OWN_MODULES:  # a module tf1compat serves itself (on TF 2.21's kernels)
        return [("own", f"{OWN_MODULES[module]}.{qualname}")]
    keras2 = dropped.served_home(home)
    if keras2 is not None:  # TF 1.15's tf.keras name tf_keras dropped or changed
        return [("keras2", dropped.dotted(keras2))]
    if keras_home(home):
        return [("tf_keras", keras_home(home))]
    if tf115_code_home(home):
        return [("tf115_code", tf115_code_home(home))]
    if tensorflow_home(home):
        return [("tensorflow", home)]
    return []


def target_of(name: str) -> Optional[tuple[str, str]]:
    """The first of `targets_of(name)`, or None."""
    found = targets_of(name)
    return found[0] if found else None


def _record(name: str) -> Optional[dict[str, str]]:
    """`contrib.<name>`'s record, or a constant's made from the file that assigns it."""
    return records().get(name) or _constant_record(name)


def _constant_record(name: str) -> Optional[dict[str, str]]:
    """A record for a contrib constant (`layers.OPTIMIZER_CLS_NAMES`: named in capitals, as
    TensorFlow names its constants), which the records, made of `__module__`s, lack."""
    constant = name.rpartition(".")[2]
    if not constant[:1].isupper() or constant.upper() != constant:
        return None
    home = constant_homes.home_of(name)
    return {"home": home} if home else None


def note_of(name: str, kind: str) -> str:
    record = _record(name)
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
def home_entry(name: str, ours: frozenset[str] = frozenset()) -> Optional[Entry]:
    """`contrib.<name>` served from the first of its TF 1.15 homes (`homes.targets_of`) that
    is on this machine, or from TF 1.15's own package where contrib.<package> is served whole
    (`tf115_code.WHOLE_PACKAGES`: a name made by a factory has no home of its own); None where
    neither is (the name is then unsupported, as before).

    `ours`: the homes ('module:qualname') of the names tf1compat serves with its own code. A
    name whose TF 1.15 definition reads one of them from its module is not served from TF
    1.15's copy of that module: it would not mix with ours (TF 1.15's
    `ScheduledEmbeddingTrainingHelper` subclasses its own `TrainingHelper`, no `Helper` of
    tf1compat's `BasicDecoder`)."""
    home_module, _, qualname = (_record(name) or {}).get("home", "").partition(":")
    replaced_here = {home.partition(":")[2] for home in ours
                     if home.partition(":")[0] == home_module}
    for kind, target in targets_of(name):
        if kind == "tf115_code" and replaced_here and \
                tf115_code.reads_any(home_module, qualname, replaced_here):
            continue
        try:
            _serve_home(kind, target)
        except (AttributeError, ImportError):
            continue
        return Entry(name, Served.MAPPED, target, SOURCES[kind], note_of(name, kind))
    package, _, rest = name.partition(".")
    if rest and package in tf115_code.WHOLE_PACKAGES:
        target = f"{tf115_code.whole_package_module(package)}.{rest}"
        try:
            tf115_code.load(target)
        except (AttributeError, ImportError):
            return None
        return Entry(name, Served.MAPPED, target, SOURCES["tf115_code"],
                     NOTES["tf115_code"].format(record=f"tf.contrib.{name}"))
    return None


def _serve_home(kind: str, target: str) -> Any:
    if kind == "tensorflow":
        return serve_tensorflow_home(target)
    if kind == "tf115_code":
        return tf115_code.load(target)
    return import_carried(target)
