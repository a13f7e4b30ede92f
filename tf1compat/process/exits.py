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


def status_of_description(text: str) -> int:
    """The shell-style status `describe_exit` (or srun's 'Killed') describes in `text`; 1 when
    it names none."""
    import re

    match = re.search(r"exit code (\d+)", text)
    if match:
        return int(match.group(1)) or 1
    match = re.search(r"killed by (SIG[A-Z0-9]+)", text)
    if match and match.group(1) in signal.Signals.__members__:
        return 128 + signal.Signals[match.group(1)].value
    if "Killed" in text:
        return 128 + signal.SIGKILL
    return 1
