"""A `for` loop that builds graph code -> the layers it makes, made by the same loop where
TF1 built them (one list per `tf.layers` call), and the loop replayed where its tensors are
computed, each pass applying its own layers:

    net = x                                                 dense_layers = []
    for i, width in enumerate(hparams.hidden):              for i, width in enumerate(hparams.hidden):
        net = tf.layers.dense(net, width,           ->          dense_layers.append(tf.keras.layers.Dense(
                              name="hidden%d" % i)                  width, name="hidden%d" % i))
                                                            ... and in the function that computes `net`:
                                                                net = x
                                                                for dense in dense_layers:
                                                                    net = dense(net)

The loop may assign tensors (layers' outputs, TF expressions) and Python values (kept in
both loops); anything else in it (variables, placeholders, optimizers, statements other than
assignments, `break`, `else:`) raises Unconvertible.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

import libcst as cst

from tf1compat.migrate.tf2 import api
from tf1compat.migrate.tf2.layer_nodes import dropout_source, layer_creation, trainable_variables
from tf1compat.migrate.tf2.nodes import (BATCH, FUNCTION, LAYER, OPTIMIZER, PLACEHOLDER, TENSOR,
                                         TRAIN, VARIABLE, Node, assign)
from tf1compat.migrate.tf2.translate import Unconvertible, names_read

_GRAPH_KINDS = (PLACEHOLDER, VARIABLE, TENSOR, TRAIN, LAYER, BATCH)
_NOT_IN_LOOPS = ("placeholder", "Variable", "get_variable", "global_variables_initializer",
                 "local_variables_initializer")


def builds_graph(graph, loop) -> bool:
    """Whether a `for` statement is graph code: one of its assignments or appends reads a
    placeholder, variable, tensor or layer of the block (a function's variables too), or
    calls a `tf.layers` function."""
    if not isinstance(loop, cst.For):
        return False
    body, _ = _pass_statements(graph, loop)
    for statement in body:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            value = small.value if isinstance(small, cst.Assign) else \
                (_appended(small) or (None, None))[1]
            if value is None:
                continue
            if isinstance(value, cst.Call) and graph.translate.v1_name(value.func) in api.LAYERS:
                return True
            if any(read.kind in _GRAPH_KINDS for read in graph.reads(value)):
                return True
    return False


@dataclasses.dataclass
class _Pass:
    """One pass of a loop of graph code, gathered statement by statement: the loop that makes
    the layers (`making`) and the loop that computes the tensors (`computing`)."""

    graph: Any
    index: int
    loop_names: set[str]
    is_graph_value: Callable
    reads: list
    lists: list[tuple[str, str]] = dataclasses.field(default_factory=list)  # (layers, one)
    making: list[cst.BaseStatement] = dataclasses.field(default_factory=list)
    computing: list[cst.BaseStatement] = dataclasses.field(default_factory=list)
    tensors: list[str] = dataclasses.field(default_factory=list)
    filled: list[str] = dataclasses.field(default_factory=list)  # lists a pass appends to
    python: list[str] = dataclasses.field(default_factory=list)  # its Python values' names
    taped: bool = False  # whether the pass computed its gradients (one tape per pass)
    reuse_at: int = -1  # where the pass turns reuse on
    call_at: int = -1  # where it calls a variable-making function


def add_loop(graph, index: int, loop: cst.For, line_of: Callable, is_graph_value: Callable
             ) -> list[cst.BaseStatement]:
    """Binds the loop's tensors and layer lists; returns what takes the loop's place (the
    loop that makes the layers, with the loop's Python statements; nothing when it makes no
    layer and has no Python statement)."""
    line = line_of(loop)
    if loop.orelse is not None or loop.asynchronous is not None:
        raise Unconvertible(line, "a loop of graph code with an else: clause or async")
    reads_before = list(graph.reads(loop.iter))
    if any(read.kind in _GRAPH_KINDS for read in reads_before):
        raise Unconvertible(line, "a loop over a tensor (TF2 would iterate it eagerly)")
    iterable = graph.translate.expression(loop.iter, line)
    state = _Pass(graph, index, set(names_read(loop.target)), is_graph_value, reads_before)
    body, wrapper = _pass_statements(graph, loop)
    for position, statement in enumerate(body):
        _take(state, position, statement, line_of(statement))
    if state.call_at >= 0 and not state.call_at < state.reuse_at:
        raise Unconvertible(line, "a function that makes variables called in a loop that "
                                  "does not turn reuse on after it (TF1 raises: its "
                                  "variables exist)")
    computed = _computing_loop(state, loop, iterable, _translated(graph, wrapper, line))
    for name in dict.fromkeys(state.tensors):
        graph.bind(Node(name, TENSOR, index, line, None, tuple(dict.fromkeys(state.reads)),
                        statement=computed))
    if not state.making:
        return []
    made = [assign(layers, cst.List([])) for layers, _ in state.lists]
    made.append(loop.with_changes(iter=iterable, body=loop.body.with_changes(
        body=state.making), leading_lines=[]))
    made[0] = made[0].with_changes(leading_lines=loop.leading_lines)
    return made


def _translated(graph, wrapper, line: int):
    """The pass's `with tf.device(...), tf.name_scope(...):` in TF2 (which has both)."""
    if wrapper is None:
        return None
    return wrapper.with_changes(items=[
        item.with_changes(item=graph.translate.expression(item.item, line))
        for item in wrapper.items], leading_lines=[])


def _take(state: _Pass, position: int, statement, at: int) -> None:
    """Adds one statement of the pass to the making loop, the computing loop, or both."""
    graph = state.graph
    small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and \
        len(statement.body) == 1 else None
    if isinstance(small, cst.Expr) and _turns_reuse_on(graph, small.value):
        state.reuse_at = position
        return  # the variables are made once, before the loop: TF2 shares them
    appended = _appended(small)
    if appended is not None and not (state.is_graph_value(appended[1]) or _is_gradients(
            appended[1]) or set(names_read(appended[1])) & set(state.tensors)):
        state.making.append(statement)  # a Python value appended: the making loop does it
        return
    target, value = _target_and_value(state, small, appended, at)
    read_here = [name for name in names_read(value) if name not in state.loop_names]
    state.reads += [read for name in read_here if name in graph.env
                    and name not in state.tensors for read in graph.reads(cst.Name(name))]
    if any(graph.env.get(name) is not None and graph.env[name].kind == FUNCTION
           for name in read_here):
        state.call_at = position
    v1 = graph.translate.v1_name(value.func) if isinstance(value, cst.Call) else None
    if appended is not None or _is_gradients(value):
        _compute_tensor(state, target, value, appended is not None, at)
    elif v1 in api.LAYERS:
        _make_layer(state, target, value, v1, at)
    elif v1 == "layers.dropout":
        _compute(state, target, dropout_source(value, at))
    elif v1 in _NOT_IN_LOOPS or _is_training(value):
        raise Unconvertible(at, f"{'tf.' + v1 if v1 else 'minimize()'} in a loop "
                                "(TF1 made one per pass)")
    elif state.is_graph_value(value) or set(read_here) & set(state.tensors):
        _compute(state, target, graph.translate.expression(value, at))
    else:
        _keep_python(state, statement, target, value, at)


def _target_and_value(state: _Pass, small, appended, at: int) -> tuple[str, Any]:
    """What the statement binds: the list it appends to, or the one name it assigns."""
    if appended is not None:
        target = appended[0]
        if target not in state.graph.empty_lists:
            raise Unconvertible(at, f"{target}.append() in a loop of graph code, {target} "
                                    "not made empty in this block before the loop")
        if target in state.graph.graph_lists and target not in state.filled:
            raise Unconvertible(at, f"{target} filled with tensors by two loops")
        state.graph.graph_lists.add(target)
        state.filled.append(target)
        return appended
    if isinstance(small, cst.Assign) and len(small.targets) == 1 and \
            isinstance(small.targets[0].target, cst.Name):
        return small.targets[0].target.value, small.value
    raise Unconvertible(at, "a loop of graph code with statements other than assignments "
                            "to one name and appends")


def _compute(state: _Pass, target: str, expression) -> None:
    state.computing.append(assign(target, expression))
    state.tensors.append(target)


def _compute_tensor(state: _Pass, target: str, value, appended: bool, at: int) -> None:
    """A tensor appended to a list, or the pass's gradients (under one tape)."""
    gradients = _is_gradients(value)
    if gradients and state.taped:
        raise Unconvertible(at, "two compute_gradients() in one pass")
    state.taped = state.taped or gradients
    expression = _gradients(state.graph, value, state.computing, state.tensors, at) \
        if gradients else state.graph.translate.expression(value, at)
    state.computing.append(_append(target, expression) if appended
                           else assign(target, expression))
    state.tensors.append(target)


def _make_layer(state: _Pass, target: str, value, v1: str, at: int) -> None:
    """A `tf.layers` call: one Keras layer per pass, made by the making loop into a list,
    called by the computing loop."""
    graph, rule = state.graph, api.LAYERS[v1]
    creation, inputs, _ = layer_creation(graph, rule, v1, at, value, in_loop=True)
    if set(names_read(creation)) & set(state.tensors):
        raise Unconvertible(at, f"tf.{v1} in a loop configured from a tensor")
    layers = graph.fresh(f"{rule.default_name}_layers")
    each = graph.fresh(rule.default_name)
    state.lists.append((layers, each))
    state.reads.append(graph.bind(Node(layers, LAYER, state.index, at, many=True,
                                       weightless=rule.keras in api.WEIGHTLESS_LAYERS)))
    state.making.append(_append(layers, creation))
    _compute(state, target, cst.Call(cst.Name(each), [
        cst.Arg(graph.translate.expression(inputs, at))]))


def _keep_python(state: _Pass, statement, target: str, value, at: int) -> None:
    """A Python value: both loops compute it (the function's, where TF code reads it)."""
    if target in names_read(value):
        raise Unconvertible(at, f"{target}, a Python value of a loop of graph code, computed "
                                "from itself (each trace would compute it again)")
    state.making.append(statement)
    state.computing.append(statement)
    state.python.append(target)


def _computing_loop(state: _Pass, loop: cst.For, iterable, wrapper) -> list:
    """The loop replayed where its tensors are computed: each pass calls its own layers
    (the Python values TF code does not read are left out)."""
    read_by_tf = {name for statement in state.computing
                  if not _assigns(statement, state.python) for name in names_read(statement)}
    computing = [statement for statement in state.computing
                 if not _assigns(statement, state.python) or _assigns(statement, read_by_tf)]
    if wrapper is not None:
        computing = [wrapper.with_changes(body=cst.IndentedBlock(computing))]
    reads_targets = bool(state.loop_names & {name for statement in computing
                                             for name in names_read(statement)})
    passes = [cst.Name(each) for _, each in state.lists]
    layer_lists = [cst.Name(layers) for layers, _ in state.lists]
    if state.lists and not reads_targets:
        header_target = passes[0] if len(passes) == 1 else _tuple(passes)
        header_iter = layer_lists[0] if len(layer_lists) == 1 else _zip(layer_lists)
    elif state.lists:
        header_target = _tuple([loop.target, *passes])
        header_iter = _zip([iterable, *layer_lists])
    else:
        header_target, header_iter = loop.target, iterable
    return [*[assign(name, cst.List([])) for name in dict.fromkeys(state.filled)],
            cst.For(header_target, header_iter, cst.IndentedBlock(computing))]


def _pass_statements(graph, loop: cst.For) -> tuple[list, object]:
    """The statements of one pass, and the `with tf.device(...), tf.name_scope(...):` around
    them (as the script wrote it) or None."""
    body = loop.body.body
    if len(body) == 1 and isinstance(body[0], cst.With) and all(
            isinstance(item.item, cst.Call) and item.asname is None and
            graph.translate.v1_name(item.item.func) in ("device", "name_scope")
            for item in body[0].items):
        return list(body[0].body.body), body[0]
    return list(body), None


def _turns_reuse_on(graph, value) -> bool:
    """`tf.get_variable_scope().reuse_variables()`."""
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and \
        value.func.attr.value == "reuse_variables" and isinstance(value.func.value, cst.Call) \
        and graph.translate.v1_name(value.func.value.func) == "get_variable_scope"


def _assigns(statement, names) -> bool:
    """Whether a statement of the pass is `name = ...` of one of `names`."""
    small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) else None
    return isinstance(small, cst.Assign) and isinstance(small.targets[0].target, cst.Name) \
        and small.targets[0].target.value in names


def _appended(small):
    """(list, value) of `L.append(value)`; None for other statements."""
    if not (isinstance(small, cst.Expr) and isinstance(small.value, cst.Call)):
        return None
    call = small.value
    if isinstance(call.func, cst.Attribute) and call.func.attr.value == "append" and \
            isinstance(call.func.value, cst.Name) and len(call.args) == 1 and \
            not call.args[0].keyword and not call.args[0].star:
        return call.func.value.value, call.args[0].value
    return None


def _append(target: str, value) -> cst.SimpleStatementLine:
    return cst.SimpleStatementLine([cst.Expr(cst.Call(
        cst.Attribute(cst.Name(target), cst.Name("append")), [cst.Arg(value)]))])


def _is_gradients(value) -> bool:
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and \
        value.func.attr.value == "compute_gradients"


def _gradients(graph, value: cst.Call, computing: list, tensors: list, line: int):
    """`optimizer.compute_gradients(loss)` in a pass -> `list(zip(tape.gradient(loss,
    variables), variables))`, the pass's statements before it under the tape, `variables`
    the block's trainable variables made so far (TF1's default var_list: the trainable
    variables of the graph, a None gradient for one the loss does not read)."""
    owner = value.func.value
    args = api.keyword_arguments(value, ("loss", "var_list"))
    if not (isinstance(owner, cst.Name) and graph.env.get(owner.value) is not None and
            graph.env[owner.value].kind == OPTIMIZER) or args is None or set(args) != {"loss"}:
        raise Unconvertible(line, "compute_gradients() on an optimizer not made in this "
                                  "block, or with arguments besides the loss")
    loss = args["loss"]
    if not (isinstance(loss, cst.Name) and loss.value in tensors):
        raise Unconvertible(line, "compute_gradients() of a loss not computed in the pass")
    variables = trainable_variables(graph.nodes)
    if not variables.elements:
        raise Unconvertible(line, "compute_gradients() with no variable made yet")
    taped = cst.With([cst.WithItem(cst.Call(graph.translate.tf("GradientTape")),
                                   asname=cst.AsName(cst.Name("tape")))],
                     cst.IndentedBlock(list(computing) or [cst.SimpleStatementLine(
                         [cst.Pass()])]))
    computing[:] = [taped, assign("variables", variables)]
    return cst.parse_expression(f"list(zip(tape.gradient({loss.value}, variables), variables))")


def _is_training(value) -> bool:
    return isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and \
        value.func.attr.value in ("minimize", "apply_gradients", "compute_gradients")


def _tuple(elements: list) -> cst.Tuple:
    return cst.Tuple([cst.Element(element.with_changes(lpar=[cst.LeftParen()],
                                                       rpar=[cst.RightParen()])
                                  if isinstance(element, cst.Tuple) else element)
                      for element in elements], lpar=[], rpar=[])


def _zip(iterables: list) -> cst.Call:
    return cst.Call(cst.Name("zip"), [cst.Arg(iterable) for iterable in iterables])


__all__ = ["add_loop", "builds_graph"]
