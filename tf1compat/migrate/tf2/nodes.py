"""The nodes of a TF1 graph as `--to tf2` sees them: what each name of a block is
(placeholder, variable, layer, optimizer, tensor, train op, eager value, initializer, batch
element), where it was defined and what it reads."""

from __future__ import annotations

import dataclasses
from typing import Optional

import libcst as cst

PLACEHOLDER, VARIABLE, LAYER, OPTIMIZER, TENSOR, TRAIN, EAGER, INIT, BATCH, FEED = (
    "placeholder", "variable", "layer", "optimizer", "tensor", "train", "eager", "init",
    "batch element", "feed dict")
FUNCTION = "function"  # a function of the file that reads variables made for it
LAZY = (PLACEHOLDER, VARIABLE, TENSOR, TRAIN)


@dataclasses.dataclass(eq=False)
class Node:
    name: str
    kind: str
    index: int                       # the statement of the block that defines it
    line: int
    expression: Optional[cst.BaseExpression] = None
    reads: tuple["Node", ...] = ()
    wrapper: Optional[cst.With] = None  # a `with tf.device(...)` around it
    optimizer: Optional[str] = None     # TRAIN: the optimizer's name
    loss: Optional["Node"] = None       # TRAIN: what it minimizes (None: it applies
    #                                     `expression`, gradients computed by the script)
    global_step: Optional["Node"] = None
    trainable: bool = True
    batch: Optional[tuple[str, int, int]] = None  # BATCH: (iterator, position, elements)
    weightless: bool = False  # LAYER: one that holds no variables (pooling, flatten)
    many: bool = False  # LAYER: a list of layers (made in a loop)
    statement: Optional[list] = None  # TENSOR: the statements (a loop) that compute it
    makes_optimizers: bool = False  # EAGER: a table of optimizer makers

    @property
    def holds_variables(self) -> bool:
        return self.kind == VARIABLE or (self.kind == LAYER and not self.weightless)

    @property
    def trained(self) -> bool:
        """Whether TF1's `tf.trainable_variables()` lists its variables."""
        return self.holds_variables and (self.kind == LAYER or self.trainable)

    def closure(self) -> list["Node"]:
        """This node and every TENSOR/TRAIN node it reads, in definition order."""
        seen: dict[int, Node] = {}

        def visit(node: Node) -> None:
            if id(node) in seen or node.kind not in (TENSOR, TRAIN):
                return
            seen[id(node)] = node
            for read in node.reads:
                visit(read)
            if node.loss is not None:
                visit(node.loss)
        visit(self)
        return sorted(seen.values(), key=lambda node: (node.index, node.line))

    def leaves(self) -> list["Node"]:
        """The placeholders, variables and layers the closure reads, in definition order."""
        found: dict[int, Node] = {}
        for node in self.closure():
            for read in node.reads:
                if read.kind in (PLACEHOLDER, VARIABLE, LAYER):
                    found[id(read)] = read
        return sorted(found.values(), key=lambda node: (node.index, node.line))


def assign(name: str, value: cst.BaseExpression) -> cst.SimpleStatementLine:
    return cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(name))], value)])
