"""Signal handlers for the length of a block, and the previous ones given back after it."""

from __future__ import annotations

import contextlib
import signal
import threading
from typing import Callable, Iterable, Iterator


@contextlib.contextmanager
def handling(signals: Iterable[int], handler: Callable) -> Iterator[bool]:
    """Installs `handler` for each of `signals` in the block, then restores what was there.

    Python lets only the main thread install handlers; elsewhere nothing is installed
    and the block runs as it is. Yields whether the handlers are installed.
    """
    if threading.current_thread() is not threading.main_thread():
        yield False
        return
    previous = {}
    try:
        for sig in signals:
            previous[sig] = signal.signal(sig, handler)
        yield True
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
