"""Where the code changes another library or Python directly: attribute assignments and
`setattr`/`delattr` on modules of other libraries (as imported by the file), any assignment
to `builtins.*`, and `sys.modules`/`sys.meta_path` changes. Each such site must belong to the
installer of a declared patch (`tf1compat.shared.patch_table`)."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

OTHER_LIBRARIES = ("tensorflow", "keras", "tf_keras", "tf_slim", "tensorflow_estimator",
                   "numpy", "scipy", "PIL", "builtins")
CHANGING_CALLS = ("sys.meta_path.insert", "sys.meta_path.append", "sys.meta_path.extend",
                  "sys.meta_path.remove", "sys.meta_path.__setitem__", "sys.modules.update",
                  "sys.modules.setdefault", "sys.modules.__setitem__")


@dataclasses.dataclass(frozen=True)
class Site:
    module: str  # dotted, e.g. tf1compat.runner.shim
    path: str
    line: int
    change: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.change}"


def _is_other_library(module: str) -> bool:
    return module.split(".")[0] in OTHER_LIBRARIES


def _aliases(tree: ast.AST) -> set[str]:
    """Names the file binds to modules (or their members) of other libraries."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.asname or alias.name.split(".")[0] for alias in node.names
                      if _is_other_library(alias.name)}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and \
                _is_other_library(node.module):
            names |= {alias.asname or alias.name for alias in node.names}
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and \
                getattr(node.value.func, "attr", "") == "import_module" and node.value.args and \
                isinstance(node.value.args[0], ast.Constant) and \
                _is_other_library(str(node.value.args[0].value)):
            names |= {target.id for target in node.targets if isinstance(target, ast.Name)}
    return names


def _root(node: ast.AST) -> str:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else ""


def sites_in(path: Path, root: Path) -> list[Site]:
    tree = ast.parse(path.read_text(), str(path))
    module = ".".join(path.relative_to(root).with_suffix("").parts)
    aliases = _aliases(tree)
    found = []
    for node in ast.walk(tree):
        changes = []
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.Delete)):
            targets = node.targets if not isinstance(node, ast.AugAssign) else [node.target]
            for target in targets:
                text = ast.unparse(target)
                if isinstance(target, ast.Attribute) and _root(target) in aliases:
                    changes.append(text)
                elif text.startswith(("sys.modules[", "sys.meta_path[")):
                    changes.append(text)
        elif isinstance(node, ast.Call):
            function = ast.unparse(node.func)
            if function in ("setattr", "delattr") and node.args and \
                    _root(node.args[0]) in aliases:
                changes.append(f"{function}({ast.unparse(node.args[0])}, ...)")
            elif function in CHANGING_CALLS:
                changes.append(function)
        found += [Site(module, str(path.relative_to(root)), node.lineno, change)
                  for change in changes]
    return found


def all_sites(root: Path) -> list[Site]:
    return [site for folder in ("tf1compat", "modern")
            for path in sorted((root / folder).rglob("*.py")) for site in sites_in(path, root)]
