"""Counts the NumPy 1 names and SciPy image helpers that TF1-era code uses and that are gone.

`python -m tf1compat.census.removed_numpy --mirrors DIR` counts, in the census's
repositories (data/repositories.csv, each at its commit), every use of:

- `numpy.<name>` where the installed NumPy (2.x) lacks `<name>` (`np.float`, `np.asscalar`,
  `np.NaN`), or has it with another meaning than NumPy 1 gave it (`np.bool` and `np.long` were
  the builtins `bool` and `int`; `CHANGED`). The alias is resolved: `import numpy as np`,
  `import numpy`, `from numpy import float` (one use, and one per later read of the name);
- `scipy.misc.<name>` (`scipy.misc.imread`, `misc.imresize` after `from scipy import misc`,
  `imread` after `from scipy.misc import imread`): every one counted, whatever SciPy has now.

It writes data/numpy_uses.csv (`name`, `uses`, `repositories`), most used first; `--folder DIR`
prints the counts of a folder of your own instead.
"""

from __future__ import annotations

import argparse
import ast
import os
import sys
import warnings

from tf1compat.census import chains, sources, tally

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
OUTPUT = "numpy_uses.csv"
# Names NumPy 2 has again, with another meaning: NumPy 1 had the builtins there.
CHANGED = frozenset({"bool", "long"})


def _gone_from_numpy(name: str) -> bool:
    import numpy

    with warnings.catch_warnings():  # NumPy 2's deprecated names warn when read
        warnings.simplefilter("ignore")
        return name in CHANGED or not hasattr(numpy, name)


class _Counter(ast.NodeVisitor):
    """One pass: binds the names that stand for numpy, scipy and scipy.misc, counts reads."""

    def __init__(self) -> None:
        self.uses = tally.Uses()
        self.bound: dict[str, str] = {}  # local name -> 'numpy', 'scipy', 'scipy.misc' or a leaf

    def record(self, module: str, name: str, spelling: str) -> None:
        if module == "numpy" and _gone_from_numpy(name):
            self.uses.record(f"numpy.{name}", spelling)
        elif module == "scipy.misc":
            self.uses.record(f"scipy.misc.{name}", spelling)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name in ("numpy", "scipy", "scipy.misc"):
                self.bound[alias.asname or alias.name.split(".")[0]] = \
                    alias.name if alias.asname else alias.name.split(".")[0]

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level or module not in ("numpy", "scipy", "scipy.misc"):
            return
        for alias in node.names:
            bound = alias.asname or alias.name
            if module == "scipy" and alias.name == "misc":
                self.bound[bound] = "scipy.misc"
            elif alias.name != "*":
                self.record(module, alias.name, f"from:{module}:{alias.name}")
                self.bound[bound] = f"{module}:{alias.name}"

    def visit_Attribute(self, node: ast.Attribute) -> None:
        dotted = chains.dotted(node)
        if dotted is None:
            self.generic_visit(node)
            return
        head, *rest = dotted.split(".")
        module = self.bound.get(head)
        if module is None or ":" in module:
            return
        parts = [*module.split("."), *rest]
        if parts[:2] == ["scipy", "misc"] and len(parts) > 2:
            self.record("scipy.misc", parts[2], f"attr:{module}:{'.'.join(rest)}")
        elif parts[0] == "numpy" and len(parts) > 1:
            self.record("numpy", parts[1], f"attr:{module}:{'.'.join(rest)}")

    def visit_Name(self, node: ast.Name) -> None:
        leaf = self.bound.get(node.id, "")
        if ":" in leaf and isinstance(node.ctx, ast.Load):
            module, name = leaf.split(":")
            self.record(module, name, f"from:{module}:{name}")

    def visit_Assign(self, node: ast.Assign) -> None:
        self.generic_visit(node)


def count_source(source: str) -> tally.Uses:
    """The removed NumPy names and scipy.misc helpers one Python source uses."""
    if "numpy" not in source and "scipy" not in source:
        return tally.Uses()
    with warnings.catch_warnings():  # the sources' own invalid escapes are not ours to show
        warnings.simplefilter("ignore", (DeprecationWarning, SyntaxWarning))
        tree = chains.parse(source)
    if tree is None:
        return tally.Uses(unparsed=True)
    counter = _Counter()
    for node in chains.imports(tree):  # imports first, wherever they are, then the reads
        counter.visit(node)
    for node in chains.references(tree):
        counter.visit(node)
    return counter.uses


def write(counted: tally.Tally, path: str) -> None:
    tally.write_rows(path, ["name", "uses", "repositories"],
                     [[name, number, len(counted.repositories[name])]
                      for name, number in counted.ranked()])


def read(path: str = os.path.join(DATA, OUTPUT)) -> dict[str, int]:
    """name -> uses, from the committed counts."""
    return {row["name"]: int(row["uses"]) for row in tally.read_rows(path)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tf1compat.census.removed_numpy",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--mirrors", metavar="DIR", help="recount the census's repositories "
                       "from DIR (<owner>+<name>/repo git directories)")
    where.add_argument("--folder", metavar="DIR", help="print the counts of a folder")
    args = parser.parse_args(argv)
    folder = args.mirrors or args.folder
    if not os.path.isdir(folder):
        option = "--mirrors" if args.mirrors else "--folder"
        print(f"{parser.prog}: error: {option} {folder!r} is not a folder", file=sys.stderr)
        return 2
    if args.folder:
        counted = tally.Tally()
        for _, text in sources.folder_python_files(folder):
            counted.add(folder, count_source(text))
        for name, number in counted.ranked():
            print(f"{number:6d}  {name}")
        return 0
    rows = tally.read_rows(os.path.join(DATA, "repositories.csv"))
    counted = tally.count_repositories(rows, folder, count_source)
    write(counted, os.path.join(DATA, OUTPUT))
    print(f"counted {sum(counted.totals.values())} uses of {len(counted.totals)} names in "
          f"{len({repo for repo, _ in counted.per_repo})} of {len(rows)} repositories -> "
          f"{os.path.join(DATA, OUTPUT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
