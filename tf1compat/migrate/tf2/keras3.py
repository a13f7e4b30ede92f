"""`--to tf2` for standalone Keras 2 code (`import keras`): Keras 3, TF 2.21's Keras, or the
tf1compat output where Keras 3 has no equal.

Keras 2's layer and utility modules went into `keras.layers` / `keras.utils`
(`from keras.layers.convolutional import Conv3D` -> `from keras.layers import Conv3D`), and
its optimizers' `lr=` is `learning_rate=`; a `ModelCheckpoint(period=1)` is Keras 3's default.
Every other Keras name the file reads must be in the installed Keras 3 under the same path
(checked on the module itself, so nothing here is a list of names), and the Keras 2 calls
with no Keras 3 equal raise Unconvertible, so the file gets the `--to tf1compat` output (Keras
2 on tf_keras): `predict_classes` / `predict_proba` (whose answer depends on the model's
last layer), `fit_generator` and friends, `ModelCheckpoint(period=N)`, an optimizer's `decay=`.
"""

from __future__ import annotations

import importlib
from typing import Any, Optional

import libcst as cst
from libcst.helpers import get_full_name_for_node
from libcst.metadata import MetadataWrapper, PositionProvider

from tf1compat.migrate.tf2.translate import Unconvertible

_LAYER_MODULES = ("core", "convolutional", "convolutional_recurrent", "normalization",
                  "recurrent", "cudnn_recurrent", "embeddings", "advanced_activations",
                  "pooling", "wrappers", "noise", "local", "merge")
_UTILS_MODULES = ("np_utils", "generic_utils", "data_utils", "vis_utils", "layer_utils",
                  "conv_utils", "io_utils")
# Keras 2 module -> the Keras 3 module holding its names.
MODULES = {
    **{f"keras.layers.{name}": "keras.layers" for name in _LAYER_MODULES},
    **{f"keras.utils.{name}": "keras.utils" for name in _UTILS_MODULES},
    "keras.engine": "keras.layers",
    "keras.engine.topology": "keras.layers",
    "keras.engine.training": "keras.models",
}
_OPTIMIZERS = ("SGD", "RMSprop", "Adagrad", "Adadelta", "Adam", "Adamax", "Nadam")
_NO_KERAS3_EQUAL = {
    "predict_classes": "Keras 3's models have no predict_classes (its answer, argmax or a 0.5 "
                       "threshold, depends on the model's last layer)",
    "predict_proba": "Keras 3's models have no predict_proba",
    "fit_generator": "Keras 3 has no fit_generator (fit takes the generator, with other "
                     "arguments)",
    "evaluate_generator": "Keras 3 has no evaluate_generator",
    "predict_generator": "Keras 3 has no predict_generator",
}


def _keras3(path: str) -> Any:
    """The installed Keras 3 object at `path` ('keras.layers.Conv3D'), or None."""
    parts = path.split(".")
    try:
        value: Any = importlib.import_module(parts[0])
    except ImportError:
        return None
    for index, part in enumerate(parts[1:], 1):
        if hasattr(value, part):
            value = getattr(value, part)
            continue
        try:
            value = importlib.import_module(".".join(parts[:index + 1]))
        except ImportError:
            return None
    return value


def _keyword(call: cst.Call, name: str) -> Optional[cst.Arg]:
    return next((arg for arg in call.args if arg.keyword and arg.keyword.value == name), None)


class _Keras2ToKeras3(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, lines):
        super().__init__()
        self.lines = lines
        self.bound: dict[str, str] = {}  # local name -> the Keras 3 path it stands for

    def _line(self, node: cst.CSTNode) -> int:
        position = self.lines.get(node)
        return position.start.line if position else 0

    def _check(self, path: str, node: cst.CSTNode) -> None:
        if _keras3(path) is None:
            raise Unconvertible(self._line(node), f"Keras 3 has no {path} (a Keras 2 name)")

    def leave_Import(self, original: cst.Import, updated: cst.Import) -> cst.Import:
        names = []
        for alias in updated.names:
            name = get_full_name_for_node(alias.name) or ""
            if name.split(".")[0] != "keras":
                names.append(alias)
                continue
            home = MODULES.get(name, name)
            self._check(home, original)
            bound = alias.asname.name.value if alias.asname else name.split(".")[0]
            self.bound[bound] = home if alias.asname else "keras"
            names.append(alias.with_changes(name=cst.parse_expression(home))
                         if home != name else alias)
        return updated.with_changes(names=names)

    def leave_ImportFrom(self, original: cst.ImportFrom, updated: cst.ImportFrom):
        module = get_full_name_for_node(updated.module) if updated.module else ""
        if original.relative or not module or module.split(".")[0] != "keras":
            return updated
        if isinstance(updated.names, cst.ImportStar):
            raise Unconvertible(self._line(original), f"from {module} import *: which Keras 2 "
                                "names it reads cannot be told")
        home = MODULES.get(module, module)
        kept, modules = [], []
        for alias in updated.names:
            name = alias.name.value
            bound = alias.asname.name.value if alias.asname else name
            path = MODULES.get(f"{module}.{name}", f"{home}.{name}")
            self._check(path, original)
            self.bound[bound] = path
            if f"{module}.{name}" in MODULES:  # `from keras.utils import np_utils`: a module
                modules.append(cst.Import(names=[cst.ImportAlias(
                    name=cst.parse_expression(path), asname=cst.AsName(name=cst.Name(bound)))]))
            else:
                kept.append(alias.with_changes(comma=cst.MaybeSentinel.DEFAULT))
        statement = updated.with_changes(module=cst.parse_expression(home), names=kept) \
            if kept else None
        if not modules:
            return statement if home != module else updated
        return cst.FlattenSentinel(([statement] if statement is not None else []) + modules)

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine,
                                  updated: cst.SimpleStatementLine):
        if len(updated.body) == len(original.body):
            return updated
        # an import split in two above: one line each, the comments kept on the first
        return cst.FlattenSentinel([updated.with_changes(body=[small]) if index == 0 else
                                    cst.SimpleStatementLine(body=[small])
                                    for index, small in enumerate(updated.body)])

    def leave_Attribute(self, original: cst.Attribute,
                        updated: cst.Attribute) -> cst.BaseExpression:
        if original.attr.value in _NO_KERAS3_EQUAL:
            raise Unconvertible(self._line(original), _NO_KERAS3_EQUAL[original.attr.value])
        name = get_full_name_for_node(original)
        head = (name or "").split(".")[0]
        if head in self.bound and isinstance(original.value, cst.Name):
            self._check(f"{self.bound[head]}.{original.attr.value}", original)
        return updated

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        callee = (get_full_name_for_node(original.func) or "").rpartition(".")[2]
        if callee == "ModelCheckpoint" and _keyword(updated, "period") is not None:
            period = _keyword(updated, "period")
            if not (isinstance(period.value, cst.Integer) and period.value.value == "1"):
                raise Unconvertible(self._line(original), "ModelCheckpoint(period=N): Keras 3 "
                                    "saves every epoch or every N batches, not every N epochs")
            return updated.with_changes(args=[a for a in updated.args if a is not period])
        if callee in _OPTIMIZERS:
            if _keyword(updated, "decay") is not None:
                raise Unconvertible(self._line(original), f"{callee}(decay=...): Keras 3's "
                                    "optimizers have no decay (a schedule takes its place)")
            args = [arg.with_changes(keyword=cst.Name("learning_rate"))
                    if arg.keyword and arg.keyword.value == "lr" else arg for arg in updated.args]
            return updated.with_changes(args=args)
        return updated


def uses_standalone_keras(code: str) -> bool:
    return "keras" in code and any(
        line.lstrip().startswith(("import keras", "from keras")) for line in code.splitlines())


def keras2_to_keras3(code: str) -> str:
    """`code` with its Keras 2 reads as Keras 3's. Raises Unconvertible (a line of `code`)."""
    if not uses_standalone_keras(code):
        return code
    wrapper = MetadataWrapper(cst.parse_module(code))
    lines = wrapper.resolve(PositionProvider)
    return wrapper.module.visit(_Keras2ToKeras3(lines)).code
