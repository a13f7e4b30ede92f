"""TF1 expressions -> TF2 ones: each `tf.X` of an expression is looked up in `api`
and rewritten, or the expression is refused (Unconvertible, with the line and the name)."""

from __future__ import annotations

import difflib
from typing import Optional

import libcst as cst
from libcst.helpers import get_full_name_for_node

from tf1compat.migrate.rules.base import TfNames
from tf1compat.migrate.tf2 import api

# Calls rewritten as a whole (their arguments move), not by their name alone.
_CALLS = {"assign", "assign_add", "assign_sub", "Variable", "to_float", "name_scope",
          "losses.sigmoid_cross_entropy", "losses.mean_squared_error",
          "losses.sparse_softmax_cross_entropy", "losses.softmax_cross_entropy"}
# tf.losses cross-entropies -> (their TF1 label parameter, the tf.nn function): with TF1's
# default weights (1) and reduction (SUM_BY_NONZERO_WEIGHTS) each is the mean over the batch.
_CROSS_ENTROPIES = {
    "losses.sparse_softmax_cross_entropy": ("labels", "nn.sparse_softmax_cross_entropy_with_logits"),
    "losses.softmax_cross_entropy": ("onehot_labels", "nn.softmax_cross_entropy_with_logits"),
}


class Unconvertible(Exception):
    """A construct `--to tf2` leaves to the tf1compat pipeline: its line and why."""

    def __init__(self, line: int, reason: str):
        super().__init__(reason)
        self.line = line
        self.reason = reason


def names_read(expression: cst.CSTNode, skip_call=None) -> list[str]:
    """The plain names an expression reads (not attribute or keyword names), in order;
    calls for which `skip_call(call)` is true are not looked into."""
    found: list[str] = []

    class Reader(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> bool:
            return skip_call is None or not skip_call(node)

        def visit_Attribute(self, node: cst.Attribute) -> bool:
            node.value.visit(self)
            return False

        def visit_Arg(self, node: cst.Arg) -> bool:
            node.value.visit(self)
            return False

        def visit_Name(self, node: cst.Name) -> None:
            found.append(node.value)

    expression.visit(Reader())
    return list(dict.fromkeys(found))


class Translator:
    """Rewrites the TF1 names of expressions under the file's TensorFlow alias."""

    def __init__(self, alias: str):
        self.alias = alias
        self.names = TfNames(alias)

    def v1_name(self, node: cst.CSTNode) -> Optional[str]:
        """The TF1 name a dotted `tf.X.Y` names; None for anything else (a call's result)."""
        chain = node
        while isinstance(chain, cst.Attribute):
            chain = chain.value
        if not isinstance(chain, cst.Name):
            return None
        return self.names.v1_name(node)

    def tf(self, dotted: str) -> cst.BaseExpression:
        return api.tf_attribute(self.alias, dotted)

    def expression(self, node: cst.BaseExpression, line: int) -> cst.BaseExpression:
        return node.visit(_Rewriter(self, line))

    def optimizer(self, call: cst.Call, line: int, constant=api.is_literal,
                  parameters: frozenset = frozenset()) -> cst.Call:
        """`tf.train.XOptimizer(...)` -> the Keras optimizer with TF1's hyper-parameters;
        `constant(expression)`: whether a learning rate keeps its value while training;
        `parameters`: a lambda's, which stand for the values it is called with."""
        v1 = self.v1_name(call.func)
        if v1 in api.OPTIMIZERS_KEPT:
            raise Unconvertible(line, f"tf.{v1}: {api.OPTIMIZERS_KEPT[v1]}")
        if v1 not in api.OPTIMIZERS:
            raise Unconvertible(line, f"optimizer tf.{v1} has no --to tf2 rule")
        keras, keywords, positional, defaults = api.OPTIMIZERS[v1]
        args = api.keyword_arguments(call, positional)
        if args is None or set(args) - set(keywords):
            raise Unconvertible(line, f"tf.{v1} with arguments other than "
                                      + ", ".join(keywords))
        if v1 == "train.MomentumOptimizer" and not constant(args.get("learning_rate",
                                                                     cst.Name("x"))):
            raise Unconvertible(line, "tf.train.MomentumOptimizer with a learning rate that "
                                      "is not a constant: TF1 scales the accumulated "
                                      "momentum by the current rate, Keras' SGD does not")
        out = []
        for tf1_keyword, keras_keyword in keywords.items():
            if tf1_keyword in args:
                value = self.expression(args[tf1_keyword], line)
                if tf1_keyword == "learning_rate" and not api.is_literal(value) and \
                        constant(value) and not (isinstance(value, cst.Name) and
                                                 value.value in parameters):
                    # an eager scalar tensor: Keras takes a float
                    value = cst.Call(cst.Name("float"), [cst.Arg(value)])
            elif tf1_keyword in defaults:
                value = cst.parse_expression(defaults[tf1_keyword])
            else:
                continue
            out.append(cst.Arg(value, keyword=cst.Name(keras_keyword),
                               equal=cst.AssignEqual(cst.SimpleWhitespace(""),
                                                     cst.SimpleWhitespace(""))))
        return cst.Call(self.tf(f"keras.optimizers.{keras}"), out)


class _Rewriter(cst.CSTTransformer):
    def __init__(self, translator: Translator, line: int):
        super().__init__()
        self.t = translator
        self.line = line

    def _refuse(self, v1: str) -> Unconvertible:
        return Unconvertible(self.line, f"tf.{v1} has no --to tf2 rule")

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        return self.t.v1_name(node) is None  # TF names are rewritten whole, in leave

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute
                        ) -> cst.BaseExpression:
        v1 = self.t.v1_name(original)
        if v1 is None:
            return updated
        if v1 in _CALLS or v1.split(".")[0] in ("logging", "flags", "app"):
            return updated  # leave_Call rewrites the call; flags.FlagsToAbsl the rest
        if v1 in api.SAME or v1 in api.TF2_NAMES or v1.startswith("keras.") or \
                api.is_same_data_name(v1):
            return self.t.tf(v1)
        if api.RENAMED.get(v1):
            return self.t.tf(api.RENAMED[v1])
        upgraded = api.upgraded(v1)
        if upgraded is not None:
            return self.t.tf(upgraded[0])  # its keywords: leave_Call
        if v1 in api.MODERN:  # `import modern` is added when the program reads it
            return cst.Attribute(cst.Name("modern"), cst.Name(api.MODERN[v1]))
        if api.same_object_in_tf2(v1):
            return self.t.tf(v1)
        if v1 in api.INITIALIZERS:
            return self.t.tf(api.INITIALIZERS[v1])
        raise self._refuse(v1)

    def _tf1_arguments(self, v1: str, call: cst.Call) -> cst.Call:
        """A call of a TF1 name kept as the TF 2 one, its arguments written for TF 2's
        parameters: positional ones TF 2 reads as others become TF 1.15's keywords
        (`tf.shape(x, "s")`: TF 2's second is `out_type`), then the keywords TF 2 renamed get
        their TF 2 names, from tf_upgrade_v2's table (`keep_dims=` -> `keepdims=`)."""
        from tf1compat.migrate.findings import Kind
        from tf1compat.migrate.rules.tf115_positions import moved_from, rewrite_call
        from tf1compat.migrate.upgrade_v2 import keyword_renames

        plan = moved_from(v1)
        if plan is not None:
            call, said = rewrite_call(call, plan, f"tf.{v1}")
            if said is not None and said[0] is Kind.NOT_CONVERTED:
                raise Unconvertible(self.line, said[1])
        renames = keyword_renames(f"tf.{v1}")
        if not renames:
            return call
        return call.with_changes(args=[
            arg.with_changes(keyword=cst.Name(renames[arg.keyword.value]))
            if arg.keyword is not None and arg.keyword.value in renames else arg
            for arg in call.args])

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        v1 = self.t.v1_name(original.func)
        if v1 and (v1 in api.SAME or api.same_object_in_tf2(v1)):
            updated = self._tf1_arguments(v1, updated)
        upgraded = api.upgraded(v1) if v1 else None
        if upgraded is not None and upgraded[1]:
            return updated.with_changes(args=[
                arg.with_changes(keyword=cst.Name(upgraded[1][arg.keyword.value]))
                if arg.keyword is not None and arg.keyword.value in upgraded[1] else arg
                for arg in updated.args])
        if v1 not in _CALLS:
            return updated
        if v1 == "Variable":
            return updated.with_changes(func=self.t.tf("Variable"))
        if v1 == "name_scope":  # TF 2's takes the name alone (no default_name, values)
            if len(updated.args) != 1 or updated.args[0].keyword or updated.args[0].star:
                raise Unconvertible(self.line, "tf.name_scope with a default_name or values "
                                               "(TF 2's takes the name alone)")
            return updated.with_changes(func=self.t.tf("name_scope"))
        args = [arg for arg in updated.args]
        if any(arg.star for arg in args):
            raise Unconvertible(self.line, f"tf.{v1} with * arguments")
        if v1 in ("assign", "assign_add", "assign_sub"):
            named = api.keyword_arguments(updated, ("ref", "value"))
            if named is None or set(named) != {"ref", "value"}:
                raise Unconvertible(self.line, f"tf.{v1} with arguments besides ref, value")
            return cst.Call(cst.Attribute(named["ref"], cst.Name(v1)), [cst.Arg(named["value"])])
        if v1 == "to_float":
            named = api.keyword_arguments(updated, ("x",))
            if named is None or set(named) != {"x"}:
                raise Unconvertible(self.line, "tf.to_float with a name")
            return cst.Call(self.t.tf("cast"), [cst.Arg(named["x"]), cst.Arg(self.t.tf("float32"))])
        if v1 in _CROSS_ENTROPIES:
            label, function = _CROSS_ENTROPIES[v1]
            named = api.keyword_arguments(updated, (label, "logits"))
            if named is None or set(named) != {label, "logits"}:
                raise Unconvertible(self.line, f"tf.{v1} with weights, label smoothing, a "
                                               "scope or a reduction")
            inner = cst.Call(self.t.tf(function), [
                cst.Arg(named[label], keyword=cst.Name("labels"), equal=_EQ),
                cst.Arg(named["logits"], keyword=cst.Name("logits"), equal=_EQ)])
            return cst.Call(self.t.tf("reduce_mean"), [cst.Arg(inner)])
        if v1 == "losses.sigmoid_cross_entropy":
            named = api.keyword_arguments(updated, ("multi_class_labels", "logits"))
            if named is None or set(named) != {"multi_class_labels", "logits"}:
                raise Unconvertible(self.line, "tf.losses.sigmoid_cross_entropy with weights, "
                                               "label smoothing or a reduction")
            # TF1: the mean over all elements (weights 1, SUM_BY_NONZERO_WEIGHTS)
            inner = cst.Call(self.t.tf("nn.sigmoid_cross_entropy_with_logits"), [
                cst.Arg(named["multi_class_labels"], keyword=cst.Name("labels"), equal=_EQ),
                cst.Arg(named["logits"], keyword=cst.Name("logits"), equal=_EQ)])
            return cst.Call(self.t.tf("reduce_mean"), [cst.Arg(inner)])
        named = api.keyword_arguments(updated, ("labels", "predictions"))
        if named is None or set(named) != {"labels", "predictions"}:
            raise Unconvertible(self.line, "tf.losses.mean_squared_error with weights or a "
                                           "reduction")
        inner = cst.Call(self.t.tf("math.squared_difference"),
                         [cst.Arg(named["predictions"]), cst.Arg(named["labels"])])
        return cst.Call(self.t.tf("reduce_mean"), [cst.Arg(inner)])


_EQ = cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))


def dotted(node: cst.CSTNode) -> Optional[str]:
    return get_full_name_for_node(node)


def original_line(original: str, changed: str, line: int) -> int:
    """The line of `original` that line `line` of `changed` comes from."""
    matcher = difflib.SequenceMatcher(None, original.splitlines(), changed.splitlines(),
                                      autojunk=False)
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        if b0 < line <= b1 or (b0 == b1 and line == b0 + 1):
            return a0 + (line - b0) if tag == "equal" else a0 + 1
    return line
