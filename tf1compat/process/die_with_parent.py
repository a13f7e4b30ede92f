"""Exec wrapper: `python -I -S die_with_parent.py PARENT_PID OWN_GROUP PROGRAM ARGV0 [ARG...]`.

Runs PROGRAM (argv ARGV0 ARG...) so that it gets SIGKILL when process
PARENT_PID dies (Linux PR_SET_PDEATHSIG; the setting survives exec; elsewhere
it only execs). The
parent starts this file with plain `subprocess.Popen`: nothing of Python runs
in the child between fork and exec, which is unsafe once the parent has
threads (a lock held by another thread at the fork is never released).

The parent may die before the setting takes effect; no signal would come
then, so right after setting it the wrapper checks that PARENT_PID is still
its parent, and kills itself if not. With OWN_GROUP "1" it also starts its own
process group (Pythons before 3.11 have no `Popen(process_group=0)`).

Use `tf1compat.process.lifetime.die_with_parent`, which builds the command.
This file imports only the standard library: it runs with -I -S.
"""

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1
NOT_EXECUTABLE = 126
NOT_FOUND = 127


def _give_the_program_our_signal_dispositions() -> None:
    """Undoes what Python's start-up changed, since exec passes ignored signals on.

    Python installs a SIGINT handler only when SIGINT was at its default, and ignores
    SIGPIPE and SIGXFSZ; subprocess had reset those to the default for us.
    """
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
    for name in ("SIGPIPE", "SIGXFZ", "SIGXFSZ"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)


def _arm(parent_pid: int) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        error = ctypes.get_errno()
        sys.stderr.write(f"tf1compat: prctl(PR_SET_PDEATHSIG) failed ({os.strerror(error)}): "
                         f"this process is not killed when process {parent_pid} dies\n")
        return
    if os.getppid() != parent_pid:  # the parent died before the setting took effect
        os.kill(os.getpid(), signal.SIGKILL)


def main(argv: list) -> int:
    _give_the_program_our_signal_dispositions()
    if len(argv) < 5:
        sys.stderr.write("usage: die_with_parent.py PARENT_PID OWN_GROUP PROGRAM ARGV0 "
                         "[ARG...]\n")
        return 2
    parent_pid, own_group, program = int(argv[1]), argv[2] == "1", argv[3]
    if own_group:
        os.setpgid(0, 0)
    if sys.platform.startswith("linux"):
        _arm(parent_pid)
    try:
        os.execv(program, argv[4:])
    except OSError as error:  # what a shell says and returns when it cannot run a program
        sys.stderr.write(f"tf1compat: cannot run {program}: {error.strerror}\n")
        return NOT_FOUND if isinstance(error, FileNotFoundError) else NOT_EXECUTABLE
    return NOT_EXECUTABLE  # not reached: execv returns only by raising


if __name__ == "__main__":
    sys.exit(main(sys.argv))
