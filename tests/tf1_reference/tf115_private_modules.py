"""Lists, under TensorFlow 1.15, what TF1 code finds in TensorFlow's own `tensorflow.python.*` modules.

The data `tf1compat.runner.private_paths` reads. Runs on TF 1.15's interpreter
(Python 3.7, nothing of tf1compat imported):

    /root/.cache/tf1compat/tf1-reference/bin/python tests/tf1_reference/tf115_private_modules.py \\
        > tf1compat/runner/private_paths/tf115_modules.json

For each module of MODULES it writes every public attribute (no leading `_`)
as `[kind, defined_in, v1_names]`: kind is module, class, function or
constant; defined_in the module that defines a function or class (or a
module's own name), "" for the module itself; v1_names the public TF1 names
TF 1.15's `tf_export` decorators gave it (`graph_util.convert_variables_to_constants`).
`tensorflow.python` lists its submodules only: its other 2,000 names are
TF 1.15's whole `tf.*` API, star-imported. Modules that are not TensorFlow's (numpy, six) are left out.
`digest` is the SHA-256 of `modules` written canonically (sorted keys, no
spaces): tf1compat refuses data whose digest does not match.
"""

import __future__
import hashlib
import importlib
import inspect
import json
import sys

# The modules TF1 code imports: those public TF1 scripts are known to use (freezing graphs,
# saved models, gfile, RNN cells, tfdbg) and every `tensorflow.python.*` module that the
# contrib census's repositories (tf1compat/contrib/census_data/repositories.csv) import.
MODULES = (
    "tensorflow.python",
    "tensorflow.python.client", "tensorflow.python.client.device_lib",
    "tensorflow.python.client.session", "tensorflow.python.client.timeline",
    "tensorflow.python.debug",
    "tensorflow.python.framework", "tensorflow.python.framework.common_shapes",
    "tensorflow.python.framework.constant_op", "tensorflow.python.framework.dtypes",
    "tensorflow.python.framework.errors", "tensorflow.python.framework.function",
    "tensorflow.python.framework.graph_io", "tensorflow.python.framework.graph_util",
    "tensorflow.python.framework.graph_util_impl", "tensorflow.python.framework.importer",
    "tensorflow.python.framework.op_def_registry", "tensorflow.python.framework.ops",
    "tensorflow.python.framework.random_seed", "tensorflow.python.framework.sparse_tensor",
    "tensorflow.python.framework.tensor_shape", "tensorflow.python.framework.tensor_util",
    "tensorflow.python.layers", "tensorflow.python.layers.base",
    "tensorflow.python.lib", "tensorflow.python.lib.io", "tensorflow.python.lib.io.file_io",
    "tensorflow.python.lib.io.tf_record",
    "tensorflow.python.ops", "tensorflow.python.ops.array_ops", "tensorflow.python.ops.check_ops",
    "tensorflow.python.ops.clip_ops", "tensorflow.python.ops.control_flow_ops",
    "tensorflow.python.ops.data_flow_ops", "tensorflow.python.ops.embedding_ops",
    "tensorflow.python.ops.functional_ops", "tensorflow.python.ops.gen_image_ops",
    "tensorflow.python.ops.gen_nn_ops", "tensorflow.python.ops.gradients",
    "tensorflow.python.ops.image_ops", "tensorflow.python.ops.init_ops",
    "tensorflow.python.ops.linalg_ops", "tensorflow.python.ops.logging_ops",
    "tensorflow.python.ops.lookup_ops", "tensorflow.python.ops.math_ops",
    "tensorflow.python.ops.nn", "tensorflow.python.ops.nn_impl", "tensorflow.python.ops.nn_ops",
    "tensorflow.python.ops.partitioned_variables", "tensorflow.python.ops.random_ops",
    "tensorflow.python.ops.resources", "tensorflow.python.ops.rnn",
    "tensorflow.python.ops.rnn_cell", "tensorflow.python.ops.rnn_cell_impl",
    "tensorflow.python.ops.sparse_ops", "tensorflow.python.ops.state_ops",
    "tensorflow.python.ops.string_ops", "tensorflow.python.ops.tensor_array_ops",
    "tensorflow.python.ops.variable_scope", "tensorflow.python.ops.variables",
    "tensorflow.python.platform", "tensorflow.python.platform.app",
    "tensorflow.python.platform.flags", "tensorflow.python.platform.gfile",
    "tensorflow.python.platform.tf_logging",
    "tensorflow.python.pywrap_tensorflow",
    "tensorflow.python.saved_model", "tensorflow.python.saved_model.builder",
    "tensorflow.python.saved_model.loader", "tensorflow.python.saved_model.signature_constants",
    "tensorflow.python.saved_model.signature_def_utils",
    "tensorflow.python.saved_model.tag_constants", "tensorflow.python.saved_model.utils",
    "tensorflow.python.tools", "tensorflow.python.tools.freeze_graph",
    "tensorflow.python.tools.inspect_checkpoint",
    "tensorflow.python.tools.optimize_for_inference_lib",
    "tensorflow.python.training", "tensorflow.python.training.basic_session_run_hooks",
    "tensorflow.python.training.monitored_session", "tensorflow.python.training.moving_averages",
    "tensorflow.python.training.optimizer", "tensorflow.python.training.saver",
    "tensorflow.python.training.session_manager", "tensorflow.python.training.training",
    "tensorflow.python.training.training_util",
    "tensorflow.python.util", "tensorflow.python.util.compat",
    "tensorflow.python.util.deprecation", "tensorflow.python.util.nest",
)
# Packages whose non-module attributes are left out (see the docstring).
_MODULES_ONLY = ("tensorflow.python",)


def _public(name):
    """'tensorflow_core.python.ops' (TF 1.15's real package) -> 'tensorflow.python.ops'."""
    if name and name.startswith("tensorflow_core"):
        return "tensorflow" + name[len("tensorflow_core"):]
    return name or ""


def _is_package(module):
    return hasattr(module, "__path__")


def _entry(module_name, value, tf_export, constants, package, unwrap):
    """[kind, defined_in, v1_names] of one attribute, or None when it is left out.

    Left out: modules that are not TensorFlow's, the modules a module (not a
    package) imports for itself, and `from __future__` features.
    """
    if inspect.ismodule(value):
        name = _public(value.__name__)
        if not package or not name.startswith("tensorflow."):
            return None
        return ["module", name, []]
    if isinstance(value, type(__future__.division)):
        return None
    kind = "class" if inspect.isclass(value) else \
        "function" if callable(value) else "constant"
    defined = _public(getattr(value, "__module__", "")) if kind != "constant" else ""
    # tf_export marks the function it decorates, under any decorators put on later (deprecation)
    names = constants if kind == "constant" else tf_export.get_v1_names(unwrap(value)[1])
    unique = []
    for api_name in names:  # TensorFlow's order: its first name is the canonical one
        if api_name not in unique:
            unique.append(api_name)
    return [kind, "" if defined == module_name else defined, unique]


def listing():
    import tensorflow  # noqa: F401 - loads TF 1.15 as scripts do, before their own imports
    from tensorflow.python.util import tf_decorator, tf_export

    modules = {}
    for name in MODULES:
        module = importlib.import_module(name)
        constants = {}
        for api_names, attribute in tf_export.get_v1_constants(module):
            constants.setdefault(attribute, []).extend(api_names)
        names = {}
        for attribute in sorted(vars(module)):
            if attribute.startswith("_"):
                continue
            value = vars(module)[attribute]
            if name in _MODULES_ONLY and not inspect.ismodule(value):
                continue
            entry = _entry(name, value, tf_export, constants.get(attribute, []),
                           _is_package(module), tf_decorator.unwrap)
            if entry is not None:
                names[attribute] = entry
        modules[name] = {"package": _is_package(module), "names": names}
    return modules


def digest(modules):
    text = json.dumps(modules, sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def _one_name_a_line(document):
    """The document as JSON with one attribute a line (readable diffs when TF data changes)."""
    lines = ["{"]
    for key in sorted(key for key in document if key != "modules"):
        lines.append(" %s: %s," % (json.dumps(key), json.dumps(document[key])))
    lines.append(' "modules": {')
    modules = document["modules"]
    for index, name in enumerate(sorted(modules)):
        module = modules[name]
        lines.append("  %s: {\"package\": %s, \"names\": {" % (
            json.dumps(name), json.dumps(module["package"])))
        names = module["names"]
        lines.extend("   %s: %s%s" % (json.dumps(attribute), json.dumps(names[attribute]),
                                      "," if position < len(names) - 1 else "")
                     for position, attribute in enumerate(sorted(names)))
        lines.append("  }}" + ("," if index < len(modules) - 1 else ""))
    lines.append(" }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    import tensorflow as tf

    modules = listing()
    document = {
        "about": "TF 1.15's tensorflow.python.* modules: each public attribute as [kind, "
                 "defined_in, v1_names] (tests/tf1_reference/tf115_private_modules.py)",
        "regenerate": "/root/.cache/tf1compat/tf1-reference/bin/python "
                      "tests/tf1_reference/tf115_private_modules.py > "
                      "tf1compat/runner/private_paths/tf115_modules.json",
        "tensorflow": tf.__version__,
        "python": "%d.%d" % sys.version_info[:2],
        "digest": digest(modules),
        "modules": modules,
    }
    sys.stdout.write(_one_name_a_line(document))


if __name__ == "__main__":
    main()
