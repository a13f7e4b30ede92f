"""The one record of what a script under `run` used under `tf.`, and how each name was served.

Every reader of a `tf.X` name writes here (the TF1 view's servers, TensorFlow's own module
tree, the contrib aliases); the run's report reads it. A script's threads read `tf.X` names
concurrently (input threads, queue runners), so each change is made under one lock.
"""

from __future__ import annotations

import collections
import threading
from typing import Optional

from tf1compat.runner import served


class Usage:
    """Names the script used under `tf.`, how each was served, and those TF 2.21 does not have."""

    def __init__(self) -> None:
        self.used: collections.Counter[str] = collections.Counter()
        self.missing: dict[str, str] = {}
        self.symbols: dict[str, served.Symbol] = {}
        self._lock = threading.Lock()

    def names(self) -> list[str]:
        with self._lock:
            return sorted(self.used)

    def count(self, path: str) -> None:
        """A read of `tf.<path>`, whatever answered it."""
        with self._lock:
            self.used[path] += 1

    def served(self, path: str, counted: bool = False) -> None:
        """`tf.<path>` served as the serving tables classify it; `counted`: also a read of it."""
        symbol = self.symbols.get(path) or served.classify(path)
        with self._lock:
            if counted:
                self.used[path] += 1
            self.symbols.setdefault(path, symbol).uses += 1

    def served_as(self, path: str, symbol: served.Symbol, counted: bool = True) -> None:
        """`tf.<path>` served as `symbol` says (its server classified it itself: TensorFlow's
        own modules, the run's overrides, contrib aliases); `counted`: also a read of it."""
        with self._lock:
            if counted:
                self.used[path] += 1
            self.symbols.setdefault(path, symbol).uses += 1

    def noted_as(self, path: str, symbol: served.Symbol) -> None:
        """How `tf.<path>` is served, before its read is recorded (a server that finds the
        value and leaves the read to the view)."""
        with self._lock:
            self.symbols.setdefault(path, symbol)

    def unsupported(self, path: str, why: str, missing: Optional[str] = None) -> None:
        """`tf.<path>`, which nothing serves: why (the report's symbol), and the report's
        line of names TF 2.21 lacks (`missing`, default: why)."""
        symbol = served.unsupported(path, why)
        with self._lock:
            self.missing[path] = why if missing is None else missing
            self.symbols.setdefault(path, symbol).uses += 1


usage = Usage()
