"""`Session.run`, `Tensor.eval` and `Operation.run` in the statements of a block -> calls
of the functions that compute the fetches, or the variables' `.numpy()`.

Initializer runs go (a TF2 variable holds its value from creation), `sess.close()` goes,
`sess.list_devices()` -> `tf.config.list_logical_devices()`, `tf.trainable_variables()` ->
the block's variables and layers' `trainable_variables`.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from tf1compat.migrate.tf2.emit import FunctionBuilder
from tf1compat.migrate.tf2.graph import (BATCH, EAGER, FEED, INIT, LAYER, PLACEHOLDER, TENSOR,
                                         TRAIN, VARIABLE, Graph, Node)
from tf1compat.migrate.tf2.layer_nodes import trainable_variables
from tf1compat.migrate.tf2.translate import Translator, Unconvertible, names_read

_NONE = Node("", "", 0, 0)
_INITIALIZERS = ("global_variables_initializer", "local_variables_initializer",
                 "initialize_all_variables", "tables_initializer")


class RunSites:
    def __init__(self, graph: Graph, builder: FunctionBuilder, translator: Translator,
                 sessions: dict[str, bool]):
        self.graph = graph
        self.builder = builder
        self.t = translator
        self.sessions = sessions
        self.loaded = False  # whether the initial-values load is written
        self.called = False  # whether a function is called yet (the layers are built then)
        self.build_requested = False  # the statement read variables of unbuilt layers

    def rewrite(self, statement: cst.BaseStatement, line: int) -> Optional[cst.BaseStatement]:
        """The statement in TF2 form; None when it only initialized or closed."""
        sole = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and \
            len(statement.body) == 1 else None
        visitor = _Sites(self, line)
        updated = statement.visit(visitor)
        if visitor.removed:
            if not isinstance(sole, cst.Expr):
                raise Unconvertible(line, "an initializer run or close() inside an expression")
            return self._initial_values() if visitor.initialized else None
        self._check_no_graph_left(statement, line)
        return self.t.expression(updated, line) if not isinstance(updated, cst.FunctionDef) \
            else updated

    def _initial_values(self) -> Optional[cst.BaseStatement]:
        """Where TF1 first initialized the variables: a call that gives them a TF1
        checkpoint's values instead, when $TF1_INIT_CHECKPOINT names one (so TF2 can start
        where a TF1 run started); None when the block has no variables yet or loaded once."""
        created = [node for node in self.graph.nodes if node.holds_variables]
        if not created or self.loaded:
            return None
        self.loaded = True
        names = ", ".join(f"*{node.name}" if node.many else node.name for node in created)
        return cst.parse_statement(f"tf1_checkpoint.load_initial([{names}])\n").with_changes(
            leading_lines=[cst.EmptyLine(comment=cst.Comment(
                "# TF1 initialized the variables here; $TF1_INIT_CHECKPOINT, when set, "
                "gives their values"))])

    def _check_no_graph_left(self, statement, line: int) -> None:
        for name in self._read_outside_runs(statement):
            node = self.graph.env.get(name)
            if node is not None and node.kind in (PLACEHOLDER, TENSOR, TRAIN, INIT, BATCH, FEED):
                raise Unconvertible(line, f"{node.kind} {name} (line {node.line}) is used "
                                          "outside Session.run")
            if name in self.sessions:
                raise Unconvertible(line, f"session {name} is used for more than run(), "
                                          "close() and list_devices()")

    def _read_outside_runs(self, statement) -> list[str]:
        """The names the original statement reads outside its runs' fetches and feeds."""
        def is_run(node: cst.Call) -> bool:
            func = node.func
            return any(self._session_call(node, method) for method in
                       ("run", "close", "list_devices")) or (
                isinstance(func, cst.Attribute) and func.attr.value in ("eval", "run")
                and any(self.sessions.values()))

        return names_read(statement, skip_call=is_run)

    def _session_call(self, node, method: str) -> bool:
        return isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and \
            isinstance(node.func.value, cst.Name) and node.func.value.value in self.sessions \
            and node.func.attr.value == method

    def fetch_and_feed(self, call: cst.Call, line: int, fetch_position: bool = True):
        feeds = {node.name: node for node in self.graph.env.values() if node.kind == FEED}
        return _fetch_and_feed(call, line, fetch_position, feeds)

    def unpacks_run(self, assign: cst.Assign) -> bool:
        return len(assign.targets) == 1 and isinstance(
            assign.targets[0].target, (cst.Tuple, cst.List)) and \
            self._session_call(assign.value, "run")

    def unpacked_run(self, assign: cst.Assign, line: int) -> cst.Assign:
        fetches, feed = self.fetch_and_feed(assign.value, line)
        targets = assign.targets[0].target.elements
        if not isinstance(fetches, (cst.List, cst.Tuple)) or \
                len(fetches.elements) != len(targets):
            raise Unconvertible(line, "Session.run unpacked into another number of names")
        items = [self.node_of(element.value, line) for element in fetches.elements]
        batch = self.whole_batch(items, feed, line)
        if batch is not None:
            return assign.with_changes(value=_each_numpy(batch))
        kept = []
        for item, target in zip(items, targets):
            if item.kind == TRAIN:
                if not (isinstance(target.value, cst.Name) and target.value.value == "_"):
                    raise Unconvertible(line, f"the value of train op {item.name} is kept")
            else:
                kept.append(target)
        call = self.call(items, feed, line)
        if len(kept) == 1:
            target = kept[0].value
            value = _numpy(call)
        else:
            target = cst.Tuple([k.with_changes(comma=cst.MaybeSentinel.DEFAULT) for k in kept],
                               lpar=[], rpar=[])
            value = _each_numpy(call)
        return assign.with_changes(targets=[cst.AssignTarget(target)], value=value)

    def node_of(self, expression, line: int) -> Node:
        if not isinstance(expression, cst.Name) or expression.value not in self.graph.env:
            raise Unconvertible(line, "Session.run of something other than a tensor, op or "
                                      "variable this block builds")
        return self.graph.env[expression.value]

    def whole_batch(self, items: list[Node], feed, line: int) -> Optional[cst.Call]:
        """`iterator.get_next()` for a run of a tf.data batch's elements, all of them in
        order (one batch per run, as TF1's dequeue); None when no element is fetched."""
        batches = [item for item in items if item.kind == BATCH]
        if not batches:
            return None
        iterator, _, count = batches[0].batch
        if feed or len(items) != count or [item.batch for item in items] != [
                (iterator, position, count) for position in range(count)]:
            raise Unconvertible(line, "Session.run of a tf.data batch with other fetches, "
                                      "feeds, or not all its elements in order")
        return cst.Call(cst.Attribute(cst.Name(iterator), cst.Name("get_next")))

    def call(self, items: list[Node], feed: Optional[dict[str, cst.BaseExpression]], line: int):
        function = self.builder.function_for(items, line)
        self.called = True
        feed = feed or {}
        args = []
        for param in function.params:
            if param.name not in feed:
                raise Unconvertible(line, f"placeholder {param.name} is not fed")
            args.append(cst.Arg(feed[param.name]))
        return cst.Call(cst.Name(function.name), args)

    def fetch(self, fetches, feed, line: int, used: bool) -> Optional[cst.BaseExpression]:
        """The TF2 expression for one run's fetches; None when it only ran initializers."""
        single = not isinstance(fetches, (cst.List, cst.Tuple))
        elements = [fetches] if single else [e.value for e in fetches.elements]
        if all(self._is_initializer(e) for e in elements):
            return None
        if not single:
            items = [self.node_of(e, line) for e in elements]
            batch = self.whole_batch(items, feed, line)
            if batch is not None:
                return _each_numpy(batch) if used else batch
            if any(item.kind == TRAIN for item in items) and used:
                raise Unconvertible(line, "the value of a train op is kept")
            call = self.call(items, feed, line)
            return _each_numpy(call) if used else call
        if isinstance(fetches, cst.Name) and fetches.value in self.graph.env:
            node = self.graph.env[fetches.value]
            if node.kind == BATCH and node.batch[1] is None:  # `batch = it.get_next()`
                if feed:
                    raise Unconvertible(line, "Session.run of a tf.data batch with feeds")
                element = cst.Call(cst.Attribute(cst.Name(node.batch[0]), cst.Name("get_next")))
                return cst.Call(self.t.tf("nest.map_structure"), [
                    cst.Arg(cst.parse_expression("lambda value: value.numpy()")),
                    cst.Arg(element)]) if used else element
            if node.kind == BATCH:  # a batch of one element: `x, = iterator.get_next()`
                element = cst.Subscript(self.whole_batch([node], feed, line), [
                    cst.SubscriptElement(cst.Index(cst.Integer("0")))])
                return _numpy(element) if used else element
            if node.kind in (VARIABLE, EAGER):
                return _numpy(fetches)
            if node.kind in (TENSOR, TRAIN):
                if node.kind == TENSOR and node.wrapper is None and node.statement is None and all(
                        read.kind in (VARIABLE, EAGER) for read in node.reads):
                    self.builder.used.add(id(node))
                    return _numpy(node.expression) if used else node.expression
                call = self.call([node], feed, line)
                return _numpy(call) if used and node.kind != TRAIN else call
        reads = [self.graph.env[name] for name in names_read(fetches) if name in self.graph.env]
        if all(read.kind in (VARIABLE, EAGER) for read in reads):
            expression = self.t.expression(fetches, line)
            return _numpy(expression) if used else expression
        raise Unconvertible(line, "Session.run of an expression of fed or graph tensors")

    def build(self, index: int, line: int) -> cst.BaseStatement:
        """Before a statement that reads the variables while no function has run: a trace
        of a function that applies every layer (Keras makes a layer's variables when it first
        runs; TF1 made them with the graph)."""
        layers = {id(node) for node in self.graph.nodes if node.kind == LAYER and
                  node.holds_variables}
        for function in self.builder.functions.values():
            leaves = {id(leaf) for node in function.items for leaf in node.leaves()}
            if function.after < index and function.definition.decorators and layers <= leaves:
                return cst.parse_statement(f"{function.name}.get_concrete_function()\n").with_changes(
                    leading_lines=[cst.EmptyLine(comment=cst.Comment(
                        "# traced once: Keras makes the layers' variables then, TF1 made them "
                        "with the graph"))])
        raise Unconvertible(line, "the variables are read before the layers holding them "
                                  "are built, and no traced function applies them all")

    def _is_initializer(self, node) -> bool:
        if isinstance(node, cst.Name):
            return self.graph.env.get(node.value, _NONE).kind == INIT
        if isinstance(node, cst.Attribute) and node.attr.value == "initializer":
            return True
        return isinstance(node, cst.Call) and self.t.v1_name(node.func) in _INITIALIZERS

    def trainable_variables(self) -> cst.BaseExpression:
        return trainable_variables(self.graph.nodes)


def _fetch_and_feed(call: cst.Call, line: int, fetch_position: bool = True, feeds=None):
    """(fetches, {placeholder name: value}) of `sess.run(fetches, feed_dict)` (or of
    `t.eval(feed_dict)` with fetch_position False); `feeds`: the block's feed dicts by name."""
    positional = ("fetches", "feed_dict") if fetch_position else ("feed_dict", "session")
    args = {}
    index = 0
    for arg in call.args:
        if arg.star:
            raise Unconvertible(line, "Session.run with * arguments")
        key = arg.keyword.value if arg.keyword else positional[min(index, 1)]
        index += arg.keyword is None
        args[key] = arg.value
    if set(args) - {"fetches", "feed_dict"}:
        raise Unconvertible(line, "Session.run with options, run_metadata or a session")
    feed = args.get("feed_dict")
    if isinstance(feed, cst.Name) and feed.value in (feeds or {}):
        return args.get("fetches"), {
            element.key.evaluated_value: cst.Subscript(feed, [cst.SubscriptElement(cst.Index(
                element.key))]) for element in feeds[feed.value].expression.elements}
    if feed is not None and not isinstance(feed, cst.Dict):
        raise Unconvertible(line, "a feed_dict that is not a dict written out at the run")
    feeds = {}
    for element in (feed.elements if feed is not None else ()):
        if not isinstance(element, cst.DictElement) or not isinstance(element.key, cst.Name):
            raise Unconvertible(line, "a feed_dict key that is not a placeholder's name")
        feeds[element.key.value] = element.value
    return args.get("fetches"), feeds


def _numpy(expression) -> cst.Call:
    if not isinstance(expression, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)):
        expression = expression.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return cst.Call(cst.Attribute(expression, cst.Name("numpy")))


def _each_numpy(call: cst.Call) -> cst.BaseExpression:
    return cst.parse_expression(f"[value.numpy() for value in {cst.Module([]).code_for_node(call)}]")


class _Sites(cst.CSTTransformer):
    def __init__(self, sites: RunSites, line: int):
        super().__init__()
        self.s = sites
        self.line = line
        self.unused: set[int] = set()  # calls that are a whole statement: value dropped
        self.unpacked: dict[int, cst.Assign] = {}
        self.removed = False
        self.initialized = False  # an initializer run was removed
        self.comprehended: list[str] = []  # names of a comprehension over the variables

    def visit_Expr(self, node: cst.Expr) -> None:
        self.unused.add(id(node.value))

    def visit_Assign(self, node: cst.Assign) -> bool:
        if self.s.unpacks_run(node):
            self.unpacked[id(node)] = self.s.unpacked_run(node, self.line)
            return False
        return True

    def leave_Assign(self, original: cst.Assign, updated: cst.Assign) -> cst.Assign:
        return self.unpacked.get(id(original), updated)

    def leave_For(self, original: cst.For, updated: cst.For) -> cst.For:
        if self._over_variables(original.iter) and isinstance(original.target, cst.Name):
            return updated.with_changes(body=updated.body.visit(
                VariableAttributes(original.target.value)))
        return updated

    def leave_CompFor(self, original: cst.CompFor, updated: cst.CompFor) -> cst.CompFor:
        if self._over_variables(original.iter) and isinstance(original.target, cst.Name):
            self.comprehended.append(original.target.value)
        return updated

    def _leave_comprehension(self, original, updated):
        while self.comprehended:
            updated = updated.visit(VariableAttributes(self.comprehended.pop()))
        return updated

    leave_ListComp = leave_SetComp = leave_GeneratorExp = leave_DictComp = _leave_comprehension

    def _over_variables(self, iterable) -> bool:
        return isinstance(iterable, cst.Call) and not iterable.args and \
            self.s.t.v1_name(iterable.func) == "trainable_variables"

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        used = id(original) not in self.unused
        func = updated.func
        s = self.s
        if s._session_call(original, "run"):
            fetches, feed = s.fetch_and_feed(updated, self.line)
            value = s.fetch(fetches, feed, self.line, used)
            if value is None:
                self.removed = self.initialized = True
                return updated
            return value
        if s._session_call(original, "close"):
            self.removed = True
            return updated
        if s._session_call(original, "list_devices") and not updated.args:
            return cst.Call(s.t.tf("config.list_logical_devices"))
        if s.t.v1_name(original.func) == "trainable_variables" and not updated.args:
            if not s.called and any(node.kind == LAYER and node.holds_variables
                                    for node in s.graph.nodes):
                s.build_requested = True
            return s.trainable_variables()
        if isinstance(func, cst.Attribute) and func.attr.value in ("eval", "run") and any(
                interactive for interactive in s.sessions.values()):
            target = func.value
            if func.attr.value == "run" and isinstance(target, cst.Attribute) and \
                    target.attr.value == "op":
                target = target.value  # `op.run()` of an inline assign: the assign itself
            if s._is_initializer(target):
                self.removed = self.initialized = True
                return updated
            _, feed = s.fetch_and_feed(updated, self.line, fetch_position=False)
            value = s.fetch(target, feed, self.line, used and func.attr.value == "eval")
            return value if value is not None else updated
        return updated


class VariableAttributes(cst.CSTTransformer):
    """What TF1 code reads of a variable, for a TF2 one (a Keras weight or a tf.Variable):
    `v.op.name` -> `tf1_checkpoint.tf1_name(v)` (`dense/kernel`), `v.name` -> that name and
    `:0`, `v.shape.as_list()` / `v.get_shape().as_list()` -> `list(v.shape)`."""

    def __init__(self, name: str):
        super().__init__()
        self.name = name

    def _is_variable(self, node) -> bool:
        return isinstance(node, cst.Name) and node.value == self.name

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute):
        value = original.value
        if original.attr.value == "name" and isinstance(value, cst.Attribute) and \
                value.attr.value == "op" and self._is_variable(value.value):
            return _tf1_name(value.value)
        if original.attr.value == "name" and self._is_variable(value):
            return cst.BinaryOperation(_tf1_name(value), cst.Add(), cst.SimpleString('":0"'))
        return updated

    def leave_Call(self, original: cst.Call, updated: cst.Call):
        func = original.func
        if isinstance(func, cst.Attribute) and func.attr.value == "as_list" and \
                not original.args:
            shape = func.value
            if isinstance(shape, cst.Call) and isinstance(shape.func, cst.Attribute) and \
                    shape.func.attr.value == "get_shape" and self._is_variable(shape.func.value):
                shape = cst.Attribute(shape.func.value, cst.Name("shape"))
            if isinstance(shape, cst.Attribute) and shape.attr.value == "shape" and \
                    self._is_variable(shape.value):
                return cst.Call(cst.Name("list"), [cst.Arg(shape)])
        return updated


def _tf1_name(variable) -> cst.Call:
    return cst.Call(cst.Attribute(cst.Name("tf1_checkpoint"), cst.Name("tf1_name")),
                    [cst.Arg(variable)])
