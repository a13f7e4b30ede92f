"""An exit code in words, and as the status a shell reports."""

from __future__ import annotations

import signal


def signal_name(returncode: int) -> str:
    """The name of the signal a negative Popen return code stands for ('SIGKILL')."""
    try:
        return signal.Signals(-returncode).name
    except ValueError:
        return f"signal {-returncode}"


def describe_exit(returncode: int) -> str:
    """'exit code 3', or 'killed by SIGKILL' for a process a signal ended."""
    if returncode < 0:
        return f"killed by {signal_name(returncode)}"
    return f"exit code {returncode}"


def exit_status(returncode: int) -> int:
    """A shell-style exit status: the code, or 128 + signal number."""
    return 128 - returncode if returncode < 0 else returncode

