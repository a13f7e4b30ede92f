"""Where TF 1.15 defined a contrib constant: the module file that assigns it.

`tf115_homes.json` records a home for each contrib function and class (its `__module__`); a
constant has none (`layers.OPTIMIZER_CLS_NAMES`, `factorization.COSINE_DISTANCE`,
`tfprof.model_analyzer.FLOAT_OPS_OPTIONS`). TF 1.15's namespace took it by star-import from
the module file that assigns it at top level, so that file is its home: found in TF 1.15's own
source, first below the namespace's own folder, else wherever in contrib exactly one file
assigns it (`slim.OPTIMIZER_SUMMARIES` is contrib.layers' `optimizers.py`'s, re-exported). The
value then comes from that module as `homes` serves any other name of it (its carrier, or TF
1.15's file run here), so a constant and the functions reading it share one module.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path
from typing import Optional

from tf1compat.contrib.tf115_source import SourceUnavailable, source_root


@functools.lru_cache(maxsize=1)
def _assignments() -> dict[str, tuple[str, ...]]:
    """Each name assigned at the top level of a contrib module file -> those modules, in
    `tensorflow.contrib...` form; {} where TF 1.15's source is not here."""
    try:
        root = source_root()
    except SourceUnavailable:
        return {}
    found: dict[str, list[str]] = {}
    for path in sorted((root / "contrib").rglob("*.py")):
        if "kernel_tests" in path.parts or path.name.endswith("_test.py"):
            continue
        for name in _assigned_names(path):
            found.setdefault(name, []).append(_module_of(root, path))
    return {name: tuple(modules) for name, modules in found.items()}


def _assigned_names(path: Path) -> list[str]:
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return []
    names = []
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign) else []
        names.extend(target.id for target in targets if isinstance(target, ast.Name))
    return names


def _module_of(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["tensorflow", *parts])


def home_of(name: str) -> Optional[str]:
    """'layers.OPTIMIZER_CLS_NAMES' -> 'tensorflow.contrib.layers.python.layers.optimizers:
    OPTIMIZER_CLS_NAMES', or None where no single TF 1.15 file is its home."""
    namespace, _, constant = name.rpartition(".")
    if not namespace:
        return None
    modules = _assignments().get(constant, ())
    package = "tensorflow.contrib." + namespace.split(".")[0] + "."
    own = [module for module in modules if module.startswith(package)]
    # a namespace that is one module file (`tfprof.model_analyzer`) holds its own constants
    exact = [module for module in own if module.endswith("." + namespace.rpartition(".")[2])]
    for candidates in (exact, own, list(modules)):
        if len(candidates) == 1:
            return f"{candidates[0]}:{constant}"
    return None
