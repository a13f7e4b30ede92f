"""`tf.contrib.X.Y` -> its TF2 home or tf1compat's replacement, from the one contrib table.

Runs before tf_upgrade_v2 (which would otherwise turn some contrib names into
calls that Keras 3 no longer serves), on the script as written:

- `tf.contrib.framework.get_or_create_global_step` (mapped) ->
  `tf.compat.v1.train.get_or_create_global_step`, the home the table names;
- `tf.contrib.layers.flatten` (replaced) -> `tf1compat.contrib.layers.flatten`,
  `tf.contrib.slim` (a namespace) -> `tf1compat.contrib.slim`, and `tf.contrib` itself ->
  `tf1compat.contrib`;
- `import tensorflow.contrib.slim as slim`, `from tensorflow.contrib import rnn`,
  `from tensorflow.contrib.layers import flatten` -> the same imports of tf1compat.contrib.

A local alias of a contrib namespace (`slim = tf.contrib.slim`) keeps its
name, but where tf_upgrade_v2 would rewrite a name by its spelling alone
(`slim.l2_regularizer(s)` -> `tf.keras.regularizers.l2(0.5 * (s))`, a Keras 3
regularizer that fails on TF1 graph variables) the full tf1compat name is
written instead, out of its reach.

An unsupported or unknown name is left as is and reported with the
replacement to use, if one is known; so is a mapped name whose home this
TensorFlow does not have. Rewrites keep every line where it was (imports are
added after tf_upgrade_v2 ran, see `NEEDED_IMPORTS`), so tf_upgrade_v2's
line numbers still point at the original file.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from tf1compat.contrib import module_names, registry
from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule
from tf1compat.migrate.rules.contrib_aliases import (bound_modules, dotted, rebound,
                                                     unserved_attribute)

NEEDED_IMPORTS = "tf1compat.needed_imports"  # context.scratch key: modules to import later


def needs_import(context, module: str) -> None:
    needed = context.scratch.setdefault(NEEDED_IMPORTS, [])
    if module not in needed:
        needed.append(module)


class ContribRule(Rule):
    NAME = "contrib"
    DESCRIPTION = "tf.contrib.X.Y -> its TF2 home or tf1compat.contrib (one table with run)"
    TRIGGERS = ("contrib",)

    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        self.replacements: dict[cst.CSTNode, str] = {}
        self.reported: set[str] = set()
        every = bound_modules(node, self.names.alias)
        # names bound to contrib namespaces: {'slim': 'slim'} for `slim = tf.contrib.slim`
        self.local_aliases = {name: path for name, path in every.items()
                              if registry.is_namespace(path)}
        # of those bound to contrib paths, the ones whose reads can be judged: bound to
        # nothing else in the file
        elsewhere = rebound(node, self.names.alias)
        self.bound = {name: path for name, path in every.items() if name not in elsewhere}
        self.not_read: list[cst.CSTNode] = []  # imports and assignment targets being visited

    # -- tf.contrib.X.Y in expressions --------------------------------------------------

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        name = dotted(node)
        alias = self.names.alias
        if name is None:
            return True
        if alias is not None and name == f"{alias}.contrib":  # the namespace itself, as run's
            needs_import(self.context, "tf1compat.contrib")
            self.replacements[node] = "tf1compat.contrib"
            self._report("contrib", node, Kind.CHANGED, "tf.contrib -> tf1compat.contrib "
                         "(the names tf1compat serves of it, as under `tf1compat run`)")
            return False
        if alias is None or not name.startswith(f"{alias}.contrib."):
            head, *chain = name.split(".")
            if head in self.bound and chain and not self.not_read and \
                    self._unserved_on_bound(head, chain, node):
                return False
            self._shield_from_upgrade(name, node)
            return True
        code = self._rewrite(name[len(alias) + len(".contrib."):], node)
        if code is not None:
            self.replacements[node] = code
        return False  # the chain is handled as a whole

    # an import's dotted names and an assignment's targets are not reads of a bound name
    def visit_Import(self, node: cst.Import) -> None:
        self.not_read.append(node)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self.not_read.append(node)

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self.not_read.append(node)

    def leave_AssignTarget(self, original_node: cst.AssignTarget,
                           updated_node: cst.AssignTarget) -> cst.AssignTarget:
        self.not_read.pop()
        return updated_node

    def _unserved_on_bound(self, head: str, chain: list[str], node: cst.Attribute) -> bool:
        """Reports `tpu.util.check_positive_integer` (tpu a served contrib module) when run
        would fail on it; True when it did."""
        failing = unserved_attribute(self.bound[head], chain)
        if failing is None:
            return False
        path, error = failing
        self._report(f"bound:{path}", node, Kind.NOT_CONVERTED,
                     f"{'.'.join([head, *chain])} (tf.contrib.{path}) is not served: {error}; "
                     "it fails on TF 2.21 (under `tf1compat run` too)")
        return True

    def _shield_from_upgrade(self, name: str, node: cst.Attribute) -> None:
        """`slim.l2_regularizer` (slim a contrib alias) -> the full tf1compat name."""
        from tf1compat.migrate.upgrade_v2 import alias_keys

        head, _, attr = name.partition(".")
        namespace = self.local_aliases.get(head)
        if namespace is None or "." in attr or name not in alias_keys():
            return
        entry = registry.lookup(f"{namespace}.{attr}")
        if entry is None or entry.served is not registry.Served.REPLACED:
            return
        needs_import(self.context, f"tf1compat.contrib.{namespace.split('.')[0]}")
        self.replacements[node] = entry.target
        self._report(f"alias:{name}", node, Kind.CHANGED,
                     f"{name} -> {entry.target}: tf_upgrade_v2 rewrites `{name}` by its "
                     "spelling into a Keras 3 call, which fails on TF1 graph variables")

    def leave_Attribute(self, original_node: cst.Attribute,
                        updated_node: cst.Attribute) -> cst.BaseExpression:
        code = self.replacements.get(original_node)
        return updated_node if code is None else cst.parse_expression(code)

    def _rewrite(self, name: str, node: cst.CSTNode) -> Optional[str]:
        """The code standing for `tf.contrib.<name>`, or None (reported) to leave it."""
        parts = name.split(".")
        if "python" in parts[1:] and registry.homes.target_of(name) is not None and \
                registry.lookup(name) is not None:  # a name TF 1.15 listed at this path
            return self._entry_code(registry.lookup(name), node)
        if "python" in parts[1:]:  # contrib's source tree: tf.contrib.layers.python.layers...
            return self._deep_rewrite(name, node)
        for end in range(len(parts), 0, -1):
            head, rest = ".".join(parts[:end]), parts[end:]
            entry = registry.lookup(head)
            if entry is not None and not rest and entry.served is registry.Served.UNSUPPORTED \
                    and head in registry.MODULES:
                return self._partial_module_code(head, node)
            if (entry is not None or registry.is_namespace(head)) and rest and \
                    module_names.module_of(f"{head}.{rest[0]}") is not None:
                # a module TF 1.15's namespace held (slim.init_ops): served by tf1compat's
                # module of that namespace, as under run
                needs_import(self.context, f"tf1compat.contrib.{head}")
                self._report(name, node, Kind.CHANGED, f"tf.contrib.{name} -> "
                             f"tf1compat.contrib.{name}: TF 1.15's tf.contrib.{head} held the "
                             f"module {rest[0]}")
                return f"tf1compat.contrib.{name}"
            if entry is not None:
                if rest and entry.source == registry.TF_SLIM and not self._library_has(
                        entry, rest[0], node):
                    return None
                code = self._entry_code(entry, node)
                return None if code is None else ".".join([code, *rest])
            if registry.is_namespace(head):
                if rest:  # a name the table does not know, under a known namespace
                    self._not_converted(".".join([head, rest[0]]), node)
                    return None
                return self._namespace_code(head, node)
        self._not_converted(parts[0], node)
        return None

    def _library_has(self, entry: registry.Entry, name: str, node: cst.CSTNode) -> bool:
        """Whether the library module an entry maps to has `name` (reported when it has not)."""
        from tf1compat.contrib.import_check import import_error

        error = import_error(entry.name, (name,))
        if error is None or "not installed" in error:  # not installed here: said at run time
            return True
        self._report(f"{entry.name}.{name}", node, Kind.NOT_CONVERTED,
                     f"tf.contrib.{entry.name}.{name} left as is: {entry.target} has no "
                     f"{name} ({error}); it fails on TF 2.21 (under `tf1compat run` too)")
        return False

    def _deep_rewrite(self, name: str, node: cst.CSTNode) -> Optional[str]:
        """`tf.contrib.X.python...` -> the code of the public name it stands for."""
        from tf1compat.contrib.import_check import import_error
        from tf1compat.contrib.registry import DeepModule
        from tf1compat.contrib.paths import public_name

        parts = name.split(".")
        for index, part in enumerate(parts[1:-1], start=1):
            if part[:1].isupper():  # a class, then its attributes (InputPipelineConfig.BROADCAST)
                code = self._deep_rewrite(".".join(parts[:index + 1]), node)
                return None if code is None else ".".join([code, *parts[index + 1:]])
        head, _, last = name.rpartition(".")
        error = import_error(head, (last,))
        if error is not None:
            self._report(name, node, Kind.NOT_CONVERTED, f"tf.contrib.{name} left as is: "
                         f"{error}; it fails on TF 2.21 (under `tf1compat run` too)")
            return None
        if isinstance(_resolve_module(name), DeepModule):  # a folder or module: keep the path
            needs_import(self.context, f"tf1compat.contrib.{name}")
            self._report(name, node, Kind.CHANGED,
                         f"tf.contrib.{name} -> tf1compat.contrib.{name}")
            return f"tf1compat.contrib.{name}"
        return self._rewrite(public_name(name), node)

    def _entry_code(self, entry: registry.Entry, node: cst.CSTNode) -> Optional[str]:
        if entry.served is registry.Served.UNSUPPORTED:
            self._not_converted(entry.name, node)
            return None
        missing = registry.missing_home(entry)
        if missing is not None:
            self._report(entry.name, node, Kind.NOT_CONVERTED, f"left as is: {missing}")
            return None
        if entry.served is registry.Served.MAPPED and entry.target.startswith("tf."):
            code = f"{self.names.alias}.{entry.target[len('tf.'):]}"
            self._report(entry.name, node, Kind.CHANGED,
                         f"tf.contrib.{entry.name} -> {entry.target} (its TF2 home, from "
                         f"{_source(entry)})")
            return code
        needs_import(self.context, registry.import_for(entry))
        if entry.source in registry.homes.SOURCES.values() and entry.source != registry.TF_SLIM:
            code = f"tf1compat.contrib.{entry.name}"  # as `run` serves it, from TF 1.15's home
            self._report(entry.name, node, Kind.CHANGED,
                         f"tf.contrib.{entry.name} -> {code} ({entry.note})")
            return code
        if entry.source == registry.TF_SLIM:  # through tf1compat, which makes tf_slim fit
            code = f"tf1compat.contrib.{entry.name}"
            self._report(entry.name, node, Kind.CHANGED,
                         f"tf.contrib.{entry.name} -> {code} ({entry.target}, the tf_slim "
                         "library: contrib.slim's own code)")
            return code
        self._report(entry.name, node, Kind.CHANGED,
                     f"tf.contrib.{entry.name} -> {entry.target} (tf1compat's replacement: "
                     "tf.contrib is not in TF 2)")
        return entry.target

    def _namespace_code(self, namespace: str, node: cst.CSTNode) -> str:
        top = namespace.split(".")[0]
        needs_import(self.context, f"tf1compat.contrib.{top}" if top in registry.MODULES
                     else "tf1compat.contrib")
        self._report(namespace, node, Kind.CHANGED,
                     f"tf.contrib.{namespace} -> tf1compat.contrib.{namespace} (its names are "
                     "served from tf1compat's contrib table)")
        return f"tf1compat.contrib.{namespace}"

    def _partial_module_code(self, name: str, node: cst.CSTNode) -> str:
        """The module itself (`learn = tf.contrib.learn`) of a contrib module served only in
        part: tf1compat's, as `run` serves it; its names that are not served raise there."""
        needs_import(self.context, f"tf1compat.contrib.{name}")
        self._report(f"module:{name}", node, Kind.CHANGED,
                     f"tf.contrib.{name} -> tf1compat.contrib.{name} (the module as `tf1compat "
                     f"run` serves it; only part of it is served: {registry.hint(name)})")
        return f"tf1compat.contrib.{name}"

    def _not_converted(self, name: str, node: cst.CSTNode) -> None:
        self._report(name, node, Kind.NOT_CONVERTED,
                     f"tf.contrib.{name} left as is: {registry.hint(name)}; it fails on TF 2.21 "
                     "(under `tf1compat run` too)")

    def _report(self, name: str, node, kind: Kind, message: str) -> None:
        if name not in self.reported:
            self.reported.add(name)
            self.add(node, kind, message)

    # -- import tensorflow.contrib... ---------------------------------------------------

    def leave_Import(self, original_node: cst.Import,
                     updated_node: cst.Import) -> cst.Import:
        self.not_read.pop()
        names = []
        for alias in updated_node.names:
            module = dotted(alias.name)
            if module == "tensorflow.contrib" and alias.asname:  # its names as run serves them
                alias = alias.with_changes(name=cst.parse_expression("tf1compat.contrib"))
                self._report(module, original_node, Kind.CHANGED,
                             "import tensorflow.contrib -> import tf1compat.contrib (the names "
                             "tf1compat serves of it, as under `tf1compat run`)")
            elif module and module.startswith("tensorflow.contrib.") and alias.asname:
                namespace = module[len("tensorflow.contrib."):]
                if namespace in registry.MODULE_HOMES:
                    home = registry.MODULE_HOMES[namespace]
                    alias = alias.with_changes(name=cst.parse_expression(home))
                    self._report(namespace, original_node, Kind.CHANGED,
                                 f"import {module} -> import {home}: "
                                 f"{registry.lookup(namespace).note}")
                else:
                    target = self._served_import(module, namespace, (), original_node)
                    alias = alias if target is None else alias.with_changes(name=target)
            names.append(alias)
        return updated_node.with_changes(names=names)

    def _served_import(self, module: str, namespace: str, names: tuple[str, ...], node):
        """The import under tf1compat.contrib when everything it names is served, else None.

        Asks `import_check.import_error`, the check `run` makes on the same import.
        """
        from tf1compat.contrib.import_check import import_error

        error = import_error(namespace, names)
        what = f"from {module} import {', '.join(names)}" if names else f"import {module}"
        if error is not None:
            self._report(what, node, Kind.NOT_CONVERTED,
                         f"{what} left as is: {error}; it fails on TF 2.21 (under "
                         "`tf1compat run` too)")
            return None
        target = "tf1compat.contrib" + (f".{namespace}" if namespace else "")
        self._report(what, node, Kind.CHANGED,
                     f"{what} -> {what.replace('tensorflow.contrib', 'tf1compat.contrib', 1)}")
        return cst.parse_expression(target)

    def leave_ImportFrom(self, original_node: cst.ImportFrom,
                         updated_node: cst.ImportFrom) -> cst.ImportFrom:
        self.not_read.pop()
        module = dotted(updated_node.module) if updated_node.module else None
        if not module or updated_node.relative or not (
                module == "tensorflow.contrib" or module.startswith("tensorflow.contrib.")):
            return updated_node
        namespace = module[len("tensorflow.contrib."):] if module != "tensorflow.contrib" else ""
        home = self._module_home(namespace, updated_node)
        if home is not None:
            module_home, names, note = home
            self._report(module, original_node, Kind.CHANGED,
                         f"from {module} import ... -> from {module_home} import ...: {note}")
            return updated_node.with_changes(module=cst.parse_expression(module_home),
                                             names=names)
        names = ("*",) if isinstance(updated_node.names, cst.ImportStar) else \
            tuple(alias.name.value for alias in updated_node.names)
        target = self._served_import(module, namespace, names, original_node)
        return updated_node if target is None else updated_node.with_changes(module=target)

    @staticmethod
    def _module_home(namespace: str, node: cst.ImportFrom):
        """(module, names, note) when the import is of a contrib module tf1compat serves elsewhere.

        `from tensorflow.contrib.learn.python.learn.datasets.mnist import read_data_sets` ->
        `from tf1compat.tutorials.mnist import read_data_sets`; `from ...datasets import mnist`
        -> `from tf1compat.tutorials import mnist` (every name imported must be such a module).
        """
        if namespace in registry.MODULE_HOMES:
            return registry.MODULE_HOMES[namespace], node.names, registry.lookup(namespace).note
        if isinstance(node.names, cst.ImportStar) or not namespace:
            return None
        homes = [registry.MODULE_HOMES.get(f"{namespace}.{alias.name.value}")
                 for alias in node.names]
        if not all(homes) or len({home.rpartition(".")[0] for home in homes}) != 1:
            return None
        names = [alias.with_changes(
                     name=cst.Name(home.rpartition(".")[2]),
                     asname=alias.asname or (cst.AsName(name=cst.Name(alias.name.value))
                                             if home.rpartition(".")[2] != alias.name.value
                                             else None))
                 for alias, home in zip(node.names, homes)]
        note = registry.lookup(f"{namespace}.{node.names[0].name.value}").note
        return homes[0].rpartition(".")[0], names, note


def _resolve_module(path: str):
    import tf1compat.contrib as module

    for part in path.split("."):
        module = getattr(module, part)
    return module


def _source(entry: registry.Entry) -> str:
    return {"tf_upgrade_v2": "TensorFlow's upgrade table",
            registry.homes.SOURCES["alias"]: "TF 1.15, where tf.contrib's name was the same "
                                             "object"}.get(entry.source, "tf1compat's table")
