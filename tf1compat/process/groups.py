"""Signalling process groups, and stopping processes: politely first, then for good.

Every process the tools start runs in its own process group, so that a signal reaches
what it started in turn; a group whose leader is gone may still hold its children.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from typing import Sequence


def signal_group(pgid: int, sig: int) -> bool:
    """Sends `sig` to process group `pgid`; False when the group is gone (or not ours)."""
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def stop_processes(processes: Sequence[subprocess.Popen], first_signal: int = signal.SIGTERM,
                   grace: float = 10.0) -> None:
    """Stops each process's whole group: `first_signal` to the groups still running, up to
    `grace` seconds for them to end, then SIGKILL to every group (a leader's own children
    must not outlive it), and waits for each process."""
    for process in processes:
        if process.poll() is None:
            signal_group(process.pid, first_signal)
    deadline = time.monotonic() + grace
    for process in processes:
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=max(0.0, deadline - time.monotonic()))
    kill_processes(processes)


def kill_processes(processes: Sequence[subprocess.Popen]) -> None:
    """SIGKILL to each process's group, and a wait for each process."""
    for process in processes:
        signal_group(process.pid, signal.SIGKILL)
        if process.poll() is None:
            process.wait()
