"""Finds, in the source, every private TensorFlow name tf1compat and modern use.

Three kinds of use:
- a module under `tensorflow.python`, `.core`, `.tools`, ... imported, and each
  attribute chain read from what it bound (`ops.Operation._set_device_from_string`);
- a string that names such a module (`"tensorflow.python.eager.context"`);
- an `_underscore` attribute (or `getattr(x, "_name")`) that the project's own
  code never defines: on a TensorFlow object unless it is listed as another
  library's (declared in `tf1compat.shared.library_internal_table`) or Python's.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

PRIVATE_MODULE = re.compile(r"^tensorflow\.(python|core|tools|compiler|tsl|dtensor|lite)(\.|$)")
# A string naming only the root of the private tree ("tensorflow.python", to tell whether user
# code imports under it) names no private module the project relies on.
PRIVATE_ROOTS = frozenset(f"tensorflow.{top}" for top in (
    "python", "core", "tools", "compiler", "tsl", "dtensor", "lite"))
# Strings naming a TF 1.15 path TF1 code imports, which TF 2.21 does not have: tf1compat reads
# nothing of TF 2.21 there, it serves the path itself (and says where).
TF115_ONLY_PATHS = {
    "tensorflow.python.estimator": "TF 1.15's re-export of tensorflow-estimator, served from "
                                   "that library (tf1compat.runner.private_modules)",
    "tensorflow.python.distribute.all_reduce": "TF 1.15's graph-built all-reduce, served by "
                                               "tf1compat.contrib.graph_all_reduce",
    **{f"tensorflow.python.{path}": "a TF 1.15 module TF 2 moved whole, served at its old path "
                                    "(tf1compat.runner.private_paths.moved)"
       for path in ("training.tracking", "training.training_ops",
                    "distribute.distribution_strategy_context")},
    **{path: "a TF 1.15 module TF 2.21's package does not ship, a stand-in that refuses when "
             "called (tf1compat.contrib.absent_modules)"
       for path in ("tensorflow.tools.graph_transforms",
                    "tensorflow.python.profiler.profile_context")},
}
DOTTED = re.compile(r"^[A-Za-z_][\w]*(\.[A-Za-z_]\w*)+$")

# Private names of Python itself.
PYTHON_PRIVATES = frozenset({"_getframe", "_exit", "_current_frames", "_replace", "_fields",
                             "_asdict", "_make"})


@dataclasses.dataclass(frozen=True)
class Use:
    name: str  # a dotted location, or an attribute name for underscore uses
    where: str  # file:line

    def __str__(self) -> str:
        return f"{self.where}: {self.name}"


def source_files(root: Path) -> list[Path]:
    return sorted(path for folder in ("tf1compat", "modern") for path in (root / folder).rglob("*.py"))


def _chain(node: ast.AST) -> list[str] | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return [node.id] + parts[::-1]


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def module_uses(path: Path, root: Path) -> tuple[list[Use], list[Use], set[str]]:
    """(dotted uses, underscore-attribute uses, underscore names the file defines)."""
    tree = ast.parse(path.read_text(), str(path))
    relative = path.relative_to(root)
    aliases: dict[str, str] = {}
    dotted: list[Use] = []
    attributes: list[Use] = []
    defined: set[str] = set()
    for node in ast.walk(tree):
        where = f"{relative}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.ImportFrom) and node.module and PRIVATE_MODULE.match(node.module):
            for alias in node.names:
                aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
                dotted.append(Use(f"{node.module}.{alias.name}", where))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if PRIVATE_MODULE.match(alias.name):
                    dotted.append(Use(alias.name, where))
                    if alias.asname:
                        aliases[alias.asname] = alias.name
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                DOTTED.match(node.value) and PRIVATE_MODULE.match(node.value) and \
                node.value not in PRIVATE_ROOTS and node.value not in TF115_ONLY_PATHS:
            dotted.append(Use(node.value, where))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            defined.add(node.id)
        elif isinstance(node, ast.Attribute):
            if isinstance(node.ctx, ast.Store):
                defined.add(node.attr)
            elif _is_private(node.attr):
                attributes.append(Use(node.attr, where))
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and \
                isinstance(node.slice.value, str):
            defined.add(node.slice.value)  # self.__dict__["_name"] = ...
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr == "_view_set" and node.args and \
                isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            defined.add(node.args[0].value)  # a module view's own state (shared.module_view)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in ("getattr", "hasattr", "setattr") and len(node.args) >= 2 and \
                isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str) \
                and _is_private(node.args[1].value):
            attributes.append(Use(node.args[1].value, where))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            chain = _chain(node)
            if chain and chain[0] in aliases:
                full = ".".join([aliases[chain[0]]] + chain[1:])
                dotted.append(Use(full, f"{relative}:{node.lineno}"))
    return dotted, attributes, defined


def all_uses(root: Path, skip: tuple[str, ...] = ()) -> tuple[list[Use], list[Use], set[str]]:
    dotted, attributes, defined = [], [], set()
    for path in source_files(root):
        if str(path.relative_to(root)) in skip:
            continue
        found = module_uses(path, root)
        dotted += found[0]
        attributes += found[1]
        defined |= found[2]
    return dotted, attributes, defined


def covers(location: str, used: str) -> bool:
    """Whether a declared `location` covers the dotted use `used`.

    A use is covered by its own declaration, by a declaration below it (the
    import of a module whose names are declared), or by a declaration above it
    that it reaches through public names only.
    """
    if used == location or location.startswith(used + "."):
        return True
    if used.startswith(location + "."):
        return not any(_is_private(part) for part in used[len(location) + 1:].split("."))
    return False
