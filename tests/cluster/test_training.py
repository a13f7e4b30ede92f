"""Multi-process training on 127.0.0.1: synchronous, and surviving a killed worker.

(Asynchronous training, the same on both sides, is in the shared suite: suite.py.)

Each test starts its tasks through `tf1compat launch` (the examples' drivers),
with a hard timeout, and checks that every process it started is gone.
Slow (tens of seconds each on 2 cores): marked `cluster`.
"""

import json
import os
import signal

import pytest

from examples import distributed
from launch_helpers import (finish, kill_group, kill_tasks, read_until, start, task_pids,
                            wait_gone)

pytestmark = [pytest.mark.cluster]


def test_multi_worker_mirrored_workers_hold_identical_weights_after_every_epoch():
    result = distributed.tf2_form(epochs=3, workers=2, timeout=300)
    tasks = result["tasks"]
    assert sorted(tasks) == ["worker:0", "worker:1"]
    assert result["workers"] == 2
    for task in tasks.values():
        assert sorted(task["weights_digests"]) == ["0", "1", "2"]
    assert tasks["worker:0"]["weights_digests"] == tasks["worker:1"]["weights_digests"]
    assert result["weights_identical"]
    losses = [epoch["loss"] for epoch in result["epochs"]]
    assert losses == sorted(losses, reverse=True)
    assert result["final_accuracy"] > 0.85


def test_a_worker_killed_mid_training_resumes_from_the_backup(tmp_path):
    results, backup, log = tmp_path / "results", tmp_path / "backup", tmp_path / "epochs.jsonl"
    lines = []
    process = start("--workers", "2", "--max-restarts", "1", "--grace", "3",
                    "-m", "examples.distributed_tf2", "mwms", "--epochs", "4", "--pause", "2",
                    "--result-dir", str(results), "--backup-dir", str(backup),
                    "--epoch-log", str(log))
    try:
        read_until(process, r"\[worker:0\] epoch 1 done", 240, lines)
        first_pids = task_pids(lines)
        os.kill(first_pids["worker:1"], signal.SIGKILL)
        status = finish(process, 300, lines)
        assert status == 0, "\n".join(lines[-40:])
        assert any("restarting every task (attempt 2 of 2) after task worker:1 failed: "
                   "killed by SIGKILL" in line for line in lines)
        logged = [(e["attempt"], e["epoch"]) for e in
                  (json.loads(line) for line in log.read_text().splitlines())]
        # The kill lands after epoch 1 at the earliest; on a loaded machine the relayed
        # line can arrive an epoch late. Whatever epoch it was, the second attempt starts
        # right after the last epoch the first one backed up, and loses nothing.
        last_backed_up = max(epoch for attempt, epoch in logged if attempt == 1)
        assert 1 <= last_backed_up < 3, logged
        resumed = list(range(last_backed_up + 1, 4))
        assert logged == [(1, e) for e in range(last_backed_up + 1)] + [(2, e) for e in resumed]
        chief = json.loads((results / "worker-0.json").read_text())
        other = json.loads((results / "worker-1.json").read_text())
        assert chief["attempt"] == 2 and chief["restored_epoch"] == last_backed_up + 1
        assert chief["epochs_run"] == resumed and other["epochs_run"] == resumed
        assert [e["epoch"] for e in chief["epochs"]] == [0, 1, 2, 3]  # nothing saved was lost
        assert chief["weights_digests"] == other["weights_digests"]
        assert chief["final_accuracy"] > 0.85
        all_pids = list(first_pids.values()) + [pid for line_pids in [task_pids(lines)]
                                                for pid in line_pids.values()]
        assert wait_gone(all_pids, 10) == []
    finally:
        kill_group(process)
        kill_tasks(lines)
