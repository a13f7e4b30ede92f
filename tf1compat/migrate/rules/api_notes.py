"""Reports the TF1 APIs left in the file that have no TF2 path yet (see runner.api_notes)."""

from __future__ import annotations

import libcst as cst

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule
from tf1compat.runner.api_notes import note_for

QUEUE_LINES = "tf1compat.queue_chain_lines"


class ApiNotesRule(Rule):
    NAME = "no-tf2-path"
    DESCRIPTION = "report TF1 APIs that stay compat-only"

    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        self.seen: set[tuple[int, str]] = set()

    def visit_Attribute(self, node: cst.Attribute) -> None:
        name = self.names.v1_name(node)
        note = note_for(name) if name else None
        if note is None:
            return
        line = self.line(node)
        if line in self.context.scratch.get(QUEUE_LINES, set()) or (line, note) in self.seen:
            return  # part of a queue chain (reported as one), or said on this line already
        self.seen.add((line, note))
        self.add(line, Kind.NOTE, f"tf.{name} left as is: {note}")
