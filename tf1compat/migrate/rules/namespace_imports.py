"""Imports of TF 1.15's API namespaces as modules -> the same names read from `tensorflow`.

TF 1.15 let a script import its API namespaces as if they were modules:
`from tensorflow.train import AdamOptimizer`, `import tensorflow.nn.rnn_cell as rnn_cell`,
`from tensorflow import layers`. On TF 2.21 those paths are TF 2's modules (no
`AdamOptimizer` in `tensorflow.train`, no `tensorflow.layers` at all), so the import fails
or binds a TF 2 name. Every other rule already knows each name in its attribute form
(`tf.train.AdamOptimizer`), so the import is written in that form and the later rules
(tf_upgrade_v2's renames, legacy layers, TF 1.15 positions) treat it as they treat the same
name written as `tf.X` — one name on every path:

- `from tensorflow.train import AdamOptimizer as Adam` -> `Adam = tensorflow.train.AdamOptimizer`;
- a namespace bound as a module (`import tensorflow.nn.rnn_cell as rnn_cell`,
  `from tensorflow import layers`, `from tensorflow.saved_model import signature_constants`):
  each `rnn_cell.X` in the file becomes `tensorflow.nn.rnn_cell.X`; where the module itself
  is used (passed, or read with another name), `rnn_cell = tensorflow.nn.rnn_cell` stays too.

Which is a module and which a name is TF 1.15's own answer (the committed surface data).
`import tensorflow` is added where the file has no alias for it, and the names are then
written as `tensorflow.compat.v1.X` (tf_upgrade_v2 renames only under the file's own alias);
where the file's `import tensorflow as tf` comes after the import rewritten, it is repeated
before the first name read from it. `tf.contrib`, `tf.keras`, `tf.estimator` and `tf.compat`
imports are their own rules'; a star import is left as it is. A namespace used as a value
(`vars(tf.train)`, `m = tf.nn`) is the v1-namesakes rule's.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Optional

import libcst as cst
from libcst.codemod.visitors import AddImportsVisitor

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule, tensorflow_alias
from tf1compat.migrate.rules.contrib import dotted
from tf1compat.runner.served import TF1_NAMESPACES

# Namespaces whose imports other rules rewrite to their own homes.
_OWN_RULES = {"contrib", "keras", "estimator", "compat"}
NAMESPACES = TF1_NAMESPACES - _OWN_RULES
_WHY = ("TF 1.15 served its API namespaces as modules; on TF 2.21 this path is TF 2's module, "
        "so the name is read from tensorflow as TF1 code reads it")


@lru_cache(maxsize=1)
def _tf115_kinds() -> dict[str, str]:
    from tf1compat.surface import reference

    return {name[3:]: entry["kind"] for name, entry in reference.load().names.items()
            if name.startswith("tf.")}


def is_namespace_module(path: str) -> bool:
    """Whether `tf.<path>` is a module in TF 1.15's API ('nn.rnn_cell': yes)."""
    return path.split(".")[0] in NAMESPACES and _tf115_kinds().get(path) == "module"


def _bindings(node: cst.CSTNode) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(module bindings, name bindings) of one import statement: (local name, path under tf)."""
    modules, names = [], []
    if isinstance(node, cst.Import):
        for alias in node.names:
            full = dotted(alias.name) or ""
            path = full[len("tensorflow."):] if full.startswith("tensorflow.") else ""
            if alias.asname is not None and is_namespace_module(path):
                modules.append((alias.asname.name.value, path))
    elif isinstance(node, cst.ImportFrom) and node.relative == () and node.module is not None \
            and not isinstance(node.names, cst.ImportStar):
        module = dotted(node.module) or ""
        if module != "tensorflow" and not (module.startswith("tensorflow.") and
                                           module.split(".")[1] in NAMESPACES):
            return [], []
        base = module[len("tensorflow."):] if module != "tensorflow" else ""
        for alias in node.names:
            name = alias.name.value if isinstance(alias.name, cst.Name) else ""
            path = f"{base}.{name}" if base else name
            local = alias.asname.name.value if alias.asname else name
            if is_namespace_module(path):
                modules.append((local, path))
            elif base:
                names.append((local, path))
    return modules, names


class _Uses(cst.CSTVisitor):
    """Where each module-bound local name is read other than as `local.attribute`."""

    def __init__(self, locals_: set[str]):
        self.locals = locals_
        self.bare: set[str] = set()
        self._attribute_values: set[int] = set()

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if isinstance(node.value, cst.Name):
            self._attribute_values.add(id(node.value))

    def visit_Import(self, node) -> bool:
        return False

    def visit_ImportFrom(self, node) -> bool:
        return False

    def visit_Name(self, node: cst.Name) -> None:
        if node.value in self.locals and id(node) not in self._attribute_values:
            self.bare.add(node.value)


class NamespaceImportsRule(Rule):
    NAME = "namespace-imports"
    DESCRIPTION = ("from tensorflow.train import X / import tensorflow.nn.rnn_cell as m -> "
                   "the names read from tensorflow, as every other rule knows them")
    TRIGGERS = ("from tensorflow", "import tensorflow.")

    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        # Without an `import tensorflow [as tf]` of its own the file gets `import tensorflow`,
        # and the names are written as TF1's (compat.v1): tf_upgrade_v2 renames names under a
        # file's own alias only.
        alias = tensorflow_alias(node)
        self.tf = alias or "tensorflow.compat.v1"
        self.alias_bound = alias is None  # until `import tensorflow as <alias>` is passed
        self.module_paths: dict[str, str] = {}
        collector = _ImportCollector()
        node.visit(collector)
        for statement in collector.statements:
            modules, _ = _bindings(statement)
            self.module_paths.update(modules)
        uses = _Uses(set(self.module_paths))
        node.visit(uses)
        self.bare = uses.bare

    def leave_SimpleStatementLine(self, original_node, updated_node):
        kept, added, touched = [], [], False
        if not self.alias_bound and any(_binds_alias(small, self.tf) for small in updated_node.body):
            self.alias_bound = True
        for small in updated_node.body:
            modules, names = _bindings(small)
            if not modules and not names:
                kept.append(small)
                continue
            touched = True
            bound = {local for local, _ in modules + names}
            rest = _without(small, bound)
            if rest is not None:
                kept.append(rest)
            for local, path in names:
                added.append(self._assign(local, path))
                self.add(original_node, Kind.CHANGED,
                         f"import of tensorflow.{path} -> {local} = {self.tf}.{path}: {_WHY}")
            for local, path in modules:
                if local in self.bare:  # the namespace itself, as TF1 had it
                    added.append(self._assign(local, self._v1(path)))
                self.add(original_node, Kind.CHANGED,
                         f"tensorflow.{path} imported as {local} -> {local}.X read as "
                         f"{self.tf}.{path}.X: {_WHY}")
        if not touched:
            return updated_node
        if not kept and not added:
            return cst.RemovalSentinel.REMOVE
        if added and self.tf.startswith("tensorflow."):
            AddImportsVisitor.add_needed_import(self.context, "tensorflow")
        elif added and not self.alias_bound:  # the file imports tensorflow as its alias later
            added.insert(0, cst.parse_statement(f"import tensorflow as {self.tf}").body[0])
            self.alias_bound = True
        statements = ([updated_node.with_changes(body=kept)] if kept else []) + [
            cst.SimpleStatementLine(body=[assign]) for assign in added]
        if not kept:
            statements[0] = statements[0].with_changes(
                leading_lines=updated_node.leading_lines)
        return cst.FlattenSentinel(statements)

    def leave_Attribute(self, original_node, updated_node):
        value = updated_node.value
        if isinstance(value, cst.Name) and value.value in self.module_paths:
            chain = cst.parse_expression(f"{self.tf}.{self.module_paths[value.value]}")
            return updated_node.with_changes(value=chain)
        return updated_node

    def _v1(self, path: str) -> str:
        return path if self.tf.endswith("compat.v1") else f"compat.v1.{path}"

    def _assign(self, local: str, path: str) -> cst.Assign:
        return cst.Assign(targets=[cst.AssignTarget(cst.Name(local))],
                          value=cst.parse_expression(f"{self.tf}.{path}"))


def _binds_alias(node: cst.CSTNode, alias: str) -> bool:
    """Whether `node` is `import tensorflow as <alias>` (or `import tensorflow`)."""
    return isinstance(node, cst.Import) and any(
        dotted(item.name) == "tensorflow"
        and (item.asname.name.value if item.asname else "tensorflow") == alias
        for item in node.names)


class _ImportCollector(cst.CSTVisitor):
    def __init__(self):
        self.statements: list[cst.CSTNode] = []

    def visit_Import(self, node: cst.Import) -> None:
        self.statements.append(node)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self.statements.append(node)


def _without(node, bound: set[str]) -> Optional[cst.CSTNode]:
    """The import statement without the aliases binding `bound`; None when none is left."""
    def local(alias) -> str:
        if alias.asname is not None:
            return alias.asname.name.value
        return alias.name.value if isinstance(alias.name, cst.Name) else ""
    left = [alias for alias in node.names if local(alias) not in bound]
    if not left:
        return None
    left[-1] = left[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return node.with_changes(names=left)
