"""Records, under TensorFlow 1.15, where each public `tf.contrib` name was defined, and which
core `tf.*` name was the very same object.

Most of `tf.contrib` was not contrib code: `tf.contrib.framework.py_func` *is* `tf.py_func`,
`tf.contrib.quantization.Abs` is `gen_math_ops.Abs`, `tf.contrib.layers.conv2d_transpose`
is defined in `tensorflow/contrib/layers/python/layers/layers.py`, which the tf_slim library
carries on as `tf_slim/layers/layers.py`. tf1compat serves such names by construction
from this record (tf1compat/contrib/homes.py) rather than name by name. Runs on TF 1.15's
interpreter (Python 3.7):

    /root/.cache/tf1compat/tf1-reference/bin/python tests/tf1_reference/tf115_contrib_homes.py \\
        > tf1compat/contrib/tf115_homes.json

For each non-module `tf.contrib.*` name of TF 1.15's listing (tf1compat/surface/data/tf115.json):
`alias`, the shortest public `tf.*` name outside contrib bound to the same object (functions
and classes only: equal numbers or strings say nothing), and `home`, `module:qualname` where
the object says it was defined (`tensorflow_core.` written `tensorflow.`), when that module is
TensorFlow's and the qualname leads back to the same object. `digest` is the SHA-256 of
`names` written canonically (sorted keys, no spaces).
"""

import importlib
import inspect
import json
import os

import digested_json

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LISTING = os.path.join(ROOT, "tf1compat", "surface", "data", "tf115.json")


def _value(root, dotted):
    value = root
    for part in dotted.split(".")[1:]:
        value = getattr(value, part)
    return value


def _core_aliases(tf, listed):
    """id(object) -> the shortest public non-contrib `tf.*` name bound to it."""
    aliases = {}
    for name, entry in listed.items():
        if not name.startswith("tf.") or name.startswith("tf.contrib.") or \
                entry["kind"] not in ("function", "class"):
            continue
        try:
            value = _value(tf, name)
        except Exception:  # noqa: BLE001 - a name TF 1.15 lists but cannot load
            continue
        known = aliases.get(id(value))
        if known is None or (len(name), name) < (len(known[0]), known[0]):
            aliases[id(value)] = (name, value)
    return {key: name for key, (name, _) in aliases.items()}


def _home(value):
    module, qualname = getattr(value, "__module__", None), getattr(value, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(qualname, str) or "<" in qualname:
        return None
    try:
        found = importlib.import_module(module)
        for part in qualname.split("."):
            found = getattr(found, part)
    except Exception:  # noqa: BLE001 - the object's own names do not lead back to it
        return None
    if found is not value:
        return None
    module = module.replace("tensorflow_core.", "tensorflow.", 1)
    return "%s:%s" % (module, qualname) if module.startswith("tensorflow.") else None


def main():
    import tensorflow as tf

    with open(LISTING) as handle:
        listed = json.load(handle)["names"]
    aliases = _core_aliases(tf, listed)
    found = {}
    for name, entry in sorted(listed.items()):
        if not name.startswith("tf.contrib.") or entry["kind"] == "module":
            continue
        try:
            value = _value(tf, name)
        except Exception:  # noqa: BLE001 - a namespace TF 1.15 fails to load
            continue
        record = {}
        if inspect.isfunction(value) or inspect.isclass(value) or inspect.isbuiltin(value):
            if id(value) in aliases:
                record["alias"] = aliases[id(value)]
            home = _home(value)
            if home:
                record["home"] = home
        if record:
            found[name[len("tf.contrib."):]] = record
    digested_json.write("names", found,
                        "TF 1.15's public tf.contrib names: the core tf.* name bound to the "
                        "same object, and where it was defined (tests/tf1_reference/"
                        "tf115_contrib_homes.py)", indent=0)


if __name__ == "__main__":
    main()
