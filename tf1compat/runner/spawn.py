"""The parent side of `tf1compat run`: start the child, forward signals, pass its exit code.

The child runs in its own process group. SIGINT, SIGTERM and SIGHUP sent to
the parent are forwarded to that whole group (the script and anything it
started); the child then stops as `python script.py` would (`stopping`), and
once it has ended the rest of the group is killed, so no process is left
behind. If the parent itself dies, by any signal, the kernel kills the child
and a reaper kills its group (`tf1compat.process.lifetime`). When the terminal is the parent's,
the child's group is made the foreground group for the run, so Ctrl-C and
reads from the terminal reach the script as they would under `python script.py`.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from typing import Any, Iterator, Optional

from tf1compat.runner import RunSpec
from tf1compat.process.groups import signal_group
from tf1compat.process.lifetime import Reaper, die_with_parent

FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def _wait_for_own_group(process: subprocess.Popen, limit: float = 10.0) -> None:
    """Waits until the child (its exec wrapper) has made its own group, so signals reach it."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            if os.getpgid(process.pid) == process.pid:
                return
        time.sleep(0.001)


@contextlib.contextmanager
def _foreground(pgid: int) -> Iterator[None]:
    """Makes `pgid` the terminal's foreground group for the block, if we own a terminal."""
    try:
        tty = os.open("/dev/tty", os.O_RDWR)
    except OSError:
        yield
        return
    try:
        if os.tcgetpgrp(tty) != os.getpgrp():
            yield  # we are not in the foreground ourselves: leave the terminal alone
            return
        old = signal.signal(signal.SIGTTOU, signal.SIG_IGN)
        try:
            os.tcsetpgrp(tty, pgid)
            try:
                yield
            finally:
                os.tcsetpgrp(tty, os.getpgrp())
        finally:
            signal.signal(signal.SIGTTOU, old)
    except OSError:
        yield
    finally:
        os.close(tty)


class ChildRun:
    """One run of the bootstrap in a child process.

    After `run`, `killed_by` is the signal that ended the child, if one did.
    """

    def __init__(self, spec: RunSpec, env: Optional[dict] = None):
        self.spec = spec
        self.env = env
        self.forwarded: list[int] = []
        self.killed_by: Optional[int] = None
        self.process: Optional[subprocess.Popen] = None
        self._pending: list[int] = []

    def _forward(self, signum, frame) -> None:
        self.forwarded.append(signum)
        if self.process is None:  # passed on as soon as the child has started
            self._pending.append(signum)
        else:
            signal_group(self.process.pid, signum)

    def run(self) -> tuple[int, Optional[dict[str, Any]]]:
        """Runs the child to its end; returns (exit code, report or None)."""
        with tempfile.TemporaryDirectory(prefix="tf1compat-run-") as folder:
            spec_path = os.path.join(folder, "spec.json")
            self.spec.report_path = os.path.join(folder, "report.json")
            with open(spec_path, "w") as handle:
                handle.write(self.spec.to_json())
            command = [sys.executable, "-m", "tf1compat.runner.bootstrap", spec_path]
            previous = {sig: signal.getsignal(sig) for sig in FORWARDED}
            for sig in FORWARDED:
                signal.signal(sig, self._forward)
            # Its own process group, so signals reach all it started; the kernel kills it if we
            # die. This thread forks it and waits for it: the parent-death signal follows the
            # forking thread, which therefore outlives the child. Popen does both with no
            # Python code between fork and exec (no preexec_fn, unsafe with threads).
            own_group = sys.version_info < (3, 11)  # Popen's process_group is 3.11's
            group = {} if own_group else {"process_group": 0}
            try:
                self.process = subprocess.Popen(
                    die_with_parent(command, self.env, own_group), env=self.env, **group)
                if own_group:
                    _wait_for_own_group(self.process)
            except BaseException:
                for sig, handler in previous.items():
                    signal.signal(sig, handler)
                raise
            reaper = None
            try:
                reaper = Reaper(self.process.pid)
                for sig in self._pending:  # arrived while the child was starting
                    signal_group(self.process.pid, sig)
                with _foreground(self.process.pid):
                    code = self._wait()
            finally:
                for sig, handler in previous.items():
                    signal.signal(sig, handler)
                if self.process.poll() is None:  # we are failing ourselves: take it down
                    signal_group(self.process.pid, signal.SIGKILL)
                    self.process.wait()
                # Stopped on request: nothing of the group may outlive us. Else what the
                # script left running in the background stays, as under python.
                if reaper is not None:
                    reaper.release(kill_group=bool(self.forwarded))
            if self.forwarded:
                signal_group(self.process.pid, signal.SIGKILL)
            report = None
            if os.path.exists(self.spec.report_path):
                with open(self.spec.report_path) as handle:
                    with contextlib.suppress(ValueError):
                        report = json.load(handle)
        return code, report

    def _wait(self) -> int:
        return_code = self.process.wait()  # our handlers forward signals meanwhile
        if return_code < 0:  # killed by a signal: report it the way a shell does
            self.killed_by = -return_code
            return 128 - return_code
        return return_code
