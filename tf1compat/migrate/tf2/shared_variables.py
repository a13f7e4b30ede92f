"""Functions that make their variables with `tf.get_variable` (a model or tower function,
called once per tower under `reuse_variables()`) -> the variables made once, where a graph
block first calls the function, and the function reading them:

    def tower_loss(x, y):                                   def tower_loss(x, y):
        weights = tf.get_variable("weights", [3, 1])   ->       return tf.reduce_mean(tf.matmul(x, weights) ...)
        return tf.reduce_mean(tf.matmul(x, weights) ...)
                                                            ... in the block, before the first call:
                                                            weights = tf.Variable(..., name="weights")

TF1 made them at the first call and handed the later calls, made under reuse, the same ones.
A function called by more than one statement, or in a loop that does not turn reuse on,
which TF1 refuses ("Variable weights already exists"), is refused here too.
"""

from __future__ import annotations

import dataclasses

import libcst as cst

from tf1compat.migrate.tf2.nodes import FUNCTION, VARIABLE, Node, assign
from tf1compat.migrate.tf2.translate import Translator, Unconvertible, names_read


@dataclasses.dataclass
class VariableMaker:
    """A module-level function and the `name = tf.get_variable(...)` statements it starts
    with (their local name, the call, its line)."""
    name: str
    variables: list[tuple[str, cst.Call, int]]
    made_at: int = -1  # the block statement that first called it


def variable_makers(module: cst.Module, translator: Translator, positions
                    ) -> tuple[cst.Module, dict[str, VariableMaker]]:
    """The module with the `tf.get_variable` statements taken out of its functions' bodies,
    and those functions by name. Raises Unconvertible where a variable's local name is bound
    outside its function too (it becomes a module-level name)."""
    makers: dict[str, VariableMaker] = {}
    body = []
    for statement in module.body:
        found = _made_in(statement, translator, positions) if isinstance(
            statement, cst.FunctionDef) else []
        if not found:
            body.append(statement)
            continue
        makers[statement.name.value] = VariableMaker(statement.name.value, found)
        kept = [s for s in statement.body.body if not _makes_variable(s, translator)]
        body.append(statement.with_changes(body=statement.body.with_changes(
            body=kept or [cst.SimpleStatementLine([cst.Pass()])])))
    if not makers:
        return module, makers
    outside = set()
    for statement in body:
        if not (isinstance(statement, cst.FunctionDef) and statement.name.value in makers):
            outside |= set(names_read(statement)) | _bound(statement)
    for maker in makers.values():
        for local, _, line in maker.variables:
            if local in outside:
                raise Unconvertible(line, f"variable {local} of {maker.name}() is also a name "
                                          "outside it (its variables become module names)")
    return module.with_changes(body=body), makers


def _made_in(function: cst.FunctionDef, translator: Translator, positions) -> list:
    found = []
    params = {param.name.value for param in function.params.params}
    for statement in function.body.body:
        if _makes_variable(statement, translator):
            assign = statement.body[0]
            local = assign.targets[0].target.value
            position = positions.get(statement)
            line = position.start.line if position else 0
            if local in params or any(local == name for name, _, _ in found):
                raise Unconvertible(line, f"tf.get_variable bound to {local} twice in "
                                          f"{function.name.value}()")
            if set(names_read(assign.value)) & params:
                raise Unconvertible(line, f"tf.get_variable in {function.name.value}() "
                                          "shaped or initialized from its arguments")
            found.append((local, assign.value, line))
    return found


def _makes_variable(statement, translator: Translator) -> bool:
    if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1):
        return False
    small = statement.body[0]
    return isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(
        small.targets[0].target, cst.Name) and isinstance(small.value, cst.Call) and \
        translator.v1_name(small.value.func) == "get_variable"


def _bound(statement) -> set[str]:
    """The names a module-level statement binds (assignments, defs, classes, imports)."""
    names: set[str] = set()

    class Binder(cst.CSTVisitor):
        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            names.update(names_read(node.target))

        def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
            names.add(node.name.value)

        def visit_ClassDef(self, node: cst.ClassDef) -> None:
            names.add(node.name.value)

    statement.visit(Binder())
    return names


def make_variables(graph, maker: VariableMaker, index: int, line: int, in_function: bool,
                   scope=None) -> list:
    """The statements that make `maker`'s variables, bound in `graph` as its variables (with
    the TF1 names of the scope around the call) and the function as reading them; made in
    a function (`def train():`), they are declared global: the module's function reads them."""
    if scope is not None:  # the names would carry it; the variables are made before it
        raise Unconvertible(line, f"{maker.name}() called inside tf.variable_scope({scope!r}) "
                                  "(its variables' TF1 names carry the scope)")
    if maker.made_at >= 0:
        raise Unconvertible(line, f"{maker.name}() called again without reuse (TF1 raises: "
                                  "its variables exist)")
    maker.made_at = index
    made, statements = [], []
    for local, call, at in maker.variables:
        value, tf1_name = graph.get_variable(call, at)
        graph.taken.add(local)
        graph.tf1_variables[tf1_name] = local
        made.append(graph.bind(Node(local, VARIABLE, index, at, value)))
        statements.append(assign(local, value))
    graph.bind(Node(maker.name, FUNCTION, index, line, reads=tuple(made)))
    if in_function:
        statements.insert(0, cst.SimpleStatementLine([cst.Global([
            cst.NameItem(cst.Name(local)) for local, _, _ in maker.variables])]))
    statements[0] = statements[0].with_changes(leading_lines=[cst.EmptyLine(
        comment=cst.Comment(f"# {maker.name}()'s variables, made once: TF1 made them at "
                            "its first call, then shared them"))])
    return statements
