"""The one line that says why a Python process failed, read from its stderr.

The last line of stderr is often not it: TensorFlow appends "Original stack
trace for 'op':" and the frames where the op was built after the exception, and
TensorFlow 2 opens a graph error's message with "Graph execution error:" and puts
the cause lines below. The exception line is the first line after the frames of
the last traceback: `Type: message`.
"""

from __future__ import annotations

import re
from typing import Optional

_EXCEPTION = re.compile(r"^([A-Za-z_][\w.]*)(?:: (.*))?$")
_TF2_GRAPH_ERROR = "Graph execution error:"
_TF_FOOTER = "Original stack trace for "


def _tf2_cause(lines: list[str]) -> Optional[str]:
    """The cause in a TF2 graph error's message: the line after "Node: 'name'"."""
    for index, line in enumerate(lines):
        if line.startswith(_TF_FOOTER):
            break
        if line.startswith("Node: '") and index + 1 < len(lines) and lines[index + 1].strip():
            return lines[index + 1].strip()
    return None


def exception_line(stderr: str) -> Optional[str]:
    """`Type: message` of the last traceback in `stderr` (the type without its module),
    or None when stderr holds no traceback.

    >>> exception_line("Traceback (most recent call last):\\n  File 'x.py', line 1\\n"
    ...                "tensorflow.python.framework.errors_impl.OutOfRangeError: closed\\n"
    ...                "\\nOriginal stack trace for 'batch':\\n  File 'x.py', line 1\\n")
    'OutOfRangeError: closed'
    """
    lines = stderr.splitlines()
    starts = [index for index, line in enumerate(lines)
              if line.startswith("Traceback (most recent call last):")]
    if not starts:
        return None
    index = starts[-1] + 1
    while index < len(lines) and (lines[index].startswith((" ", "\t")) or not lines[index]):
        index += 1  # the frames
    match = _EXCEPTION.match(lines[index]) if index < len(lines) else None
    if match is None:
        return None
    kind, message = match.group(1).rsplit(".", 1)[-1], (match.group(2) or "").strip()
    if message == _TF2_GRAPH_ERROR:
        message = _tf2_cause(lines[index + 1:]) or message
    return f"{kind}: {message}" if message else kind


def failure_line(stderr: str) -> str:
    """Why the process failed, in one line: its exception line, else the last line of
    stderr that is neither indented nor TensorFlow's stack trace footer."""
    found = exception_line(stderr)
    if found is not None:
        return found
    lines = [line for line in stderr.splitlines() if line.strip()
             and not line.startswith((" ", "\t", _TF_FOOTER))]
    return lines[-1] if lines else "no output on stderr"
