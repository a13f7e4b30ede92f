"""One table for `tf.contrib`: each `contrib.X.Y` -> how TF 2.21 serves it, and where.

Both users read this table: `tf1compat run` (the shim resolves
`tf.contrib.X.Y` at run time) and `tf1compat migrate` (a rule rewrites
`tf.contrib.X.Y` to the import of its home). A name is

- **mapped** when a TF2 or `tf.compat.v1` symbol does the same job: the
  mapping is TensorFlow's own (`tf_upgrade_v2`'s table
  `all_renames_v2.manual_symbol_renames`, read from the installed wheel) or
  one of ours (`tf1compat.contrib.tables`) where that table has none;
- **replaced** when tf1compat has a small faithful replacement
  (`tf1compat.contrib.<module>`);
- **unsupported** when neither exists; the entry's note names the
  replacement when one is known (TensorFlow's upgrade tables point many names
  to TensorFlow Addons, which has no release for TF 2.21).

Any other `contrib.X` is unsupported too, with the note TensorFlow's upgrade
tool gives for its namespace, if any.

>>> lookup('layers.flatten').served.value, lookup('layers.flatten').target
('replaced', 'tf1compat.contrib.layers.flatten')
>>> lookup('framework.get_or_create_global_step').target
'tf.compat.v1.train.get_or_create_global_step'
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import types
from typing import Any, Optional

from tf1compat.contrib.carriers import OWN_MODULES, import_carried
from tf1compat.shared.module_view import ModuleView
from tf1compat.contrib.paths import (ALIAS_PARENTS, MODULE_FILES, at_module_file, canonical_name,
                                     public_name)
from tf1compat.contrib import homes, module_names, tf115_code
from tf1compat.contrib.entries import (  # noqa: F401 - the table's vocabulary, read by its users
    Entry, Served, import_dotted)
from tf1compat.contrib.tables import (  # noqa: F401 - the table's data, read here and by users
    LEGACY_HOMES as _LEGACY_HOMES, LIBRARY_MODULES, LIBRARY_NAMES, LIBRARY_NOTE, MAPPED,
    MODULE_HOME_NOTE, MODULE_HOME_NOTES, MODULE_HOMES, REPLACED, REPLACED_AT, REPLACED_NOTES,
    TF_SLIM, TFA as _TFA, UNSUPPORTED, ESTIMATOR_HOMES, ESTIMATOR_HOME_NOTE, ESTIMATOR_UNSUPPORTED)
from tf1compat.shared.errors import Tf1CompatError

PREFIX = "tf1compat.contrib."

# Our modules, one per contrib namespace we serve (tf1compat/contrib/<name>.py).
MODULES = ("layers", "framework", "rnn", "seq2seq", "slim", "cudnn_rnn", "legacy_seq2seq",
           "training", "learn", "crf", "opt", "eager", "image", "cluster_resolver", "lookup",
           "summary", "distributions", "predictor")


class ContribError(Tf1CompatError, AttributeError):
    """A `tf.contrib` name that TF 2.21 and tf1compat do not serve; names it and its replacement."""

    def __init__(self, name: str, hint: str):
        self.name = name
        self.hint = hint
        from tf1compat.census.counts import said

        census = said(f"tf.contrib.{name}")
        super().__init__(f"tf.contrib.{name} is not available on TF 2.21 (tf.contrib was removed "
                         f"in TF 2): {hint}" + (f" ({census})" if census else ""))


@functools.lru_cache(maxsize=None)
def _tf_tables() -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """TensorFlow's own upgrade tables (renames, Addons mappings, module notes), contrib only."""
    from tf1compat.shared import tf_internals

    if tf_internals.missing(tf_internals.UPGRADE_TABLES):  # no upgrade tool: our table alone
        return {}, {}, {}
    from tensorflow.tools.compatibility import all_renames_v2, module_deprecations_v2

    def contrib(table: dict[str, Any]) -> dict[str, Any]:
        return {key[len("tf.contrib."):]: value for key, value in table.items()
                if key.startswith("tf.contrib.")}

    modules = {name: message for name, (_, message) in
               contrib(module_deprecations_v2.MODULE_DEPRECATIONS).items()}
    return (contrib(all_renames_v2.manual_symbol_renames),
            contrib(all_renames_v2.addons_symbol_mappings), modules)


@functools.lru_cache(maxsize=None)
def table() -> dict[str, Entry]:
    """Every known `contrib.X.Y` name -> its Entry (TensorFlow's mappings, then ours on top)."""
    renames, addons, _ = _tf_tables()
    entries: dict[str, Entry] = {}
    for name, target in renames.items():
        entries[name] = Entry(name, Served.MAPPED, target, "tf_upgrade_v2")
    for name, target in addons.items():
        entries[name] = Entry(name, Served.UNSUPPORTED, "", "tf_upgrade_v2",
                              f"TensorFlow's upgrade table moves it to {target} in "
                              + _TFA)
    for name, (target, note) in MAPPED.items():
        entries[name] = Entry(name, Served.MAPPED, target, "tf1compat", note)
    for name, note in UNSUPPORTED.items():
        entries[name] = Entry(name, Served.UNSUPPORTED, "", "tf1compat", note)
    for namespace, names in REPLACED.items():
        for name in names:
            full = f"{namespace}.{name}"
            entries[full] = Entry(full, Served.REPLACED, f"tf1compat.contrib.{full}", "tf1compat",
                                  REPLACED_NOTES.get(full, ""))
    for name, target in REPLACED_AT.items():
        entries[name] = Entry(name, Served.REPLACED, target, "tf1compat")
    for name, module in MODULE_HOMES.items():
        entries[name] = Entry(name, Served.REPLACED, module, "tf1compat",
                              MODULE_HOME_NOTES.get(name, MODULE_HOME_NOTE))
    for name, target in {**LIBRARY_MODULES, **LIBRARY_NAMES}.items():
        entries[name] = Entry(name, Served.MAPPED, target, TF_SLIM, LIBRARY_NOTE)
    for name, target in ESTIMATOR_HOMES.items():
        entries[name] = Entry(name, Served.REPLACED, target, "tf1compat", ESTIMATOR_HOME_NOTE)
    for name, note in ESTIMATOR_UNSUPPORTED.items():
        entries[name] = Entry(name, Served.UNSUPPORTED, "", "tf1compat", note)
    # slim re-exports contrib.layers and contrib.framework under its own name.
    for name, entry in list(entries.items()):
        namespace, _, rest = name.partition(".")
        if namespace in ("layers", "framework") and f"slim.{rest}" not in entries:
            target = f"tf1compat.contrib.slim.{rest}" if entry.served is Served.REPLACED \
                and name not in REPLACED_AT \
                else entry.target
            entries[f"slim.{rest}"] = dataclasses.replace(entry, name=f"slim.{rest}",
                                                          target=target)
    # slim.layers is contrib.layers, slim.initializers its initializers (same objects).
    for name, entry in list(entries.items()):
        namespace, _, rest = name.partition(".")
        if namespace == "layers" and "." not in rest:
            entries[f"slim.layers.{rest}"] = dataclasses.replace(entry, name=f"slim.layers.{rest}")
            if rest.endswith("_initializer"):
                entries[f"slim.initializers.{rest}"] = dataclasses.replace(
                    entry, name=f"slim.initializers.{rest}")
    return entries


def lookup(name: str) -> Optional[Entry]:
    """The entry of `contrib.<name>` ('layers.flatten'), or None when nothing is known.

    A name the table does not serve is served from where TF 1.15 took it (`homes`), when
    that home is here: TensorFlow's upgrade table sends some (`layers.group_norm`) to
    TensorFlow Addons, which has no release for TF 2.21, where tf_slim still has them.
    """
    name = canonical_name(name)
    entry = table().get(name)
    if entry is None or (entry.served is Served.UNSUPPORTED and entry.source == "tf_upgrade_v2"):
        found = homes.home_entry(name, replaced_homes())
        if found is not None and found.source == homes.SOURCES["tf115_code"] and \
                _in_a_module_served_whole(name):
            return entry  # `learn.datasets.mnist.read_data_sets`: tf1compat's MNIST reader's
        return found or entry
    return entry


def _in_a_module_served_whole(name: str) -> bool:
    """Whether the table serves a module above `name` as one module (`learn.datasets.mnist`
    is tf1compat.tutorials.mnist; `slim.learning` is tf_slim's)."""
    parts = name.split(".")
    return any(".".join(parts[:end]) in MODULE_HOMES or ".".join(parts[:end]) in LIBRARY_MODULES
               for end in range(1, len(parts)))


@functools.lru_cache(maxsize=1)
def replaced_homes() -> frozenset[str]:
    """The TF 1.15 homes ('module:qualname') of the names tf1compat serves with its own code
    (`tensorflow.contrib.seq2seq.python.ops.helper:TrainingHelper`)."""
    records = homes.records()
    return frozenset(records[name]["home"] for name, entry in table().items()
                     if entry.served is Served.REPLACED and "home" in records.get(name, {}))


def hint(name: str) -> str:
    """What to say about `contrib.<name>` when it is not served."""
    entry = lookup(name)
    if entry is not None and entry.note:
        return entry.note
    why = tf115_code.unavailable(name.split(".")[0])
    if why is not None:
        return f"served from TF 1.15's own source, which could not be loaded here: {why}"
    _, _, modules = _tf_tables()
    parts = name.split(".")
    for end in range(len(parts) - 1, 0, -1):
        prefix = ".".join(parts[:end])
        if prefix in UNSUPPORTED:
            return UNSUPPORTED[prefix]
        if prefix in modules:
            said = modules[prefix].replace("(Manual edit required) ", "")
            if "addons" in said.lower():
                said += " (TensorFlow Addons has no release for TF 2.21)"
            return f"not served by tf1compat; TensorFlow's upgrade tool says: {said}"
    return ("no replacement is known to tf1compat or to TensorFlow's upgrade tables; rewrite it "
            "with tf.compat.v1 or TF2 code")


def resolve(name: str) -> Any:
    """The object `tf.contrib.<name>` stands for on TF 2.21.

    Raises:
      ContribError: the name is unsupported or unknown (the message names the replacement,
        when one is known), or its mapped home is not in this TensorFlow.
    """
    entry = lookup(name)
    if entry is None and module_names.module_of(name) is not None:
        module = module_names.module_of(name)  # a module TF 1.15's namespace held (slim.init_ops)
        try:
            if module.startswith("tensorflow.contrib."):  # a contrib module: tf1compat's
                return deep_module(module[len("tensorflow.contrib."):])
            return module_names.serve_tensorflow_module(module)
        except ImportError as error:
            raise ContribError(name, f"it was TF 1.15's module {module}, which TF 2.21 does "
                                     f"not have ({error})") from None
    if entry is None or entry.served is Served.UNSUPPORTED:
        raise ContribError(name, hint(name))
    if entry.source == homes.SOURCES["tensorflow"]:
        return homes.serve_tensorflow_home(entry.target)
    try:
        return import_carried(entry.target)
    except (AttributeError, ImportError) as error:
        if isinstance(error, Tf1CompatError):
            raise
        if entry.source == TF_SLIM:
            raise ContribError(name, f"it is served by the tf_slim library, which is not "
                                     f"installed ({error}): pip install 'tf1compat[slim]'") \
                from None
        raise ContribError(name, f"TensorFlow's upgrade table maps it to {entry.target}, which "
                                 f"TF 2.21 does not have ({error})") from None


def import_for(entry: Entry) -> str:
    """The module to import for a replaced entry's target ('tf1compat.contrib.layers')."""
    if entry.name in MODULE_HOMES:
        return entry.target
    if entry.name in ESTIMATOR_HOMES:
        return entry.target.rpartition(".")[0]  # tf1compat.estimator.tpu / .contrib
    if entry.name in REPLACED_AT:
        return entry.target.rpartition(".")[0]
    if entry.source == TF_SLIM:  # through tf1compat, which loads tf_slim fit for TF 2.21
        return "tf1compat.contrib." + entry.name.split(".")[0]
    return "tf1compat.contrib." + entry.name.split(".")[0]


def missing_home(entry: Entry) -> Optional[str]:
    """Why a mapped entry's home is not in this TensorFlow, or None when it is (or not mapped).

    Legacy-Keras homes (`tf.compat.v1.nn.rnn_cell.*`, `tf.compat.v1.layers.*`) are not
    imported: whether tf_keras is installed here says nothing about where the code will run.
    """
    if entry.served is not Served.MAPPED or entry.target.startswith(_LEGACY_HOMES) or \
            entry.source == TF_SLIM:  # a library: installed where the script runs, or said then
        return None
    if entry.source in homes.SOURCES.values():  # served when it was looked up
        return None
    try:
        import_dotted(entry.target)
    except (AttributeError, ImportError) as error:
        return (f"tf.contrib.{entry.name}: TensorFlow's upgrade table maps it to "
                f"{entry.target}, which TF 2.21 does not have ({error})")
    return None


def is_namespace(name: str) -> bool:
    """Whether `contrib.<name>` is a module holding known names ('layers', 'framework.nest')."""
    name = canonical_name(name)
    prefix = name + "."
    return name in ALIAS_PARENTS or name in MODULES or name in homes.namespaces() or name in tf115_code.WHOLE_PACKAGES or \
        any(key.startswith(prefix) for key in table())


def attribute(namespace: str, name: str) -> Any:
    """`tf.contrib.<namespace>.<name>` for a module's `__getattr__`: resolved, or ContribError."""
    if name.startswith("__"):
        raise AttributeError(name)
    if name == "python":  # contrib's source tree: tensorflow.contrib.X.python.ops...
        return deep_module(f"{namespace}.python")
    full = canonical_name(f"{namespace}.{name}")
    if lookup(full) is None and is_namespace(full):
        return namespace_module(full)
    return with_tf115_parameters(full, resolve(full))


def with_tf115_parameters(name: str, value: Any) -> Any:
    """`value` as `tf.contrib.<name>` gives it to TF1 code: with TF 1.15's parameters where
    TF 2.21's function or class under it takes others (`*_eager_fallback`'s `name=None`
    became required). The same stand-in `run` gives for a `tf.` name, so migrated code
    (`tf1compat.contrib.<name>`) calls what the script called under `run`."""
    from tf1compat.runner import tf115_signatures

    return tf115_signatures.adapted(f"contrib.{name}", value)


@functools.lru_cache(maxsize=None)
def namespace_module(name: str) -> Any:
    """A module for a contrib namespace tf1compat has no file for ('data', 'framework.nest')."""
    name = canonical_name(name)
    if name in MODULES:
        return importlib.import_module(f"tf1compat.contrib.{name}")
    if name in tf115_code.WHOLE_PACKAGES:
        package = tf115_code.package(name)
        if package is not None:
            return package
    return ContribNamespace(name)


class ContribNamespace(ModuleView):
    """`tf.contrib.<name>` for a namespace served from the table alone (e.g. contrib.data)."""

    def __init__(self, name: str):
        super().__init__(f"tf1compat.contrib.{name}",
                         doc=f"tf.contrib.{name}, served from tf1compat's contrib table")
        self._view_set("_contrib_name", name)
        self.__path__ = []  # `import tf1compat.contrib.<name>.<more>` comes to the finder

    def _view_attribute(self, name: str) -> Any:
        return attribute(self._contrib_name, name)

    def _view_names(self) -> set[str]:
        prefix = self._contrib_name + "."
        return {key[len(prefix):].split(".")[0] for key in [*table(), *homes.records()]
                if key.startswith(prefix)}


# -- contrib's source tree: tensorflow.contrib.X.python... ---------------------------
# A folder of the tree (`framework.python`, `framework.python.ops`) or an unknown module
# file (`layers.python.layers.initializers`) is a `DeepModule`, whose attributes resolve by
# their public name; a path naming a public name (`layers.python.layers.layers.conv2d`) is
# that name, served from the table.

class DeepModule(ModuleView):
    """A folder or module file of TF 1.x's contrib tree (`framework.python.ops`)."""

    def __init__(self, raw: str):
        super().__init__(PREFIX + raw, doc=f"tensorflow.contrib.{raw}, served by tf1compat: "
                                           "its names resolve as their public tf.contrib names")
        self._view_set("_contrib_raw", raw)
        self.__path__ = []  # deeper imports come back to the finder

    def _view_attribute(self, name: str) -> Any:
        return deep_attribute(f"{self._contrib_raw}.{name}")

    def __setattr__(self, name: str, value: Any) -> None:
        if value is not None and value is self._contrib_module_file(name):
            return  # the import system binding a module file the package shadows (MODULE_FILES)
        super().__setattr__(name, value)

    def _contrib_module_file(self, name: str) -> Optional["DeepModule"]:
        """The module file `name`, where this package's attribute `name` is a function over it."""
        raw = f"{self._contrib_raw}.{name}"
        return deep_module(raw) if raw in MODULE_FILES else None

    def __repr__(self) -> str:
        return f"<tf.contrib module {self._contrib_raw} (tf1compat)>"


def import_step(module: Any, name: str) -> Any:
    """`<module>.<name>` as an import reaches it: the module file where the package re-exports
    a function over it (MODULE_FILES; its attribute is the function), else the attribute."""
    found = module._contrib_module_file(name) if isinstance(module, DeepModule) else None
    return found if found is not None else getattr(module, name)


@functools.lru_cache(maxsize=None)
def deep_module(raw: str) -> DeepModule:
    return DeepModule(raw)


def deep_attribute(raw: str) -> Any:
    """What `tensorflow.contrib.<raw>` (a path with `.python.` in it) stands for.

    Raises:
      ContribError: the public name it stands for is not served (the message names it,
        the path as written, and what to use instead when known).
    """
    owner, _, item = raw.rpartition(".")
    if f"tensorflow.contrib.{owner}" in OWN_MODULES:  # a module file tf1compat serves itself
        served = importlib.import_module(OWN_MODULES[f"tensorflow.contrib.{owner}"])
        if hasattr(served, item):
            return getattr(served, item)
    if homes.target_of(raw) is not None and lookup(raw) is not None:
        # a name TF 1.15 listed at this path (quantization.python.Abs)
        return with_tf115_parameters(raw, resolve(raw))
    above = raw.rpartition(".")[0]
    public, parent = public_name(raw), public_name(above)
    if public == parent and above not in MODULE_FILES and not tf115_code.is_module_file(above):
        return deep_module(raw)
    if lookup(public) is not None:
        value = with_tf115_parameters(public, resolve(public))
        if not isinstance(value, types.ModuleType) and raw not in MODULE_FILES and \
                tf115_code.in_source_tree(raw):
            # TF 1.15's package held its module file (`recurrent.python.ops.functional_rnn`)
            return deep_module(raw)
        return value
    if is_namespace(public):
        return namespace_module(public)
    if at_module_file(raw) or tf115_code.in_source_tree(raw):
        # `learn.python.learn.estimators`: a folder or file of TF 1.15's tree, whose names
        # resolve by their public names (or from TF 1.15's file)
        return deep_module(raw)
    raise ContribError(public, f"(written tensorflow.contrib.{raw}) " + hint(public))
