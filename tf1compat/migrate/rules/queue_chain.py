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
"""

from __future__ import annotations

import ast
import re
from typing import Any, Optional

import libcst as cst
import libcst.matchers as m
from libcst.codemod.visitors import AddImportsVisitor
from libcst.metadata import ParentNodeProvider, PositionProvider, ScopeProvider
from libcst.metadata.scope_provider import Assignment, GlobalScope

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.api_notes import QUEUE_LINES
from tf1compat.migrate.rules.base import Rule
from tf1compat.runner.api_notes import note_for

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
# TF1 parameters in positional order (decode_csv: only the two whose order TF1 and TF2 share).
_PARAMETERS = {
    "producer": ("string_tensor", "num_epochs", "shuffle", "seed", "capacity", "shared_name",
                 "name", "cancel_op"),
    "reader": ("skip_header_lines", "name"),
    "read": ("queue", "name"),
    "decode": ("records", "record_defaults"),
    "batch": ("tensors", "batch_size", "num_threads", "capacity", "enqueue_many", "shapes",
              "dynamic_pad", "allow_smaller_final_batch", "shared_name", "name"),
    "start": ("sess", "coord", "daemon", "start", "collection"),
}
_DECODE_KEYWORDS = ("field_delim", "use_quote_delim", "na_value", "select_cols", "name")
_INT32 = (-(2 ** 31), 2 ** 31)
_UNPROVEN = object()


class Refused(Exception):
    """Why the chain is left as is: (node to report it at, reason) pairs."""

    def __init__(self, node: cst.CSTNode, reason: str):
        super().__init__(reason)
        self.problems = [(node, reason)]


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
            plan = _Plan(self, original_node, calls)
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
        return original_node.visit(_Rewrite(plan))


class _Plan:
    """Reads the chain; raises Refused for anything it cannot prove."""

    def __init__(self, rule: QueueChainRule, module: cst.Module, calls: dict):
        self.rule = rule
        self.module = module
        self.names = rule.names
        # Reasons that leave the chain as is but let reading go on, to report them all.
        self.problems: list[tuple[cst.CSTNode, str]] = []
        try:
            self._read(module, calls)
        except Refused as refusal:
            refusal.problems[:0] = self.problems
            raise
        if self.problems:
            refusal = Refused(*self.problems[0])
            refusal.problems = self.problems
            raise refusal

    def _read(self, module: cst.Module, calls: dict) -> None:
        for step in ("producer", "reader", "decode"):
            if len(calls[step]) > 1:
                raise Refused(calls[step][1], f"several chains in one file ({len(calls[step])} "
                              f"{self.names.v1_name(calls[step][0].func)} calls): which reader "
                              "reads which queue is not rewritten")
        self.removed: list[cst.SimpleStatementLine] = []
        self.replaced: dict[cst.SimpleStatementLine, cst.SimpleStatementLine] = {}
        # Module-level names bound once to a literal, by name: their `NAME = literal` lines.
        self.proven_names: dict[str, cst.SimpleStatementLine] = {}
        keywords: dict[str, str] = {}

        # string_input_producer
        producer = calls["producer"][0]
        self.producer_statement, queue = self._statement(producer, "string_input_producer")
        block = self.parent(self.producer_statement)
        args = self._bind(producer, "producer")
        files = self._required(args, "string_tensor", producer)
        self._not_a_tensor(files)
        self._absent(args, producer, "shared_name", "cancel_op")
        shuffle = self._prove(args["shuffle"], bool, "shuffle") if "shuffle" in args else True
        one_file = isinstance(files, (cst.List, cst.Tuple)) and len(files.elements) == 1 and \
            not isinstance(files.elements[0], cst.StarredElement)
        if shuffle and not one_file:
            # TF1 draws a new file order each epoch and reads each file's rows in order:
            # shuffle_files, not shuffle (which would mix the rows too).
            keywords["shuffle_files"] = "True"
            if "seed" in args:
                self._prove(args["seed"], (int, type(None)), "seed")
                keywords["seed"] = self._value(args["seed"])
        epochs = "None"
        if "num_epochs" in args:
            value = self._prove(args["num_epochs"], (int, type(None)), "num_epochs")
            if value is not None and value < 1:
                raise Refused(producer, f"num_epochs={value} is not a number of passes")
            epochs = self._value(args["num_epochs"])

        # TextLineReader and reader.read(queue)
        reader_call = calls["reader"][0]
        reader_statement, reader = self._statement(reader_call, "TextLineReader")
        args = self._bind(reader_call, "reader")
        if "skip_header_lines" in args:
            header = self._prove(args["skip_header_lines"], (int, type(None)), "skip_header_lines")
            if header:
                keywords["header_lines"] = self._value(args["skip_header_lines"])
        [use] = self._only_uses(reader, "the reader", expected=1)
        read = self.parent(self.parent(use))
        attribute = self.parent(use)
        if not (isinstance(attribute, cst.Attribute) and attribute.value is use and
                isinstance(read, cst.Call) and read.func is attribute):
            raise Refused(use, "the reader is used other than by one reader.read(queue)")
        if attribute.attr.value != "read":
            raise Refused(read, f"reader.{attribute.attr.value}(...) is not rewritten "
                          "(input_pipeline reads like reader.read, one record at a time)")
        read_statement, target = self._statement(read, "reader.read")
        if not (isinstance(target, (cst.Tuple, cst.List)) and len(target.elements) == 2 and
                all(isinstance(e, cst.Element) and isinstance(e.value, cst.Name)
                    for e in target.elements)):
            raise Refused(read, "reader.read(queue) is not unpacked as `key, line = ...`")
        key, line = (e.value for e in target.elements)
        args = self._bind(read, "read")
        if not isinstance(args.get("queue"), cst.Name) or args["queue"].value != queue.value:
            raise Refused(read, "reader.read does not read the string_input_producer's queue")
        self._only_uses(queue, "the filename queue", expected=[args["queue"]])
        if self._uses_of(key):
            raise Refused(key, f"the reader's keys ({key.value}) are used: input_pipeline "
                          "does not give them")

        # decode_csv(line, record_defaults, ...)
        decode = calls["decode"][0]
        decode_statement, columns = self._statement(decode, "decode_csv")
        args = self._bind(decode, "decode", keywords=_DECODE_KEYWORDS)
        if not isinstance(args.get("records"), cst.Name) or args["records"].value != line.value:
            raise Refused(decode, "decode_csv does not decode the line reader.read returned")
        self._only_uses(line, "the line read", expected=[args["records"]])
        defaults = self._required(args, "record_defaults", decode)
        self._record_defaults(defaults)
        for keyword, kind in (("field_delim", str), ("select_cols", list),
                              ("na_value", str), ("use_quote_delim", bool)):
            if keyword in args:
                self._prove(args[keyword], kind, keyword)
                keywords[keyword] = self._value(args[keyword])
        if isinstance(columns, cst.Name):
            outputs = [columns]
        elif isinstance(columns, (cst.Tuple, cst.List)) and all(
                isinstance(e, cst.Element) and isinstance(e.value, cst.Name)
                for e in columns.elements):
            outputs = [e.value for e in columns.elements]
        else:
            raise Refused(decode, "the decoded columns are not assigned to names")

        # train.batch, or one record per run
        batching = self._batching(outputs, calls.get("batch", ()))
        if self.problems:
            return
        statements = [self.producer_statement, reader_statement, read_statement, decode_statement]
        if batching is not None:
            batch_statement, batch_target = self._statement(batching, "train.batch")
            statements.append(batch_statement)
            keywords.update(self._batch_keywords(batching, columns, outputs))
            tensors_at, tensors_target = batch_statement, batch_target
            self.removed += [reader_statement, read_statement, decode_statement]
        else:
            self._record_mode_alone(calls, decode)
            keywords["read"] = '"record"'
            tensors_at, tensors_target = decode_statement, columns
            self.removed += [reader_statement, read_statement]
        for statement in statements:
            if self.parent(statement) is not block:
                raise Refused(statement, "the steps of the chain are not in one block")

        # start_queue_runners(sess, coord)
        self.start_call = self._start(calls.get("start", ()), producer)

        self.variable = _fresh_name(module.code, "_rows")
        self.import_from = not re.search(r"\binput_pipeline\b", module.code)
        function = "input_pipeline" if self.import_from else \
            "tf1compat.input_pipeline.input_pipeline"
        keywords["num_epochs"] = epochs
        keywords["shuffle"] = "False"
        order = ("header_lines", "field_delim", "select_cols", "na_value", "use_quote_delim",
                 "num_epochs", "shuffle", "shuffle_files", "seed", "batch_size",
                 "drop_remainder", "read")
        options = [f"{k}={keywords[k]}" for k in order if k in keywords]
        self.call_text = (f"{function}({self._code(files)}, {self._value(defaults)}, "
                          + ", ".join(options) + ")")
        tensors = f"{self.variable}.tensors"
        value = tensors if isinstance(tensors_target, (cst.Tuple, cst.List)) else \
            f"list({tensors})"
        self.tensors_text = (f"the {'batch' if batching is not None else 'record'} tensors "
                             f"are {value} (line {self.rule.line(tensors_at)})")
        self.replaced[self.producer_statement] = _assign(
            self.producer_statement, cst.Name(self.variable),
            cst.parse_expression(self.call_text))
        self.replaced[tensors_at] = _assign(tensors_at, tensors_target,
                                            cst.parse_expression(value))

    # -- metadata ------------------------------------------------------------------
    def parent(self, node: cst.CSTNode) -> Optional[cst.CSTNode]:
        return self.rule.get_metadata(ParentNodeProvider, node, None)

    def scope(self, node: cst.CSTNode):
        return self.rule.get_metadata(ScopeProvider, node, None)

    def _code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node).strip()

    # -- statements and names --------------------------------------------------------
    def _statement(self, call: cst.Call, what: str):
        """The `TARGET = call` line of a step, and its target; refuses other shapes."""
        assign = self.parent(call)
        statement = self.parent(assign) if assign is not None else None
        if not (isinstance(assign, cst.Assign) and assign.value is call and
                len(assign.targets) == 1 and isinstance(statement, cst.SimpleStatementLine)
                and len(statement.body) == 1):
            raise Refused(call, f"{what}(...) is not assigned on a line of its own "
                          f"(`name = {what}(...)`)")
        target = assign.targets[0].target
        if what != "reader.read" and what not in ("decode_csv", "train.batch") and \
                not isinstance(target, cst.Name):
            raise Refused(call, f"{what}(...) is not assigned to a name")
        return statement, target

    def _uses_of(self, name: cst.Name) -> list:
        scope = self.scope(name)
        if scope is None:
            raise Refused(name, f"the scope of {name.value} is not known")
        return [access.node for assignment in scope.assignments[name.value]
                for access in assignment.references]

    def _only_uses(self, name: cst.Name, what: str, expected) -> list:
        """The uses of a name bound once; refuses other uses, or another binding."""
        scope = self.scope(name)
        assignments = list(scope.assignments[name.value]) if scope is not None else []
        if len(assignments) != 1:
            raise Refused(name, f"{what} ({name.value}) is bound more than once in its scope")
        uses = [access.node for access in assignments[0].references]
        if isinstance(expected, int):
            ok = len(uses) == expected
        else:
            ok = len(uses) == len(expected) and all(any(u is e for e in expected) for u in uses)
        if not ok:
            extra = [u for u in uses if isinstance(expected, int) or
                     not any(u is e for e in expected)] or uses
            line = self.rule.line(extra[0]) if extra else self.rule.line(name)
            raise Refused(extra[0] if extra else name,
                          f"{what} ({name.value}) is used elsewhere (line {line}), and the "
                          "pipeline does not give it")
        return uses

    # -- arguments -------------------------------------------------------------------
    def _bind(self, call: cst.Call, step: str, keywords: tuple = ()) -> dict:
        parameters = _PARAMETERS[step]
        bound: dict[str, cst.BaseExpression] = {}
        position = 0
        for arg in call.args:
            if arg.star:
                raise Refused(call, f"{self._callee(call)} gets unpacked arguments ({arg.star})")
            if arg.keyword is None:
                if position >= len(parameters):
                    raise Refused(call, f"{self._callee(call)} gets more positional arguments "
                                  "than the rewrite reads (give them as keywords)")
                bound[parameters[position]] = arg.value
                position += 1
            elif arg.keyword.value in parameters or arg.keyword.value in keywords:
                bound[arg.keyword.value] = arg.value
            else:
                raise Refused(call, f"{self._callee(call)} gets {arg.keyword.value}=, which the "
                              "rewrite does not map")
        return bound

    def _callee(self, call: cst.Call) -> str:
        name = self.names.v1_name(call.func)
        return f"tf.{name}" if name else self._code(call.func)

    def _required(self, args: dict, name: str, call: cst.Call) -> cst.BaseExpression:
        if name not in args:
            raise Refused(call, f"{self._callee(call)} has no {name}")
        return args[name]

    def _absent(self, args: dict, call: cst.Call, *names: str) -> None:
        for name in names:
            if name in args and _literal(args[name]) is not None:
                raise Refused(call, f"{self._callee(call)}({name}=...) is not rewritten")

    def _prove(self, node: cst.BaseExpression, kinds, what: str) -> Any:
        """The value of a literal (or a module-level name bound once to one); refuses others."""
        value = _literal(node)
        if value is _UNPROVEN and isinstance(node, cst.Name):
            value = self._constant(node)
        if value is _UNPROVEN:
            raise Refused(node, f"{what}={self._code(node)} is computed, and the rewrite can only "
                          "map a value it can prove (a literal, or a name bound once to one "
                          "at module level)")
        kinds = kinds if isinstance(kinds, tuple) else (kinds,)
        if isinstance(value, tuple) and list in kinds:
            value = list(value)
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            raise Refused(node, f"{what}={self._code(node)} is not a "
                          f"{' or '.join('None' if k is type(None) else k.__name__ for k in kinds)}")
        return value

    def _constant(self, name: cst.Name) -> Any:
        scope = self.scope(name)
        assignments = list(scope[name.value]) if scope is not None else []
        if len(assignments) != 1 or not isinstance(assignments[0], Assignment) or \
                not isinstance(assignments[0].scope, GlobalScope):
            return _UNPROVEN
        target = assignments[0].node
        assign = self.parent(self.parent(target)) if isinstance(target, cst.Name) else None
        statement = self.parent(assign) if assign is not None else None
        if not (isinstance(assign, cst.Assign) and len(assign.targets) == 1 and
                assign.targets[0].target is target and isinstance(statement,
                                                                  cst.SimpleStatementLine)
                and isinstance(self.parent(statement), cst.Module)):
            return _UNPROVEN
        value = _literal(assign.value)
        if value is not _UNPROVEN:
            self.proven_names[name.value] = statement
        return value

    def _value(self, node: cst.BaseExpression) -> str:
        """The code of a proven value for the call, built where the producer was.

        A name bound (once, to a literal) after that line is not bound yet there
        (`record_defaults = [[1], ...]` between the producer and decode_csv): its
        literal is written instead, the same value.
        """
        statement = self.proven_names.get(node.value) if isinstance(node, cst.Name) else None
        body = self.module.body
        if statement is not None and statement in body and self.producer_statement in body and \
                body.index(statement) > body.index(self.producer_statement):
            return self._code(statement.body[0].value)
        return self._code(node)

    def _not_a_tensor(self, files: cst.BaseExpression) -> None:
        """Refuses a file list that TensorFlow computes (a tensor, e.g. match_filenames_once)."""
        nodes = [files]
        for name in m.findall(files, m.Name()):
            scope = self.scope(name)
            for assignment in (scope[name.value] if scope is not None else ()):
                if isinstance(assignment, Assignment) and isinstance(assignment.node, cst.Name):
                    assign = self.parent(self.parent(assignment.node))
                    if isinstance(assign, (cst.Assign, cst.AnnAssign)) and assign.value:
                        nodes.append(assign.value)
        for node in nodes:
            for call in m.findall(node, m.Call()):
                name = self.names.v1_name(call.func)
                if name and not name.startswith(("gfile.", "io.gfile.")):
                    raise Refused(files, f"the file list comes from tf.{name} (a tensor): "
                                  "input_pipeline takes paths")

    def _record_defaults(self, node: cst.BaseExpression) -> None:
        value = self._prove(node, list, "record_defaults")
        for entry in value:
            entry = list(entry) if isinstance(entry, (list, tuple)) else [entry]
            ok = len(entry) == 1 and not isinstance(entry[0], bool) and (
                isinstance(entry[0], (float, str)) or
                (isinstance(entry[0], int) and _INT32[0] <= entry[0] < _INT32[1]))
            if not ok:
                raise Refused(node, "record_defaults are not one literal default per column "
                              "([0], [0.0], [\"\"]); a required column (an empty tensor) or an "
                              "int64 default is not rewritten")

    # -- batching --------------------------------------------------------------------
    def _batching(self, outputs: list, batches) -> Optional[cst.Call]:
        """The train.batch that takes the decoded columns, or None for one record per run."""
        uses = [use for name in outputs for use in self._uses_of(name)]
        taking = []
        for batch in batches:
            inside = [u for u in uses if _contains(batch, u)]
            if inside:
                taking.append(batch)
        if not taking:
            return None
        batch = taking[0]
        name = self.names.v1_name(batch.func)
        if len(taking) > 1:
            raise Refused(taking[1], "the decoded columns go into more than one batch")
        if name == "train.shuffle_batch":
            threads = next((a.value for a in batch.args if a.keyword is not None and
                            a.keyword.value == "num_threads"), None)
            also = f" with {self._code(threads)} threads" if threads is not None else ""
            self.problems.append((batch, f"shuffle_batch mixes the rows through a "
                                  f"RandomShuffleQueue{also}: TF1's row order cannot be "
                                  "reproduced, and whether the script's results depend on it "
                                  "cannot be known here"))
            return None
        if name != "train.batch":
            raise Refused(batch, f"tf.{name} is not rewritten")
        return batch

    def _batch_keywords(self, batch: cst.Call, columns, outputs: list) -> dict:
        args = self._bind(batch, "batch")
        tensors = self._required(args, "tensors", batch)
        if isinstance(columns, cst.Name):
            expected = [tensors] if isinstance(tensors, cst.Name) and \
                tensors.value == columns.value else None
        elif isinstance(tensors, (cst.List, cst.Tuple)) and \
                len(tensors.elements) == len(outputs) and all(
                    isinstance(e, cst.Element) and isinstance(e.value, cst.Name) and
                    e.value.value == o.value for e, o in zip(tensors.elements, outputs)):
            expected = [e.value for e in tensors.elements]
        else:
            expected = None
        if expected is None:
            raise Refused(batch, "train.batch does not take the decoded columns as they are, "
                          "in their order")
        for output, use in zip(outputs, expected):
            self._only_uses(output, "a decoded column", expected=[use])
        threads = self._prove(args["num_threads"], int, "num_threads") \
            if "num_threads" in args else 1
        if threads != 1:
            raise Refused(batch, f"train.batch(num_threads={threads}) runs {threads} threads "
                          "that interleave the rows: TF1's row order cannot be reproduced, and "
                          "whether the script's results depend on it cannot be known here")
        for flag in ("enqueue_many", "dynamic_pad"):
            if flag in args and self._prove(args[flag], bool, flag):
                raise Refused(batch, f"train.batch({flag}=True) is not rewritten")
        self._absent(args, batch, "shapes", "shared_name")
        size = self._prove(self._required(args, "batch_size", batch), int, "batch_size")
        if size < 1:
            raise Refused(batch, f"batch_size={size} is not a batch size")
        keywords = {"batch_size": self._value(args["batch_size"])}
        smaller = self._prove(args["allow_smaller_final_batch"], bool,
                              "allow_smaller_final_batch") \
            if "allow_smaller_final_batch" in args else False
        if not smaller:
            keywords["drop_remainder"] = "True"
        return keywords

    def _record_mode_alone(self, calls: dict, decode: cst.Call) -> None:
        """One record per run shares its read with whoever runs it: no other queues."""
        chain = {"train.string_input_producer", "TextLineReader", "train.Coordinator",
                 "train.start_queue_runners"}
        for node in m.findall(self.module, m.Attribute() | m.Name()):
            name = self.names.v1_name(node)
            if name and name not in chain and note_for(name) and \
                    note_for(name) == note_for("train.batch"):
                raise Refused(node, f"the records are read one per run, and the file also "
                              f"uses tf.{name}, whose threads could run that read concurrently")

    # -- start_queue_runners -------------------------------------------------------------
    def _start(self, starts, producer: cst.Call) -> cst.Call:
        if not starts:
            raise Refused(producer, "no tf.train.start_queue_runners call starts the queues "
                          "(a Supervisor or MonitoredSession, say, would not start the pipeline)")
        if len(starts) > 1:
            raise Refused(starts[1], f"start_queue_runners is called {len(starts)} times")
        start = starts[0]
        args = self._bind(start, "start")
        if "coord" not in args or _literal(args["coord"]) is None:
            raise Refused(start, "start_queue_runners has no Coordinator (coord=): the "
                          "pipeline reports its reading errors to it, and would have nowhere "
                          "to report them")
        for name in ("daemon", "start", "collection"):
            if name in args:
                raise Refused(start, f"start_queue_runners({name}=...) is not rewritten")
        chain_scope = self.scope(self.producer_statement)
        if not isinstance(chain_scope, GlobalScope) and self.scope(start) is not chain_scope:
            raise Refused(start, "start_queue_runners is called outside the function that "
                          "builds the chain, where the pipeline is not in scope")
        return start


def _literal(node: cst.BaseExpression) -> Any:
    """The Python value of a literal expression, or _UNPROVEN."""
    if isinstance(node, cst.Name):
        return {"True": True, "False": False, "None": None}.get(node.value, _UNPROVEN)
    if isinstance(node, (cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString)):
        try:
            return ast.literal_eval(cst.Module([]).code_for_node(node))
        except (ValueError, SyntaxError):
            return _UNPROVEN
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
        value = _literal(node.expression)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return -value if isinstance(node.operator, cst.Minus) else value
        return _UNPROVEN
    if isinstance(node, (cst.List, cst.Tuple)):
        values = []
        for element in node.elements:
            if not isinstance(element, cst.Element):
                return _UNPROVEN
            value = _literal(element.value)
            if value is _UNPROVEN:
                return _UNPROVEN
            values.append(value)
        return values if isinstance(node, cst.List) else tuple(values)
    return _UNPROVEN


def _contains(outer: cst.CSTNode, inner: cst.CSTNode) -> bool:
    return any(node is inner for node in m.findall(outer, m.Name()))


def _fresh_name(code: str, base: str) -> str:
    name, index = base, 1
    while re.search(rf"\b{re.escape(name)}\b", code):
        index += 1
        name = f"{base}{index}"
    return name


def _assign(statement: cst.SimpleStatementLine, target: cst.BaseAssignTargetExpression,
            value: cst.BaseExpression) -> cst.SimpleStatementLine:
    """The statement with its assignment replaced, comments and blank lines kept."""
    [assign] = statement.body
    return statement.with_changes(body=[assign.with_changes(
        targets=[assign.targets[0].with_changes(target=target)], value=value)])


class _Rewrite(cst.CSTTransformer):
    """Applies a plan to the module it was read from (nodes matched by identity)."""

    def __init__(self, plan: _Plan):
        super().__init__()
        self.plan = plan

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        if original_node is self.plan.start_call:
            return updated_node.with_changes(
                func=cst.parse_expression(f"{self.plan.variable}.start_queue_runners"))
        return updated_node

    def leave_SimpleStatementLine(self, original_node, updated_node):
        return self.plan.replaced.get(original_node, updated_node)

    def _block(self, original_body, updated_body) -> list:
        kept, carried = [], []
        for original, statement in zip(original_body, updated_body):
            if any(original is gone for gone in self.plan.removed):
                carried.extend(statement.leading_lines)
                comment = statement.trailing_whitespace.comment
                if comment is not None:
                    carried.append(cst.EmptyLine(comment=comment))
                continue
            if carried:
                statement = statement.with_changes(
                    leading_lines=[*carried, *statement.leading_lines])
                carried = []
            kept.append(statement)
        return kept

    def leave_IndentedBlock(self, original_node, updated_node):
        return updated_node.with_changes(body=self._block(original_node.body, updated_node.body))

    def leave_Module(self, original_node, updated_node):
        return updated_node.with_changes(body=self._block(original_node.body, updated_node.body))
