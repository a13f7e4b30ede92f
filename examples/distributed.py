"""Distributed training on the digits, TF1 form and TF2 form, each run through `tf1compat launch`.

    python -m examples.distributed [--epochs 5] [--data fashion.npz]

- `tf1_form()`: TF1 between-graph replication, 1 ps + 2 workers, asynchronous
  SGD with `replica_device_setter` (`examples.distributed_tf1`);
- `tf2_form()`: MultiWorkerMirroredStrategy with 2 workers, Keras `fit` with
  a backup every epoch (`examples.distributed_tf2 mwms`);
- `tf2_parameter_server_form()`: ParameterServerStrategy, chief + 1 ps + 2
  workers (`examples.distributed_tf2 ps`).

Each starts the tasks with `tf1compat launch` on 127.0.0.1, waits (bounded by
`timeout`), stops every process it started, and returns a dict:
{"form", "mode", "epochs": [{"epoch", "loss", "accuracy"}], "final_accuracy",
"seconds", "tasks": {task: that task's result}, ...}.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Optional, Sequence

ROOT = Path(__file__).resolve().parent.parent


class LaunchFailed(RuntimeError):
    """The launched run failed; the message holds the end of its output."""


def launch_command(launch_args: Sequence[str], module: str,
                   module_args: Sequence[str]) -> list[str]:
    return [sys.executable, "-m", "tf1compat.cli.main", "launch", *launch_args,
            "-m", module, *module_args]


def run_launch(launch_args: Sequence[str], module: str, module_args: Sequence[str], *,
               timeout: float = 300, on_line: Optional[Callable[[str, subprocess.Popen], None]] = None,
               env: Optional[dict] = None) -> tuple[int, list[str]]:
    """Runs `tf1compat launch ... -m module args`; returns (exit status, output lines).

    The launcher runs in its own process group, which is killed on timeout or
    error, so nothing outlives the call.
    """
    environment = dict(os.environ if env is None else env)
    environment["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(ROOT), environment.get("PYTHONPATH")]))
    environment.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    process = subprocess.Popen(launch_command(launch_args, module, module_args),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               cwd=str(ROOT), env=environment, start_new_session=True)
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    try:
        import selectors

        selector = selectors.DefaultSelector()
        selector.register(process.stdout, selectors.EVENT_READ)
        while True:
            if time.monotonic() > deadline:
                raise LaunchFailed(f"launch ran past {timeout:.0f} s; last output:\n"
                                   + "\n".join(lines[-40:]))
            if not selector.select(timeout=0.5):
                if process.poll() is not None:
                    break
                continue
            line = process.stdout.readline()
            if not line:
                break
            lines.append(line.rstrip("\n"))
            if on_line is not None:
                on_line(lines[-1], process)
        process.wait(timeout=max(1.0, deadline - time.monotonic()))
        return process.returncode, lines
    finally:
        if process.poll() is None:
            try:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(timeout=15)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                pass
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if process.poll() is None:
            process.wait()
        process.stdout.close()


def read_results(result_dir: str) -> dict[str, dict]:
    results = {}
    for path in sorted(glob.glob(os.path.join(result_dir, "*.json"))):
        with open(path) as handle:
            result = json.load(handle)
        results[result["task"]] = result
    return results


def _common_args(epochs: int, data: Optional[str], seed: int, result_dir: str) -> list[str]:
    args = ["--epochs", str(epochs), "--seed", str(seed), "--result-dir", result_dir]
    return args + (["--data", data] if data else [])


def _run(form: str, mode: str, launch_args, module, module_args, result_dir, chief, timeout):
    start = time.perf_counter()
    status, lines = run_launch(launch_args, module, module_args, timeout=timeout)
    seconds = time.perf_counter() - start
    if status != 0:
        raise LaunchFailed(f"{form} ({mode}) exited {status}; last output:\n"
                           + "\n".join(lines[-40:]))
    tasks = read_results(result_dir)
    if chief not in tasks:
        raise LaunchFailed(f"{form} ({mode}): no result from {chief}; got {sorted(tasks)}")
    result = dict(tasks[chief])
    result.update(form=form, mode=mode, seconds=seconds, tasks=tasks)
    return result


def tf1_form(epochs: int = 5, workers: int = 2, ps: int = 1, data: Optional[str] = None,
             seed: int = 0, timeout: float = 300) -> dict:
    """TF1 between-graph replication (ps + workers, TF1 flags); worker 0's view of the run."""
    with tempfile.TemporaryDirectory(prefix="tf1-between-graph-") as scratch:
        return _run("tf1", "between_graph",
                    ["--ps", str(ps), "--workers", str(workers), "--tf1-flags"],
                    "examples.distributed_tf1", _common_args(epochs, data, seed, scratch),
                    scratch, "worker:0", timeout)


def tf2_form(epochs: int = 5, workers: int = 2, data: Optional[str] = None, seed: int = 0,
             timeout: float = 300, extra_launch_args: Sequence[str] = (),
             extra_args: Sequence[str] = ()) -> dict:
    """MultiWorkerMirroredStrategy with Keras fit and BackupAndRestore; the chief's view.

    The result also has "weights_identical": whether every worker held the
    same weights after every epoch.
    """
    with tempfile.TemporaryDirectory(prefix="tf2-multi-worker-") as scratch:
        args = _common_args(epochs, data, seed, scratch) + [
            "--backup-dir", os.path.join(scratch, "backup"), *extra_args]
        result = _run("tf2", "multi_worker_mirrored",
                      ["--workers", str(workers), *extra_launch_args],
                      "examples.distributed_tf2", ["mwms", *args], scratch, "worker:0", timeout)
    digests = [task["weights_digests"] for task in result["tasks"].values()]
    result["weights_identical"] = all(d == digests[0] for d in digests)
    return result


def tf2_parameter_server_form(epochs: int = 5, workers: int = 2, ps: int = 1,
                              data: Optional[str] = None, seed: int = 0,
                              timeout: float = 300) -> dict:
    """ParameterServerStrategy + ClusterCoordinator (chief, ps, workers); the chief's view."""
    with tempfile.TemporaryDirectory(prefix="tf2-parameter-server-") as scratch:
        return _run("tf2", "parameter_server",
                    ["--chief", "--ps", str(ps), "--workers", str(workers)],
                    "examples.distributed_tf2", ["ps", *_common_args(epochs, data, seed, scratch)],
                    scratch, "chief:0", timeout)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--data", help="a local .npz (x_train, y_train, x_test, y_test)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--parameter-server", action="store_true",
                        help="also run the TF2 ParameterServerStrategy form")
    args = parser.parse_args(argv)
    forms = [("TF1 between-graph (1 ps + 2 workers)", tf1_form),
             ("TF2 MultiWorkerMirrored (2 workers)", tf2_form)]
    if args.parameter_server:
        forms.append(("TF2 ParameterServer (chief + 1 ps + 2 workers)", tf2_parameter_server_form))
    for title, form in forms:
        result = form(epochs=args.epochs, data=args.data, seed=args.seed)
        print(f"{title}: final test accuracy {result['final_accuracy']:.4f} "
              f"({result['seconds']:.1f} s with process start-up)")
        for epoch in result["epochs"]:
            print(f"  epoch {epoch['epoch']}: loss {epoch['loss']:.4f} "
                  f"accuracy {epoch['accuracy']:.4f}")


if __name__ == "__main__":
    main()
