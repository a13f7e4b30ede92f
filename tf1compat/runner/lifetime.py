"""Parent side of `tf1compat run`: the script and what it started never outlive the run.

Two guards that need no code of the parent to run when it dies (SIGKILL,
out-of-memory kill, `timeout -k`):

- the child gets SIGKILL from the kernel when the parent dies (Linux
  PR_SET_PDEATHSIG, set between fork and exec);
- a small reaper process, forked before the script starts, waits on a pipe
  only the parent holds: end of file without the parent's all-clear means the
  parent died, and the reaper kills the child's whole process group, so the
  script's own children go too (the parent-death signal reaches the child
  alone).

The parent-death signal fires when the *thread* that forked the child ends:
`ChildRun.run` forks and then waits for the child in the same thread, so that
thread outlives the child.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from typing import Callable

PR_SET_PDEATHSIG = 1
ALL_CLEAR = b"0"
# Signals a parent can end itself by without a core dump, as the child ended.
_RERAISABLE = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGKILL, signal.SIGPIPE,
               signal.SIGALRM, signal.SIGUSR1, signal.SIGUSR2}


def die_with_parent(parent_pid: int, own_group: bool = False) -> Callable[[], None]:
    """A preexec_fn: the child gets SIGKILL when the process `parent_pid` dies (Linux).

    With `own_group`, the child also starts its own process group.
    """

    def arm() -> None:  # runs in the child between fork and exec
        if own_group:
            os.setpgrp()
        if not sys.platform.startswith("linux"):
            return
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except Exception:  # no prctl: the reaper still applies
            return
        if os.getppid() != parent_pid:  # the parent died before prctl took effect
            os.kill(os.getpid(), signal.SIGKILL)

    return arm


class Reaper:
    """A forked process that kills process group `pgid` if this process dies first."""

    def __init__(self, pgid: int):
        read_end, self._write_end = os.pipe()  # neither end is inherited across exec
        self.pid = os.fork()
        if self.pid == 0:  # pragma: no cover - the reaper itself
            self._serve(read_end, pgid)
        os.close(read_end)

    def _serve(self, read_end: int, pgid: int) -> None:
        try:
            os.close(self._write_end)
            os.setpgid(0, 0)  # a kill of the parent's group must leave the reaper to act
            for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
                signal.signal(sig, signal.SIG_IGN)
            devnull = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(devnull, fd)
            # Hold no pipe of anyone else's open: a reader waiting for EOF must not wait on us.
            os.closerange(3, read_end)
            os.closerange(read_end + 1, os.sysconf("SC_OPEN_MAX"))
            if os.read(read_end, 1) != ALL_CLEAR:
                with contextlib.suppress(OSError):
                    os.killpg(pgid, signal.SIGKILL)
        finally:
            os._exit(0)

    def release(self, kill_group: bool) -> None:
        """Ends the reaper: with `kill_group`, it kills the group on its way out."""
        with contextlib.suppress(OSError):
            if not kill_group:
                os.write(self._write_end, ALL_CLEAR)
            os.close(self._write_end)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)


def end_as(signum: int) -> int:
    """Ends this process by `signum`, as the child ended, so a shell reports 128 + signum.

    Returns the shell-style status instead where that would dump core or is impossible.
    """
    if signum not in _RERAISABLE:
        return 128 + signum
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    if signum != signal.SIGKILL:  # SIGKILL's action cannot be changed, nor need be
        signal.signal(signum, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signum])
    os.kill(os.getpid(), signum)
    return 128 + signum  # not reached for these signals
