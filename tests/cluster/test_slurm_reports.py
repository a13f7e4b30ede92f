"""What `launch --slurm` makes of its tasks' reports and of srun's own lines, read from the
stream srun gathers (no Slurm needed: the stream is given)."""

from __future__ import annotations

import io

import pytest

from tf1compat.launch.slurm_launcher import SlurmLauncher
from tf1compat.process import events

LAYOUT = [("ps", 0), ("worker", 0), ("worker", 1)]


def _read(lines: list[str]) -> tuple[SlurmLauncher, str]:
    launcher = SlurmLauncher(LAYOUT, ["python", "train.py"], err=io.StringIO())
    sink = io.StringIO()
    launcher._read(io.BytesIO("".join(line + "\n" for line in lines).encode()), sink, True)
    return launcher, sink.getvalue()


def test_reports_become_lines_for_people_and_the_launchers_account():
    launcher, shown = _read([
        events.encode("started", task="ps:0", pid=11, address="n1:2000", rank=0, node="n1",
                      step="7.0"),
        events.encode("started", task="worker:1", pid=12, address="n2:2002", rank=2,
                      node="n2", step="7.0"),
        "[worker:1] Traceback (most recent call last):",
        '[worker:1]   File "train.py", line 3, in <module>',
        "[worker:1] ValueError: bad shape",
        events.encode("ended", task="worker:1", rank=2, node="n2", outcome="failed",
                      how="exit code 5", status=5),
    ])
    assert shown.splitlines()[:2] == [
        "tf1compat launch: started ps:0 pid 11 at n1:2000 (rank 0 on node n1, step 7.0)",
        "tf1compat launch: started worker:1 pid 12 at n2:2002 (rank 2 on node n2, step 7.0)"]
    assert shown.splitlines()[-1] == \
        "tf1compat launch: worker:1 (rank 2 on node n2) failed: exit code 5"
    assert events.MARKER not in shown
    assert launcher.started == {"ps:0": (0, "n1"), "worker:1": (2, "n2")}
    assert launcher.step == "7.0"
    assert launcher.failures == [("task worker:1 (rank 2 on node n2) failed: exit code 5, "
                                  "after ValueError: bad shape", 5)]


def test_a_task_that_cannot_start_is_named_from_its_rank():
    launcher, shown = _read([events.encode("cannot_start", rank=1, node="n2",
                                           why="port 2001 on node n2 is already in use")])
    assert shown == ("tf1compat launch: rank 1 on node n2 cannot start: port 2001 on node n2 "
                     "is already in use\n")
    assert launcher.failures == [("task worker:0 (rank 1 on node n2) cannot start: port 2001 "
                                  "on node n2 is already in use", 1)]


def test_a_tasks_own_cannot_start_wins_over_sruns_earlier_line_about_it():
    # srun's stderr and the tasks' stdout are read by two threads: srun's account of the
    # same task's exit may come first; the launcher's exit status is the task's own (1)
    launcher = SlurmLauncher(LAYOUT, ["python", "train.py"], err=io.StringIO())
    sink = io.StringIO()
    launcher._read(io.BytesIO(b"srun: error: n2: task 1: Exited with exit code 2\n"), sink,
                   True)
    assert launcher.failures[0][1] == 2  # what srun said, while it is all there is
    report = events.encode("cannot_start", rank=1, node="n2",
                           why="port 2001 on node n2 is already in use")
    launcher._read(io.BytesIO((report + "\n").encode()), sink, True)
    assert launcher.failures == [("task worker:0 (rank 1 on node n2) cannot start: port 2001 "
                                  "on node n2 is already in use", 1)]


def test_a_tasks_output_that_looks_like_a_report_is_output():
    """A task's lines carry its name first, so its script cannot forge a report."""
    line = "[worker:0] " + events.encode("ended", task="ps:0", rank=0, node="n1",
                                         outcome="failed", how="exit code 1", status=1)
    incomplete = events.encode("ended", task="ps:0", outcome="failed")  # no rank, node, ...
    launcher, shown = _read([line, events.MARKER + "{broken", incomplete])
    assert shown == f"{line}\n{events.MARKER}{{broken\n{incomplete}\n"
    assert launcher.failures == [] and launcher.ended == {}


def test_srun_losing_a_task_is_a_failure_named_by_rank():
    launcher, _ = _read([events.encode("started", task="worker:0", pid=5, address="n2:1",
                                       rank=1, node="n2", step="3.0"),
                         "srun: error: n2: task 1: Killed"])
    assert launcher.failures == [("task worker:0 (rank 1 on node n2) failed: Killed (reported "
                                  "by srun)", 137)]


@pytest.mark.parametrize("how, status", [
    ("Exited with exit code 3", 3), ("exit code 0", 1), ("Killed", 137),
    ("killed by SIGTERM", 143), ("Terminated", 1)])
def test_srun_words_for_a_lost_task_give_its_exit_status(how, status):
    launcher, _ = _read([f"srun: error: n2: task 1: {how}"])
    assert launcher.failures == [(f"task worker:0 (rank 1 on node n2) failed: {how} (reported "
                                  "by srun)", status)]
