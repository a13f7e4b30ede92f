"""`tf.layers` calls -> a Keras layer made where TF1 built it, applied where its output is
computed: `hidden = tf.layers.dense(x, 8)` -> `dense = tf.keras.layers.Dense(8, name="dense")`
and `hidden = dense(x)` in the function that computes `hidden`."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from tf1compat.migrate.tf2 import api
from tf1compat.migrate.tf2.nodes import LAYER, TENSOR, Node, assign
from tf1compat.migrate.tf2.translate import Unconvertible

_EQUAL = cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))


def layer_creation(graph, rule: api.LayerRule, v1: str, line: int, value: cst.Call,
                   in_loop: bool) -> tuple[cst.Call, cst.BaseExpression, Optional[str]]:
    """(the Keras layer's creation, the TF1 layer's input, its literal TF1 name or None).

    Straight-line code: the name is a literal or TF1's default (`dense`, `dense_1`, ... per
    kind, in creation order). In a loop the name may be computed (`"hidden%d" % i`, which
    Keras keeps as TF1 did) but must be given: TF1's default would count on at run time."""
    args = api.keyword_arguments(value, rule.positional)
    if args is None or "inputs" not in args or any(name not in args for name in rule.leading):
        raise Unconvertible(line, f"tf.{v1} with arguments not written out")
    unknown = set(args) - rule.keywords - {"inputs", "name", *rule.leading}
    if unknown:
        raise Unconvertible(line, f"tf.{v1} keyword(s) without a Keras {rule.keras} "
                                  "counterpart here: " + ", ".join(sorted(unknown)))
    layer_name: Optional[str] = None
    if in_loop:
        if "name" not in args:
            raise Unconvertible(line, f"tf.{v1} in a loop without a name (TF1 numbers "
                                      "unnamed layers as it builds them)")
        name = graph.translate.expression(args["name"], line)
        if isinstance(args["name"], cst.SimpleString):
            raise Unconvertible(line, f"tf.{v1} in a loop with one literal name (TF1 makes "
                                      "the later ones unique by a number)")
    elif "name" in args:
        if not isinstance(args["name"], cst.SimpleString):
            raise Unconvertible(line, f"tf.{v1} with a computed name (its variables' names "
                                      "would not be known)")
        layer_name = args["name"].evaluated_value
        name = args["name"]
    else:
        count = graph.layer_counts.get(rule.default_name, 0)
        graph.layer_counts[rule.default_name] = count + 1
        layer_name = rule.default_name if count == 0 else f"{rule.default_name}_{count}"
        name = cst.SimpleString(f'"{layer_name}"')
    leading = [cst.Arg(graph.translate.expression(args[k], line)) for k in rule.leading]
    keywords = [cst.Arg(graph.translate.expression(args[k], line), keyword=cst.Name(k),
                        equal=_EQUAL) for k in args if k in rule.keywords]
    creation = cst.Call(api.tf_attribute(graph.translate.alias, f"keras.layers.{rule.keras}"),
                        [*leading, *keywords,
                         cst.Arg(name, keyword=cst.Name("name"), equal=_EQUAL)])
    return creation, args["inputs"], layer_name


def add_layer(graph, rule: api.LayerRule, v1: str, index: int, line: int, target: str,
              value: cst.Call, wrapper) -> bool:
    """`target = tf.layers.X(inputs, ...)`: the layer, made in the statement's place, and
    `target`, its output."""
    creation, inputs, layer_name = layer_creation(graph, rule, v1, line, value, in_loop=False)
    python_name = graph.fresh(layer_name if layer_name.isidentifier() else rule.default_name)
    layer = graph.bind(Node(python_name, LAYER, index, line,
                            weightless=rule.keras in api.WEIGHTLESS_LAYERS))
    graph.replacements[index] = [assign(python_name, creation)]
    application = cst.Call(cst.Name(python_name), [cst.Arg(inputs)])
    graph.bind(Node(target, TENSOR, index, line, application,
                    (layer, *graph.reads(inputs)), wrapper))
    return True


def dropout_source(value: cst.Call, line: int) -> cst.BaseExpression:
    """The input of `tf.layers.dropout(x, ...)` outside training: TF1's dropout layer is the
    identity unless training=True."""
    args = api.keyword_arguments(value, ("inputs", "rate", "noise_shape", "seed", "training"))
    training = None if args is None else args.get("training")
    if args is None or "inputs" not in args or not (
            training is None or (isinstance(training, cst.Name) and training.value == "False")):
        raise Unconvertible(line, "tf.layers.dropout in training mode (TF2's random masks "
                                  "differ from TF 1.15's)")
    return args["inputs"]


def trainable_variables(nodes) -> cst.List:
    """The list of the trainable variables of `nodes`, in their order (TF1's
    `tf.trainable_variables()` of a graph holding them)."""
    return cst.List([variables_element(node) for node in nodes if node.trained])


def variables_element(node) -> cst.BaseElement:
    """The element of a list of trainable variables for a variable or layer node: `w`,
    `*dense.trainable_variables`, `*[v for layer in dense_layers for v in ...]`."""
    if node.many:
        return cst.StarredElement(cst.parse_expression(
            f"[variable for layer in {node.name} for variable in layer.trainable_variables]"))
    if node.kind == LAYER:
        return cst.StarredElement(cst.Attribute(cst.Name(node.name),
                                                cst.Name("trainable_variables")))
    return cst.Element(cst.Name(node.name))
