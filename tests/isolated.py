"""Runs test code in a fresh Python process, for tests that need a fresh TF runtime.

TF2 fixes device options when its runtime starts, once per process, so a test
of those options cannot share a process with any other TensorFlow test.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, Optional

from budgets import budget

REPO_ROOT = Path(__file__).resolve().parent.parent


def python_env(extra: Optional[dict[str, str]] = None) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    env.update(extra or {})
    return env


def run_python(source: str, *, env: Optional[dict[str, str]] = None, timeout: float = 240,
               check: bool = True) -> subprocess.CompletedProcess:
    """Runs `source` (dedented) with `python -c` in a fresh process; `timeout` is for an idle
    machine, stretched by the load (budgets.py)."""
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(source)],
                            capture_output=True, text=True,
                            timeout=budget(timeout, floor=timeout),
                            env=python_env(env), cwd=str(REPO_ROOT))
    if check and result.returncode != 0:
        raise AssertionError(f"child exited {result.returncode}\nstdout:\n{result.stdout}\n"
                             f"stderr:\n{result.stderr[-4000:]}")
    return result


def run_script(path: Path, *args: str, env: Optional[dict[str, str]] = None,
               timeout: float = 240) -> subprocess.CompletedProcess:
    """Runs a Python file in a fresh process (so tracebacks and frames name the file)."""
    return subprocess.run([sys.executable, str(path), *args], capture_output=True, text=True,
                          timeout=budget(timeout, floor=timeout), env=python_env(env),
                          cwd=str(REPO_ROOT))


def last_json(result: subprocess.CompletedProcess) -> Any:
    """The JSON document a child printed as its last stdout line."""
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    if not lines:
        raise AssertionError(f"child printed nothing\nstderr:\n{result.stderr[-4000:]}")
    return json.loads(lines[-1])


def run_json(source: str, **kwargs: Any) -> Any:
    """Runs `source`, which prints one JSON document as its last stdout line; returns it."""
    return last_json(run_python(source, **kwargs))


def run_cli(*args: str, env: Optional[dict[str, str]] = None, timeout: float = 240,
            cwd: Optional[Path] = None) -> subprocess.CompletedProcess:
    """Runs the `tf1compat` command line (through `python -m`) in a fresh process, in `cwd`
    (default: the checkout)."""
    return subprocess.run([sys.executable, "-m", "tf1compat.cli.main", *args],
                          capture_output=True, text=True,
                          timeout=budget(timeout, floor=timeout),
                          env=python_env(env), cwd=str(cwd or REPO_ROOT))
