"""What one block of a TF1 script builds: placeholders, variables, layers, optimizers and
the tensors computed from them, each with the names it reads.

`Graph.add_statement` classifies a statement in source order; `Unconvertible` says,
with the line, why a statement has no `--to tf2` form.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from tf1compat.migrate.tf2 import api, layer_nodes, optimizer_makers
from tf1compat.migrate.tf2.nodes import (  # noqa: F401 (the kinds, used by the modules of tf2)
    BATCH, EAGER, FEED, FUNCTION, INIT, LAYER, LAZY, OPTIMIZER, PLACEHOLDER, TENSOR, TRAIN,
    VARIABLE, Node,
    assign as _assign)
from tf1compat.migrate.tf2.translate import Translator, Unconvertible, names_read

class Graph:
    """The nodes of one block, the statements that replace graph statements, and the
    layer/optimizer objects created in their place."""

    def __init__(self, translator: Translator, taken: set[str], makers=None):
        self.translate = translator
        self.env: dict[str, Node] = {}
        self.nodes: list[Node] = []
        self.taken = taken  # Python names the file already binds
        self.layer_counts: dict[str, int] = {}
        self.variable_names: dict[str, int] = {}  # TF1 variable name -> times used
        self.scopes: list[str] = []  # the tf.variable_scope names around the statement
        self.replacements: dict[int, list[cst.BaseStatement]] = {}
        self.makers = makers or {}  # functions whose tf.get_variable calls are made here
        self.tf1_variables: dict[str, str] = {}  # TF1 name -> Python name, of get_variable's
        self.empty_lists: dict[str, int] = {}  # `L = []` of the block -> its statement
        self.graph_lists: set[str] = set()  # those a loop fills with tensors

    def fresh(self, base: str) -> str:
        name, number = base, 0
        while name in self.taken:
            number += 1
            name = f"{base}_{number}"
        self.taken.add(name)
        return name

    def bind(self, node: Node) -> Node:
        self.env[node.name] = node
        self.nodes.append(node)
        return node

    def reads(self, expression: cst.BaseExpression) -> tuple[Node, ...]:
        """The nodes an expression reads (a function's variables, for a call of one)."""
        return tuple(read for name in names_read(expression) if name in self.env
                     for read in (self.env[name].reads if self.env[name].kind == FUNCTION
                                  else (self.env[name],)))

    def add_batch(self, index: int, line: int, targets: list[str], iterator: str,
                  unpacked: bool) -> None:
        """`a, b = iterator.get_next()` of a tf.data iterator: the elements of one batch,
        fetched together by a Session.run (the statement leaves); `batch =
        iterator.get_next()`: the whole element (position None)."""
        for position, target in enumerate(targets):
            self.bind(Node(target, BATCH, index, line, batch=(
                iterator, position if unpacked else None, len(targets))))

    def _one_shot(self, index: int, line: int, target: str, dataset) -> bool:
        """`it = ds.make_one_shot_iterator()` -> `it = iter(ds)`: TF2 iterates a dataset in
        Python, and its iterator's get_next() raises OutOfRangeError at the end as TF1's
        did. `ds.make_initializable_iterator()` is left: each run of its initializer
        starts the data again, from the values then fed."""
        if dataset is False:
            raise Unconvertible(line, "an initializable iterator (each initializer run "
                                      "restarts it, with the values then fed)")
        reads = self.reads(dataset)
        if any(read.kind != EAGER for read in reads):
            raise Unconvertible(line, f"iterator {target} of a dataset made from fed or "
                                      "graph tensors")
        expression = cst.Call(cst.Name("iter"), [cst.Arg(self.translate.expression(
            dataset, line))])
        self.bind(Node(target, EAGER, index, line, expression, reads))
        return False

    def add_assignment(self, index: int, line: int, target: str, value: cst.BaseExpression,
                       wrapper: Optional[cst.With]) -> bool:
        """Classifies `target = value`; True when the statement leaves its place (its
        replacement, if any, is in `replacements`)."""
        v1 = self.translate.v1_name(value.func) if isinstance(value, cst.Call) else None
        if v1 == "placeholder":
            self.bind(Node(target, PLACEHOLDER, index, line, self._spec(value, line)))
            return True
        if v1 in ("global_variables_initializer", "local_variables_initializer"):
            self.bind(Node(target, INIT, index, line))
            return True
        if self.scopes and (v1 in api.LAYERS or v1 == "layers.dropout"):
            raise Unconvertible(line, "a tf.layers layer inside tf.variable_scope (the TF1 "
                                      "names of its variables carry the scope; Keras' do not)")
        if v1 in api.LAYERS:
            return layer_nodes.add_layer(self, api.LAYERS[v1], v1, index, line, target, value,
                                         wrapper)
        if v1 == "layers.dropout":
            source = layer_nodes.dropout_source(value, line)
            self.bind(Node(target, TENSOR, index, line, source, self.reads(source)))
            return True
        table = optimizer_makers.maker_table(self.translate, value, line)
        if table is not None:
            self.bind(Node(target, EAGER, index, line, table, makes_optimizers=True))
            return False
        creation = self._optimizer(value, line)
        if creation is not None and self.scopes:
            raise Unconvertible(line, "an optimizer inside tf.variable_scope (the TF1 names "
                                      "of its slots carry the scope)")
        if creation is not None:
            self.bind(Node(target, OPTIMIZER, index, line))
            self.taken.add(target)
            self.replacements[index] = [_assign(target, creation)]
            return True
        minimized = self._minimize(index, line, target, value) or \
            self._applied(index, line, target, value)
        if minimized:
            return True
        iterator = _iterated(value, v1)
        if iterator is not None:
            return self._one_shot(index, line, target, iterator)
        feed = self._feed(value, line)
        if feed is not None:
            self.bind(Node(target, FEED, index, line, feed))
            return False
        named_by_tf1 = v1 == "get_variable"
        if named_by_tf1:
            value, tf1_name = self.get_variable(value, line)
            self.tf1_variables[tf1_name] = target
            v1 = "Variable"
        reads = self.reads(value)
        if any(read.kind == BATCH for read in reads):
            raise Unconvertible(line, f"{target} is computed from a tf.data batch (only "
                                      "Session.run of the whole batch is converted)")
        if any(read.kind == OPTIMIZER for read in reads):
            raise Unconvertible(line, f"the optimizer is used for more than minimize(): {target}")
        expression = self.translate.expression(value, line)
        if v1 in ("Variable", "get_variable"):
            if any(read.kind in (PLACEHOLDER, TENSOR, TRAIN) for read in reads):
                raise Unconvertible(line, f"variable {target}'s initial value is computed "
                                          "from fed or graph tensors")
            trainable = not any(arg.keyword and arg.keyword.value == "trainable" and
                                isinstance(arg.value, cst.Name) and arg.value.value == "False"
                                for arg in value.args)
            if not named_by_tf1:
                expression = self._tf1_named(expression)
            self.bind(Node(target, VARIABLE, index, line, expression, reads, wrapper,
                            trainable=trainable))
            return False
        if any(read.kind in LAZY for read in reads):
            self.bind(Node(target, TENSOR, index, line, expression, reads, wrapper))
            return True
        if wrapper is None:
            self.bind(Node(target, EAGER, index, line, expression, reads))
        return False

    def _spec(self, placeholder: cst.Call, line: int) -> cst.Call:
        """`tf.TensorSpec(shape, dtype)` of `tf.placeholder(dtype, shape)`: the function it is
        fed to takes it in its input signature, so a fed value becomes that dtype and must have
        that shape, as TF1's feed did (float64 NumPy data fed to a float32 placeholder)."""
        args = api.keyword_arguments(placeholder, ("dtype", "shape", "name"))
        if args is None or "dtype" not in args:
            raise Unconvertible(line, "tf.placeholder without its dtype written out")
        shape = self.translate.expression(args["shape"], line) if "shape" in args \
            else cst.Name("None")
        return cst.Call(self.translate.tf("TensorSpec"), [
            cst.Arg(shape), cst.Arg(self.translate.expression(args["dtype"], line))])

    def _feed(self, value, line: int) -> Optional[cst.Dict]:
        """`{x: data, y: labels}` of placeholders, kept for a later `Session.run` ->
        `{"x": data, "y": labels}`: the runs pass each value to the function by its
        placeholder's name (the dict still holds the values it was made with)."""
        if not isinstance(value, cst.Dict) or not value.elements or not all(
                isinstance(element, cst.DictElement) and isinstance(element.key, cst.Name) and
                self.env.get(element.key.value, _NONE).kind == PLACEHOLDER
                for element in value.elements):
            return None
        if not all(self.fixed(element.value) for element in value.elements):
            raise Unconvertible(line, "a feed dict of tensors")
        return value.with_changes(elements=[element.with_changes(
            key=cst.SimpleString(f'"{element.key.value}"'),
            value=self.translate.expression(element.value, line)) for element in value.elements])

    def _optimizer(self, value, line: int) -> Optional[cst.BaseExpression]:
        """The Keras optimizer for `tf.train.XOptimizer(...)`, or for `A if test else B` of two
        of them (the test evaluated once, where TF1 built the optimizer); None for others."""
        if isinstance(value, cst.IfExp):
            body, orelse = (self._optimizer(value.body, line), self._optimizer(value.orelse, line))
            if body is None or orelse is None:
                return None
            return value.with_changes(body=body, orelse=orelse,
                                      test=self.translate.expression(value.test, line))
        v1 = self.translate.v1_name(value.func) if isinstance(value, cst.Call) else None
        if v1 in api.OPTIMIZERS or v1 in api.OPTIMIZERS_KEPT:
            return self.translate.optimizer(value, line, constant=self._constant)
        return optimizer_makers.maker_call(
            self.translate, value, lambda name: self.env.get(name, _NONE).makes_optimizers,
            self.fixed, line)

    def fixed(self, expression: cst.BaseExpression) -> bool:
        """Whether a value is fixed when the graph is built: it reads no variable, fed or
        computed tensor (a Python value, or a tensor computed once, before training)."""
        return all(self.env.get(name, _NONE).kind in ("", EAGER)
                   for name in names_read(expression))

    def _constant(self, expression: cst.BaseExpression) -> bool:
        """A literal, or the name of an eager value (a tensor computed once, before training)."""
        if api.is_literal(expression):
            return True
        return isinstance(expression, cst.Name) and \
            self.env.get(expression.value, _NONE).kind == EAGER

    def get_variable(self, call: cst.Call, line: int) -> tuple[cst.Call, str]:
        """(`tf.Variable(...)`, its TF1 name) for `tf.get_variable("w", shape,
        initializer=...)`: named
        `scope/w` as TF1 named it, its initial value drawn by the Keras initializer of the
        same distribution (TF1's default: Glorot uniform)."""
        args = api.keyword_arguments(call, ("name", "shape", "dtype", "initializer"))
        if args is None or not isinstance(args.get("name"), cst.SimpleString) or \
                set(args) - {"name", "shape", "dtype", "initializer", "trainable"}:
            raise Unconvertible(line, "tf.get_variable with a computed name, or with "
                                      "arguments besides shape, dtype, initializer, trainable")
        name = "/".join([*self.scopes, args["name"].evaluated_value])
        if self.variable_names.get(name):
            raise Unconvertible(line, f"tf.get_variable({name!r}) a second time (TF1 raises "
                                      "or reuses: not converted)")
        self.variable_names[name] = 1
        initializer = args.get("initializer")
        shape = args.get("shape")
        dtype = [cst.Arg(self.translate.expression(args["dtype"], line),
                         keyword=cst.Name("dtype"), equal=_EQUAL)] if "dtype" in args else []
        init_v1 = self.translate.v1_name(initializer.func) if isinstance(
            initializer, cst.Call) else None
        if initializer is None or init_v1 in api.INITIALIZERS:
            if shape is None:
                raise Unconvertible(line, "tf.get_variable with an initializer and no shape")
            maker = self.translate.expression(initializer, line) if initializer is not None \
                else cst.Call(self.translate.tf("keras.initializers.GlorotUniform"))
            value = cst.Call(maker, [cst.Arg(shape), *dtype])
        elif shape is None and init_v1 is not None and not dtype:
            value = self.translate.expression(initializer, line)  # a tensor: its value
        else:
            raise Unconvertible(line, "tf.get_variable with an initializer that is neither "
                                      "a TF1 initializer nor a tensor")
        keywords = [cst.Arg(args["trainable"], keyword=cst.Name("trainable"), equal=_EQUAL)] \
            if "trainable" in args else []
        return cst.Call(self.translate.tf("Variable"), [
            cst.Arg(value), *keywords,
            cst.Arg(cst.SimpleString(f'"{name}"'), keyword=cst.Name("name"), equal=_EQUAL)]), name

    def _tf1_named(self, creation: cst.Call) -> cst.Call:
        """`tf.Variable(...)` with the name TF1 gave it (`Variable`, `Variable_1`, `w_1` for
        a second `w`): TF2 names every unnamed variable `Variable`, and a TF1 checkpoint is
        loaded by name (modern.tf1_checkpoint)."""
        given = [arg for arg in creation.args if arg.keyword and arg.keyword.value == "name"]
        if given and not isinstance(given[0].value, cst.SimpleString):
            return creation  # a computed name: TF1's is not known here
        base = given[0].value.evaluated_value if given else "Variable"
        count = self.variable_names.get(base, 0)
        self.variable_names[base] = count + 1
        if given and count == 0:
            return creation
        name = cst.SimpleString(f'"{base if count == 0 else f"{base}_{count}"}"')
        args = [arg for arg in creation.args if arg not in given]
        if args:
            args[-1] = args[-1].with_changes(comma=cst.Comma(
                whitespace_after=cst.SimpleWhitespace(" ")))
        return creation.with_changes(args=[*args, cst.Arg(name, keyword=cst.Name("name"),
                                                          equal=_EQUAL)])

    def _applied(self, index, line, target, value) -> bool:
        """`train = optimizer.apply_gradients(grads_and_vars[, global_step])` of an
        optimizer of the block: a train op that applies the script's own gradients."""
        if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and
                value.func.attr.value == "apply_gradients"):
            return False
        owner = value.func.value
        args = api.keyword_arguments(value, ("grads_and_vars", "global_step", "name"))
        if not (isinstance(owner, cst.Name) and self.env.get(owner.value, _NONE).kind ==
                OPTIMIZER) or args is None or set(args) - {"grads_and_vars", "global_step"}:
            raise Unconvertible(line, "apply_gradients() on an optimizer not made in this "
                                      "block, or with a name")
        step = args.get("global_step")
        if step is not None and not (isinstance(step, cst.Name) and
                                     self.env.get(step.value, _NONE).kind == VARIABLE):
            raise Unconvertible(line, "apply_gradients(global_step=...) of something other "
                                      "than a variable of this block")
        pairs = args["grads_and_vars"]
        self.bind(Node(target, TRAIN, index, line, self.translate.expression(pairs, line),
                       self.reads(pairs), optimizer=owner.value,
                       global_step=self.env[step.value] if step is not None else None))
        return True

    def _minimize(self, index, line, target, value) -> bool:
        if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)
                and value.func.attr.value == "minimize"):
            return False
        owner = value.func.value
        args = api.keyword_arguments(value, ("loss", "global_step", "var_list"))
        if args is not None and "loss" in args and not isinstance(args["loss"], cst.Name):
            # `minimize(tf.square(v))`: the loss gets a name of its own, as a statement would
            loss_name = self.fresh("loss")
            loss_value = args["loss"]
            reads = self.reads(loss_value)
            self.bind(Node(loss_name, TENSOR, index, line,
                            self.translate.expression(loss_value, line), reads))
            args["loss"] = cst.Name(loss_name)
        if args is None or not isinstance(args.get("loss"), cst.Name) or \
                args["loss"].value not in self.env or set(args) - {"loss", "global_step"}:
            raise Unconvertible(line, "minimize() of something other than a named loss "
                                      "tensor, or with var_list/gate_gradients")
        if isinstance(owner, cst.Call):
            optimizer = self.fresh("optimizer")
            self.replacements[index] = [_assign(optimizer, self._optimizer(owner, line) or
                                                self.translate.optimizer(owner, line))]
        elif isinstance(owner, cst.Name) and self.env.get(owner.value, _NONE).kind == OPTIMIZER:
            optimizer = owner.value
        else:
            raise Unconvertible(line, "minimize() on an optimizer not made in this block")
        step = args.get("global_step")
        step_node = None
        if step is not None:
            if not (isinstance(step, cst.Name) and self.env.get(step.value) and
                    self.env[step.value].kind == VARIABLE):
                raise Unconvertible(line, "minimize(global_step=...) of something other "
                                          "than a variable of this block")
            step_node = self.env[step.value]
        loss = self.env[args["loss"].value]
        self.bind(Node(target, TRAIN, index, line, None, (loss,), optimizer=optimizer,
                        loss=loss, global_step=step_node))
        return True


_NONE = Node("", "", 0, 0)
_EQUAL = cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))


def _iterated(value, v1: Optional[str]):
    """The dataset of `ds.make_one_shot_iterator()` or `tf.data.make_one_shot_iterator(ds)`;
    False for an initializable iterator; None for other values."""
    if v1 in ("data.make_one_shot_iterator", "data.make_initializable_iterator"):
        if len(value.args) != 1 or value.args[0].keyword or value.args[0].star:
            return None
        return value.args[0].value if v1 == "data.make_one_shot_iterator" else False
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and \
            not value.args and value.func.attr.value in ("make_one_shot_iterator",
                                                         "make_initializable_iterator"):
        return value.func.value if value.func.attr.value == "make_one_shot_iterator" else False
    return None
