"""A CSV queue-reader chain -> modern's tf.data pipeline, iterated eagerly.

The queue-chain rule (tf1compat/migrate/rules/queue_chain.py) proves the chain and writes it
as one `input_pipeline(...)` call with the same files, columns and batching; `--to tf2` then
takes modern's twin of that call, whose dataset gives the same rows in the same order and
the same batches:

    _rows = input_pipeline([path], [[0], [0.0], [0]], ...)     (the same call, from modern)
    xs, ys, labels = _rows.tensors                        ->   _rows_batches = iter(_rows.dataset)
                                                               xs, ys, labels = _rows_batches.get_next()
    threads = _rows.start_queue_runners(sess=sess, ...)   ->   threads = []

The iterator's `get_next()` raises `tf.errors.OutOfRangeError` at the end, as the dequeue of
TF1's batch queue did, so the script's loop and its Coordinator stay as they are; the
block conversion then writes each `sess.run` of the batch as `..._batches.get_next()`.
tf.data reads inside the iterator: there are no queue-runner threads to join.

Left to the tf1compat pipeline, with the reason: a chain the rule leaves as is (its own
reason), files read in TF1's shuffled order (`shuffle_files=True`: tf.data's seeded order is
another one), one record per run (`read="record"`), and a pipeline name the script binds
itself.
"""

from __future__ import annotations

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.metadata import MetadataWrapper, PositionProvider

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.queue_chain import QueueChainRule
from tf1compat.migrate.tf2.translate import Unconvertible, original_line

_FUNCTION = "input_pipeline"
_TF1_HOME = "tf1compat.input_pipeline"


def queue_chain_to_data(code: str) -> str:
    """`code` with its CSV queue chain read through modern's tf.data pipeline; `code` itself
    when it has none. Raises Unconvertible (line of `code`)."""
    if not QueueChainRule.applies_to(code):
        return code
    rule = QueueChainRule(CodemodContext())
    written = rule.transform_module(cst.parse_module(code))
    refused = [f for f in rule.findings if f.kind == Kind.NOT_CONVERTED]
    if refused:
        raise Unconvertible(refused[0].line, refused[0].message.split(". It still runs")[0])
    if written.code == code:
        return code
    wrapper = MetadataWrapper(written)
    try:
        return wrapper.module.visit(_ToData(wrapper.resolve(PositionProvider))).code
    except Unconvertible as error:
        raise Unconvertible(original_line(code, wrapper.module.code, error.line),
                            error.reason) from None


class _ToData(cst.CSTTransformer):
    def __init__(self, positions):
        super().__init__()
        self.positions = positions
        self.pipelines: set[str] = set()  # the names bound to input_pipeline(...)

    def _line(self, node) -> int:
        position = self.positions.get(node)
        return position.start.line if position else 0

    def leave_ImportFrom(self, original: cst.ImportFrom, updated: cst.ImportFrom):
        name = cst.Module([]).code_for_node(original.module) if original.module else ""
        if name != _TF1_HOME:
            return updated
        return updated.with_changes(module=cst.parse_expression("modern.input_pipeline"))

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        small = node.body[0] if len(node.body) == 1 else None
        if isinstance(small, cst.Assign) and isinstance(small.value, cst.Call):
            func = cst.Module([]).code_for_node(small.value.func)
            if func == f"{_TF1_HOME}.{_FUNCTION}":
                raise Unconvertible(self._line(node), "a queue chain in a script that binds "
                                                      f"the name {_FUNCTION} itself")
            if func == _FUNCTION and len(small.targets) == 1 and \
                    isinstance(small.targets[0].target, cst.Name):
                self._check_options(small.value, self._line(node))
                self.pipelines.add(small.targets[0].target.value)

    def _check_options(self, call: cst.Call, line: int) -> None:
        for arg in call.args:
            keyword = arg.keyword.value if arg.keyword else None
            value = cst.Module([]).code_for_node(arg.value)
            if keyword == "shuffle_files" and value != "False":
                raise Unconvertible(line, "a queue chain reading its files in TF1's shuffled "
                                          "order (string_input_producer's default "
                                          "shuffle=True): tf.data's seeded order is another")
            if keyword == "read" and value.strip("'\"") == "record":
                raise Unconvertible(line, "a queue chain without a batch step (one record "
                                          "per Session.run)")

    def _pipeline_attribute(self, node, attribute: str) -> str | None:
        """NAME of `NAME.attribute` where NAME is a pipeline."""
        if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and \
                node.value.value in self.pipelines and node.attr.value == attribute:
            return node.value.value
        return None

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine,
                                  updated: cst.SimpleStatementLine):
        small = updated.body[0] if len(updated.body) == 1 else None
        if isinstance(small, cst.Assign) and len(small.targets) == 1:
            pipeline = self._pipeline_attribute(small.value, "tensors")
            if pipeline is not None:
                batches = f"{pipeline}_batches"
                made = cst.parse_statement(f"{batches} = iter({pipeline}.dataset)\n")
                taken = small.with_changes(value=cst.parse_expression(f"{batches}.get_next()"))
                return cst.FlattenSentinel([
                    made.with_changes(leading_lines=updated.leading_lines),
                    updated.with_changes(body=[taken], leading_lines=[])])
        starts = small.value if isinstance(small, (cst.Assign, cst.Expr)) else None
        if isinstance(starts, cst.Call) and \
                self._pipeline_attribute(starts.func, "start_queue_runners") is not None:
            if isinstance(small, cst.Expr):
                return cst.RemoveFromParent()
            return updated.with_changes(body=[small.with_changes(value=cst.List([]))],
                                        trailing_whitespace=cst.TrailingWhitespace(
                                            cst.SimpleWhitespace("  "), cst.Comment(
                                                "# tf.data reads in its iterator: no "
                                                "queue-runner threads")))
        return updated
