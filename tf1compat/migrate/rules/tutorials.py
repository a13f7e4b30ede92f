"""`from tensorflow.examples.tutorials.mnist import input_data` -> tf1compat's MNIST reader.

TF 2.21 has no `tensorflow.examples`; `tf1compat.tutorials.mnist` is the old
reader on local files (it never downloads). The import keeps its name, so
`input_data.read_data_sets(...)` in the script stays as it is:

- `from tensorflow.examples.tutorials.mnist import input_data [as X]` ->
  `from tf1compat.tutorials import mnist as input_data` (or `as X`);
- `import tensorflow.examples.tutorials.mnist.input_data as X` -> `import tf1compat.tutorials.mnist as X`;
- `from tensorflow.examples.tutorials.mnist.input_data import read_data_sets` ->
  `from tf1compat.tutorials.mnist import read_data_sets`.
Other `tensorflow.examples` imports are reported: nothing serves them.
"""

from __future__ import annotations

import libcst as cst

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule
from tf1compat.migrate.rules.contrib import dotted

_PACKAGE = "tensorflow.examples.tutorials.mnist"
_MODULE = _PACKAGE + ".input_data"
_OURS = "tf1compat.tutorials.mnist"
_WHY = ("TF 2.21 has no tensorflow.examples; tf1compat.tutorials.mnist is the same reader on "
        "local files (it never downloads)")


class TutorialsRule(Rule):
    NAME = "tutorials"
    DESCRIPTION = "tensorflow.examples.tutorials.mnist.input_data -> tf1compat.tutorials.mnist"
    TRIGGERS = ("tensorflow.examples",)

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import) -> cst.Import:
        names = []
        for alias in updated_node.names:
            module = dotted(alias.name)
            if module == _MODULE and alias.asname:
                alias = alias.with_changes(name=cst.parse_expression(_OURS))
                self.add(original_node, Kind.CHANGED, f"import {_MODULE} -> import {_OURS}: {_WHY}")
            elif module and module.startswith("tensorflow.examples"):
                self.add(original_node, Kind.NOT_CONVERTED, f"import {module} left as is: "
                         "TF 2.21 has no tensorflow.examples and tf1compat serves only "
                         f"{_MODULE}{' (imported without `as`)' if module == _MODULE else ''}")
            names.append(alias)
        return updated_node.with_changes(names=names)

    def leave_ImportFrom(self, original_node: cst.ImportFrom,
                         updated_node: cst.ImportFrom) -> cst.ImportFrom:
        module = dotted(updated_node.module) if updated_node.module else None
        if not module or updated_node.relative or not module.startswith("tensorflow.examples"):
            return updated_node
        if module == _MODULE:
            self.add(original_node, Kind.CHANGED, f"from {_MODULE} import ... -> from {_OURS} "
                     f"import ...: {_WHY}")
            return updated_node.with_changes(module=cst.parse_expression(_OURS))
        if module == _PACKAGE and not isinstance(updated_node.names, cst.ImportStar) and \
                [alias.name.value for alias in updated_node.names] == ["input_data"]:
            [alias] = updated_node.names
            asname = alias.asname or cst.AsName(name=cst.Name("input_data"))
            self.add(original_node, Kind.CHANGED, f"from {_PACKAGE} import input_data -> from "
                     f"tf1compat.tutorials import mnist as {asname.name.value}: {_WHY}")
            return updated_node.with_changes(
                module=cst.parse_expression("tf1compat.tutorials"),
                names=[cst.ImportAlias(name=cst.Name("mnist"), asname=asname)])
        self.add(original_node, Kind.NOT_CONVERTED, f"from {module} import ... left as is: TF "
                 f"2.21 has no tensorflow.examples and tf1compat serves only {_MODULE}")
        return updated_node
