"""`tf1compat launch` runs TensorFlow's own multi-worker Keras tutorial unmodified.

The script below is the pattern of the official "Multi-worker training with Keras"
tutorial (MultiWorkerMirroredStrategy, a Keras model built and compiled in
`strategy.scope()`, `model.fit(dataset)`), with synthetic MNIST-shaped data
instead of the download; it knows nothing of tf1compat. Each worker writes its
final weights; both must hold the same ones.
"""

import os
import re

import numpy as np
import pytest

from launch_helpers import finish, kill_group, kill_tasks, start, write_script
from launch_scripts import TUTORIAL

pytestmark = [pytest.mark.cluster]


def _launch(tmp_path, *flags):
    script = write_script(tmp_path, "tutorial.py", TUTORIAL)
    out = tmp_path / "weights"
    out.mkdir()
    lines = []
    process = start(*flags, "--workers", "2", str(script), str(out))
    try:
        status = finish(process, 360, lines)
    finally:
        kill_tasks(lines)
        kill_group(process)
    return status, lines, out


def test_the_tutorial_trains_with_two_workers_holding_identical_weights(tmp_path):
    status, lines, out = _launch(tmp_path)
    output = "\n".join(lines)
    assert status == 0, output[-6000:]
    assert "tf1compat launch: Keras multi-worker fix applied to every task" in output
    assert "PerReplica" not in output
    first = np.load(out / "worker-0.npz")
    second = np.load(out / "worker-1.npz")
    assert len(first.files) == len(second.files) == 6  # kernel and bias of three layers
    for name in first.files:
        np.testing.assert_array_equal(first[name], second[name])
    losses = [line for line in lines if re.search(r"\[worker:\d\] losses \[", line)]
    assert len(losses) == 2
    per_worker = [[float(v) for v in line.split("[", 2)[2].rstrip("]").split(",")]
                  for line in losses]
    assert per_worker[0] == per_worker[1]  # the mean over both workers, reported by each
    assert per_worker[0][1] < per_worker[0][0]  # it trains


def test_without_the_fix_the_tutorial_fails_as_keras_issue_20585(tmp_path):
    status, lines, out = _launch(tmp_path, "--no-keras-fix")
    output = "\n".join(lines)
    assert status != 0
    assert "Keras multi-worker fix applied" not in output
    assert "PerReplica" in output  # "Attempt to convert a value (PerReplica:{...}) ..."
    assert not os.listdir(out)


PROBE = """
    import json, os, sys
    import sitecustomize
    print(json.dumps({"own_sitecustomize": getattr(sitecustomize, "MARK", None),
                      "fix": os.environ.get("TF1COMPAT_KERAS_MULTI_WORKER"),
                      "imported": sorted(m for m in ("tensorflow", "keras") if m in sys.modules)}))
"""


def test_a_tasks_own_sitecustomize_still_runs_and_nothing_heavy_is_imported(tmp_path):
    from isolated import REPO_ROOT

    own = tmp_path / "own"
    own.mkdir()
    (own / "sitecustomize.py").write_text("MARK = 'the task s own'\n")
    script = write_script(tmp_path, "probe.py", PROBE)
    lines = []
    process = start("--workers", "1", str(script),
                    env={"PYTHONPATH": os.pathsep.join([str(own), str(REPO_ROOT)])})
    try:
        status = finish(process, 120, lines)
    finally:
        kill_tasks(lines)
        kill_group(process)
    assert status == 0, "\n".join(lines[-40:])
    found = [line for line in lines if line.startswith("[worker:0] {")]
    assert found, "\n".join(lines[-40:])
    assert found[0].split(" ", 1)[1] == \
        '{"own_sitecustomize": "the task s own", "fix": "1", "imported": []}'
