"""Parent side of `tf1compat run` and `tf1compat launch`: children never outlive them.

Two guards that need no code of the parent to run when it dies (SIGKILL,
out-of-memory kill, `timeout -k`):

- the child gets SIGKILL from the kernel when the parent dies (Linux
  PR_SET_PDEATHSIG): `die_with_parent` wraps its command in a tiny exec
  wrapper (`die_with_parent.py`) that sets it after exec, so no Python code
  runs between fork and exec, where it is unsafe once the parent has threads;
- for `run`, a small reaper process, forked before the script starts, waits
  on a pipe only the parent holds: end of file without the parent's all-clear
  means the parent died, and the reaper kills the child's whole process
  group, so the script's own children go too (the parent-death signal
  reaches the child alone).

The parent-death signal fires when the *thread* that forked the child ends:
`ChildRun.run` forks and then waits for the child in the same thread, so that
thread outlives the child.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import signal
import sys
from pathlib import Path
from typing import Mapping, Optional, Sequence

_WRAPPER = Path(__file__).with_name("die_with_parent.py")
ALL_CLEAR = b"0"
# Signals a parent can end itself by without a core dump, as the child ended.
_RERAISABLE = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGKILL, signal.SIGPIPE,
               signal.SIGALRM, signal.SIGUSR1, signal.SIGUSR2}


def die_with_parent(command: Sequence[str], env: Optional[Mapping[str, str]] = None,
                    own_group: bool = False) -> list[str]:
    """The command that runs `command` and gets SIGKILL when this process dies (Linux).

    The child checks, once the parent-death signal is set, that this process is
    still its parent, and kills itself if not (this process died in between).
    Elsewhere there is no such signal, and the command is returned unchanged
    unless `own_group` asks for the wrapper.

    Args:
      command: the program (looked up on `env`'s PATH, as Popen does) and its arguments.
      env: the environment the child gets (default: this process's).
      own_group: the child also starts its own process group (for Pythons
        without `Popen(process_group=0)`).

    Raises:
      FileNotFoundError: the program is not found, as Popen would raise it.
    """
    command = list(command)
    if not sys.platform.startswith("linux") and not own_group:
        return command
    search_path = (os.environ if env is None else env).get("PATH", os.defpath)
    program = shutil.which(command[0], path=search_path)
    if program is None:
        raise FileNotFoundError(errno.ENOENT, f"No such file or directory: {command[0]!r}",
                                command[0])
    return [sys.executable, "-I", "-S", str(_WRAPPER), str(os.getpid()),
            "1" if own_group else "0", program, *command]


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
        with contextlib.suppress(OSError, ValueError):  # a broken pipe or closed stream: end anyway
            stream.flush()
    if signum != signal.SIGKILL:  # SIGKILL's action cannot be changed, nor need be
        signal.signal(signum, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signum])
    os.kill(os.getpid(), signum)
    return 128 + signum  # not reached for these signals
