"""How the script under `tf1compat run` stops on a signal: as under `python`, and promptly.

Under `python`, SIGTERM and SIGHUP end the process at once (their default
action) unless the script installed a handler of its own, and SIGINT raises
KeyboardInterrupt in the main thread. The run must also write its report
first, and a Python signal handler cannot do that while the main thread is
blocked inside TensorFlow (`server.join()`, a long `Session.run`): Python
runs handlers only between bytecodes of the main thread.

So Python's own signal handler writes each signal's number to a wakeup pipe
(`signal.set_wakeup_fd`), and a watcher thread reads it, whatever the main
thread is doing:

- SIGTERM / SIGHUP, while the handler is still ours (the script installed
  none): write the report, flush stdout and stderr, and end the process by
  that same signal (default action), so the exit status is what `python`
  gives. When the main thread runs Python, our handler does the same there.
- SIGINT, while the handler is still Python's `default_int_handler`: the
  KeyboardInterrupt is raised as Python does. If it cannot be raised within
  `INTERRUPT_GRACE` seconds (the main thread never returns to Python), or a
  second SIGINT arrives before the script has ended, the script is ended as
  by an uncaught KeyboardInterrupt (report, then exit by SIGINT).

A handler the script installs itself replaces ours and runs instead, as it
would under `python`.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from typing import Callable, Optional

INTERRUPT_GRACE = 5.0   # seconds for a KeyboardInterrupt to reach the script's main thread
REPORT_LIMIT = 2.0      # seconds the report and flushing may take before the process ends anyway
ENDING = (signal.SIGTERM, signal.SIGHUP)
_POLL = 0.05


def _default_action(signum: int) -> None:
    """Resets `signum` to its default action, from any thread."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signum, signal.SIG_DFL)
        return
    import ctypes  # signal.signal is main-thread only; the C library's is not

    libc = ctypes.CDLL(None, use_errno=True)
    libc.signal.restype = ctypes.c_void_p
    libc.signal.argtypes = [ctypes.c_int, ctypes.c_void_p]
    libc.signal(signum, None)  # SIG_DFL


def end_by(signum: int, flush: bool = True) -> None:
    """Ends this process by `signum` with its default action (never returns)."""
    if flush:
        for stream in (sys.stdout, sys.stderr):
            # any stream (a script may replace sys.stdout): whatever it raises, the process ends
            with contextlib.suppress(Exception):
                stream.flush()
    try:
        _default_action(signum)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signum])
        os.kill(os.getpid(), signum)
        time.sleep(1.0)  # the signal is delivered to some thread meanwhile
    finally:
        os._exit(128 + signum)


class Stopper:
    """Installs the handlers and the watcher; `before_end(signum)` writes the report."""

    def __init__(self, before_end: Callable[[int], None]):
        self._before_end = before_end
        # Reentrant: a signal handled in the main thread while it writes the final report.
        self._ending = threading.RLock()
        self._interrupted = False

    def install(self) -> None:
        """From the main thread, before the script runs."""
        read_end, write_end = os.pipe()
        os.set_blocking(write_end, False)
        signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
        for signum in ENDING:
            signal.signal(signum, self._on_ending)
        # A parent started in the background has SIGINT ignored, and Python then keeps
        # it ignored; the parent forwards SIGINT on purpose, so it must reach the script.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        threading.Thread(target=self._watch, args=(read_end,), name="tf1compat-run-signals",
                         daemon=True).start()

    def finish(self) -> None:
        """The script has ended: from now on no signal writes a report (call once, at the end)."""
        self._ending.acquire()  # never released: the process exits after the final report

    def end(self, signum: int) -> None:
        """Writes the report and ends the process by `signum`; the first caller wins."""
        self._ending.acquire()  # never released: the process ends in here
        guard = threading.Timer(REPORT_LIMIT, end_by, (signum, False))
        guard.daemon = True
        guard.start()
        try:
            self._before_end(signum)
        except BaseException as error:  # noqa: BLE001 - the report is best effort; ending is not
            with contextlib.suppress(Exception):  # any stderr, closed or the script's own
                sys.stderr.write(f"tf1compat run: no report for this stop ({type(error).__name__}: "
                                 f"{error})\n")
        end_by(signum)

    def _on_ending(self, signum, frame) -> None:  # main thread, when it runs Python
        self.end(signum)

    def _watch(self, read_end: int) -> None:
        while True:
            try:
                received = os.read(read_end, 64)
            except InterruptedError:
                continue
            if not received:
                return
            for signum in received:
                if signum in ENDING and signal.getsignal(signum) == self._on_ending:
                    self.end(signum)
                elif signum == signal.SIGINT and \
                        signal.getsignal(signal.SIGINT) is signal.default_int_handler:
                    self._on_interrupt()

    def _on_interrupt(self) -> None:
        if self._interrupted:  # a second SIGINT before the script ended
            self.end(signal.SIGINT)
        self._interrupted = True
        threading.Thread(target=self._await_delivery, name="tf1compat-run-interrupt",
                         daemon=True).start()

    def _await_delivery(self) -> None:
        """Ends the script if its main thread does not run Python within the grace."""
        before = _main_thread_position()
        deadline = time.monotonic() + INTERRUPT_GRACE
        while time.monotonic() < deadline:
            time.sleep(_POLL)
            if _main_thread_position() != before:  # it ran Python: KeyboardInterrupt raised
                return
        self.end(signal.SIGINT)


def _main_thread_position() -> Optional[tuple[int, int]]:
    """Where the main thread is in Python code; unchanged while it is blocked in C."""
    frame = sys._current_frames().get(threading.main_thread().ident)
    if frame is None:
        return None
    return id(frame), frame.f_lasti
