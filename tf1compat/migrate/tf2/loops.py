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
from tf1compat.migrate.tf2.layer_nodes import dropout_source, layer_creation
from tf1compat.migrate.tf2.nodes import LAYER, TENSOR, Node, assign
from tf1compat.migrate.tf2.translate import Unconvertible, names_read

_GRAPH_KINDS = ("placeholder", "variable", "tensor", "train", "layer", "batch element")
_NOT_IN_LOOPS = ("placeholder", "Variable", "get_variable", "global_variables_initializer",
                 "local_variables_initializer")


def builds_graph(graph, loop) -> bool:
    """Whether a `for` statement is graph code: one of its assignments reads a placeholder,
    variable, tensor or layer of the block, or calls a `tf.layers` function."""
    if not isinstance(loop, cst.For):
        return False
    for statement in loop.body.body:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if not isinstance(small, cst.Assign):
                continue
            value = small.value
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
    reads_before = [read for read in graph.reads(loop.iter)]
    if any(read.kind in _GRAPH_KINDS for read in reads_before):
        raise Unconvertible(line, "a loop over a tensor (TF2 would iterate it eagerly)")
    loop_names = set(names_read(loop.target))
    iterable = graph.translate.expression(loop.iter, line)
    lists: list[tuple[str, str]] = []  # (list of layers, the name of one pass's layer)
    making: list[cst.BaseStatement] = []
    computing: list[cst.BaseStatement] = []
    tensors: list[str] = []
    reads = list(reads_before)
    for statement in loop.body.body:
        at = line_of(statement)
        small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and \
            len(statement.body) == 1 else None
        if not (isinstance(small, cst.Assign) and len(small.targets) == 1 and
                isinstance(small.targets[0].target, cst.Name)):
            raise Unconvertible(at, "a loop of graph code with statements other than "
                                    "assignments to one name")
        target, value = small.targets[0].target.value, small.value
        v1 = graph.translate.v1_name(value.func) if isinstance(value, cst.Call) else None
        read_here = [name for name in names_read(value) if name not in loop_names]
        reads += [graph.env[name] for name in read_here
                  if name in graph.env and name not in tensors]
        if v1 in api.LAYERS:
            rule = api.LAYERS[v1]
            creation, inputs, _ = layer_creation(graph, rule, v1, at, value, in_loop=True)
            if set(names_read(creation)) & set(tensors):
                raise Unconvertible(at, f"tf.{v1} in a loop configured from a tensor")
            layers = graph.fresh(f"{rule.default_name}_layers")
            each = graph.fresh(rule.default_name)
            lists.append((layers, each))
            reads.append(graph.bind(Node(layers, LAYER, index, at, many=True,
                                         weightless=rule.keras in api.WEIGHTLESS_LAYERS)))
            making.append(cst.SimpleStatementLine([cst.Expr(cst.Call(
                cst.Attribute(cst.Name(layers), cst.Name("append")), [cst.Arg(creation)]))]))
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
        else:  # a Python value: both loops compute it
            making.append(statement)
            computing.append(statement)
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
    computed = cst.For(header_target, header_iter, cst.IndentedBlock(computing))
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
