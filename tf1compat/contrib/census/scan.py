"""Counts the `tf.contrib` names a Python source uses, with the ast module.

A *use* is one place the source names a contrib name:

- an attribute chain on TensorFlow: `tf.contrib.layers.xavier_initializer`;
- a name imported from contrib: `from tensorflow.contrib.layers import flatten`
  (one use), and each later reference to the bound name;
- a contrib module imported (`import tensorflow.contrib.slim as slim`,
  `from tensorflow.contrib import rnn`, `slim = tf.contrib.slim`): one use of
  the module, and each attribute chain on the bound name (`slim.conv2d`) is
  a use of that name.

Deep module paths (`tensorflow.contrib.framework.python.ops.arg_scope`) are
normalised to the public name (`framework.arg_scope`) by
`tf1compat.contrib.paths.public_name`; the
spelling as written is kept too, so a check can try exactly what the source
wrote. The chain stops at the first part that names a class member
(`learn.ModeKeys.TRAIN` is a use of `learn.ModeKeys`).
"""

from __future__ import annotations

import ast
from typing import Optional

from tf1compat.census.chains import dotted as _dotted
from tf1compat.census.chains import imports, parse, references
from tf1compat.census.tally import Uses
from tf1compat.contrib.paths import public_name


class FileUses(Uses):
    """The contrib uses of one file: public name -> count, and the spellings seen."""

    def add(self, raw: str, spelling: str) -> None:
        if "__" in raw:  # `rnn.__dict__`: a look at the module itself
            parts = raw.split(".")
            raw = ".".join(parts[:next(i for i, p in enumerate(parts) if p.startswith("__"))])
            spelling = f"attr:{raw}"
            if not raw:
                return
        self.record(public_name(raw), spelling)


class _Counter(ast.NodeVisitor):
    """One pass over a module: binds names to TensorFlow / contrib paths, counts the chains."""

    def __init__(self) -> None:
        self.uses = FileUses()
        self.tf_names: set[str] = set()           # names bound to the tensorflow module
        self.contrib: dict[str, str] = {}          # bound name -> raw path under contrib ('' = contrib)
        self.leaves: dict[str, str] = {}           # bound name -> raw path of an imported name

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name == "tensorflow":
                self.tf_names.add(alias.asname or "tensorflow")
            elif alias.name.startswith("tensorflow.contrib."):
                raw = alias.name[len("tensorflow.contrib."):]
                self.uses.add(raw, f"import:{raw}")
                if alias.asname:
                    self.contrib[alias.asname] = raw
                else:
                    self.tf_names.add("tensorflow")
            elif alias.name.startswith("tensorflow.") and alias.asname is None:
                self.tf_names.add("tensorflow")  # `import tensorflow.x` binds tensorflow

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level or not (module == "tensorflow" or module.startswith("tensorflow.contrib")):
            return
        for alias in node.names:
            bound = alias.asname or alias.name
            if module == "tensorflow":
                if alias.name == "contrib":
                    self.contrib[bound] = ""
                continue
            base = module[len("tensorflow.contrib"):].lstrip(".")
            if alias.name == "*":
                self.uses.add(base, f"from:{base}:*")
                continue
            raw = ".".join(filter(None, [base, alias.name]))
            self.uses.add(raw, f"from:{base}:{alias.name}")
            if _is_module_like(raw):
                self.contrib[bound] = raw
            else:
                self.leaves[bound] = raw

    def visit_Assign(self, node: ast.Assign) -> None:
        value = _dotted(node.value)
        raw = self._contrib_path(value) if value else None
        if raw is not None and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and _is_module_like(raw):
            self.contrib[node.targets[0].id] = raw
            self.uses.add(raw, f"attr:{raw}")
            return
        self.generic_visit(node)

    def _contrib_path(self, dotted: str) -> Optional[str]:
        """The raw path under contrib that `dotted` names, or None."""
        head, _, tail = dotted.partition(".")
        if head in self.tf_names and (tail == "contrib" or tail.startswith("contrib.")):
            return tail[len("contrib."):] if tail != "contrib" else ""
        if head in self.contrib:
            return ".".join(filter(None, [self.contrib[head], tail]))
        if head in self.leaves:
            return ".".join(filter(None, [self.leaves[head], tail]))
        return None

    def visit_Attribute(self, node: ast.Attribute) -> None:
        dotted = _dotted(node)
        if dotted is None:
            self.generic_visit(node)
            return
        raw = self._contrib_path(dotted)
        if raw:  # '' is tf.contrib itself
            self.uses.add(raw, f"attr:{raw}")

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in self.leaves and isinstance(node.ctx, ast.Load):
            raw = self.leaves[node.id]
            self.uses.add(raw, f"attr:{raw}")


def _is_module_like(raw: str) -> bool:
    """Whether a raw contrib path names a module (bound names then prefix its attributes)."""
    last = raw.split(".")[-1]
    return bool(raw) and (raw.count(".") == 0 or "python" in raw.split(".")
                          or last in ("nets", "datasets", "preprocessing", "projector",
                                      "plugins", "tensorboard", "data", "learning",
                                      "parallel_reader", "dataset_data_provider",
                                      "tfexample_decoder", "queues", "evaluation", "metrics",
                                      "losses", "dataset", "mnist", "nest", "slim")
                          or last.endswith(("_v1", "_v2", "_v3", "_v4", "_ops", "_utils", "net")))


def count_source(source: str) -> FileUses:
    """The contrib uses of one Python source (empty when it does not parse)."""
    if "contrib" not in source:
        return FileUses()
    tree = parse(source)
    if tree is None:
        return FileUses()
    counter = _Counter()
    # Imports first, wherever they are (functions import lazily too), then the references.
    for node in imports(tree):
        counter.visit(node)
    for node in references(tree):
        counter.visit(node)
    return counter.uses
