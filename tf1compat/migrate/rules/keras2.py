"""Standalone Keras 2 -> tf_keras: `from keras.models import Sequential` -> `from tf_keras.models ...`.

TF 2.21's `keras` is Keras 3; Keras 2's API lives on in tf_keras, which a migrated script
imports directly (it then runs under plain Python). What tf_keras's public API dropped comes
from `tf1compat.keras2`: the backend with its sessions (`K.set_session`, `K.get_session`,
`keras.backend.tensorflow_backend`), `keras.layers.merge` and `multi_gpu_model`. Keras 2's
optimizers (`SGD(lr=...)`, `decay=`) are tf_keras's legacy ones (`tf1compat.keras2.optimizers`).

The session given to `K.set_session(tf.Session(config=config))` is a session like any
other: the session-options rule turns its ConfigProto into keywords. A Keras 2 module with
no home here is left as is and reported with its line.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst
from libcst.codemod.visitors import AddImportsVisitor
from libcst.helpers import get_full_name_for_node

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule

_OURS = "tf1compat.keras2"
_SAME = ("activations", "applications", "callbacks", "constraints", "datasets",
         "initializers", "losses", "metrics", "models", "preprocessing", "regularizers",
         "layers", "utils")
_LAYER_MODULES = ("core", "convolutional", "convolutional_recurrent", "normalization",
                  "recurrent", "cudnn_recurrent", "embeddings", "advanced_activations",
                  "pooling", "wrappers", "noise", "local")
_UTILS_MODULES = ("np_utils", "generic_utils", "data_utils", "vis_utils", "layer_utils",
                  "conv_utils", "io_utils")
# Keras 2 module -> the module the migrated script imports in its place.
MODULES = {
    "keras": "tf_keras",
    "keras.backend": f"{_OURS}.backend",
    "keras.backend.tensorflow_backend": f"{_OURS}.backend",
    "keras.layers.merge": f"{_OURS}.merge",
    "keras.optimizers": f"{_OURS}.optimizers",
    "keras.utils.multi_gpu_utils": f"{_OURS}.multi_gpu",
    "keras.wrappers": f"{_OURS}.wrappers",
    "keras.wrappers.scikit_learn": f"{_OURS}.wrappers.scikit_learn",
    "keras.engine": "tf_keras.layers",
    "keras.engine.topology": "tf_keras.layers",
    **{f"keras.layers.{name}": "tf_keras.layers" for name in _LAYER_MODULES},
    **{f"keras.utils.{name}": "tf_keras.utils" for name in _UTILS_MODULES},
    # Keras 2.2-2.3 re-exported keras_applications' modules (their weight URLs).
    **{f"keras.applications.{name}.{name}": f"tf_keras.src.applications.{name}"
       for name in ("densenet", "inception_resnet_v2", "inception_v3", "mobilenet",
                    "mobilenet_v2", "nasnet", "resnet50", "vgg16", "vgg19", "xception")},
}
# (Keras 2 module, name) -> (module, name) where a name moves on its own.
NAMES = {
    ("keras", "backend"): (_OURS, "backend"),
    ("keras", "optimizers"): (_OURS, "optimizers"),
    ("keras", "wrappers"): (_OURS, "wrappers"),
    ("keras.layers", "merge"): (_OURS, "merge"),
    ("keras.utils", "multi_gpu_model"): (f"{_OURS}.multi_gpu", "multi_gpu_model"),
    **{(module, name): (f"{_OURS}.io_utils", name)
       for module in ("keras.utils", "keras.utils.io_utils", "keras.utils.layer_utils")
       for name in ("HDF5Matrix", "convert_all_kernels_in_model")},
    ("keras.models", "Sequential"): (f"{_OURS}.models", "Sequential"),  # predict_classes
    ("keras", "Sequential"): (f"{_OURS}.models", "Sequential"),
    ("keras.engine", "Model"): ("tf_keras.models", "Model"),
    ("keras.engine.topology", "Model"): ("tf_keras.models", "Model"),
    **{("keras.optimizers", name): ("tf_keras.optimizers.legacy", name)
       for name in ("SGD", "RMSprop", "Adagrad", "Adadelta", "Adam", "Adamax", "Nadam",
                    "Optimizer")},
    # TF 2's LSTM and GRU run cuDNN's kernel themselves where they can.
    ("keras.layers", "CuDNNLSTM"): ("tf_keras.layers", "LSTM"),
    ("keras.layers", "CuDNNGRU"): ("tf_keras.layers", "GRU"),
    ("keras.initializers", "normal"): ("tf_keras.initializers", "RandomNormal"),
    ("keras.initializers", "uniform"): ("tf_keras.initializers", "RandomUniform"),
    ("keras.backend", "tensorflow_backend"): (_OURS, "backend"),
    ("keras.applications.mobilenet", "relu6"): (f"{_OURS}.extras", "relu6"),
    ("keras.applications.mobilenet", "DepthwiseConv2D"): ("tf_keras.layers", "DepthwiseConv2D"),
}


# `keras.<prefix>` on a name bound to the package -> (module to import, name in it or "").
_OWN_ATTRIBUTES = (
    ("backend.tensorflow_backend", f"{_OURS}.backend", ""),
    ("backend", f"{_OURS}.backend", ""),
    ("layers.merge", f"{_OURS}.merge", ""),
    ("utils.multi_gpu_model", f"{_OURS}.multi_gpu", "multi_gpu_model"),
    *((f"utils{module}.{name}", f"{_OURS}.io_utils", name)
      for module in ("", ".io_utils", ".layer_utils")
      for name in ("HDF5Matrix", "convert_all_kernels_in_model")),
    ("wrappers", f"{_OURS}.wrappers", ""),
    ("optimizers", f"{_OURS}.optimizers", ""),
    ("models.Sequential", f"{_OURS}.models", "Sequential"),
    ("Sequential", f"{_OURS}.models", "Sequential"),
)


def target_module(module: str) -> Optional[str]:
    """Where a Keras 2 module goes in a migrated script, or None when it has no home here."""
    if module in MODULES:
        return MODULES[module]
    parts = module.split(".")
    if len(parts) >= 2 and parts[1] in _SAME:
        return "tf_keras." + ".".join(parts[1:])
    return None


def _is_keras(module: str) -> bool:
    return module == "keras" or module.startswith("keras.")


def _dotted(text: str) -> cst.BaseExpression:
    return cst.parse_expression(text)


class Keras2Rule(Rule):
    NAME = "keras2"
    DESCRIPTION = "standalone Keras 2 -> tf_keras (+ tf1compat.keras2 for what tf_keras dropped)"
    TRIGGERS = ("keras",)

    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        self.keras_names: set[str] = set()  # names bound to the keras package itself
        self.split: dict[int, list[cst.ImportFrom]] = {}  # the other lines of a split import

    def _moved(self, node, old: str, new: str) -> None:
        self.add(node, Kind.CHANGED, f"{old} -> {new} (Keras 2 is tf_keras on TF 2.21)")

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import):
        names = []
        for original, alias in zip(original_node.names, updated_node.names):
            module = get_full_name_for_node(original.name) or ""  # before leave_Attribute's edits
            if not _is_keras(module):
                names.append(alias)
                continue
            bound = alias.asname.name.value if alias.asname else None
            if bound is None:  # `import keras[.x]` binds `keras`: chains are rewritten below
                self.keras_names.add("keras")
                self._moved(original_node, f"import {module}", "import tf_keras as keras")
                names.append(alias.with_changes(name=_dotted("tf_keras"), asname=cst.AsName(
                    name=cst.Name("keras"))))
                continue
            target = target_module(module)
            if target is None:
                self.add(original_node, Kind.NOT_CONVERTED,
                         f"import {module}: tf_keras has no such module; left as is")
                names.append(alias.with_changes(name=original.name))
                continue
            if target == "tf_keras":
                self.keras_names.add(bound)
            self._moved(original_node, f"import {module}", f"import {target} as {bound}")
            names.append(alias.with_changes(name=_dotted(target)))
        return updated_node.with_changes(names=names)

    def leave_ImportFrom(self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom):
        if updated_node.relative or updated_node.module is None:
            return updated_node
        module = get_full_name_for_node(updated_node.module) or ""
        if not _is_keras(module):
            return updated_node
        if isinstance(updated_node.names, cst.ImportStar):
            target = target_module(module)
            if target is None:
                self.add(original_node, Kind.NOT_CONVERTED, f"from {module} import *: tf_keras "
                         "has no such module; left as is")
                return updated_node
            self._moved(original_node, f"from {module} import *", f"from {target} import *")
            return updated_node.with_changes(module=_dotted(target))
        groups: dict[str, list[cst.ImportAlias]] = {}
        for alias in updated_node.names:
            name = alias.name.value
            moved = NAMES.get((module, name))
            target, new_name = moved if moved else (target_module(module), name)
            if target is None:
                self.add(original_node, Kind.NOT_CONVERTED,
                         f"from {module} import {name}: tf_keras has no such module; left as is")
                target = module
            asname = alias.asname or (cst.AsName(name=cst.Name(name)) if new_name != name
                                      else None)
            groups.setdefault(target, []).append(alias.with_changes(
                name=cst.Name(new_name), asname=asname, comma=cst.MaybeSentinel.DEFAULT))
        if len(groups) > 1:  # names that go to different modules: one import line per module
            self._moved(original_node, f"from {module} import ...",
                        " and ".join(f"from {target} import ..." for target in groups))
        elif next(iter(groups)) != module:
            self._moved(original_node, f"from {module} import ...",
                        f"from {next(iter(groups))} import ...")
        imports = [updated_node.with_changes(module=_dotted(target), names=aliases)
                   for target, aliases in groups.items()]
        self.split[id(original_node)] = imports[1:]
        return imports[0]

    def leave_SimpleStatementLine(self, original_node: cst.SimpleStatementLine,
                                  updated_node: cst.SimpleStatementLine):
        extra = [line for small in original_node.body for line in self.split.get(id(small), ())]
        if not extra:
            return updated_node
        return cst.FlattenSentinel([updated_node, *(cst.SimpleStatementLine([small])
                                                    for small in extra)])

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute):
        """`keras.backend.x` -> `tf1compat.keras2.backend.x` on a name bound to the package."""
        name = get_full_name_for_node(original_node) or ""
        head, _, rest = name.partition(".")
        if head not in self.keras_names or not rest:
            return updated_node
        for prefix, module, name in _OWN_ATTRIBUTES:
            if rest == prefix or rest.startswith(prefix + "."):
                AddImportsVisitor.add_needed_import(self.context, module)
                replacement = f"{module}.{name}" if name else module
                return _dotted(replacement + rest[len(prefix):])
        return updated_node
