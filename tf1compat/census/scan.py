"""Counts every TensorFlow name a Python source uses, with the ast module.

A *use* is one place the source names TensorFlow:

- `import tensorflow[.x] [as y]`: one use of the module it names (`tf` for
  `import tensorflow`, `tf.contrib.slim`, `tensorflow.python.client:device_lib`);
- `from tensorflow.x import y`: one use of `tensorflow.x.y`, and each later
  reference to `y` is one more (a module imported this way, `graph_util`
  in `graph_util.convert_variables_to_constants(...)`, counts its attribute
  chains instead, like a module bound by `import`);
- an attribute chain on a bound module (`tf.train.AdamOptimizer`,
  `slim.conv2d`, `graph_util.convert_variables_to_constants`): one use of
  the name the chain reaches, cut where it starts reading a member
  (`names.kept`); a call's result is not followed;
- `slim = tf.contrib.slim` counts the chain once and binds `slim` for the
  chains after it, when the path names a module (lower-case, not a dtype,
  and the file reads attributes of `slim`).

`import tensorflow.compat.v1 as tf` binds TF1's API: its names are `tf.` names
(`names.canonical`). Each use keeps the way the source wrote it, as a
*spelling*: `import:<module>`, `from:<module>:<name>` or `attr:<module>:<chain>`
(`attr:tensorflow.compat.v1:placeholder`,
`attr:tensorflow.python.framework:graph_util.convert_variables_to_constants`),
so a check can try exactly what the source wrote.
"""

from __future__ import annotations

import ast
import dataclasses

from tf1compat.census import chains
from tf1compat.census.names import DTYPES, canonical, kept
from tf1compat.census.tally import Uses


@dataclasses.dataclass(frozen=True)
class Binding:
    """What a bound name stands for: the module the source named, and the chain read on it."""

    module: str            # 'tensorflow', 'tensorflow.compat.v1', 'tensorflow.python.framework'
    chain: tuple = ()      # ('graph_util',) for `from tensorflow.python.framework import graph_util`
    leaf: bool = False     # a name imported from a module (each bare reference is a use)

    def path(self, rest=()) -> list[str]:
        return [*self.module.split("."), *self.chain, *rest]


class _Counter(ast.NodeVisitor):
    """One pass over a module: binds names to TensorFlow paths, counts what they reach."""

    def __init__(self, read_with_attributes: set[str]) -> None:
        self.uses = Uses()
        self.bound: dict[str, Binding] = {}
        self.read_with_attributes = read_with_attributes

    def use(self, binding: Binding, rest: list[str], form: str = "attr") -> None:
        parts = binding.path(rest)
        keep = kept(parts)
        chain = [*binding.chain, *rest][:max(0, keep - len(binding.module.split(".")))]
        spelling = f"{form}:{binding.module}" + (":" + ".".join(chain) if form != "import" else "")
        self.uses.record(canonical(".".join(parts[:keep])), spelling)

    def _module_like(self, name: str, last: str) -> bool:
        return (name in self.read_with_attributes and last[:1].islower() and last not in DTYPES)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name != "tensorflow" and not alias.name.startswith("tensorflow."):
                continue
            self.use(Binding(alias.name), [], form="import")
            if alias.asname:
                self.bound[alias.asname] = Binding(alias.name)
            else:  # `import tensorflow.x` binds tensorflow
                self.bound["tensorflow"] = Binding("tensorflow")

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level or not (module == "tensorflow" or module.startswith("tensorflow.")):
            return
        for alias in node.names:
            if alias.name == "*":  # a use of the module; the names it binds are not known
                self.uses.record(canonical(module), f"from:{module}:*")
                continue
            bound = alias.asname or alias.name
            binding = Binding(module, (alias.name,),
                              leaf=not self._module_like(bound, alias.name))
            self.use(binding, [], form="from")
            self.bound[bound] = binding

    def visit_Assign(self, node: ast.Assign) -> None:
        value = chains.dotted(node.value)
        if value is None:
            self.generic_visit(node)
            return
        self.visit(node.value)
        head, *rest = value.split(".")
        single = node.targets[0] if len(node.targets) == 1 else None
        if head in self.bound and rest and isinstance(single, ast.Name) \
                and self._module_like(single.id, rest[-1]):
            binding = self.bound[head]
            self.bound[single.id] = Binding(binding.module, (*binding.chain, *rest))
        for target in node.targets:
            self.visit(target)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        dotted = chains.dotted(node)
        if dotted is None:
            self.generic_visit(node)
            return
        head, *rest = dotted.split(".")
        if head in self.bound:
            self.use(self.bound[head], rest)

    def visit_Name(self, node: ast.Name) -> None:
        binding = self.bound.get(node.id)
        if binding is not None and binding.leaf and isinstance(node.ctx, ast.Load):
            self.use(binding, [])


def count_source(source: str) -> Uses:
    """The TensorFlow uses of one Python source (empty when it does not parse)."""
    if "tensorflow" not in source:
        return Uses()
    tree = chains.parse(source)
    if tree is None:
        return Uses(unparsed=True)
    counter = _Counter(chains.read_with_attributes(tree))
    # Imports first, wherever they are, then the references in source order.
    for node in chains.imports(tree):
        counter.visit(node)
    for node in chains.references(tree):
        counter.visit(node)
    return counter.uses
