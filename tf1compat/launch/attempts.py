"""What local and Slurm launches share: one interface, the restarts, and the last line.

A launcher (`tf1compat.launch.launcher.Launcher` for processes on this machine,
`tf1compat.launch.slurm_launcher.SlurmLauncher` for one srun step) runs every task of a
layout once per attempt (`run_attempt`); `run_with_restarts` starts a failed run again, up
to `max_restarts` times, and `report_outcome` turns the result into the line the user reads
and the exit status, the same for both.
"""

from __future__ import annotations

import dataclasses
import sys
from typing import Optional, Protocol


@dataclasses.dataclass
class LaunchResult:
    returncode: int                      # 0, or the exit status to return
    failed_task: Optional[str] = None    # e.g. "worker:1"
    failed_returncode: Optional[int] = None
    interrupted: bool = False
    attempts: int = 1
    message: str = ""


class TaskLauncher(Protocol):
    """Runs every task of a layout, and can run them all again."""

    max_restarts: int

    def run_attempt(self, attempt: int) -> LaunchResult:
        """Starts every task (attempt 1, 2, ...) and supervises them to the run's end."""

    def restart_detail(self) -> str:
        """What the next attempt leaves out (', leaving out the lost node(s) n2'), or ''."""

    def note(self, text: str) -> None:
        """One `tf1compat launch: ...` line on the launcher's stderr."""


def run_with_restarts(launcher: TaskLauncher) -> LaunchResult:
    """Attempt after attempt until one succeeds, is interrupted, or none is left."""
    attempt = 0
    while True:
        attempt += 1
        result = launcher.run_attempt(attempt)
        result.attempts = attempt
        if result.returncode == 0 or result.interrupted or attempt > launcher.max_restarts:
            return result
        launcher.note(f"restarting every task (attempt {attempt + 1} of "
                      f"{launcher.max_restarts + 1}{launcher.restart_detail()}) after "
                      f"{result.message}")


def report_outcome(launcher: TaskLauncher, result: LaunchResult) -> int:
    """The run's last line (done, interrupted, or the error) and its exit status."""
    if result.returncode == 0:
        launcher.note(f"done: {result.message}"
                      + (f" after {result.attempts} attempts" if result.attempts > 1 else ""))
        return 0
    if result.interrupted:
        launcher.note(result.message)
        return result.returncode
    print(f"tf1compat: error: {result.message} (exit status {result.returncode})",
          file=sys.stderr)
    return result.returncode
