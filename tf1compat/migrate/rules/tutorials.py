"""`tensorflow.examples.tutorials.mnist` imports -> tf1compat's MNIST reader and tutorial model.

TF 2.21 has no `tensorflow.examples`; `tf1compat.tutorials.mnist` is the old
reader on local files (it never downloads) and `tf1compat.tutorials.mnist_model`
the old tutorial model (`mnist.inference/loss/training/evaluation`). The import
keeps its name, so `input_data.read_data_sets(...)` and `mnist.inference(...)`
in the script stay as they are:

- `from tensorflow.examples.tutorials.mnist import input_data [as X]` ->
  `from tf1compat.tutorials import mnist as input_data` (or `as X`);
- `from tensorflow.examples.tutorials.mnist import mnist [as X]` ->
  `from tf1compat.tutorials import mnist_model as mnist` (or `as X`); both names in
  one import become one import of both;
- `import tensorflow.examples.tutorials.mnist.input_data as X` -> `import tf1compat.tutorials.mnist as X`
  (`....mnist.mnist as X` -> `import tf1compat.tutorials.mnist_model as X`);
- `from tensorflow.examples.tutorials.mnist.input_data import read_data_sets` ->
  `from tf1compat.tutorials.mnist import read_data_sets` (the model module likewise).
Other `tensorflow.examples` imports are reported: nothing serves them.
"""

from __future__ import annotations

import libcst as cst

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule
from tf1compat.migrate.rules.contrib import dotted

_PACKAGE = "tensorflow.examples.tutorials.mnist"
# Module under _PACKAGE -> (its tf1compat module under tf1compat.tutorials, why).
_SERVED = {
    "input_data": ("mnist", "TF 2.21 has no tensorflow.examples; tf1compat.tutorials.mnist is "
                            "the same reader on local files (it never downloads)"),
    "mnist": ("mnist_model", "TF 2.21 has no tensorflow.examples; "
                             "tf1compat.tutorials.mnist_model builds the same tutorial model"),
}
_SERVED_NAMES = ", ".join(f"{_PACKAGE}.{name}" for name in _SERVED)


class TutorialsRule(Rule):
    NAME = "tutorials"
    DESCRIPTION = ("tensorflow.examples.tutorials.mnist.input_data / .mnist -> "
                   "tf1compat.tutorials.mnist / .mnist_model")
    TRIGGERS = ("tensorflow.examples",)

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import) -> cst.Import:
        names = []
        for alias in updated_node.names:
            module = dotted(alias.name)
            served = _served(module)
            if served and alias.asname:
                ours, why = served
                alias = alias.with_changes(name=cst.parse_expression(ours))
                self.add(original_node, Kind.CHANGED, f"import {module} -> import {ours}: {why}")
            elif module and module.startswith("tensorflow.examples"):
                self.add(original_node, Kind.NOT_CONVERTED, f"import {module} left as is: "
                         "TF 2.21 has no tensorflow.examples and tf1compat serves only "
                         f"{_SERVED_NAMES}{' (imported without `as`)' if served else ''}")
            names.append(alias)
        return updated_node.with_changes(names=names)

    def leave_ImportFrom(self, original_node: cst.ImportFrom,
                         updated_node: cst.ImportFrom) -> cst.ImportFrom:
        module = dotted(updated_node.module) if updated_node.module else None
        if not module or updated_node.relative or not module.startswith("tensorflow.examples"):
            return updated_node
        served = _served(module)
        if served:
            ours, why = served
            self.add(original_node, Kind.CHANGED, f"from {module} import ... -> from {ours} "
                     f"import ...: {why}")
            return updated_node.with_changes(module=cst.parse_expression(ours))
        if module == _PACKAGE and not isinstance(updated_node.names, cst.ImportStar) and \
                all(alias.name.value in _SERVED for alias in updated_node.names):
            aliases = []
            for alias in updated_node.names:
                name = alias.name.value
                ours, why = _SERVED[name]
                asname = alias.asname or cst.AsName(name=cst.Name(name))
                self.add(original_node, Kind.CHANGED, f"from {_PACKAGE} import {name} -> from "
                         f"tf1compat.tutorials import {ours} as {asname.name.value}: {why}")
                aliases.append(alias.with_changes(name=cst.Name(ours), asname=asname))
            return updated_node.with_changes(module=cst.parse_expression("tf1compat.tutorials"),
                                             names=aliases)
        self.add(original_node, Kind.NOT_CONVERTED, f"from {module} import ... left as is: TF "
                 f"2.21 has no tensorflow.examples and tf1compat serves only {_SERVED_NAMES}")
        return updated_node


def _served(module):
    """(tf1compat module, why) for a served `tensorflow.examples...` module, else None."""
    if module and module.startswith(_PACKAGE + "."):
        served = _SERVED.get(module[len(_PACKAGE) + 1:])
        if served:
            return f"tf1compat.tutorials.{served[0]}", served[1]
    return None
