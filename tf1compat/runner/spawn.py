"""The parent side of `tf1compat run`: start the child, forward signals, pass its exit code.

The child runs in its own process group. SIGINT, SIGTERM and SIGHUP sent to
the parent are forwarded to that whole group (the script and anything it
started); if the group has not ended `grace` seconds later it is killed, so
no process is left behind. When the terminal is the parent's, the child's
group is made the foreground group for the run, so Ctrl-C and reads from the
terminal reach the script as they would under `python script.py`.
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

FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def _kill_group(pgid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


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
    """One run of the bootstrap in a child process."""

    def __init__(self, spec: RunSpec, grace: float = 10.0, env: Optional[dict] = None):
        self.spec = spec
        self.grace = grace
        self.env = env
        self.forwarded_at: Optional[float] = None
        self.forwarded: list[int] = []

    def _forward(self, signum, frame) -> None:
        self.forwarded.append(signum)
        if self.forwarded_at is None:
            self.forwarded_at = time.monotonic()
        _kill_group(self.process.pid, signum)

    def run(self) -> tuple[int, Optional[dict[str, Any]]]:
        """Runs the child to its end; returns (exit code, report or None)."""
        with tempfile.TemporaryDirectory(prefix="tf1compat-run-") as folder:
            spec_path = os.path.join(folder, "spec.json")
            self.spec.report_path = os.path.join(folder, "report.json")
            with open(spec_path, "w") as handle:
                handle.write(self.spec.to_json())
            command = [sys.executable, "-m", "tf1compat.runner.bootstrap", spec_path]
            previous = {sig: signal.getsignal(sig) for sig in FORWARDED}
            group = {"process_group": 0} if sys.version_info >= (3, 11) else \
                {"preexec_fn": os.setpgrp}  # its own process group, so signals reach it all
            self.process = subprocess.Popen(command, env=self.env, **group)
            try:
                for sig in FORWARDED:
                    signal.signal(sig, self._forward)
                with _foreground(self.process.pid):
                    code = self._wait()
            finally:
                for sig, handler in previous.items():
                    signal.signal(sig, handler)
                if self.process.poll() is None:  # we are failing ourselves: take it down
                    _kill_group(self.process.pid, signal.SIGKILL)
                    self.process.wait()
            if self.forwarded:  # stopped on request: nothing of the group may outlive us
                _kill_group(self.process.pid, signal.SIGKILL)
            report = None
            if os.path.exists(self.spec.report_path):
                with open(self.spec.report_path) as handle:
                    with contextlib.suppress(ValueError):
                        report = json.load(handle)
        return code, report

    def _wait(self) -> int:
        while True:
            try:
                return_code = self.process.wait(timeout=0.2)
                break
            except subprocess.TimeoutExpired:
                if self.forwarded_at is not None and \
                        time.monotonic() - self.forwarded_at > self.grace:
                    _kill_group(self.process.pid, signal.SIGKILL)
        if return_code < 0:  # killed by a signal: report it the way a shell does
            return 128 - return_code
        return return_code
