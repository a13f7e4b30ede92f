"""The TensorFlow 1.15 reference interpreter for the tests: where it is, and running code in it.

Found at $TF1COMPAT_TF1_REFERENCE_PYTHON, else in the cache that setup.sh builds
(${XDG_CACHE_HOME:-~/.cache}/tf1compat/tf1-reference, or $TF1COMPAT_TF1_REFERENCE_DIR).
Tests that need it take the `tf1_python` fixture (tests/conftest.py): it skips with
the way to get one, except under CI (CI=true, or TF1COMPAT_REQUIRE_TF1_REFERENCE=1),
where a missing reference fails the test.
"""

from __future__ import annotations

import json
import os
import subprocess
import textwrap
from pathlib import Path
from typing import Any, Optional

HERE = Path(__file__).resolve().parent
SETUP = HERE / "setup.sh"
HOW_TO_GET_ONE = (f"no TensorFlow 1.15 reference interpreter: run 'bash {SETUP.relative_to(HERE.parents[1])}' "
                  "(needs a Python 3.5-3.7, e.g. 'pyenv install 3.7'), or point "
                  "TF1COMPAT_TF1_REFERENCE_PYTHON at a python with tensorflow-cpu==1.15.0")


def cached_python() -> Path:
    base = os.environ.get("TF1COMPAT_TF1_REFERENCE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
        "tf1compat", "tf1-reference")
    return Path(base) / "bin" / "python"


def keras2_folder() -> Path:
    """Where setup.sh installs Keras 2 for the reference (keras2-requirements.txt): a folder for
    PYTHONPATH, $TF1COMPAT_KERAS2_REFERENCE_DIR or beside the reference's environment."""
    given = os.environ.get("TF1COMPAT_KERAS2_REFERENCE_DIR")
    return Path(given) if given else cached_python().parents[2] / "keras2-reference"


def reference_python() -> Optional[Path]:
    """The reference interpreter, or None when neither the variable nor the cache gives one."""
    given = os.environ.get("TF1COMPAT_TF1_REFERENCE_PYTHON")
    if given:
        path = Path(given)
        if not path.exists():
            raise FileNotFoundError(f"TF1COMPAT_TF1_REFERENCE_PYTHON={given}: no such file")
        return path
    cached = cached_python()
    return cached if cached.exists() else None


def required() -> bool:
    """Whether a missing reference fails the tests instead of skipping them (CI)."""
    return (os.environ.get("CI", "").lower() == "true"
            or os.environ.get("TF1COMPAT_REQUIRE_TF1_REFERENCE") == "1")


def require() -> Path:
    """The reference interpreter; without one, skips the test (fails it under CI)."""
    import pytest

    python = reference_python()
    if python is None:
        if required():
            pytest.fail(HOW_TO_GET_ONE + " (required under CI: CI=true or "
                        "TF1COMPAT_REQUIRE_TF1_REFERENCE=1)")
        pytest.skip(HOW_TO_GET_ONE)
    return python


def environment() -> dict[str, str]:
    """The reference's environment: no PYTHONPATH (it must not see tf1compat or TF 2.21), no
    TF2_BEHAVIOR (TF 2.21 sets it in this process on import; TF 1.15 would start eager)."""
    from tf1compat.compare.script import tf1_environment

    env = tf1_environment()
    env["TF_CPP_MIN_LOG_LEVEL"] = "2"
    env["PYTHONWARNINGS"] = "ignore"
    return env


def run_json(python: Path, source: str, timeout: float = 300) -> Any:
    """Runs `source` under the reference (from its record, tf1_reference/recorded.py) and
    returns the JSON it printed last."""
    from tf1_reference import recorded

    result = recorded.run(python, ["-c", textwrap.dedent(source)], cwd=HERE,
                          env=environment(), timeout=timeout)
    if result.returncode != 0:
        raise AssertionError(f"the TF 1.15 reference exited {result.returncode}:\n"
                             f"{result.stderr[-4000:]}")
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    return json.loads(lines[-1])


def run_listing(python: Path, script: str, timeout: float = 300) -> Any:
    """Runs one of this folder's TF 1.15 listing scripts live (tf115_contrib_homes.py) and
    returns the JSON document it printed."""
    done = subprocess.run([str(python), str(HERE / script)], capture_output=True, text=True,
                          cwd=HERE.parent.parent, timeout=timeout, env=environment())
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def run_both(python: Path, source: str, folder: Path, timeout: float = 300,
             args: tuple[str, ...] | list[str] = ()) -> tuple[Any, Any]:
    """The JSON the same TF1 source prints under TF 1.15 and under `tf1compat run`.

    The source is written to `folder/probe.py` and runs with `args`; each side runs in its
    own process, in its own copy of the folder, so files one side writes never reach the
    other.
    """
    import sys

    outcomes = []
    for side in ("tf1", "tf1compat"):
        work = folder / side
        work.mkdir(parents=True, exist_ok=True)
        probe = work / "probe.py"
        probe.write_text(textwrap.dedent(source))
        if side == "tf1":
            from tf1_reference import recorded

            result = recorded.run(python, [str(probe), *args], cwd=work, env=environment(),
                                  timeout=timeout)
        else:
            command = [sys.executable, "-m", "tf1compat.cli.main", "run", str(probe), *args]
            env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", PYTHONPATH=os.pathsep.join(
                filter(None, [str(HERE.parents[1]), os.environ.get("PYTHONPATH")])))
            result = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                                    env=env, cwd=str(work))
        if result.returncode != 0:
            raise AssertionError(f"the probe failed under {side} (exit {result.returncode}):\n"
                                 f"{result.stderr[-4000:]}")
        lines = [line for line in result.stdout.splitlines() if line.strip()]
        outcomes.append(json.loads(lines[-1]))
    return outcomes[0], outcomes[1]


def assert_same(tf1: Any, ours: Any, rtol: float = 1e-5, atol: float = 1e-6,
                where: str = "") -> None:
    """Equal structure, names and integers; floats within `atol + rtol * |tf1|`."""
    import math

    if isinstance(tf1, dict):
        assert isinstance(ours, dict), f"{where}: {ours!r} where TF 1.15 gave a dict"
        assert sorted(tf1) == sorted(ours), f"{where}: keys {sorted(ours)} != {sorted(tf1)}"
        for key in tf1:
            assert_same(tf1[key], ours[key], rtol, atol, f"{where}.{key}")
    elif isinstance(tf1, list):
        assert isinstance(ours, list) and len(ours) == len(tf1), \
            f"{where}: {ours!r} where TF 1.15 gave {tf1!r}"
        for index, (a, b) in enumerate(zip(tf1, ours)):
            assert_same(a, b, rtol, atol, f"{where}[{index}]")
    elif isinstance(tf1, float) or isinstance(ours, float):
        assert isinstance(ours, (int, float)) and not isinstance(ours, bool), \
            f"{where}: {ours!r} where TF 1.15 gave {tf1!r}"
        if math.isnan(tf1):
            assert math.isnan(ours), f"{where}: {ours!r} where TF 1.15 gave nan"
        else:
            assert abs(ours - tf1) <= atol + rtol * abs(tf1), \
                f"{where}: {ours!r} where TF 1.15 gave {tf1!r} (rtol={rtol}, atol={atol})"
    else:
        assert ours == tf1, f"{where}: {ours!r} where TF 1.15 gave {tf1!r}"
