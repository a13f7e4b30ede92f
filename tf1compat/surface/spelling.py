"""The names the probe holds, and how a script spells each (Python 3.7, like `reading`).

A name is one of:
- `tf.a.b`: an attribute chain of `import tensorflow as tf`, written `tf.a.b`;
- `tensorflow.m.n:a.b`: `from tensorflow.m.n import a`, then `.b` read from it;
- `tensorflow.m.n` (or `tensorflow.m.n:`): `import tensorflow.m.n`.
"""

from __future__ import absolute_import, division, print_function

import importlib
import re

_PART = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
TF_HEADER = "import tensorflow as tf"


class BadName(ValueError):
    """A name in none of the accepted forms."""


def parse(name):
    """(module or None for `tf.` chains, [attribute, ...])."""
    if name.startswith("tf."):
        module, chain = None, name[len("tf."):].split(".")
    elif name == "tensorflow" or name.startswith("tensorflow."):
        module, _, rest = name.partition(":")
        chain = rest.split(".") if rest else []
        if not all(_PART.match(part) for part in module.split(".")):
            raise BadName("name %r: module %r is not a dotted name" % (name, module))
    else:
        raise BadName("name %r: expected 'tf.<path>', 'tensorflow.<module>' or "
                         "'tensorflow.<module>:<attribute chain>'" % (name,))
    if not all(_PART.match(part) for part in chain):
        raise BadName("name %r: attribute chain %r is not a dotted name"
                         % (name, ".".join(chain)))
    return module, chain


def statements(name, variable):
    """The lines of a script that bind `variable` to `name` (after `TF_HEADER`)."""
    module, chain = parse(name)
    if module is None:
        return ["%s = tf.%s" % (variable, ".".join(chain))]
    if not chain:
        return ["import %s as %s" % (module, variable)]
    lines = ["from %s import %s as %s" % (module, chain[0], variable)]
    if chain[1:]:
        lines.append("%s = %s.%s" % (variable, variable, ".".join(chain[1:])))
    return lines


def resolve(name, tf_module):
    """The object `name` is in this process, read as a script's import would read it."""
    module_name, chain = parse(name)
    if module_name is None:
        value = tf_module
    else:
        value = importlib.import_module(module_name)
        if chain:
            first = chain[0]
            try:  # `from m import a`: an attribute, else the submodule m.a
                value = getattr(value, first)
            except AttributeError:
                value = importlib.import_module("%s.%s" % (module_name, first))
            chain = chain[1:]
    for part in chain:
        value = getattr(value, part)
    return value


def top_module(name):
    """The top-level module a name is under, for tables: 'tf', 'tf.contrib', 'tf.keras',
    or the module of an import ('tensorflow.python')."""
    module, chain = parse(name)
    if module is None:
        if chain[0] == "contrib" and len(chain) > 1:
            return "tf.contrib.%s" % chain[1]
        return "tf.%s" % chain[0] if len(chain) > 1 else "tf"
    return ".".join(module.split(".")[:2])
