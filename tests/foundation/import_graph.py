"""The import graph of the `tf1compat` and `modern` packages, read from their source (ast).

Every `import` and `from ... import` counts, at module level and inside
functions alike: an import a function makes when called ties the two modules
together as much as one at the top. `from package import name` is an edge to
`package.name` when that is a module, else to `package` (whose `__init__` then
provides the name). Imports of other packages (tensorflow, numpy) are left out;
so are imports by string (`importlib.import_module`), which no reader can see.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

PACKAGES = ("tf1compat", "modern")


@dataclasses.dataclass(frozen=True)
class Edge:
    importer: str
    target: str
    line: int

    def __str__(self) -> str:
        return f"{self.importer}:{self.line} imports {self.target}"


def module_files(root: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every module of PACKAGES under `root`."""
    modules = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _nearest_module(name: str, modules: dict[str, Path]) -> str:
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name


def _imported_names(name: str, path: Path) -> list[tuple[str, list[str], int]]:
    """(module written, names taken from it, line) for each import statement of a module."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, [], node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                written = ".".join(base + ([node.module] if node.module else []))
            else:
                written = node.module or ""
            found.append((written, [alias.name for alias in node.names], node.lineno))
    return found


def edges(root: Path) -> list[Edge]:
    """Every import of one of our modules by one of our modules (not of itself)."""
    modules = module_files(root)
    result = []
    for name, path in modules.items():
        for written, names, line in _imported_names(name, path):
            if written.split(".")[0] not in PACKAGES:
                continue
            targets = {f"{written}.{taken}" if f"{written}.{taken}" in modules
                       else _nearest_module(written, modules) for taken in names} \
                if names else {_nearest_module(written, modules)}
            result += [Edge(name, target, line) for target in sorted(targets)
                       if target and target != name]
    return result


def cycles(graph_edges: list[Edge]) -> list[list[str]]:
    """The import circles: each strongly connected set of two or more modules, sorted."""
    successors: dict[str, set[str]] = {}
    for edge in graph_edges:
        successors.setdefault(edge.importer, set()).add(edge.target)
        successors.setdefault(edge.target, set())
    order, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(start: str) -> None:  # Tarjan's algorithm, iterative: packages nest deep
        work = [(start, iter(sorted(successors[start])))]
        order[start] = low[start] = len(order)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in order:
                    order[child] = low[child] = len(order)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(successors[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], order[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == order[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))

    for node in sorted(successors):
        if node not in order:
            visit(node)
    return sorted(found)
