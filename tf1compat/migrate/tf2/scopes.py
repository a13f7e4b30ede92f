"""`tf.variable_scope` blocks in a graph block -> TF2, which has no variable scopes: the
variables carry their TF1 names (`s/w`) themselves.

- `with tf.variable_scope("s"):` around assignments: the block goes, its variables named `s/...`;
- `with tf.variable_scope(tf.get_variable_scope()):` (re-entering the root scope, to bound
  what `reuse_variables()` reaches, as multi-tower code does): the block goes;
- `with tf.variable_scope("s", reuse=True):` around statements that read `tf.get_variable("w")`:
  the block goes, each read becomes the variable the block made as `s/w`.
"""

from __future__ import annotations

from typing import Callable, Optional

import libcst as cst

from tf1compat.migrate.tf2.nodes import EAGER, VARIABLE
from tf1compat.migrate.tf2.translate import Translator, Unconvertible


def variable_scope(translator: Translator, statement) -> Optional[str]:
    """'s' of `with tf.variable_scope("s"):` (a literal name, nothing else given)."""
    if not (isinstance(statement, cst.With) and len(statement.items) == 1 and
            isinstance(statement.items[0].item, cst.Call) and statement.items[0].asname is None):
        return None
    call = statement.items[0].item
    if translator.v1_name(call.func) != "variable_scope" or len(call.args) != 1 or \
            call.args[0].keyword or not isinstance(call.args[0].value, cst.SimpleString):
        return None
    return call.args[0].value.evaluated_value


def in_scope(graph, index: int, statement: cst.With, scope: str, line_of) -> list:
    """The statements of a `with tf.variable_scope("s"):` block, the block gone: TF2 needs no
    scope, the variables carry their TF1 names (`s/w`) themselves."""
    inner = statement.body.body
    if not all(isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 and
               isinstance(s.body[0], cst.Assign) and len(s.body[0].targets) == 1 and
               isinstance(s.body[0].targets[0].target, cst.Name) for s in inner):
        raise Unconvertible(line_of(statement), f"tf.variable_scope({scope!r}) around "
                                                "statements other than assignments")
    kept = []
    graph.scopes.append(scope)
    try:
        for inner_statement in inner:
            small = inner_statement.body[0]
            target = small.targets[0].target.value
            if graph.add_assignment(index, line_of(inner_statement), target, small.value, None):
                continue
            node = graph.env.get(target)
            value = node.expression if node is not None and node.kind in (VARIABLE, EAGER) \
                else small.value
            kept.append(inner_statement.with_changes(body=[small.with_changes(value=value)]))
    finally:
        graph.scopes.pop()
    if kept:
        kept[0] = kept[0].with_changes(leading_lines=statement.leading_lines)
    return kept


def reenters_root_scope(translator: Translator, statement) -> bool:
    """`with tf.variable_scope(tf.get_variable_scope()):`."""
    call = _sole_item(statement)
    return call is not None and translator.v1_name(call.func) == "variable_scope" and \
        len(call.args) == 1 and not call.args[0].keyword and \
        isinstance(call.args[0].value, cst.Call) and not call.args[0].value.args and \
        translator.v1_name(call.args[0].value.func) == "get_variable_scope"


def in_root_scope(graph, index: int, statement: cst.With, line_of, graph_statement: Callable
                  ) -> list:
    """The graph statements of the block, in TF2 form (the block gone)."""
    kept: list = []
    for inner in statement.body.body:
        done = graph_statement(inner)
        if done is None:
            raise Unconvertible(line_of(inner), "tf.variable_scope(tf.get_variable_scope()) "
                                                "around code other than graph code")
        if done is True:
            kept.extend(graph.replacements.pop(index, []))
        else:
            kept.extend(done if isinstance(done, list) else [done])
    if kept:
        kept[0] = kept[0].with_changes(leading_lines=statement.leading_lines)
    return kept


def reused(graph, translator: Translator, statement, line: int) -> Optional[list]:
    """The statements of `with tf.variable_scope("s", reuse=True):`, each
    `tf.get_variable("w")` in them the variable the block made as `s/w`; None for other
    statements."""
    call = _sole_item(statement)
    if call is None or translator.v1_name(call.func) != "variable_scope":
        return None
    args = {arg.keyword.value if arg.keyword else "name_or_scope": arg.value
            for arg in call.args}
    scope, reuse = args.get("name_or_scope"), args.get("reuse")
    if set(args) != {"name_or_scope", "reuse"} or not isinstance(scope, cst.SimpleString) or \
            not (isinstance(reuse, cst.Name) and reuse.value == "True"):
        return None
    prefix = scope.evaluated_value

    class Lookups(cst.CSTTransformer):
        def leave_Call(self, original: cst.Call, updated: cst.Call):
            if translator.v1_name(original.func) != "get_variable":
                return updated
            if len(original.args) != 1 or original.args[0].keyword or \
                    not isinstance(original.args[0].value, cst.SimpleString):
                raise Unconvertible(line, "tf.get_variable under reuse=True with more than "
                                          "a literal name")
            name = "/".join(part for part in (prefix, original.args[0].value.evaluated_value)
                            if part)
            if name not in graph.tf1_variables:
                raise Unconvertible(line, f"tf.get_variable({name!r}) under reuse=True: no "
                                          "variable of that TF1 name made in this block")
            return cst.Name(graph.tf1_variables[name])

    inner = [s.visit(Lookups()) for s in statement.body.body]
    inner[0] = inner[0].with_changes(leading_lines=statement.leading_lines)
    return inner


def _sole_item(statement) -> Optional[cst.Call]:
    if isinstance(statement, cst.With) and len(statement.items) == 1 and \
            isinstance(statement.items[0].item, cst.Call) and statement.items[0].asname is None:
        return statement.items[0].item
    return None
