"""What a failed task last raised, for the one line that says the task failed.

A task that dies of an uncaught exception prints Python's traceback, whose last line names
the exception (`tensorflow.python.framework.errors_impl.UnavailableError: cannot connect to
the HDFS NameNode at ...`). Among hundreds of lines of several tasks' output that line is easy
to miss, so both launchers keep each task's latest such line and add it, shortened to the
exception's own name, to the failure they report: "task worker:0 (rank 1 on node n2) failed:
exit code 1, after UnavailableError: cannot connect to the HDFS NameNode at ...".
"""

from __future__ import annotations

import re
import threading
from typing import Optional

TRACEBACK = "Traceback (most recent call last):"
# The line that ends a traceback: the exception's dotted class, then its message's first line.
RAISED = re.compile(r"^(?:[A-Za-z_]\w*\.)*([A-Za-z_]\w*)(?:: (.*))?$")
TASK_LINE = re.compile(r"^\[(\w+:\d+)\] (.*)$")
LONGEST = 400  # characters of the message kept: one line, still readable


class LastErrors:
    """The latest exception each task's tracebacks ended with (thread-safe: tasks are read in
    threads). Only a traceback's own last line counts, not a log line that mentions an error."""

    def __init__(self) -> None:
        self._lines: dict[str, str] = {}
        self._in_traceback: set[str] = set()
        self._lock = threading.Lock()

    def see(self, task: str, line: str) -> None:
        """Follows `task`'s output: after a traceback's first line, its first unindented line
        is the exception raised."""
        with self._lock:
            if line.startswith(TRACEBACK):
                self._in_traceback.add(task)
                return
            if task not in self._in_traceback or line[:1].isspace():
                return
            self._in_traceback.discard(task)
            match = RAISED.match(line)
            if match:
                text = match.group(1) + (f": {match.group(2)}" if match.group(2) else "")
                self._lines[task] = text if len(text) <= LONGEST else text[:LONGEST] + "..."

    def see_prefixed(self, line: str) -> None:
        """`see` for a line as the launchers print it: `[job:index] ...`."""
        match = TASK_LINE.match(line)
        if match:
            self.see(match.group(1), match.group(2))

    def after(self, task: str) -> str:
        """", after <the exception>" for a task that printed one, else ""."""
        with self._lock:
            found: Optional[str] = self._lines.get(task)
        return f", after {found}" if found else ""
