"""Lists, under TensorFlow 1.15, what TF1 code finds in TensorFlow's own `tensorflow.python.*` modules.

The data `tf1compat.runner.private_paths` reads. Runs on TF 1.15's interpreter
(Python 3.7, nothing of tf1compat imported):

    /root/.cache/tf1compat/tf1-reference/bin/python tests/tf1_reference/tf115_private_modules.py \\
        > tf1compat/runner/private_paths/tf115_modules.json

For each module public TF1 code imports (`wanted_modules`: the census's,
tf1compat/census/data/uses.csv, with the packages above them) it writes every public attribute (no leading `_`)
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
import csv
import hashlib
import importlib
import inspect
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The modules to list: every `tensorflow.python.*` module the census of public TF1 code counts
# (the part of a `module:attribute` name before the colon), each package above one, and KNOWN.
CENSUS = os.path.join(ROOT, "tf1compat", "census", "data", "uses.csv")
# Modules the repositories first chosen for their tf.contrib uses import, and
# the implementation modules the public ones re-export (graph_util_impl).
KNOWN = (
    "tensorflow.python.framework.graph_util_impl", "tensorflow.python.framework.random_seed",
    "tensorflow.python.framework.sparse_tensor", "tensorflow.python.lib.io.tf_record",
    "tensorflow.python.ops.gen_image_ops", "tensorflow.python.ops.gradients",
    "tensorflow.python.ops.image_ops", "tensorflow.python.ops.logging_ops",
    "tensorflow.python.ops.nn_impl", "tensorflow.python.ops.partitioned_variables",
    "tensorflow.python.ops.sparse_ops", "tensorflow.python.ops.string_ops",
    "tensorflow.python.tools.inspect_checkpoint",
)
# Left as TF 2.21 has them: `tensorflow.python.estimator`, TF 1.15's re-export of
# tensorflow_estimator (tf1compat serves `tf.estimator` itself). `tensorflow.python.keras` is
# listed: TF 1.15's was its `tf.keras`, whose names tf1compat serves from legacy Keras.
LEFT_OUT = ("tensorflow.python.estimator",)


def wanted_modules(census=CENSUS):
    """The census's `tensorflow.python.*` modules, their packages and KNOWN, sorted."""
    names = set(KNOWN)
    with open(census, newline="") as handle:
        for row in csv.DictReader(handle):
            module = row["name"].split(":")[0]
            if module == "tensorflow.python" or module.startswith("tensorflow.python."):
                names.add(module)
    for name in list(names):
        parts = name.split(".")
        names.update(".".join(parts[:end]) for end in range(2, len(parts)))
    return sorted(name for name in names
                  if not any(name == out or name.startswith(out + ".") for out in LEFT_OUT))


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

    modules, not_modules = {}, []
    for name in wanted_modules():
        try:
            module = importlib.import_module(name)
        except ImportError:  # an attribute path the census read as a module (ops._gradient_registry)
            not_modules.append(name)
            continue
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
    return modules, not_modules


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

    modules, not_modules = listing()
    document = {
        "about": "TF 1.15's tensorflow.python.* modules: each public attribute as [kind, "
                 "defined_in, v1_names] (tests/tf1_reference/tf115_private_modules.py)",
        "regenerate": "/root/.cache/tf1compat/tf1-reference/bin/python "
                      "tests/tf1_reference/tf115_private_modules.py > "
                      "tf1compat/runner/private_paths/tf115_modules.json",
        "tensorflow": tf.__version__,
        "python": "%d.%d" % sys.version_info[:2],
        "census": os.path.relpath(CENSUS, ROOT),
        "not_modules": not_modules,
        "digest": digest(modules),
        "modules": modules,
    }
    sys.stdout.write(_one_name_a_line(document))


if __name__ == "__main__":
    main()
