"""TF1 names whose TF2 namesake means something else, which tf_upgrade_v2 leaves as they are.

The migrated script stays a graph program, so these go to `tf.compat.v1`:

- `tf.summary.scalar/histogram/image/audio/text/tensor_summary/merge` are TF2
  summaries under the same names (TensorBoard's, with a `step` and a default
  writer); without the `tensorboard` package they raise "TensorBoard is not
  installed", and with it they do not feed a TF1 FileWriter. ->
  `tf.compat.v1.summary.*` (TF core, no TensorBoard needed).
- `tf.flags` does not exist in TF2 (tf_upgrade_v2 only reports it) ->
  `tf.compat.v1.flags`, absl flags with TF1's implicit parsing. The other TF1
  modules TF2 dropped from the top level (`tf.logging`, `tf.app`, `tf.gfile`,
  `tf.python_io`, ...) likewise: tf_upgrade_v2 renames their functions
  (`tf.logging.info`) but not the module itself (`logging = tf.logging`).
- `tf.Variable(...)`: TF2's class always makes a resource variable, whose
  `name:0` tensor is a handle (fetching "w:0" after `import_meta_graph` gives
  bytes, not the value) -> `tf.compat.v1.Variable(...)`, TF1's variable in a
  graph program.
- `tf.data.Dataset` and the reader datasets (`TFRecordDataset`, `TextLineDataset`,
  `FixedLengthRecordDataset`): TF 1.15's are the v1 classes (DatasetV1), TF2's
  namesakes lack their v1 members (`make_one_shot_iterator()`, `output_types`,
  `output_shapes`, `output_classes`, `from_sparse_tensor_slices`). tf_upgrade_v2
  rewrites the iterator methods where it sees them called, but not the attributes, nor
  a dataset's members read anywhere it cannot tell a dataset is there. Always ->
  `tf.compat.v1.data.*`, not only where a v1 member shows: which values are datasets
  cannot be told from the text (they pass through functions and attributes), and a v1
  dataset is a TF2 dataset too (DatasetV1 subclasses it), so whatever TF2 code does
  with the dataset still works.
- TF1 submodules TF2 dropped (`tf.saved_model.loader`, `tf.saved_model.tag_constants`,
  `tf.train.queue_runner`, ...), read as modules -> `tf.compat.v1.*`; and any other TF1
  namespace used as a value (`vars(tf.train)`, `tf.logging.__dict__[level]`, `m = tf.nn`):
  TF 2.21's namespace of that path holds other names.
- `tf.device(f)` with a device function (`replica_device_setter(...)`, a
  function of the op): TF2's `tf.device` takes strings only ("tf.device does
  not support functions") -> `tf.compat.v1.device(f)`. String arguments stay.
"""

from __future__ import annotations

import libcst as cst
from libcst.helpers import get_full_name_for_node

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule
from tf1compat.migrate.rules.namespace_imports import is_namespace_module

_SUMMARY_OPS = ("scalar", "histogram", "image", "audio", "text", "tensor_summary", "merge")
# TF1 modules that TF2 dropped from the top level and tf.compat.v1 keeps -> why it matters.
_V1_MODULES = {
    "flags": "TF2 has no tf.flags; the same absl flags, parsed on first use",
    "logging": "TF2 has no tf.logging; tf_upgrade_v2 renames its functions, not the module",
    "app": "TF2 has no tf.app; tf_upgrade_v2 renames its functions, not the module",
    "gfile": "TF2 has no tf.gfile (tf.io.gfile has other names); tf_upgrade_v2 renames its "
             "functions, not the module",
    "python_io": "TF2 has no tf.python_io; tf_upgrade_v2 renames its functions, not the module",
    "resource_loader": "TF2 has no tf.resource_loader; tf_upgrade_v2 renames its functions, "
                       "not the module",
    "user_ops": "TF2 has no tf.user_ops",
    "manip": "TF2 has no tf.manip",
    "spectral": "TF2 has no tf.spectral",
    "distributions": "TF2 has no tf.distributions",
}
# TF1 submodules TF2 dropped from their parents (tf.compat.v1 keeps them): tf_upgrade_v2
# renames what is read from them (`tf.saved_model.loader.load`), not the module itself.
_V1_SUBMODULES = ("saved_model.builder", "saved_model.constants", "saved_model.loader",
                  "saved_model.main_op", "saved_model.signature_constants",
                  "saved_model.signature_def_utils", "saved_model.tag_constants",
                  "saved_model.utils", "train.queue_runner", "lite.constants")
# TF 1.15's tf.data classes that are DatasetV1 (TF2's namesakes lack the v1 members).
_V1_DATASETS = ("Dataset", "TFRecordDataset", "TextLineDataset", "FixedLengthRecordDataset")
_STRING_NODES = (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)


def _is_string(node: cst.BaseExpression) -> bool:
    if isinstance(node, _STRING_NODES):
        return True
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Modulo):
        return _is_string(node.left)  # "/gpu:%d" % i
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and \
            node.func.attr.value == "format":
        return _is_string(node.func.value)
    return False


class V1NamesakesRule(Rule):
    NAME = "v1-namesakes"
    DESCRIPTION = ("tf.summary.<v1 op>, tf.flags / tf.logging / other TF1-only modules, "
                   "tf.data's datasets, tf.Variable(), tf.device(function) -> tf.compat.v1")
    # any file that imports TensorFlow may use a namespace as a value (`vars(tf.train)`)
    TRIGGERS = ("tensorflow",)

    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        self.reported: set[str] = set()
        self.read_further: set[int] = set()

    def _say(self, key: str, node: cst.CSTNode, message: str) -> None:
        if key not in self.reported:
            self.reported.add(key)
            self.add(node, Kind.CHANGED, message)

    def leave_Attribute(self, original_node: cst.Attribute,
                        updated_node: cst.Attribute) -> cst.BaseExpression:
        alias = self.names.alias
        if alias is None:
            return updated_node
        head, _, last = (get_full_name_for_node(original_node) or "").rpartition(".")
        if head == f"{alias}.summary" and last in _SUMMARY_OPS:
            self._say("summary", original_node,
                      f"{alias}.summary.* (TF1 ops) -> {alias}.compat.v1.summary.*: under TF2 "
                      "these names are TensorBoard's summaries (they need the tensorboard "
                      "package, a step and a default writer); the v1 ops feed a FileWriter "
                      "without it")
            return cst.parse_expression(f"{alias}.compat.v1.summary.{last}")
        if head == f"{alias}.data" and last in _V1_DATASETS:
            self._say("data", original_node,
                      f"{alias}.data.{last} -> {alias}.compat.v1.data.{last}: TF 1.15's "
                      "datasets are the v1 classes, whose members TF2's lack "
                      "(make_one_shot_iterator, output_types, output_shapes)")
            return cst.parse_expression(f"{alias}.compat.v1.data.{last}")
        path = f"{head}.{last}"[len(alias) + 1:] if head.startswith(alias + ".") else ""
        if path in _V1_SUBMODULES:
            self._say(path, original_node, f"{alias}.{path} -> {alias}.compat.v1.{path}: TF2 "
                      "has no such module; tf.compat.v1 keeps TF 1.15's")
            return cst.parse_expression(f"{alias}.compat.v1.{path}")
        if head == alias and last in _V1_MODULES:
            self._say(last, original_node, f"{alias}.{last} -> {alias}.compat.v1.{last} "
                      f"({_V1_MODULES[last]})")
            return cst.parse_expression(f"{alias}.compat.v1.{last}")
        full = f"{head}.{last}"
        namespace = full[len(alias) + 1:] if full.startswith(alias + ".") else ""
        if namespace and id(original_node) not in self.read_further \
                and is_namespace_module(namespace):
            path = namespace
            self._say(path, original_node, f"{alias}.{path} -> {alias}.compat.v1.{path}: the "
                      "namespace itself, as TF 1.15 had it (tf_upgrade_v2 renames the names "
                      f"read from it, not the namespace; TF 2.21's {path} holds other names)")
            return cst.parse_expression(f"{alias}.compat.v1.{path}")
        return updated_node

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if not node.attr.value.startswith("__"):
            self.read_further.add(id(node.value))  # `tf.train` in `tf.train.Saver`

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        alias = self.names.alias
        func = get_full_name_for_node(original_node.func) if alias else None
        if func == f"{alias}.Variable":
            self._say("Variable", original_node,
                      f"{alias}.Variable(...) -> {alias}.compat.v1.Variable(...): TF2's class "
                      "always makes a resource variable, whose 'name:0' tensor is a handle, "
                      "not the value TF1 scripts fetch")
            return updated_node.with_changes(
                func=cst.parse_expression(f"{alias}.compat.v1.Variable"))
        if func != f"{alias}.device":
            return updated_node
        if not original_node.args or _is_string(original_node.args[0].value):
            return updated_node
        self._say(f"device:{self.line(original_node)}", original_node,
                  f"{alias}.device(...) -> {alias}.compat.v1.device(...): its argument may be "
                  "a device function (replica_device_setter, a function of the op), which "
                  "TF2's tf.device refuses")
        return updated_node.with_changes(func=cst.parse_expression(f"{alias}.compat.v1.device"))
