"""One block of a TF1 script (the module, or a function such as `main`) that builds a graph
and runs it in a session -> TF2: variables, layers and optimizers created once where the
graph made them, one function per `Session.run` shape, the runs replaced by calls.

    inputs = tf.placeholder(tf.float32, [None, 4])       dense = tf.keras.layers.Dense(8, ..., name="dense")
    hidden = tf.layers.dense(inputs, 8, ...)       ->    optimizer = tf.keras.optimizers.Adam(...)
    loss = ...                                           @tf.function
    train = tf.train.AdamOptimizer(0.05).minimize(loss)  def train(inputs, labels):
    sess = tf.Session()                                      with tf.GradientTape() as tape:
    sess.run(tf.global_variables_initializer())                  hidden = dense(inputs) ...
    _, value = sess.run([train, loss], {inputs: data,        ...apply_gradients...; return loss
                                        labels: target})     value = train(data, target).numpy()

A fetch that is one expression of variables (`sess.run(increment)` of `tf.assign_add(v, 5)`)
is written in place of the run. Anything else a block does with the graph (a tensor used
outside `Session.run`, a session used for more than run/close/list_devices, graph code in
loops) raises Unconvertible: the caller then leaves the file to the tf1compat pipeline.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from tf1compat.migrate.tf2 import loops, scopes
from tf1compat.migrate.tf2.emit import FunctionBuilder
from tf1compat.migrate.tf2.graph import (EAGER, FEED, INIT, LAYER, TENSOR, TRAIN, VARIABLE, Graph,
                                         Node)
from tf1compat.migrate.tf2.run_sites import RunSites
from tf1compat.migrate.tf2.shared_variables import make_variables
from tf1compat.migrate.tf2.translate import Translator, Unconvertible, names_read

SESSIONS = ("Session", "InteractiveSession")


def has_session(translator: Translator, body) -> bool:
    return any(_session_of(translator, statement) is not None for statement in body)


def _session_of(translator: Translator, statement) -> Optional[tuple[str, bool]]:
    """(name, interactive) of `with tf.Session() as sess:` or `sess = tf.Session()`."""
    if isinstance(statement, cst.With) and len(statement.items) == 1:
        item = statement.items[0]
        call = item.item
        if isinstance(call, cst.Call) and translator.v1_name(call.func) in SESSIONS and \
                item.asname and isinstance(item.asname.name, cst.Name):
            return item.asname.name.value, translator.v1_name(call.func) == "InteractiveSession"
    if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
        small = statement.body[0]
        if isinstance(small, cst.Assign) and isinstance(small.value, cst.Call) and \
                translator.v1_name(small.value.func) in SESSIONS and len(small.targets) == 1 \
                and isinstance(small.targets[0].target, cst.Name):
            return small.targets[0].target.value, \
                translator.v1_name(small.value.func) == "InteractiveSession"
    return None


def convert_block(body, translator: Translator, positions, taken: set[str], nested: bool,
                  makers=None, in_function: bool = False) -> list[cst.BaseStatement]:
    """The block's statements in TF2; `makers`: the file's functions whose tf.get_variable
    calls the block makes (shared_variables); `in_function`: the block is a function's
    (what it makes for those functions is declared global). Raises Unconvertible."""
    def line_of(node) -> int:
        position = positions.get(node)
        return position.start.line if position else 0

    sessions: dict[str, bool] = {}
    flat = []  # (statement, its original for positions)
    for statement in body:
        session = _session_of(translator, statement)
        if session is None:
            flat.append(statement)
            continue
        sessions[session[0]] = session[1]
        if isinstance(statement, cst.With):
            flat.extend(statement.body.body)
        # `sess = tf.Session()` leaves; the session options went to modern.configure
    graph = Graph(translator, taken, makers)
    builder = FunctionBuilder(graph, translator, nested)
    sites = RunSites(graph, builder, translator, sessions)
    out: dict[int, list] = {}
    builds: list[tuple[int, int]] = []  # statements that read variables no run has built
    for index, statement in enumerate(flat):
        line = line_of(statement)
        made = [made for name in names_read(statement) if name in graph.makers
                for made in make_variables(graph, graph.makers[name], index, line,
                                           in_function,
                                           scopes.variable_scope(translator, statement))]
        graph.empty_lists.update(dict.fromkeys(_emptied(statement), index))
        reused = scopes.reused(graph, translator, statement, line)
        out[index] = made
        for inner in reused if reused is not None else [statement]:
            kept = None if _runs(inner, sessions) else _graph_statement(
                graph, index, line_of(inner) or line, inner, translator, line_of)
            if kept is True:
                out[index] += graph.replacements.pop(index, [])
                continue
            if kept is not None:
                out[index] += kept if isinstance(kept, list) else [kept]
                continue
            out[index].append(sites.rewrite(inner, line_of(inner) or line))
            if sites.build_requested:
                sites.build_requested = False
                builds.append((index, line))
    for name in graph.graph_lists:  # the function that fills them makes them
        index = graph.empty_lists[name]
        if set(_emptied(flat[index])) <= graph.graph_lists:
            out[index] = []
    for index, line in builds:
        out[index].insert(0, sites.build(index, line))
    for node in graph.nodes:
        if node.kind == TENSOR and node.reads and node.reads[0].kind == LAYER and \
                not builder.uses(node):
            raise Unconvertible(node.line, f"layer output {node.name} is never fetched")
    result: list = []
    carried: list = []
    for index, statement in enumerate(flat):
        replacement = [s for s in out[index] if s is not None]
        if not replacement:
            carried.extend(getattr(statement, "leading_lines", ()))
        if result and isinstance(result[-1], cst.FunctionDef) and replacement and \
                not isinstance(replacement[0], cst.FunctionDef):
            blank = [cst.EmptyLine(indent=False)] * (1 if nested else 2)
            carried = [line for line in carried if line.comment] or []
            replacement[0] = replacement[0].with_changes(leading_lines=[
                *blank, *[line for line in replacement[0].leading_lines if line.comment]])
        for new in replacement:
            if carried and hasattr(new, "leading_lines"):
                new = new.with_changes(leading_lines=[*carried, *new.leading_lines])
                carried = []
            result.append(new)
        result.extend(builder.definitions_after(index))
    if not result:
        result.append(cst.SimpleStatementLine([cst.Pass()]))
    return result


def _graph_statement(graph: Graph, index: int, line: int, statement, translator, line_of):
    """True: a graph statement that left (see graph.replacements); a statement: kept in
    TF2 form; None: not a graph statement."""
    batch = _batch_taken(graph, statement)
    if batch is not None:
        graph.add_batch(index, line, *batch)
        return True
    if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
        small = statement.body[0]
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and \
                isinstance(small.targets[0].target, cst.Name):
            target = small.targets[0].target.value
            if not _is_graph_value(graph, translator, small.value) or \
                    _lists_variables(translator, small.value):
                return None
            left = graph.add_assignment(index, line, target, small.value, None)
            if left:
                return True
            node = graph.env.get(target)
            if node is not None and node.kind in (VARIABLE, EAGER, FEED) and node.index == index:
                return statement.with_changes(body=[small.with_changes(value=node.expression)])
            return None
    if loops.builds_graph(graph, statement):
        graph.replacements[index] = loops.add_loop(
            graph, index, statement, line_of,
            lambda value: _is_graph_value(graph, translator, value))
        return True
    scope = scopes.variable_scope(translator, statement)
    if scope is not None:
        return scopes.in_scope(graph, index, statement, scope, line_of)
    if scopes.reenters_root_scope(translator, statement):
        return scopes.in_root_scope(graph, index, statement, line_of, lambda s: _graph_statement(
            graph, index, line_of(s), s, translator, line_of))
    if isinstance(statement, cst.With) and len(statement.items) == 1 and isinstance(
            statement.items[0].item, cst.Call) and \
            translator.v1_name(statement.items[0].item.func) == "device":
        inner = statement.body.body
        if not all(isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 and
                   isinstance(s.body[0], cst.Assign) and len(s.body[0].targets) == 1 and
                   isinstance(s.body[0].targets[0].target, cst.Name) for s in inner):
            return None
        wrapper = statement.with_changes(items=[statement.items[0].with_changes(
            item=translator.expression(statement.items[0].item, line))])
        left = [graph.add_assignment(index, line_of(s), s.body[0].targets[0].target.value,
                                     s.body[0].value, wrapper) for s in inner]
        if all(left):
            return True
        if any(left):
            raise Unconvertible(line, "a tf.device block that builds both fed and constant "
                                      "tensors")
        return wrapper.with_changes(body=wrapper.body.with_changes(body=[
            s.with_changes(body=[s.body[0].with_changes(
                value=translator.expression(s.body[0].value, line_of(s)))]) for s in inner]))
    return None


def _emptied(statement) -> list[str]:
    """The names of `L = []` or `a, b = [], []`."""
    small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and \
        len(statement.body) == 1 else None
    if not (isinstance(small, cst.Assign) and len(small.targets) == 1):
        return []
    target, value = small.targets[0].target, small.value
    if isinstance(target, cst.Name) and isinstance(value, cst.List) and not value.elements:
        return [target.value]
    if isinstance(target, cst.Tuple) and isinstance(value, cst.Tuple) and \
            len(target.elements) == len(value.elements) and all(
                isinstance(t.value, cst.Name) and isinstance(v.value, cst.List) and
                not v.value.elements for t, v in zip(target.elements, value.elements)):
        return [t.value.value for t in target.elements]
    return []


def _batch_taken(graph: Graph, statement) -> Optional[tuple[list[str], str, bool]]:
    """(targets, iterator, unpacked) of `a, b = iterator.get_next()` (or `batch =
    iterator.get_next()`, not unpacked), `iterator` a plain Python name of a tf.data
    iterator made with iter(dataset), the targets plain names."""
    small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and \
        len(statement.body) == 1 else None
    if not (isinstance(small, cst.Assign) and len(small.targets) == 1 and
            isinstance(small.value, cst.Call) and not small.value.args):
        return None
    func = small.value.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "get_next" and
            isinstance(func.value, cst.Name) and graph.env.get(
                func.value.value, Node("", EAGER, 0, 0)).kind == EAGER):
        return None
    target = small.targets[0].target
    if isinstance(target, cst.Name):
        return [target.value], func.value.value, False
    if not isinstance(target, (cst.Tuple, cst.List)):
        return None
    targets = [element.value for element in target.elements]
    if not all(isinstance(target, cst.Name) for target in targets):
        return None
    return [target.value for target in targets], func.value.value, True


def _runs(statement, sessions) -> bool:
    """Whether a statement runs something: sess.X(...), T.eval(...), op.run(...)."""
    found = []

    class Finder(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            if isinstance(func, cst.Attribute) and (
                    func.attr.value in ("eval", "run") or (isinstance(func.value, cst.Name)
                                                           and func.value.value in sessions)):
                found.append(node)
    statement.visit(Finder())
    return bool(found)


def _lists_variables(translator: Translator, value) -> bool:
    """Whether a value reads `tf.trainable_variables()` (the run sites write the list)."""
    found = []

    class Finder(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            if translator.v1_name(node.func) == "trainable_variables":
                found.append(node)
    value.visit(Finder())
    return bool(found)


def _is_graph_value(graph: Graph, translator: Translator, value) -> bool:
    """Whether an assigned value builds TF ops or reads graph nodes."""
    if any(name in graph.env for name in names_read(value)):
        return True
    found = []

    class Finder(cst.CSTVisitor):
        def visit_Attribute(self, node):
            if translator.v1_name(node) is not None:
                found.append(node)
                return False
            return True
    value.visit(Finder())
    return bool(found)


__all__ = ["convert_block", "has_session", "INIT", "TRAIN"]
