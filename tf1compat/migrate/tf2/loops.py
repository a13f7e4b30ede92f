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

from typing import Callable

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
    loop_names = set(names_read(loop.target))
    iterable = graph.translate.expression(loop.iter, line)
    lists: list[tuple[str, str]] = []  # (list of layers, the name of one pass's layer)
    making: list[cst.BaseStatement] = []
    computing: list[cst.BaseStatement] = []
    tensors: list[str] = []
    reads = list(reads_before)
    body, wrapper = _pass_statements(graph, loop)
    if wrapper is not None:  # its items in TF2 (TF2 has tf.device and tf.name_scope)
        wrapper = wrapper.with_changes(items=[
            item.with_changes(item=graph.translate.expression(item.item, line))
            for item in wrapper.items], leading_lines=[])
    taped = False  # whether the pass computed its gradients (one tape per pass)
    filled: list[str] = []  # lists of the block a pass appends tensors to
    reuse_at = call_at = -1  # where a pass turns reuse on, calls a variable-making function
    python: list[str] = []  # the names of the Python values the pass computes
    for position, statement in enumerate(body):
        at = line_of(statement)
        small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and \
            len(statement.body) == 1 else None
        if isinstance(small, cst.Expr) and _turns_reuse_on(graph, small.value):
            reuse_at = position
            continue  # the variables are made once, before the loop: TF2 shares them
        appended = _appended(small)
        if appended is not None and not (is_graph_value(appended[1]) or _is_gradients(
                appended[1]) or set(names_read(appended[1])) & set(tensors)):
            making.append(statement)  # a Python value appended: the making loop does it
            continue
        if appended is not None:
            target, value = appended
            if target not in graph.empty_lists:
                raise Unconvertible(at, f"{target}.append() in a loop of graph code, {target} "
                                        "not made empty in this block before the loop")
            if target in graph.graph_lists and target not in filled:
                raise Unconvertible(at, f"{target} filled with tensors by two loops")
            graph.graph_lists.add(target)
            filled.append(target)
        elif isinstance(small, cst.Assign) and len(small.targets) == 1 and \
                isinstance(small.targets[0].target, cst.Name):
            target, value = small.targets[0].target.value, small.value
        else:
            raise Unconvertible(at, "a loop of graph code with statements other than "
                                    "assignments to one name and appends")
        v1 = graph.translate.v1_name(value.func) if isinstance(value, cst.Call) else None
        read_here = [name for name in names_read(value) if name not in loop_names]
        reads += [read for name in read_here if name in graph.env and name not in tensors
                  for read in graph.reads(cst.Name(name))]
        if any(graph.env.get(name) is not None and graph.env[name].kind == FUNCTION
               for name in read_here):
            call_at = position
        if appended is not None or _is_gradients(value):
            if _is_gradients(value) and taped:
                raise Unconvertible(at, "two compute_gradients() in one pass")
            taped = taped or _is_gradients(value)
            expression = _gradients(graph, value, computing, tensors, at) if \
                _is_gradients(value) else graph.translate.expression(value, at)
            computing.append(_append(target, expression) if appended is not None
                             else assign(target, expression))
            tensors.append(target)
        elif v1 in api.LAYERS:
            rule = api.LAYERS[v1]
            creation, inputs, _ = layer_creation(graph, rule, v1, at, value, in_loop=True)
            if set(names_read(creation)) & set(tensors):
                raise Unconvertible(at, f"tf.{v1} in a loop configured from a tensor")
            layers = graph.fresh(f"{rule.default_name}_layers")
            each = graph.fresh(rule.default_name)
            lists.append((layers, each))
            reads.append(graph.bind(Node(layers, LAYER, index, at, many=True,
                                         weightless=rule.keras in api.WEIGHTLESS_LAYERS)))
            making.append(_append(layers, creation))
            computing.append(assign(target, cst.Call(cst.Name(each), [
                cst.Arg(graph.translate.expression(inputs, at))])))
            tensors.append(target)
        elif v1 == "layers.dropout":
            computing.append(assign(target, dropout_source(value, at)))
            tensors.append(target)
        elif v1 in _NOT_IN_LOOPS or _is_training(value):
            raise Unconvertible(at, f"{'tf.' + v1 if v1 else 'minimize()'} in a loop "
                                    "(TF1 made one per pass)")
        elif is_graph_value(value) or set(read_here) & set(tensors):
            computing.append(assign(target, graph.translate.expression(value, at)))
            tensors.append(target)
        else:  # a Python value: both loops compute it (the function's, where TF code reads it)
            if target in names_read(value):
                raise Unconvertible(at, f"{target}, a Python value of a loop of graph code, "
                                        "computed from itself (each trace would compute it "
                                        "again)")
            making.append(statement)
            computing.append(statement)
            python.append(target)
    read_by_tf = {name for statement in computing if not _assigns(statement, python)
                  for name in names_read(statement)}
    computing = [statement for statement in computing
                 if not _assigns(statement, python) or _assigns(statement, read_by_tf)]
    if call_at >= 0 and not call_at < reuse_at:
        raise Unconvertible(line, "a function that makes variables called in a loop that "
                                  "does not turn reuse on after it (TF1 raises: its "
                                  "variables exist)")
    if wrapper is not None:
        computing = [wrapper.with_changes(body=cst.IndentedBlock(computing))]
    reads_targets = bool(loop_names & {name for statement in computing
                                       for name in names_read(statement)})
    passes = [cst.Name(each) for _, each in lists]
    if lists and not reads_targets:
        header_target = passes[0] if len(passes) == 1 else _tuple(passes)
        header_iter = cst.Name(lists[0][0]) if len(lists) == 1 else _zip(
            [cst.Name(layers) for layers, _ in lists])
    elif lists:
        header_target = _tuple([loop.target, *passes])
        header_iter = _zip([iterable, *[cst.Name(layers) for layers, _ in lists]])
    else:
        header_target, header_iter = loop.target, iterable
    computed = [*[assign(name, cst.List([])) for name in dict.fromkeys(filled)],
                cst.For(header_target, header_iter, cst.IndentedBlock(computing))]
    for name in dict.fromkeys(tensors):
        graph.bind(Node(name, TENSOR, index, line, None, tuple(dict.fromkeys(reads)),
                        statement=computed))
    if not making:
        return []
    made = [assign(layers, cst.List([])) for layers, _ in lists]
    made.append(loop.with_changes(iter=iterable, body=loop.body.with_changes(body=making),
                                  leading_lines=[]))
    made[0] = made[0].with_changes(leading_lines=loop.leading_lines)
    return made


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
