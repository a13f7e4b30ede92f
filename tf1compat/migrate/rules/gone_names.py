"""TF 1.15 names that TF 2.21's TF1 API lacks: served as `run` serves them, or reported.

tf_upgrade_v2 leaves such a name as it is (`tf.config.experimental_list_devices()`,
`tf.data.experimental.StatsAggregator()`), and the migrated script would fail there, on a
line migrate said nothing about. Before it runs, each `tf.<path>` TF 1.15 had whose path
is not in TF 2.21's `tf.compat.v1`, nor renamed by tf_upgrade_v2 to a name TF 2.21 has:

- TF 1.15's same object under a contrib name (`tf.contrib.eager.list_devices`) becomes
  that contrib name, which the contrib rule then serves as `run` does;
- a name read from `tf.pywrap_tensorflow`, one of TensorFlow's own modules in TF 1.15's
  API, becomes its public TF1 name, as the private-paths rule writes the names of
  `tensorflow.python.pywrap_tensorflow` (`NewCheckpointReader`:
  `tf.compat.v1.train.NewCheckpointReader`), and the module itself, or a name of it with
  no public home that it serves, `tf1compat.tf1_module(...)`, the module as `run` serves it;
- anything else is left as written and reported, with what TF 2.21 lacks.

Namespaces other rules serve whole (`tf.contrib`, `tf.estimator`, `tf.keras`,
`tf.examples`) are theirs.
"""

from __future__ import annotations

import functools
from typing import Optional

import libcst as cst
from libcst.codemod.visitors import AddImportsVisitor

from tf1compat.contrib.entries import Served
from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule
from tf1compat.runner.served import TF1_OWN_MODULES

_OTHER_RULES = ("contrib", "estimator", "keras", "examples", "python", "compat")


@functools.lru_cache(maxsize=None)
def _tf115_has(path: str) -> bool:
    from tf1compat.surface import reference

    return f"tf.{path}" in reference.load().names


@functools.lru_cache(maxsize=None)
def _tf2_has(path: str, v1: bool = True) -> bool:
    """Whether TF 2.21's `tf.compat.v1.<path>` (v1: False, `tf.<path>`) is there."""
    import tensorflow as tf

    from tf1compat.migrate.rules.tf115_positions import walk_path

    return walk_path(path, tf.compat.v1 if v1 else tf) is not None


def _renamed_there(path: str) -> bool:
    """Whether tf_upgrade_v2 renames `tf.<path>` to a name TF 2.21 has."""
    from tf1compat.migrate.upgrade_v2 import renamed_to

    target = renamed_to(f"tf.{path}")
    if not target or not target.startswith("tf."):
        return False
    rest = target[len("tf."):]
    return _tf2_has(rest[len("compat.v1."):] if rest.startswith("compat.v1.") else rest) or \
        _tf2_has(rest, v1=False)


def gone(path: str) -> Optional[str]:
    """The first prefix of `tf.<path>` TF 1.15 had and TF 2.21's TF1 API lacks, else None."""
    parts = path.split(".")
    if parts[0] in _OTHER_RULES:
        return None
    for end in range(1, len(parts) + 1):
        prefix = ".".join(parts[:end])
        if not _tf2_has(prefix):
            return prefix if _tf115_has(prefix) and not _renamed_there(prefix) else None
    return None


def contrib_spelling(path: str) -> Optional[str]:
    """The served contrib name TF 1.15 gave the object of `tf.<path>` (None: none)."""
    from tf1compat.contrib import homes, registry

    for name in homes.contrib_names_of(f"tf.{path}"):
        entry = registry.lookup(name)
        if entry is not None and entry.served is not registry.Served.UNSUPPORTED:
            return name
    return None


class GoneNamesRule(Rule):
    NAME = "gone-names"
    DESCRIPTION = ("TF 1.15 names TF 2.21's tf.compat.v1 lacks -> their contrib spelling or "
                   "TensorFlow's own module, else reported")
    TRIGGERS = ("tensorflow",)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._inner: set[int] = set()

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._inner.add(id(node.value))  # only the whole chain is read (`tf.a` of `tf.a.b`)

    def leave_Attribute(self, original_node: cst.Attribute,
                        updated_node: cst.Attribute) -> cst.BaseExpression:
        if id(original_node) in self._inner:
            return updated_node
        path = self.names.v1_name(original_node)
        missing = gone(path) if path else None
        if missing is None:
            return updated_node
        alias, rest = self.names.alias, path[len(missing):]
        if missing in TF1_OWN_MODULES:
            return self._own_module_name(original_node, updated_node, missing, rest)
        name = contrib_spelling(missing)
        if name is not None:
            self.add(original_node, Kind.CHANGED,
                     f"tf.{missing} -> tf.contrib.{name}: TF 2.21 has no tf.{missing}; TF 1.15 "
                     f"gave the same object as tf.contrib.{name}, which is served")
            return cst.parse_expression(f"{alias}.contrib.{name}{rest}")
        self.add(original_node, Kind.NOT_CONVERTED,
                 f"tf.{missing} left as is: TF 1.15 had it, TF 2.21's tf.compat.v1 has no "
                 f"tf.{missing} and tf_upgrade_v2 gives it no TF 2 name; it fails on TF 2.21 "
                 "as written")
        return updated_node

    def _own_module_name(self, original_node: cst.Attribute, updated_node: cst.Attribute,
                         missing: str, rest: str) -> cst.BaseExpression:
        from tf1compat.migrate.rules.private_paths import public_code, public_walk
        from tf1compat.runner.private_paths.homes import find

        module, (name, _, more) = TF1_OWN_MODULES[missing], rest.lstrip(".").partition(".")
        home = find(module, name, public_walk) if name else None
        if name and (home is None or home.status is Served.UNSUPPORTED):
            self.add(original_node, Kind.NOT_CONVERTED,
                     f"tf.{missing}{rest} left as is: TF 1.15's tf.{missing} was TensorFlow's "
                     f"module {module}, and {name} is not served from it"
                     + (f" ({home.note})" if home is not None and home.note else "")
                     + "; it fails on TF 2.21 (under `tf1compat run` too)")
            return updated_node
        if home is None or home.public is None:  # the module itself, as `run` serves it
            AddImportsVisitor.add_needed_import(self.context, "tf1compat")
            code = f"tf1compat.tf1_module({module!r}){rest}"
            self.add(original_node, Kind.CHANGED,
                     f"tf.{missing}{rest} -> {code}: TF 1.15's tf.{missing} was TensorFlow's "
                     f"module {module}, which TF 2.21's tf.compat.v1 does not name; "
                     "tf1compat serves it as `tf1compat run` does")
            return cst.parse_expression(code)
        code = public_code(self.names.alias, home.public) + (f".{more}" if more else "")
        self.add(original_node, Kind.CHANGED,
                 f"tf.{missing}.{name} -> tf.compat.v1.{home.public}: TF 1.15's tf.{missing} "
                 f"was TensorFlow's module {module}; TF 2.21's tf.compat.v1 has no such name")
        return cst.parse_expression(code)
