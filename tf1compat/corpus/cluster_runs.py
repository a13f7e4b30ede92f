"""A ps/worker program: one process per task on 127.0.0.1, as its README starts them by hand.

The program names its tasks by flags (`task_args`, with `{job}`, `{index}`, `{ps_hosts}` and
`{worker_hosts}` filled per task) or by addresses written in its code (edits to `{ps0}`,
`{worker1}`, ...). The run is the chief's (worker 0, by TF1's convention): its output is the
program's, and once it ends the other workers have WORKER_GRACE seconds to end too (a worker
that exits non-zero fails the run; one still waiting on the chief is stopped). The ps tasks
serve until they are stopped (TF1's `server.join()` never returns).
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
from typing import Callable

from tf1compat.corpus.manifest import Program
from tf1compat.process.groups import kill_processes

TASK_PLACEHOLDERS = ("{job}", "{index}")
# How long the other workers may run on once the chief (worker 0) has ended: TF1 workers
# often wait on the chief at close, so one still running then is stopped, not failed.
WORKER_GRACE = 30


def addresses(program: Program) -> dict[str, str]:
    """`ps0`, `worker0`, ... -> '127.0.0.1:PORT' (ports free now), and the joined host lists."""
    ps, workers = program.cluster
    names = [f"ps{i}" for i in range(ps)] + [f"worker{i}" for i in range(workers)]
    sockets = []
    try:
        for _ in names:
            listener = socket.socket()
            listener.bind(("127.0.0.1", 0))
            sockets.append(listener)
        places = {name: f"127.0.0.1:{s.getsockname()[1]}" for name, s in zip(names, sockets)}
    finally:
        for listener in sockets:
            listener.close()
    places["ps_hosts"] = ",".join(places[f"ps{i}"] for i in range(ps))
    places["worker_hosts"] = ",".join(places[f"worker{i}"] for i in range(workers))
    return places


def tasks(program: Program) -> list[tuple[str, int]]:
    ps, workers = program.cluster
    return [("ps", i) for i in range(ps)] + [("worker", i) for i in range(workers)]


def run_tasks(program: Program, command_for: Callable[[str, int], list[str]], cwd, env,
              timeout: int, logs: str) -> tuple[int | None, str, str]:
    """Starts every task, waits for the workers, stops the ps tasks; returns (exit status,
    worker 0's stdout, worker 0's stderr and the first failed task's)."""
    processes = {}
    files = {}
    for job, index in tasks(program):
        out = open(os.path.join(logs, f"{job}{index}.out"), "w+b")
        err = open(os.path.join(logs, f"{job}{index}.err"), "w+b")
        files[(job, index)] = (out, err)
        processes[(job, index)] = subprocess.Popen(
            command_for(job, index), cwd=cwd, env=env, stdout=out, stderr=err,
            stdin=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + timeout
    workers = [key for key in processes if key[0] == "worker"]
    status: int | None = 0
    failed = None
    try:
        for key in workers:
            try:
                code = processes[key].wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                if key == ("worker", 0):
                    status = None
                break  # the others had the chief's run and a grace period to end
            if code != 0 and status == 0:
                status, failed = code, key
            if key == ("worker", 0):  # the others get a grace period from here on
                deadline = min(deadline, time.monotonic() + WORKER_GRACE)
    finally:
        kill_processes([process for process in processes.values() if process.poll() is None])
    text = {key: tuple(_read(handle) for handle in pair) for key, pair in files.items()}
    stdout, stderr = text[("worker", 0)]
    if status not in (0, None) and failed != ("worker", 0):
        stderr += f"\n[{failed[0]} {failed[1]}]\n" + text[failed][1]
    return status, stdout, stderr


def _read(handle) -> str:
    handle.seek(0)
    content = handle.read().decode("utf-8", "replace")
    handle.close()
    return content
