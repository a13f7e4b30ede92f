"""A core spelling of a contrib object tf1compat serves with TF 1.15's behaviour -> tf1compat's.

TF 1.15 gave one object under several names: `tf.contrib.cluster_resolver.TPUClusterResolver`
*is* `tf.distribute.cluster_resolver.TPUClusterResolver`. tf1compat replaces the contrib one
where TF 2.21's behaves otherwise (TF 2.21's resolver sends '' to the Cloud TPU API and
raises), and `run` serves every spelling with the replacement
(`tf1compat.contrib.tables.SERVED_UNDER_EVERY_SPELLING`); a migrated script gets the same:
`tf.distribute.cluster_resolver.TPUClusterResolver` (also once the private-paths rule has made
`tensorflow.python...tpu_cluster_resolver.TPUClusterResolver` that public name) ->
`tf1compat.contrib.cluster_resolver.TPUClusterResolver`.
"""

from __future__ import annotations

import libcst as cst
import libcst.matchers as m
from libcst.codemod.visitors import AddImportsVisitor
from libcst.helpers import get_full_name_for_node

from tf1compat.contrib.tables import OTHER_SPELLINGS
from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule

# `tf.<path>` spelling -> the contrib name it stands for
_BY_PATH = {spelling: name for spelling, name in OTHER_SPELLINGS.items() if ":" not in spelling}
# 'module:name' spelling (TensorFlow's own module) -> the contrib name
_BY_HOME = {spelling: name for spelling, name in OTHER_SPELLINGS.items() if ":" in spelling}


class ContribSpellingsRule(Rule):
    NAME = "contrib-spellings"
    DESCRIPTION = ("a core spelling of a contrib object served with TF 1.15's behaviour -> "
                   "tf1compat's object")
    TRIGGERS = tuple(sorted({path.rpartition(".")[2] for path in _BY_PATH}))

    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        self.holders: dict[str, str] = {}  # local name -> TensorFlow module holding a spelling
        for imp in m.findall(node, m.ImportFrom()):
            module = get_full_name_for_node(imp.module) if imp.module else None
            if module and not isinstance(imp.names, cst.ImportStar):
                for alias in imp.names:
                    full = f"{module}.{alias.name.value}"
                    if any(home.startswith(full + ":") for home in _BY_HOME):
                        bound = alias.asname.name.value if alias.asname else alias.name.value
                        self.holders[bound] = full

    def _replaced(self, node: cst.CSTNode, spelling: str, name: str) -> cst.BaseExpression:
        target = f"tf1compat.contrib.{name}"
        AddImportsVisitor.add_needed_import(self.context, f"tf1compat.contrib.{name.split('.')[0]}")
        self.add(node, Kind.CHANGED,
                 f"{spelling} -> {target}: TF 1.15's {spelling} was tf.contrib.{name}, whose TF "
                 "1.15 behaviour tf1compat serves (TF 2.21's differs), as `tf1compat run` does")
        return cst.parse_expression(target)

    def leave_Attribute(self, original_node: cst.Attribute,
                        updated_node: cst.Attribute) -> cst.BaseExpression:
        path = self.names.v1_name(original_node)
        if path in _BY_PATH:
            return self._replaced(original_node, f"tf.{path}", _BY_PATH[path])
        head = get_full_name_for_node(original_node.value)
        home = f"{self.holders.get(head or '')}:{original_node.attr.value}"
        if home in _BY_HOME:
            return self._replaced(original_node, home.replace(":", "."), _BY_HOME[home])
        return updated_node

    def leave_ImportFrom(self, original_node: cst.ImportFrom,
                         updated_node: cst.ImportFrom) -> cst.ImportFrom:
        """`from <TensorFlow's module> import TPUClusterResolver` -> from tf1compat's."""
        module = get_full_name_for_node(original_node.module) if original_node.module else None
        if not module or isinstance(original_node.names, cst.ImportStar) or \
                len(original_node.names) != 1:
            return updated_node
        alias = original_node.names[0]
        name = _BY_HOME.get(f"{module}:{alias.name.value}")
        if name is None:
            return updated_node
        namespace, _, attribute = name.rpartition(".")
        self.add(original_node, Kind.CHANGED,
                 f"from {module} import {attribute} -> from tf1compat.contrib.{namespace}: TF "
                 f"1.15's was tf.contrib.{name}, whose TF 1.15 behaviour tf1compat serves")
        return updated_node.with_changes(module=cst.parse_expression(
            f"tf1compat.contrib.{namespace}"))
