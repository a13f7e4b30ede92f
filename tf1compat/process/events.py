"""The reports a task process makes to the launcher that started it, as JSON lines.

A task of `launch --slurm` runs on another node, where srun gathers its stderr with
every other task's: the launcher learns what happened to each task (it started, ended,
could not start) only from that stream. Each report is one line, a marker and a JSON
object, which the launcher takes out of the stream and turns into the line a person
reads. The task's own output never starts with the marker: each of its lines starts
with its name (`[worker:1] ...`).
"""

from __future__ import annotations

import json
from typing import Any, Optional

MARKER = "tf1compat-task-event "


def encode(kind: str, **fields: Any) -> str:
    """One report as its line (without the newline): `encode("started", task="ps:0", ...)`."""
    return MARKER + json.dumps({"event": kind, **fields}, separators=(",", ":"),
                               sort_keys=True)


def decode(line: str) -> Optional[dict[str, Any]]:
    """The report a line holds, or None for any other line (a malformed report included)."""
    if not line.startswith(MARKER):
        return None
    try:
        report = json.loads(line[len(MARKER):])
    except ValueError:
        return None
    return report if isinstance(report, dict) and isinstance(report.get("event"), str) \
        else None
