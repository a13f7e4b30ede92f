"""TensorFlow's multi-worker Keras tutorial (MultiWorkerMirroredStrategy, 2 workers,
`model.fit`), unmodified, under `launch --slurm` inside salloc: as under local launch
(tests/cluster/test_launch_keras.py), both workers end with identical weights and report the
same falling losses; every task ends and squeue is empty.
"""

import json
import re

import numpy as np
import pytest

from launch_helpers import finish, kill_group, kill_tasks, task_pids, wait_gone, write_script
from launch_scripts import TUTORIAL
from slurm_helpers import RUN_MARK, launch_env, marked_processes, salloc_launch, \
    wait_until_empty

pytestmark = [pytest.mark.slurm, pytest.mark.cluster]


def test_the_keras_tutorial_on_slurm_ends_with_identical_weights(slurm_cluster, tmp_path):
    script = write_script(tmp_path, "tutorial.py", TUTORIAL)
    out = tmp_path / "weights"
    out.mkdir()
    env = launch_env(slurm_cluster)
    process, lines = salloc_launch(slurm_cluster, 2, "--slurm", "--workers", "2", "--grace",
                                   "5", str(script), str(out), env=env), []
    try:
        status = finish(process, 300, lines)
        assert status == 0, "\n".join(lines[-60:])
        assert sorted(task_pids(lines)) == ["worker:0", "worker:1"]
        assert wait_gone(task_pids(lines).values(), 10) == []
    finally:
        kill_group(process)
        kill_tasks(lines)
    first, second = np.load(out / "worker-0.npz"), np.load(out / "worker-1.npz")
    assert len(first.files) == len(second.files) == 6  # kernel and bias of three layers
    for name in first.files:
        np.testing.assert_array_equal(first[name], second[name])
    losses = {m.group(1): json.loads(m.group(2)) for m in
              (re.match(r"^\[(worker:\d)\] losses (\[.*\])$", line) for line in lines) if m}
    assert sorted(losses) == ["worker:0", "worker:1"], "\n".join(lines[-40:])
    assert losses["worker:0"] == losses["worker:1"]  # the mean over both, reported by each
    assert losses["worker:0"][1] < losses["worker:0"][0]  # it trains
    assert wait_until_empty(lambda: marked_processes(env[RUN_MARK]), 10) == []
    assert wait_until_empty(slurm_cluster.queue, 10) == []
