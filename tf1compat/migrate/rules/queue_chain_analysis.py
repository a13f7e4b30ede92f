"""The analysis of a CSV queue-reader chain: what it reads, proven, or why it is left as is.

Given the calls of one module by step (producer, reader, decode, batch,
coordinator, start), `ChainAnalysis` finds the chain

    string_input_producer -> TextLineReader -> reader.read -> decode_csv
    -> train.batch (or one record per run) -> start_queue_runners

checks that each step is its own `NAME = call(...)` line in one block and
that its values are used nowhere else, proves every argument the pipeline
takes, and records the result: the `input_pipeline` keywords (as code), the
statements the rewrite removes, and where the tensors and the start call are.
Anything it cannot prove raises `Refused` with every reason found (see
`queue_chain` for the list). It changes nothing: `queue_chain_rewrite` does.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst
import libcst.matchers as m
from libcst.metadata.scope_provider import GlobalScope

from tf1compat.migrate.rules.queue_chain_proof import Refused, SourceProof, contains, literal
from tf1compat.runner.api_notes import note_for

_DECODE_KEYWORDS = ("field_delim", "use_quote_delim", "na_value", "select_cols", "name")


class ChainAnalysis(SourceProof):
    """Reads the chain; raises Refused for anything it cannot prove."""

    def __init__(self, rule, module: cst.Module, calls: dict):
        super().__init__(rule, module)
        # Reasons that leave the chain as is but let reading go on, to report them all.
        self.problems: list[tuple[cst.CSTNode, str]] = []
        # input_pipeline's keywords, as the code of their proven values.
        self.keywords: dict[str, str] = {}
        self.files_code = ""
        self.defaults_code = ""
        self.block: Optional[cst.CSTNode] = None
        self.queue: Optional[cst.Name] = None
        # Statements of the chain, and those the rewrite drops.
        self.statements: list[cst.SimpleStatementLine] = []
        self.removed: list[cst.SimpleStatementLine] = []
        # Where the tensors come out (the batch, or decode_csv in record mode) and their target.
        self.batched = False
        self.tensors_at: Optional[cst.SimpleStatementLine] = None
        self.tensors_target: Optional[cst.BaseAssignTargetExpression] = None
        self.start_call: Optional[cst.Call] = None
        try:
            self._read(calls)
        except Refused as refusal:
            refusal.problems[:0] = self.problems
            raise
        if self.problems:
            refusal = Refused(*self.problems[0])
            refusal.problems = self.problems
            raise refusal

    def _read(self, calls: dict) -> None:
        for step in ("producer", "reader", "decode"):
            if len(calls[step]) > 1:
                raise Refused(calls[step][1], f"several chains in one file ({len(calls[step])} "
                              f"{self.names.v1_name(calls[step][0].func)} calls): which reader "
                              "reads which queue is not rewritten")
        producer = calls["producer"][0]
        self._read_producer(producer)
        line = self._read_reader(calls["reader"][0])
        decode = calls["decode"][0]
        decode_statement, columns, outputs, defaults = self._read_decode(decode, line)
        batching = self._batching(outputs, calls.get("batch", ()))
        if self.problems:
            return
        self.statements.append(decode_statement)
        if batching is not None:
            batch_statement, batch_target = self._statement(batching, "train.batch")
            self.statements.append(batch_statement)
            self.keywords.update(self._batch_keywords(batching, columns, outputs))
            self.batched = True
            self.tensors_at, self.tensors_target = batch_statement, batch_target
            # reader, reader.read and decode_csv: the pipeline does their work.
            self.removed += self.statements[1:4]
        else:
            self._record_mode_alone(calls, decode)
            self.keywords["read"] = '"record"'
            self.tensors_at, self.tensors_target = decode_statement, columns
            # reader and reader.read; decode_csv's line now takes the pipeline's tensors.
            self.removed += self.statements[1:3]
        for statement in self.statements:
            if self.parent(statement) is not self.block:
                raise Refused(statement, "the steps of the chain are not in one block")
        self.start_call = self._start(calls.get("start", ()), producer)
        self.defaults_code = self._value(defaults)

    # -- string_input_producer -------------------------------------------------------
    def _read_producer(self, producer: cst.Call) -> None:
        self.producer_statement, self.queue = self._statement(producer, "string_input_producer")
        self.statements.append(self.producer_statement)
        self.block = self.parent(self.producer_statement)
        args = self._bind(producer, "producer")
        files = self._required(args, "string_tensor", producer)
        self._not_a_tensor(files)
        self.files_code = self._code(files)
        self._absent(args, producer, "shared_name", "cancel_op")
        shuffle = self._prove(args["shuffle"], bool, "shuffle") if "shuffle" in args else True
        one_file = isinstance(files, (cst.List, cst.Tuple)) and len(files.elements) == 1 and \
            not isinstance(files.elements[0], cst.StarredElement)
        if shuffle and not one_file:
            # TF1 draws a new file order each epoch and reads each file's rows in order:
            # shuffle_files, not shuffle (which would mix the rows too).
            self.keywords["shuffle_files"] = "True"
            if "seed" in args:
                self._prove(args["seed"], (int, type(None)), "seed")
                self.keywords["seed"] = self._value(args["seed"])
        # TF1's default is None (forever): always written out.
        self.keywords["num_epochs"] = "None"
        if "num_epochs" in args:
            value = self._prove(args["num_epochs"], (int, type(None)), "num_epochs")
            if value is not None and value < 1:
                raise Refused(producer, f"num_epochs={value} is not a number of passes")
            self.keywords["num_epochs"] = self._value(args["num_epochs"])

    # -- TextLineReader and reader.read(queue) -----------------------------------------
    def _read_reader(self, reader_call: cst.Call) -> cst.Name:
        """Checks the reader and its one read of the queue; returns the line's name."""
        reader_statement, reader = self._statement(reader_call, "TextLineReader")
        self.statements.append(reader_statement)
        args = self._bind(reader_call, "reader")
        if "skip_header_lines" in args:
            header = self._prove(args["skip_header_lines"], (int, type(None)), "skip_header_lines")
            if header:
                self.keywords["header_lines"] = self._value(args["skip_header_lines"])
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
        self.statements.append(read_statement)
        if not (isinstance(target, (cst.Tuple, cst.List)) and len(target.elements) == 2 and
                all(isinstance(e, cst.Element) and isinstance(e.value, cst.Name)
                    for e in target.elements)):
            raise Refused(read, "reader.read(queue) is not unpacked as `key, line = ...`")
        key, line = (e.value for e in target.elements)
        args = self._bind(read, "read")
        queue = self.queue
        if not isinstance(args.get("queue"), cst.Name) or args["queue"].value != queue.value:
            raise Refused(read, "reader.read does not read the string_input_producer's queue")
        self._only_uses(queue, "the filename queue", expected=[args["queue"]])
        if self._uses_of(key):
            raise Refused(key, f"the reader's keys ({key.value}) are used: input_pipeline "
                          "does not give them")
        return line

    # -- decode_csv(line, record_defaults, ...) ------------------------------------------
    def _read_decode(self, decode: cst.Call, line: cst.Name):
        """Checks decode_csv; returns its statement, target, output names and defaults."""
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
                self.keywords[keyword] = self._value(args[keyword])
        if isinstance(columns, cst.Name):
            outputs = [columns]
        elif isinstance(columns, (cst.Tuple, cst.List)) and all(
                isinstance(e, cst.Element) and isinstance(e.value, cst.Name)
                for e in columns.elements):
            outputs = [e.value for e in columns.elements]
        else:
            raise Refused(decode, "the decoded columns are not assigned to names")
        return decode_statement, columns, outputs, defaults

    # -- batching --------------------------------------------------------------------
    def _batching(self, outputs: list, batches) -> Optional[cst.Call]:
        """The train.batch that takes the decoded columns, or None for one record per run."""
        uses = [use for name in outputs for use in self._uses_of(name)]
        taking = []
        for batch in batches:
            inside = [u for u in uses if contains(batch, u)]
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
        if "coord" not in args or literal(args["coord"]) is None:
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
