"""Multi-worker training on one machine: what TensorFlow's distributed runtime costs.

1. Throughput, MultiWorkerMirroredStrategy (Keras fit on the digits, 32
   examples per replica per step), 1 worker versus 2 workers, each a separate
   process started by `tf1compat launch` on 127.0.0.1. Training examples per
   second while `fit` runs (start-up excluded), and the whole run's wall time
   (process start, TensorFlow import, cluster start-up included).
   Optionally (--tf1) the same for TF1 between-graph replication (1 ps + N workers).
2. Recovery: a worker is killed (SIGKILL) after epoch 1; `launch --max-restarts 1`
   stops the other, starts both again, and `BackupAndRestore` resumes at epoch 2.
   Reported: death -> failure noticed, death -> training restarted (backup
   restored, first step next), death -> first epoch completed after it.

    python benchmarks/multiworker.py [--epochs 5] [--repeats 1] [--tf1]

On a 2-core machine 2 workers share the cores that 1 worker had: the point
is the overhead of the runtime (gRPC all-reduce every step), not a speed-up.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from examples import distributed  # noqa: E402


def throughput(form, workers: int, epochs: int, repeats: int) -> tuple[float, float]:
    """(median examples/s of the chief while training, median wall seconds of the run)."""
    rates, walls = [], []
    for _ in range(repeats):
        result = form(epochs=epochs, workers=workers, timeout=600)
        rates.append(sum(task["examples_per_second"] for task in result["tasks"].values())
                     if result["mode"] == "between_graph" else result["examples_per_second"])
        walls.append(result["seconds"])
    return statistics.median(rates), statistics.median(walls)


def recovery(epochs: int = 4) -> dict[str, float]:
    """Seconds from a worker's SIGKILL to: failure noticed, training restarted, next epoch done."""
    marks: dict[str, float] = {}
    pids: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="multiworker-bench-") as scratch:

        def on_line(line: str, process) -> None:
            now = time.monotonic()
            started = re.search(r"started (\S+) pid (\d+)", line)
            if started:
                pids[started.group(1)] = int(started.group(2))
            if "kill" not in marks and "[worker:0] epoch 1 done" in line:
                os.kill(pids["worker:1"], signal.SIGKILL)
                marks["kill"] = now
            elif "kill" in marks:
                if "noticed" not in marks and "worker:1 (pid" in line and "failed" in line:
                    marks["noticed"] = now
                elif "restarted" not in marks and "[worker:0] training starts at epoch" in line:
                    marks["restarted"] = now
                elif "epoch_done" not in marks and "[worker:0] epoch 2 done" in line:
                    marks["epoch_done"] = now

        status, lines = distributed.run_launch(
            ["--workers", "2", "--max-restarts", "1", "--grace", "3"],
            "examples.distributed_tf2",
            ["mwms", "--epochs", str(epochs), "--result-dir", os.path.join(scratch, "r"),
             "--backup-dir", os.path.join(scratch, "b")], timeout=600, on_line=on_line)
        if status != 0 or len(marks) < 4:
            raise RuntimeError(f"recovery run failed (status {status}, marks {sorted(marks)}):\n"
                               + "\n".join(lines[-30:]))
    return {name: marks[name] - marks["kill"] for name in ("noticed", "restarted", "epoch_done")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--tf1", action="store_true",
                        help="also measure TF1 between-graph replication (1 ps + N workers)")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} CPU cores; tasks on 127.0.0.1; digits, {args.epochs} "
          f"epochs, median of {args.repeats}")
    forms = [("TF2 MultiWorkerMirrored (sync all-reduce)", distributed.tf2_form)]
    if args.tf1:
        forms.append(("TF1 between-graph (async, 1 ps)", distributed.tf1_form))
    for title, form in forms:
        one_rate, one_wall = throughput(form, 1, args.epochs, args.repeats)
        two_rate, two_wall = throughput(form, 2, args.epochs, args.repeats)
        print(f"\n{title}")
        print(f"  1 worker   {one_rate:9.0f} examples/s   run {one_wall:6.1f} s wall")
        print(f"  2 workers  {two_rate:9.0f} examples/s   run {two_wall:6.1f} s wall")
        print(f"  ratio 2 workers / 1 worker   {two_rate / one_rate:6.2f}x examples/s")
    marks = recovery()
    print("\nRecovery (MultiWorkerMirrored, 2 workers, worker:1 SIGKILLed after epoch 1)")
    print(f"  death -> failure noticed by launch        {marks['noticed']:6.2f} s")
    print(f"  death -> training restarted (restored)    {marks['restarted']:6.2f} s")
    print(f"  death -> next epoch completed             {marks['epoch_done']:6.2f} s")


if __name__ == "__main__":
    main()
