"""Recognises TF1 queue-reader chains for CSV files, and reports the input_pipeline call they map to.

string_input_producer -> TextLineReader -> decode_csv [-> train.batch] ->
Coordinator / start_queue_runners is one input pipeline. Its TF2 path is
`tf1compat.input_pipeline` / `modern.input_pipeline`, which is not in this
version of tf1compat yet: the chain is left as is (queues still run, since
the script stays in graph mode) and the report shows the call it maps to,
with the values read from the chain.
"""

from __future__ import annotations

import importlib.util
from typing import Optional

import libcst as cst
import libcst.matchers as m

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.api_notes import QUEUE_LINES
from tf1compat.migrate.rules.base import Rule

_STEPS = {
    "train.string_input_producer": "producer",
    "TextLineReader": "reader",
    "decode_csv": "decode", "io.decode_csv": "decode",
    "train.batch": "batch", "train.shuffle_batch": "batch",
    "train.Coordinator": "runners", "train.start_queue_runners": "runners",
}
# keyword in the TF1 call -> keyword of the pipeline it maps to
_PRODUCER = {"num_epochs": "num_epochs", "shuffle": "shuffle", "seed": "seed"}
_READER = {"skip_header_lines": "header_lines"}
_DECODE = {"record_defaults": "record_defaults", "field_delim": "delimiter",
           "select_cols": "select_cols"}
_BATCH = {"batch_size": "batch_size"}


def input_pipeline_available() -> bool:
    return importlib.util.find_spec("tf1compat.input_pipeline") is not None


class QueueChainRule(Rule):
    NAME = "queue-chain"
    DESCRIPTION = "recognise CSV queue-reader chains (reported with their input_pipeline call)"

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        steps: dict[str, list[cst.Call]] = {}
        for call in m.findall(original_node, m.Call()):
            step = _STEPS.get(self.names.v1_name(call.func) or "")
            if step:
                steps.setdefault(step, []).append(call)
        if not all(step in steps for step in ("producer", "reader", "decode")):
            return updated_node
        calls = [call for group in steps.values() for call in group]
        lines = sorted({self.line(call) for call in calls})
        self.context.scratch.setdefault(QUEUE_LINES, set()).update(lines)
        keywords = {"files": self._positional(original_node, steps["producer"][0], 0,
                                              "string_tensor")}
        for step, table in (("producer", _PRODUCER), ("reader", _READER),
                            ("decode", _DECODE), ("batch", _BATCH)):
            if step == "decode":
                keywords["record_defaults"] = self._positional(
                    original_node, steps["decode"][0], 1, "record_defaults")
            for call in steps.get(step, ()):
                for arg in call.args:
                    if arg.keyword is not None and arg.keyword.value in table:
                        keywords[table[arg.keyword.value]] = original_node.code_for_node(
                            arg.value).strip()
        if any(self.names.v1_name(c.func) == "train.shuffle_batch" for c in steps.get("batch", ())):
            keywords["shuffle"] = "True"  # records are shuffled, whatever the file order
        call_text = "input_pipeline(" + ", ".join(
            f"{key}={value}" for key, value in keywords.items() if value) + ")"
        chain = " -> ".join(dict.fromkeys(self.names.v1_name(c.func) for c in calls))
        why = ("tf1compat.input_pipeline (the CSV input issue) is not in this version yet"
               if not input_pipeline_available() else
               "its rewrite is not wired to tf1compat.input_pipeline yet")
        self.add(lines[0], Kind.NOT_CONVERTED,
                 f"queue-reader chain (lines {lines[0]}-{lines[-1]}: {chain}) left as is: {why}; "
                 f"it maps to {call_text}. It still runs here, since the script stays in "
                 "graph mode; under eager execution TF2 refuses queues")
        return updated_node

    @staticmethod
    def _positional(module: cst.Module, call: cst.Call, index: int,
                    keyword: str) -> Optional[str]:
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value == keyword:
                return module.code_for_node(arg.value).strip()
        positional = [arg for arg in call.args if arg.keyword is None]
        if len(positional) > index:
            return module.code_for_node(positional[index].value).strip()
        return None
