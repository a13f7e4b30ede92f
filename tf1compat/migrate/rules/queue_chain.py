"""TF1 CSV queue-reader chains -> one `input_pipeline(...)` call, where that is provably safe.

The chain, one statement per step, all in one block:

    filename_queue = tf.train.string_input_producer([path], num_epochs=1, shuffle=False)
    reader = tf.TextLineReader(skip_header_lines=1)
    _, line = reader.read(filename_queue)
    x, y, label = tf.decode_csv(line, record_defaults=[[0], [0.0], [0]])
    xs, ys, labels = tf.train.batch([x, y, label], batch_size=4, allow_smaller_final_batch=True)
    ...
    threads = tf.train.start_queue_runners(sess=sess, coord=coord)

becomes

    _rows = input_pipeline([path], [[0], [0.0], [0]], header_lines=1, num_epochs=1,
                           shuffle=False, batch_size=4)
    xs, ys, labels = _rows.tensors
    ...
    threads = _rows.start_queue_runners(sess=sess, coord=coord)

with `from tf1compat.input_pipeline import input_pipeline`. The pipeline is
built where the producer was (the files expression is evaluated there, as
before), into the same default graph. `_rows.tensors` are the batch queue's
dequeue: the script's `sess.run` loop, OutOfRange at the end included, is
unchanged. `_rows.start_queue_runners` keeps the script's Coordinator working:
a reading error is reported to `coord` (so `coord.should_stop()` turns True and
`coord.join(threads)` raises it, as TF1's runners did), `coord.request_stop()`
closes the pipeline, and the `threads` it returns (a watcher that closes the
pipeline once `coord` stops, plus the graph's other queue runners, which the
TF1 call also started) are what `coord.join(threads)` waits for.

Mapped exactly: `string_input_producer`'s file order, shuffled by default
(a new order each epoch, each file's rows in order) -> `shuffle_files=True`
(with its `seed`), rows unmixed (`shuffle=False`); `skip_header_lines` ->
`header_lines`; `field_delim`,
`select_cols`, `na_value`, `use_quote_delim`; `num_epochs` (TF1's default is
None, forever: always written out); `train.batch(allow_smaller_final_batch=True)`
-> a shorter last batch, without it -> `drop_remainder=True`. `train.batch` with
one thread keeps the file's row order, as batch mode does. A chain without a
batch step (one record per `sess.run`, the seeds' way) -> `read="record"`,
whose `.tensors` are the decoded scalars of one read per run.

Left as is, and reported with the line and the reason (nothing is guessed):
several chains in one file; a step not written as its own assignment, or the
steps in different blocks; a queue, reader, line or decoded column used
anywhere else (or bound again); `shuffle_batch` and `train.batch(num_threads>1)` (TF1's row order is another
one, and whether the script's results depend on it cannot be known here);
other batching calls; arguments whose value cannot be proven (literals, or a
module-level name bound once to a literal, are proven; the files expression
may be any expression that is not a tensor); record defaults that are not one
literal per column; a record-mode chain in a file with other queues (their
threads could run the records concurrently); no `start_queue_runners`, several,
one without a Coordinator (a reading error would then go unseen) or out of the
pipeline's scope.

What differs is how bad input fails, never the rows of good input: the
pipeline checks its files when it is built (a missing or empty file raises
InputFileError there, naming it, where TF1 failed at the first read or read
nothing; the report says so), a row that does not decode reaches
`coord.join` as BadRowError (file and line) rather than InvalidArgumentError,
and a UTF-8 byte order mark on line 1 of a file without header lines is
dropped (TF1 kept it in the first field).

`--target modern` writes the same call. Both targets keep the script a graph
program (`disable_v2_behavior()`), and the script's `sess.run` loop, its
Coordinator and its OutOfRange ending stay as they are; the tf1compat pipeline
is the one that serves exactly that contract (raw tensors, errors reported to the
Coordinator), where a one-shot iterator over `modern.input_pipeline(...).dataset`
would leave `coord`/`threads` with nothing to stop and report errors
differently. The tf.data twin is the path once the script itself moves to eager.

The work is in two parts, each readable on its own: `queue_chain_analysis`
finds the chain and proves its values (or gathers why it is left as is), with
the proving helpers in `queue_chain_proof`; `queue_chain_rewrite` writes the
call and its replacements. This module only hands the one to the other.
"""

from __future__ import annotations

import libcst as cst
import libcst.matchers as m
from libcst.codemod.visitors import AddImportsVisitor
from libcst.metadata import ParentNodeProvider, PositionProvider, ScopeProvider

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.api_notes import QUEUE_LINES
from tf1compat.migrate.rules.base import Rule
from tf1compat.migrate.rules.queue_chain_analysis import ChainAnalysis
from tf1compat.migrate.rules.queue_chain_proof import Refused
from tf1compat.migrate.rules.queue_chain_rewrite import ChainRewrite, RewriteChain

_STEPS = {
    "train.string_input_producer": "producer",
    "TextLineReader": "reader",
    "decode_csv": "decode", "io.decode_csv": "decode",
    "train.batch": "batch", "train.shuffle_batch": "batch",
    "train.batch_join": "batch", "train.shuffle_batch_join": "batch",
    "train.maybe_batch": "batch", "train.maybe_shuffle_batch": "batch",
    "train.maybe_batch_join": "batch", "train.maybe_shuffle_batch_join": "batch",
    "train.Coordinator": "coordinator", "train.start_queue_runners": "start",
}


class QueueChainRule(Rule):
    NAME = "queue-chain"
    DESCRIPTION = "CSV queue-reader chains -> input_pipeline(...) where provably safe"
    METADATA_DEPENDENCIES = (PositionProvider, ParentNodeProvider, ScopeProvider)
    TRIGGERS = ("string_input_producer",)

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        calls: dict[str, list[cst.Call]] = {}
        for call in m.findall(original_node, m.Call()):
            step = _STEPS.get(self.names.v1_name(call.func) or "")
            if step:
                calls.setdefault(step, []).append(call)
        if not all(step in calls for step in ("producer", "reader", "decode")):
            return updated_node
        found = [call for group in calls.values() for call in group]
        lines = sorted({self.line(call) for call in found})
        chain = " -> ".join(dict.fromkeys(self.names.v1_name(c.func) for c in found))
        where = f"queue-reader chain (lines {lines[0]}-{lines[-1]}: {chain})"
        try:
            plan = ChainRewrite(ChainAnalysis(self, original_node, calls))
        except Refused as refusal:
            self.context.scratch.setdefault(QUEUE_LINES, set()).update(lines)
            for index, (node, reason) in enumerate(refusal.problems):
                still = (". It still runs here, since the script stays in graph mode; under "
                         "eager execution TF2 refuses queues") if index == 0 else ""
                self.add(node, Kind.NOT_CONVERTED, f"{where} left as is: {reason}{still}")
            return updated_node
        if plan.import_from:
            AddImportsVisitor.add_needed_import(self.context, "tf1compat.input_pipeline",
                                                "input_pipeline")
        else:
            AddImportsVisitor.add_needed_import(self.context, "tf1compat.input_pipeline")
        self.add(plan.producer_statement, Kind.CHANGED,
                 f"{where} -> {plan.variable} = {plan.call_text}; {plan.tensors_text}, and "
                 f"start_queue_runners is {plan.variable}.start_queue_runners(...), which "
                 "starts the pipeline under the script's Coordinator, reports its reading "
                 "errors there and closes it when the Coordinator stops. The files are checked "
                 "when the pipeline is built (a missing or empty file raises InputFileError "
                 "there, not at the first read)")
        return original_node.visit(RewriteChain(plan))
