"""What local and Slurm launches share (`tf1compat.launch.attempts`): restarts and the last
line, tried on a launcher whose attempts are given."""

from __future__ import annotations

import pytest

from tf1compat.launch.attempts import LaunchResult, report_outcome, run_with_restarts
from tf1compat.launch.launcher import Launcher
from tf1compat.launch.slurm_launcher import SlurmLauncher


class Scripted:
    """A launcher whose attempts end as listed."""

    def __init__(self, results: list[LaunchResult], max_restarts: int, detail: str = ""):
        self.results = list(results)
        self.max_restarts = max_restarts
        self.detail = detail
        self.notes: list[str] = []
        self.attempts: list[int] = []

    def run_attempt(self, attempt: int) -> LaunchResult:
        self.attempts.append(attempt)
        return self.results.pop(0)

    def restart_detail(self) -> str:
        return self.detail

    def note(self, text: str) -> None:
        self.notes.append(text)


def failed(message="task worker:1 failed: exit code 3") -> LaunchResult:
    return LaunchResult(3, "worker:1", 3, message=message)


def test_a_failed_run_is_started_again_until_one_succeeds():
    launcher = Scripted([failed(), failed(), LaunchResult(0, message="every task finished")],
                        max_restarts=2, detail=", leaving out the lost node(s) n2")
    result = run_with_restarts(launcher)
    assert launcher.attempts == [1, 2, 3] and result.attempts == 3
    assert launcher.notes == [
        f"restarting every task (attempt {n} of 3, leaving out the lost node(s) n2) after task "
        "worker:1 failed: exit code 3" for n in (2, 3)]
    assert report_outcome(launcher, result) == 0
    assert launcher.notes[-1] == "done: every task finished after 3 attempts"


def test_restarts_end_when_none_is_left_and_the_error_names_the_failure(capsys):
    launcher = Scripted([failed(), failed()], max_restarts=1)
    result = run_with_restarts(launcher)
    assert launcher.attempts == [1, 2]
    assert report_outcome(launcher, result) == 3
    assert capsys.readouterr().err == ("tf1compat: error: task worker:1 failed: exit code 3 "
                                       "(exit status 3)\n")


def test_an_interrupted_run_is_not_started_again():
    launcher = Scripted([LaunchResult(130, interrupted=True, message="interrupted by SIGINT")],
                        max_restarts=3)
    result = run_with_restarts(launcher)
    assert launcher.attempts == [1]
    assert report_outcome(launcher, result) == 130
    assert launcher.notes == ["interrupted by SIGINT"]


@pytest.mark.parametrize("kind", [Launcher, SlurmLauncher])
def test_both_launchers_have_the_interface(kind):
    for member in ("run", "run_attempt", "restart_detail", "note"):
        assert callable(getattr(kind, member)), f"{kind.__name__}.{member}"
