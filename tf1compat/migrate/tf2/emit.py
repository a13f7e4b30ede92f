"""The functions that replace `Session.run` shapes: one per set of fetches, fed values as
arguments, `tf.GradientTape` + `apply_gradients` where a train op is fetched.

A function is defined right after the last statement it needs (where the TF1 graph was
complete for it); `tf.function` where it is fed or trains, a plain function otherwise.
"""

from __future__ import annotations

import dataclasses

import libcst as cst

from tf1compat.migrate.tf2.graph import PLACEHOLDER, TRAIN, Graph, Node
from tf1compat.migrate.tf2.layer_nodes import variables_element
from tf1compat.migrate.tf2.translate import Translator, Unconvertible


@dataclasses.dataclass
class Function:
    name: str
    params: list[Node]
    returns: list[Node]
    definition: cst.FunctionDef
    after: int
    items: list[Node]  # what it computes, as the Session.run fetched it


class FunctionBuilder:
    def __init__(self, graph: Graph, translator: Translator, nested: bool):
        self.graph = graph
        self.t = translator
        self.nested = nested
        self.functions: dict[tuple[int, ...], Function] = {}
        self.used: set[int] = set()

    def uses(self, node: Node) -> bool:
        return id(node) in self.used

    def function_for(self, items: list[Node], line: int) -> Function:
        key = tuple(id(node) for node in items)
        if key in self.functions:
            return self.functions[key]
        trains = [node for node in items if node.kind == TRAIN]
        if len(trains) > 1:
            raise Unconvertible(line, "one Session.run of several train ops")
        closure: dict[int, Node] = {}
        for node in items:
            for needed in node.closure():
                closure[id(needed)] = needed
        ordered = sorted(closure.values(), key=lambda node: (node.index, node.line))
        self.used.update(closure)
        leaves: dict[int, Node] = {}
        for node in items:
            for leaf in node.leaves():
                leaves[id(leaf)] = leaf
        params = sorted((leaf for leaf in leaves.values() if leaf.kind == PLACEHOLDER),
                        key=lambda node: (node.index, node.line))
        returns = [node for node in items if node.kind != TRAIN]
        base = trains[0].name if trains else "_and_".join(node.name for node in returns)
        taken_by_functions = {function.name for function in self.functions.values()}
        name = base if base not in taken_by_functions and (
            base not in self.graph.taken or base in closure_names(items)) else \
            self.graph.fresh(base)
        self.graph.taken.add(name)
        forward = [node for node in ordered if node.kind != TRAIN]
        body = self._statements(forward, returns if not trains else [])
        if trains:
            body = self._training(trains[0], body, returns)
        decorators = [cst.Decorator(self._tf_function(params))] if params or trains else []
        definition = cst.FunctionDef(
            cst.Name(name), cst.Parameters([cst.Param(cst.Name(p.name)) for p in params]),
            cst.IndentedBlock(body), decorators=decorators,
            leading_lines=[cst.EmptyLine(indent=False)] * (1 if self.nested else 2))
        after = max([node.index for node in ordered] +
                    [self.graph.env[trains[0].optimizer].index if trains and
                     trains[0].optimizer in self.graph.env else 0] +
                    [leaf.index for leaf in leaves.values()])
        function = Function(name, params, returns, definition, after, list(items))
        self.functions[key] = function
        return function

    def _tf_function(self, params: list[Node]) -> cst.BaseExpression:
        """`tf.function`, with the fed placeholders' specs as its input signature."""
        if not params:
            return self.t.tf("function")
        return cst.Call(self.t.tf("function"), [cst.Arg(
            cst.List([cst.Element(p.expression) for p in params]),
            keyword=cst.Name("input_signature"),
            equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")))])

    def definitions_after(self, index: int) -> list[cst.FunctionDef]:
        return [f.definition for f in self.functions.values() if f.after == index]

    def _statements(self, nodes: list[Node], returns: list[Node]) -> list[cst.BaseStatement]:
        lines: list[cst.BaseStatement] = []
        groups: list[tuple[object, list[cst.BaseStatement]]] = []
        looped: set[int] = set()  # a loop computes several nodes: it is written once
        for node in nodes:
            last = node is nodes[-1]
            if node.statement is not None:
                if id(node.statement) not in looped:
                    looped.add(id(node.statement))
                    groups.append((None, list(node.statement)))
                continue
            if last and len(returns) == 1 and returns[0] is node and node.wrapper is None:
                statement = cst.SimpleStatementLine([cst.Return(node.expression)])
                returns = []
            else:
                statement = cst.SimpleStatementLine([cst.Assign(
                    [cst.AssignTarget(cst.Name(node.name))], node.expression)])
            if groups and groups[-1][0] is node.wrapper:
                groups[-1][1].append(statement)
            else:
                groups.append((node.wrapper, [statement]))
        for wrapper, statements in groups:
            if wrapper is None:
                lines.extend(statements)
            else:
                lines.append(wrapper.with_changes(body=cst.IndentedBlock(statements),
                                                  leading_lines=[]))
        if returns:
            lines.append(_return(returns))
        return lines

    def _training(self, train: Node, forward: list, returns: list[Node]) -> list:
        if train.loss is None:  # `optimizer.apply_gradients(...)` of the script's gradients
            code = [*forward, cst.SimpleStatementLine([cst.Expr(cst.Call(cst.Attribute(
                cst.Name(train.optimizer), cst.Name("apply_gradients")),
                [cst.Arg(train.expression)]))])]
            if train.global_step is not None:
                code.append(_line(f"{train.global_step.name}.assign_add(1)"))
            return [*code, _return(returns)] if returns else code
        trainable = []
        for leaf in train.leaves():
            if leaf.trained:
                trainable.append(variables_element(leaf))
        if not trainable:
            raise Unconvertible(train.line, f"{train.name} minimizes a loss of no variable")
        if len(trainable) == 1 and isinstance(trainable[0], cst.StarredElement):
            variables = trainable[0].value
        else:
            variables = cst.List(trainable)
        code = [
            cst.With([cst.WithItem(cst.Call(self.t.tf("GradientTape")),
                                   asname=cst.AsName(cst.Name("tape")))],
                     cst.IndentedBlock(forward or [cst.SimpleStatementLine([cst.Pass()])])),
            _line(f"variables = {cst.Module([]).code_for_node(variables)}"),
            _line(f"gradients = tape.gradient({train.loss.name}, variables)"),
            _line(f"{train.optimizer}.apply_gradients(zip(gradients, variables))"),
        ]
        if train.global_step is not None:  # TF1 counts the step once the update is applied
            code.append(_line(f"{train.global_step.name}.assign_add(1)"))
        if returns:
            code.append(_return(returns))
        return code


def closure_names(items: list[Node]) -> set[str]:
    return {node.name for item in items for node in item.closure()}


def _line(code: str) -> cst.SimpleStatementLine:
    return cst.parse_statement(code + "\n")


def _return(nodes: list[Node]) -> cst.SimpleStatementLine:
    value = cst.Name(nodes[0].name) if len(nodes) == 1 else cst.Tuple(
        [cst.Element(cst.Name(node.name)) for node in nodes], lpar=[], rpar=[])
    return cst.SimpleStatementLine([cst.Return(value)])
