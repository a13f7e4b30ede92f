"""TF1's `tf.keras` -> tf_keras's TF1 API: `tf.keras.layers.Dense` -> `tf_keras.api._v1.keras.layers.Dense`.

TF 1.15's `tf.keras` was Keras 2 (its `tf.compat.v1.keras` API: `backend.set_session`,
optimizers with `lr=` and `decay=`, v1 initializers with `dtype`). TF 2.21's `tf.keras` is
Keras 3, which has none of those and builds no TF1 graph; `tf1compat run` serves the TF1
API of legacy Keras (tf_keras), as TensorFlow does when `TF_USE_LEGACY_KERAS` is set before
it is imported. A migrated script runs under plain Python, where nothing sets it, so its
`tf.keras` names are written as tf_keras's TF1 API, the same module TensorFlow itself
routes `tf.compat.v1.keras` to:

- `tf.keras.X`, `tf.compat.v1.keras.X` (any alias of tensorflow) ->
  `tf_keras.api._v1.keras.X`; `tf.compat.v2.keras.X` (TF 1.15's TF2 API) -> `tf_keras.X`;
- `from tensorflow.keras.layers import Dense`, `import tensorflow.keras.backend as K`
  -> the same imports from `tf_keras.api._v1.keras...`; `from tensorflow import keras`
  -> `from tf_keras.api._v1 import keras`.

Runs before tf_upgrade_v2, on the script as written: its renames of `tf.keras` names are
for Keras 3 (`tf.keras.optimizers.SGD` -> `tf.keras.optimizers.legacy.SGD`), which a
script on tf_keras's TF1 API does not need. `tensorflow.python.keras` (TF 1.15's `tf.keras`
itself, where TF 2.21 keeps only a part of a frozen copy) is the private-paths rule's: its
names with a public TF1 name go to the same tf_keras TF1 API.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from tf1compat.keras2 import dropped
from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule
from tf1compat.migrate.rules.contrib import dotted, needs_import

V1_KERAS = "tf_keras.api._v1.keras"
V2_KERAS = "tf_keras"
_WHY = ("TF 2.21's tf.keras is Keras 3; TF 1.15's was Keras 2, which tf_keras's TF1 API "
        "serves")
_DROPPED_WHY = dropped.WHY
# Where each spelling of TF1's keras package lives in TF 1.15, as a path after `tensorflow`.
_PACKAGES = {"keras": V1_KERAS, "compat.v1.keras": V1_KERAS, "compat.v2.keras": V2_KERAS}


def _dropped_home(path: str) -> Optional[str]:
    """Where tf1compat serves a TF 1.15 tf.keras name tf_keras dropped or changed, or the
    object it is an attribute of ('keras.utils.HDF5Matrix' -> 'tf1compat.keras2.io_utils.
    HDF5Matrix'); None for any other path."""
    found = _dropped(path)
    return None if found is None else found[0]


def _dropped(path: str) -> Optional[tuple[str, str]]:
    """(home, the module to import for it) of `_dropped_home`, or None."""
    parts = path.split(".")
    for end in range(len(parts), 1, -1):
        served = dropped.served_name(".".join(parts[:end]))
        if served is not None:
            return ".".join([dropped.dotted(served), *parts[end:]]), dropped.module_of(served)
    return None


def keras_home(path: str) -> Optional[str]:
    """'keras.layers.Dense' (a path under tensorflow) -> 'tf_keras.api._v1.keras.layers.Dense';
    None for a path outside TF1's keras. A name tf_keras dropped or changed goes where
    tf1compat's Keras 2 serves it (`tf1compat.keras2.dropped`)."""
    served = _dropped_home(path)
    if served is not None:
        return served
    for package, home in _PACKAGES.items():
        if path == package or path.startswith(package + "."):
            return home + path[len(package):]
    return None


def _bound_keras_modules(module: cst.Module) -> dict[str, str]:
    """The names `module` binds to TF1's keras modules by import -> their path after
    `tensorflow.` ('keras' for `from tensorflow import keras`, 'keras.utils' for `import
    tensorflow.keras.utils as U` or `from tensorflow.keras import utils`)."""
    import libcst.matchers as m

    bound: dict[str, str] = {}
    for imp in m.findall(module, m.ImportFrom() | m.Import()):
        if isinstance(imp, cst.Import):
            for alias in imp.names:
                path = (dotted(alias.name) or "").partition(".")[2]
                if alias.asname is not None and keras_home(path) is not None:
                    bound[alias.asname.name.value] = path
            continue
        source = dotted(imp.module) if imp.module is not None and not imp.relative else None
        if source is None or not source.startswith("tensorflow") or \
                isinstance(imp.names, cst.ImportStar):
            continue
        for alias in imp.names:
            path = f"{source.partition('.')[2]}.{alias.name.value}".lstrip(".")
            if keras_home(path) is not None and isinstance(alias.name, cst.Name):
                name = alias.asname.name.value if alias.asname is not None else alias.name.value
                bound[name] = path
    return bound


def _why(home: str) -> str:
    return _WHY if home.split(".")[0] == V2_KERAS else _DROPPED_WHY


def _module_home(module: Optional[str]) -> Optional[str]:
    if module is None or not module.startswith("tensorflow."):
        return None
    return keras_home(module[len("tensorflow."):])


class TfKerasRule(Rule):
    NAME = "tf-keras"
    DESCRIPTION = "tf.keras (TF1's Keras 2) -> tf_keras's TF1 API (tf_keras.api._v1.keras)"
    TRIGGERS = ("keras",)

    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        self.reported: set[str] = set()
        # statements that go on an import's line: `from tensorflow import keras, x`'s import
        # of keras, the names tf_keras dropped
        self.split: dict[int, list[cst.ImportFrom]] = {}
        # names the file binds to TF1's keras modules (`from tensorflow import keras`, `import
        # tensorflow.keras.utils as U`) -> their path after `tensorflow.`
        self.bound_keras = _bound_keras_modules(node)

    def _report(self, node, old: str, new: str, why: str = _WHY) -> None:
        if old not in self.reported:
            self.reported.add(old)
            self.add(node, Kind.CHANGED, f"{old} -> {new}: {why}")

    # -- tf.keras.X in expressions --------------------------------------------------------

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        # a rewritten chain is handled as a whole
        return self._home_of_chain(node) is None and self._dropped_of_chain(node) is None

    def _home_of_chain(self, node: cst.Attribute) -> Optional[str]:
        name = dotted(node)
        if name is None:
            return None
        for head in {self.names.alias, "tensorflow"} - {None}:
            if name.startswith(head + "."):
                return keras_home(name[len(head) + 1:])
        return None

    def _dropped_of_chain(self, node: cst.Attribute) -> Optional[tuple[str, str]]:
        name = dotted(node) or ""
        for head in {self.names.alias, "tensorflow"} - {None}:
            if name.startswith(head + "."):
                return _dropped(name[len(head) + 1:])
        head, _, rest = name.partition(".")
        if head in self.bound_keras and rest:  # `keras.utils.HDF5Matrix` on a bound module
            return _dropped(f"{self.bound_keras[head]}.{rest}")
        return None

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute):
        name = dotted(original_node) or ""
        served = self._dropped_of_chain(original_node)
        if served is not None:  # a name tf_keras dropped: tf1compat's Keras 2 serves it
            needs_import(self.context, served[1])
            self._report(original_node, name, served[0], _DROPPED_WHY)
            return cst.parse_expression(served[0])
        home = self._home_of_chain(original_node)
        if home is None:
            return updated_node
        module = V1_KERAS if home.startswith(V1_KERAS) else V2_KERAS
        needs_import(self.context, module)
        package = name[:name.index(".keras") + len(".keras")]
        self._report(original_node, f"{package}.*", f"{module}.*")
        return cst.parse_expression(home)

    # -- imports ------------------------------------------------------------------------

    def visit_Import(self, node: cst.Import) -> bool:
        return False  # its module names are rewritten whole below, not as chains

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        return False

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import) -> cst.Import:
        names = []
        for alias in updated_node.names:
            module = dotted(alias.name)
            home = _module_home(module)
            if home is not None and alias.asname is not None:
                self._report(original_node, f"import {module}", f"import {home}", _why(home))
                alias = alias.with_changes(name=cst.parse_expression(home))
            elif home is not None:  # binds `tensorflow`: its keras chains are rewritten above
                needs_import(self.context, home)
            names.append(alias)
        return updated_node.with_changes(names=names)

    def leave_ImportFrom(self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom):
        if updated_node.relative or updated_node.module is None:
            return updated_node
        module = dotted(updated_node.module)
        home = _module_home(module)
        if home is not None:
            self._report(original_node, f"from {module} import ...", f"from {home} import ...",
                         _why(home))
            updated_node = updated_node.with_changes(module=cst.parse_expression(home))
            return self._dropped_apart(original_node, updated_node, module)
        home = _module_home(f"{module}.keras")
        if home is None or isinstance(updated_node.names, cst.ImportStar):
            return updated_node
        keras = [alias for alias in updated_node.names if alias.name.value == "keras"]
        if not keras:
            return updated_node
        parent, _, _ = home.rpartition(".")
        moved = updated_node.with_changes(module=cst.parse_expression(parent), names=[
            keras[0].with_changes(comma=cst.MaybeSentinel.DEFAULT)])
        self._report(original_node, f"from {module} import keras", f"from {parent} import keras")
        rest = [alias for alias in updated_node.names if alias.name.value != "keras"]
        if not rest:
            return moved
        rest[-1] = rest[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        self.split[id(original_node)] = [moved]
        return updated_node.with_changes(names=rest)

    def _dropped_apart(self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom,
                       module: str) -> cst.ImportFrom:
        """`from tensorflow.keras.utils import multi_gpu_model, to_categorical`: the names
        tf_keras dropped are imported from where tf1compat serves them, on the same line."""
        if isinstance(updated_node.names, cst.ImportStar):
            return updated_node
        inside, kept, moved = module[len("tensorflow."):], [], []
        for alias in updated_node.names:
            found = _dropped(f"{inside}.{alias.name.value}") \
                if isinstance(alias.name, cst.Name) else None
            if found is None:
                kept.append(alias)
                continue
            home, _ = found
            self._report(original_node, f"{module}.{alias.name.value}", home, _DROPPED_WHY)
            moved.append(cst.ImportFrom(
                module=cst.parse_expression(home.rpartition(".")[0]),
                names=[alias.with_changes(comma=cst.MaybeSentinel.DEFAULT)]))
        if not moved:
            return updated_node
        if not kept:
            first, moved = moved[0], moved[1:]
        else:
            kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            first = updated_node.with_changes(names=kept)
        self.split.setdefault(id(original_node), []).extend(moved)
        return first

    def leave_SimpleStatementLine(self, original_node: cst.SimpleStatementLine,
                                  updated_node: cst.SimpleStatementLine):
        """`from tensorflow import keras, x` -> `from tensorflow import x; from ... import
        keras`: on the same line, so the lines stay where tf_upgrade_v2's findings say."""
        return self._with_split(original_node, updated_node)

    def leave_SimpleStatementSuite(self, original_node: cst.SimpleStatementSuite,
                                   updated_node: cst.SimpleStatementSuite):
        """The same for a suite on its header's line (`if ok: from tensorflow import ...`)."""
        return self._with_split(original_node, updated_node)

    def _with_split(self, original_node, updated_node):
        body = []
        for original, small in zip(original_node.body, updated_node.body):
            body.append(small)
            body.extend(self.split.get(id(original), ()))
        return updated_node.with_changes(body=body) if len(body) > len(updated_node.body) \
            else updated_node
