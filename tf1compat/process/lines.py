"""A child's output forwarded line by line, each line prefixed, under one lock.

Several threads (a task's stdout and stderr, many tasks) write to the same terminal:
the lock keeps each line whole, and lets a caller write its own line at a chosen place
(`launch` writes "started ..." before any line of the task's).
"""

from __future__ import annotations

import threading
from typing import BinaryIO, Callable, Optional, TextIO


def forward_lines(stream: BinaryIO, sink: TextIO, prefix: str, lock: threading.Lock,
                  see: Optional[Callable[[str], None]] = None) -> None:
    """Copies `stream` to `sink` until its end, one decoded line at a time with `prefix`.

    Args:
      stream: a child's pipe (bytes); closed at its end.
      sink: where the lines go; flushed after each, so they appear as they come.
      prefix: put before each line (e.g. "[worker:1] ").
      lock: held while a line is written.
      see: called with each line (without prefix) before it is written.
    """
    for raw in iter(stream.readline, b""):
        line = raw.decode("utf-8", "replace").rstrip("\n")
        if see is not None:
            see(line)
        with lock:
            sink.write(f"{prefix}{line}\n")
            sink.flush()
    stream.close()


def forwarding_threads(process, prefix: str, out: TextIO, err: TextIO, lock: threading.Lock,
                       see: Optional[Callable[[str], None]] = None) -> list[threading.Thread]:
    """Two daemon threads, not yet started, forwarding `process`'s stdout to `out` and its
    stderr to `err` (`forward_lines`)."""
    return [threading.Thread(target=forward_lines, args=(stream, sink, prefix, lock, see),
                             daemon=True)
            for stream, sink in ((process.stdout, out), (process.stderr, err))]
