"""Lists, under TensorFlow 1.15, the modules each `tf.contrib.*` namespace holds as attributes.

TF 1.15's contrib packages star-imported their implementation modules, so a namespace also
held the modules those imported: `tf.contrib.slim.init_ops` is `tensorflow.python.ops.init_ops`,
`slim.variables` is `tensorflow.contrib.framework.python.ops.variables`. TF1 code used them
(`slim.init_ops.zeros_initializer()`). Runs on TF 1.15's interpreter (Python 3.7):

    /root/.cache/tf1compat/tf1-reference/bin/python tests/tf1_reference/tf115_contrib_module_names.py \\
        > tf1compat/contrib/tf115_module_names.json

For each contrib namespace of TF 1.15's listing (tf1compat/surface/data/tf115.json, kind
module), each attribute that is a module of TensorFlow's (`tensorflow.python.*`,
`tensorflow.contrib.*`, `tensorflow.core.*`) and is not itself a public name of the listing:
`{"slim": {"init_ops": "tensorflow.python.ops.init_ops", ...}}`. `digest` is the SHA-256 of
`namespaces` written canonically (sorted keys, no spaces).
"""

import json
import os
import types

import digested_json

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LISTING = os.path.join(ROOT, "tf1compat", "surface", "data", "tf115.json")
TENSORFLOW_MODULES = ("tensorflow.python.", "tensorflow.contrib.", "tensorflow.core.",
                      "tensorflow_core.python.", "tensorflow_core.contrib.",
                      "tensorflow_core.core.")


def main():
    import tensorflow as tf

    with open(LISTING) as handle:
        listed = json.load(handle)["names"]
    namespaces = sorted(name[len("tf.contrib."):] for name, entry in listed.items()
                        if name.startswith("tf.contrib.") and entry["kind"] == "module")
    found = {}
    for namespace in namespaces:
        value = tf.contrib
        try:
            for part in namespace.split("."):
                value = getattr(value, part)
        except Exception:  # noqa: BLE001 - a namespace TF 1.15 fails to load: nothing to list
            continue
        modules = {}
        for attribute, member in sorted(vars(value).items()):
            if attribute.startswith("_") or not isinstance(member, types.ModuleType):
                continue
            if "tf.contrib.%s.%s" % (namespace, attribute) in listed:
                continue
            name = member.__name__.replace("tensorflow_core.", "tensorflow.", 1)
            if name.startswith(TENSORFLOW_MODULES):
                modules[attribute] = name
        if modules:
            found[namespace] = modules
    digested_json.write("namespaces", found,
                        "TF 1.15's tf.contrib namespaces: their attributes that are TensorFlow "
                        "modules, not public names (tests/tf1_reference/"
                        "tf115_contrib_module_names.py)", indent=1)


if __name__ == "__main__":
    main()
