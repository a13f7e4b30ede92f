"""TF1's eager API (`tf.enable_eager_execution()` with `tf.contrib.eager`) -> TF2, which is
eager already:

    tf.enable_eager_execution()                       (goes)
    tfe = tf.contrib.eager                            (goes)
    batches = tfe.Iterator(dataset)              ->   batches = iter(dataset)
    x, y = batches.next()                        ->   x, y = next(batches)
    w = tfe.Variable(0.1, name="w")              ->   w = tf.Variable(0.1, name="w")
    mean = tfe.metrics.Mean()                    ->   mean = tf.keras.metrics.Mean()
    grads_fn = tfe.implicit_value_and_gradients(loss_fn)
                                                 ->   def grads_fn(*args, **kwargs):
                                                          with tf.GradientTape() as tape: ...
    optimizer = tf.train.XOptimizer(...)         ->   the Keras optimizer (translate.optimizer)

`implicit_gradients` / `implicit_value_and_gradients` differentiate with respect to every
trainable variable the function reads, which is what a GradientTape watches on its own
(`tape.watched_variables()`); the (gradient, variable) pairs go to `apply_gradients` as
before. Any other `tfe.X` is refused with its line.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from tf1compat.migrate.tf2.translate import Translator, Unconvertible

_IMPLICIT = ("implicit_gradients", "implicit_value_and_gradients")


def enables_eager(translator: Translator, module: cst.Module) -> bool:
    """Whether the module calls `tf.enable_eager_execution()` at its top level."""
    return any(_enable_call(translator, statement) for statement in module.body)


def _enable_call(translator: Translator, statement) -> bool:
    if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 and
            isinstance(statement.body[0], cst.Expr)):
        return False
    call = statement.body[0].value
    return isinstance(call, cst.Call) and translator.v1_name(call.func) in (
        "enable_eager_execution", "compat.v1.enable_eager_execution")


class EagerToTf2(cst.CSTTransformer):
    def __init__(self, translator: Translator, positions):
        super().__init__()
        self.t = translator
        self.positions = positions
        self.aliases: set[str] = set()     # names bound to tf.contrib.eager
        self.iterators: set[str] = set()   # names bound to tfe.Iterator(...)
        self.definitions: set[int] = set()  # the functions written for implicit_*

    def _line(self, node) -> int:
        position = self.positions.get(node)
        return position.start.line if position else 0

    def _eager_name(self, node: cst.BaseExpression) -> Optional[str]:
        """'Variable' for `tfe.Variable` or `tf.contrib.eager.Variable`; None otherwise."""
        if isinstance(node, cst.Attribute):
            base = self._eager_name(node.value)
            if base is not None:
                return f"{base}.{node.attr.value}" if base else node.attr.value
        if isinstance(node, cst.Name) and node.value in self.aliases:
            return ""
        v1 = self.t.v1_name(node) if isinstance(node, cst.Attribute) else None
        if v1 is not None and (v1 == "contrib.eager" or v1.startswith("contrib.eager.")):
            return v1[len("contrib.eager."):] if v1 != "contrib.eager" else ""
        return None

    def leave_SimpleStatementLine(self, original, updated):
        if _enable_call(self.t, original):
            return cst.RemoveFromParent()
        if len(original.body) != 1 or not isinstance(original.body[0], cst.Assign):
            return updated
        assign = original.body[0]
        if len(assign.targets) != 1 or not isinstance(assign.targets[0].target, cst.Name):
            return updated
        target = assign.targets[0].target.value
        if self._eager_name(assign.value) == "":
            self.aliases.add(target)
            return cst.RemoveFromParent()
        value = assign.value
        if isinstance(value, cst.Call) and self._eager_name(value.func) in _IMPLICIT:
            return self._implicit(target, value, self._eager_name(value.func), original)
        if isinstance(value, cst.Call) and self._eager_name(value.func) == "Iterator":
            self.iterators.add(target)
        return updated

    def _implicit(self, target: str, call: cst.Call, kind: str, original) -> cst.FunctionDef:
        line = self._line(original)
        if len(call.args) != 1 or call.args[0].keyword or call.args[0].star:
            raise Unconvertible(line, f"tf.contrib.eager.{kind} of anything but one function")
        function = cst.Module([]).code_for_node(call.args[0].value)
        returned = "value, pairs" if kind == "implicit_value_and_gradients" else "pairs"
        code = (f"def {target}(*args, **kwargs):\n"
                f"    # the gradients of every trainable variable {function} reads, as "
                f"TF1's {kind}\n"
                f"    with {self.t.alias}.GradientTape() as tape:\n"
                f"        value = {function}(*args, **kwargs)\n"
                f"    variables = tape.watched_variables()\n"
                f"    pairs = list(zip(tape.gradient(value, variables), variables))\n"
                f"    return {returned}\n")
        definition = cst.parse_statement(code).with_changes(leading_lines=[
            *[line for line in original.leading_lines if line.comment],
            *[cst.EmptyLine(indent=False)] * 2])
        self.definitions.add(id(definition))
        return definition

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        """Two blank lines after each function written here, as before one."""
        body = list(updated.body)
        for index, statement in enumerate(body[:-1]):
            following = body[index + 1]
            if id(statement) in self.definitions and not isinstance(following, cst.FunctionDef):
                body[index + 1] = following.with_changes(leading_lines=[
                    *[cst.EmptyLine(indent=False)] * 2,
                    *[line for line in following.leading_lines if line.comment]])
        return updated.with_changes(body=body)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = original.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and \
                func.value.value in self.iterators and func.attr.value == "next" and \
                not original.args:
            return cst.Call(cst.Name("next"), [cst.Arg(func.value)])
        name = self._eager_name(func)
        if name is None:
            v1 = self.t.v1_name(func) if isinstance(func, cst.Attribute) else None
            if v1 is not None and v1.startswith("train.") and v1.endswith("Optimizer"):
                return self.t.optimizer(updated, self._line(original))
            return updated
        if name in _IMPLICIT:
            return updated  # the assignment becomes a function (leave_SimpleStatementLine)
        if name == "Variable":
            return updated.with_changes(func=self.t.tf("Variable"))
        if name == "Iterator" and len(updated.args) == 1 and not updated.args[0].keyword:
            return cst.Call(cst.Name("iter"), [updated.args[0].with_changes(
                comma=cst.MaybeSentinel.DEFAULT)])
        if name == "metrics.Mean":
            return updated.with_changes(func=self.t.tf("keras.metrics.Mean"))
        raise Unconvertible(self._line(original), f"tf.contrib.eager.{name} has no --to tf2 "
                                                  "rule")
