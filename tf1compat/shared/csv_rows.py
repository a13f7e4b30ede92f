"""Bad rows: found only when a batched decode fails, then reported or raised.

The fast path decodes many lines with one `tf.io.decode_csv` and never looks
at a row in Python. When that decode fails, `locate` bisects the batch with
the same decoder (TF1: a session run on a placeholder; tf.data: an eager call
inside a py_function) until each failing line stands alone, so a batch with
one bad row costs about 2*log2(n) extra decodes. The good lines around it are
decoded by TensorFlow too, so both sides agree row for row.
"""

from __future__ import annotations

import dataclasses
import re
import threading
from typing import Any, Callable, Optional, Sequence

from tf1compat.shared.errors import BadRowError

MAX_EXAMPLES = 1000
_TEXT_LIMIT = 200


@dataclasses.dataclass(frozen=True)
class BadRow:
    """One skipped row: file, 1-based line number, the text read and the decode error."""

    path: str
    line: int
    text: str
    reason: str

    def error(self) -> BadRowError:
        return BadRowError(self.path, self.line, self.text, self.reason)


class BadRowReport:
    """Rows skipped with `on_bad_row='skip'`, counted per file (thread-safe).

    Attributes:
      counts: {path: number of rows skipped in that file} (a copy).
      total: rows skipped in all files.
      examples: the first `MAX_EXAMPLES` skipped rows as `BadRow` records.

    Every skip is counted, including repeats of a row in later epochs.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: dict[str, int] = {}
        self._examples: list[BadRow] = []

    def add(self, row: BadRow) -> None:
        with self._lock:
            self._counts[row.path] = self._counts.get(row.path, 0) + 1
            if len(self._examples) < MAX_EXAMPLES:
                self._examples.append(row)

    @property
    def counts(self) -> dict[str, int]:
        with self._lock:
            return dict(self._counts)

    @property
    def total(self) -> int:
        with self._lock:
            return sum(self._counts.values())

    @property
    def examples(self) -> list[BadRow]:
        with self._lock:
            return list(self._examples)

    def __len__(self) -> int:
        return self.total

    def __repr__(self) -> str:
        return f"BadRowReport(total={self.total}, counts={self.counts})"


def row_text(line: bytes) -> str:
    """A row as shown in errors: UTF-8 with replacement, at most 200 characters."""
    text = line.decode("utf-8", "replace")
    return text if len(text) <= _TEXT_LIMIT else text[:_TEXT_LIMIT] + "..."


_NOISE = re.compile(r"\{\{function_node [^}]*\}\}\s*|\s*\[\[\{\{node [^]]*\]\]|\s*\[Op:\w+\].*")
_GRAPH_LINES = ("Graph execution error", "Detected at node", "Node:", " ", "\t")
_RECORD_INDEX = re.compile(r" in record \d+")


def decode_reason(error: Exception) -> str:
    """TensorFlow's error message for one decode, without graph or eager noise.

    >>> decode_reason(ValueError("Field 1 in record 0 is not a valid int32: x [Op:DecodeCSV]"))
    'Field 1 is not a valid int32: x'
    """
    message = getattr(error, "message", None) or str(error)
    lines = [line for line in message.splitlines()
             if line.strip() and not line.startswith(_GRAPH_LINES)]
    first = _NOISE.sub("", lines[0] if lines else message).strip()
    return _RECORD_INDEX.sub("", first)


def split_lines(chunk: bytes) -> list[bytes]:
    """Lines of a byte range as TextLineReader reads them.

    Splits at '\\n', drops the empty piece after a final newline, strips one
    '\\r' from the end of every line, and drops an unterminated last line that
    is empty once stripped (a file ending in "\\n\\r").
    """
    if not chunk:
        return []
    pieces = chunk.split(b"\n")
    if chunk.endswith(b"\n"):
        pieces.pop()
    lines = [p[:-1] if p.endswith(b"\r") else p for p in pieces]
    if not chunk.endswith(b"\n") and not lines[-1]:
        lines.pop()   # a lone final CR: TextLineReader reads no line there
    return lines


class DecodeFailed(Exception):
    """`try_decode` could not decode a range of lines; `reason` says why."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def locate(count: int, try_decode: Callable[[int, int], Sequence[Any]], *,
           stop_at_first: bool) -> tuple[list[Sequence[Any]], list[tuple[int, str]]]:
    """Finds the lines of a failed batch that do not decode, by bisection.

    Args:
      count: number of lines in the batch.
      try_decode: decodes lines [lo, hi) and returns the decoded columns, or
        raises `DecodeFailed`.
      stop_at_first: stop at the first bad line (on_bad_row='raise').

    Returns:
      (good, bad): the decoded columns of the good runs of lines, in line
      order, and (index, reason) for each bad line, in line order.
    """
    good: list[Sequence[Any]] = []
    bad: list[tuple[int, str]] = []
    stack = [(0, count)]
    while stack:
        lo, hi = stack.pop()
        if lo >= hi:
            continue
        try:
            good.append(try_decode(lo, hi))
            continue
        except DecodeFailed as failure:
            if hi - lo == 1:
                bad.append((lo, failure.reason))
                if stop_at_first:
                    break
                continue
        mid = (lo + hi) // 2
        stack.append((mid, hi))
        stack.append((lo, mid))
    return good, bad


def concat_columns(parts: Sequence[Sequence[Any]], empty: Sequence[Any]) -> list:
    """Concatenates decoded column runs (numpy arrays) in order."""
    import numpy as np
    if not parts:
        return list(empty)
    return [np.concatenate([p[i] for p in parts]) for i in range(len(empty))]


def handle_bad(bad: list[tuple[int, str]], where: Callable[[int], tuple[str, int]],
               text: Callable[[int], bytes], report: BadRowReport, mode: str) -> Optional[BadRowError]:
    """Counts bad lines in `report` (skip) or returns the error for the first (raise)."""
    for index, reason in bad:
        path, line = where(index)
        row = BadRow(path, line, row_text(text(index)), reason)
        if mode == "raise":
            return row.error()
        report.add(row)
    return None
