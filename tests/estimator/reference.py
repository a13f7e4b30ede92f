"""Runs the Estimator scripts under TensorFlow 1.15 (the reference) and under `tf1compat run`.

The TF 1.15 interpreter is the one tests/tf1_reference locates
(tests/tf1_reference sets one up); tests that need it skip, saying so, when
neither is there.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import numpy as np

from isolated import run_cli, run_script

SCRIPTS = Path(__file__).resolve().parent / "scripts"


def needs_tf1() -> str:
    """The TF 1.15 reference interpreter (tests/tf1_reference): skips without one, fails in CI."""
    import tf1_reference

    return str(tf1_reference.require())


def run_tf1(script: str, *args: str, cwd: Path, live: bool = False) -> dict[str, Any]:
    """Runs a script under TF 1.15 (from its record: tf1_reference/recorded.py); returns the
    JSON it wrote to --out. `live`: its inputs were made here (a model_dir trained by TF 2.21)."""
    from tf1_reference import recorded

    out = cwd / f"tf1-{script}.json"
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env["TF_CPP_MIN_LOG_LEVEL"] = "2"
    result = recorded.run(needs_tf1(), [str(SCRIPTS / script), *args, "--out", str(out)],
                          cwd=cwd, env=env, timeout=600, live=live)
    assert result.returncode == 0, f"TF 1.15 run failed:\n{result.stderr[-4000:]}"
    return json.loads(out.read_text())


def run_here(script: str, *args: str, cwd: Path, env: dict | None = None) -> dict[str, Any]:
    """Runs a script under `tf1compat run` on TF 2.21; returns the JSON it wrote to --out."""
    out = cwd / f"tf2-{script}.json"
    result = run_cli("run", str(SCRIPTS / script), *args, "--out", str(out), env=env,
                     timeout=600)
    assert result.returncode == 0, f"tf1compat run failed:\n{result.stderr[-4000:]}"
    return json.loads(out.read_text())


def copy_model_dir(source: Path, target: Path) -> Path:
    """A copy of an Estimator model_dir, its `checkpoint` file's absolute paths rewritten."""
    shutil.copytree(source, target)
    index = target / "checkpoint"
    index.write_text(index.read_text().replace(str(source), str(target)))
    return target


def assert_close(ours, reference, tolerance: float, what: str) -> None:
    ours, reference = np.asarray(ours, np.float64), np.asarray(reference, np.float64)
    assert ours.shape == reference.shape, f"{what}: shapes {ours.shape} != {reference.shape}"
    difference = float(np.max(np.abs(ours - reference))) if ours.size else 0.0
    assert difference <= tolerance, f"{what}: differ by {difference:.3g} > {tolerance}"


def run_migrated(script: str, *args: str, cwd: Path) -> dict[str, Any]:
    """`tf1compat migrate --write` on a copy of the script, then plain python on the result."""
    copy = cwd / "migrated" / script
    copy.parent.mkdir(exist_ok=True)
    shutil.copy(SCRIPTS / script, copy)
    migrated = run_cli("migrate", str(copy), "--write")
    assert migrated.returncode == 0, migrated.stdout[-3000:] + migrated.stderr[-3000:]
    source = copy.read_text()
    assert "tf1compat.estimator." in source and "tf.estimator." not in source, source
    out = cwd / f"migrated-{script}.json"
    result = run_script(copy, *args, "--out", str(out), timeout=600)
    assert result.returncode == 0, f"the migrated script failed:\n{result.stderr[-4000:]}"
    return json.loads(out.read_text())
