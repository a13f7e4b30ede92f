"""Attribute chains in a Python module's ast: the part both censuses read.

A *chain* is a dotted name (`tf.train.AdamOptimizer`, `slim.conv2d`): a Name,
or Attributes on a Name. A call, subscript or any other expression ends it,
so `tf.get_default_graph().as_graph_def` is the chain `tf.get_default_graph`
and nothing is read from the call's result.
"""

from __future__ import annotations

import ast
from typing import Iterator, Optional


def dotted(node: ast.AST) -> Optional[str]:
    """`a.b.c` for a Name or Attributes on a Name; None for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = dotted(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None


def parse(source: str) -> Optional[ast.AST]:
    """The module's ast, or None when it does not parse (Python 2 files are common in TF1
    repositories)."""
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError):
        return None


def imports(tree: ast.AST) -> Iterator[ast.AST]:
    """Every import statement, wherever it is (functions import lazily too)."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node


def references(tree: ast.AST) -> Iterator[ast.AST]:
    """Top-most attribute chains, names and assignments of a chain, in source order.

    A chain inside another chain is not yielded again (`tf.nn` inside
    `tf.nn.relu`); an assignment whose value is a chain (`slim = tf.contrib.slim`)
    is yielded whole, for a visitor that binds its target.
    """
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, (ast.Attribute, ast.Name)) and dotted(node) is not None:
            yield node
            continue
        if isinstance(node, ast.Assign) and dotted(node.value) is not None:
            yield node  # the visitor reads its targets and value
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def read_with_attributes(tree: ast.AST) -> set[str]:
    """The names the module reads an attribute of (`graph_util` in `graph_util.x`)."""
    return {node.value.id for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)}
