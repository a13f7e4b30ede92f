"""How `tf1compat run` serves each TF1 name a script touches: native, mapped, replaced, unsupported.

- native: `tf.compat.v1` has it (`tf.layers`, `tf.nn.rnn_cell` and TF1
  `tf.keras` through legacy Keras, as TensorFlow itself routes them);
- mapped / replaced / unsupported: `tf.contrib.*`, from the contrib table
  (`tf1compat.contrib.registry`), and the modules TF 2.21 dropped that
  tf1compat stands in for (`SERVED_MODULES`).

Data and small functions only; the shim records, the report prints.
"""

from __future__ import annotations

import dataclasses
from typing import Optional

from tf1compat.contrib.entries import Served

# Names under `tensorflow.` that TF 2.21 lacks, and the tf1compat module serving each.
SERVED_MODULES = {
    "contrib": "tf1compat.contrib",
    "estimator": "tf1compat.estimator",
    "examples.tutorials.mnist.input_data": "tf1compat.tutorials.mnist",
    "examples.tutorials.mnist.mnist": "tf1compat.tutorials.mnist_model",
}
# TF 1.15's API namespaces (`tf.X` that is a module in its v1 API; tf1compat/surface/data/
# tf115.json, held to it by tests/runner/test_namespace_imports.py): TF 1.15 let a script import
# each as if it were a module (`from tensorflow.train import AdamOptimizer`, `import
# tensorflow.nn.rnn_cell as rnn_cell`), and the script then got TF1's names.
TF1_NAMESPACES = frozenset({
    "app", "audio", "autograph", "bitwise", "compat", "config", "contrib", "data", "debugging",
    "distribute", "distributions", "dtypes", "errors", "estimator", "experimental",
    "feature_column", "flags", "gfile", "graph_util", "image", "initializers", "io", "keras",
    "layers", "linalg", "lite", "logging", "lookup", "losses", "manip", "math", "metrics", "nest",
    "nn", "profiler", "python_io", "pywrap_tensorflow", "quantization", "queue", "ragged",
    "random", "raw_ops", "resource_loader", "saved_model", "sets", "signal", "sparse",
    "spectral", "strings", "summary", "sysconfig", "test", "tpu", "train", "user_ops", "version",
    "xla"})
# `tf.X` that was one of TensorFlow's own modules in TF 1.15's API (`tf.pywrap_tensorflow.
# NewCheckpointReader`), which TF 2.21's tf.compat.v1 lacks -> that module: run serves it as
# its `import tensorflow.python...` (private_modules), migrate writes its names' public homes.
TF1_OWN_MODULES = {"pywrap_tensorflow": "tensorflow.python.pywrap_tensorflow"}
LEGACY_KERAS = ("layers.", "keras.", "nn.rnn_cell.")
STATUSES = tuple(Served)  # in the report's order


@dataclasses.dataclass
class Symbol:
    """One TF1 name the script used: how it was served and how often it was read."""

    status: Served
    target: str
    note: str = ""
    uses: int = 0

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"status": Served(self.status).value, "target": self.target,
                                   "uses": self.uses}
        if self.note:
            data["note"] = self.note
        return data


def served_module(path: str) -> Optional[str]:
    """The tf1compat module standing for `tensorflow.<path>`, if it is one."""
    return SERVED_MODULES.get(path)


def is_served_package(path: str) -> bool:
    """Whether `tensorflow.<path>` is a package above a served module ('examples.tutorials')."""
    return any(key.startswith(path + ".") for key in SERVED_MODULES)


def classify(path: str) -> Symbol:
    """How `tf.<path>` (a name the script read successfully) is served."""
    from tf1compat import tf0_names

    new_name = tf0_names.renamed(path)
    if new_name is not None:
        return Symbol(Served.MAPPED, f"tf.compat.v1.{new_name}", "TF 0.x name, renamed in TF 1.0")
    if tf0_names.changed_call(path):
        return Symbol(Served.NATIVE, f"tf.compat.v1.{path}",
                      "TF 0.x arguments (order, keywords) read from the values passed")
    if path.startswith("contrib."):
        from tf1compat.contrib import registry

        name = path[len("contrib."):]
        entry = registry.lookup(name)
        parts = name.split(".")
        for end in range(len(parts) - 1, 0, -1):  # a name inside a module the table maps
            module_entry = entry or registry.lookup(".".join(parts[:end]))
            if module_entry is not None and module_entry.source == registry.TF_SLIM:
                rest = name[len(module_entry.name):]
                return Symbol(Served.MAPPED, module_entry.target + rest, module_entry.note)
        if entry is None:
            for module, home in registry.MODULE_HOMES.items():  # a name in a served module
                if name.startswith(module + "."):
                    return Symbol(Served.REPLACED, home + name[len(module):],
                                  registry.lookup(module).note)
            return Symbol(Served.REPLACED, "tf1compat." + path)
        return Symbol(entry.served, entry.target, entry.note)
    for prefix, module in SERVED_MODULES.items():
        if path.startswith(prefix + "."):
            return Symbol(Served.REPLACED, f"{module}.{path[len(prefix) + 1:]}",
                          f"tensorflow.{prefix} is not in TF 2.21")
    note = "from legacy Keras (tf_keras)" if path.startswith(LEGACY_KERAS) else ""
    return Symbol(Served.NATIVE, f"tf.compat.v1.{path}", note)


def unsupported(path: str, why: str) -> Symbol:
    return Symbol(Served.UNSUPPORTED, "", why)
