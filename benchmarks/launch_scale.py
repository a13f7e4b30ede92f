"""How `tf1compat launch --slurm` grows with the number of tasks, measured on a 3-node Slurm
whose nodes are network namespaces of this machine (tests/slurm/netns_cluster.py; needs root,
slurm-wlm, munge, iproute2), then extrapolated.

For each size N (1 ps + N-1 workers, `--tf1-flags`), a TF1 script that starts its
`tf.train.Server`, reports, and (workers) exits; launch then stops the ps. Measured:

- start-up: salloc's grant -> every task started (launch, srun and each node's task wrapper),
  and -> every task's server up (TensorFlow imported and listening);
- the run's wall time from salloc's grant to launch's exit;
- `TF_CONFIG` and TF1's `--ps_hosts/--worker_hosts` bytes in one task;
- ports: each task's server holds one, numbered per node from --port-base;
- the launcher's work: CPU seconds of launch and srun (on the submitting node), output lines
  it parsed.

    python benchmarks/launch_scale.py [--sizes 3,6,12] [--repeats 1]

On 2 cores the start-up is dominated by N TensorFlow imports sharing them; on a real cluster
each node starts only its own tasks. The extrapolation fits each figure linearly in N.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "slurm"))

from netns_cluster import NetnsCluster  # noqa: E402

SCRIPT = textwrap.dedent("""
    import json, os, sys
    import tensorflow as tf

    flags = tf.app.flags
    for name in ("job_name", "ps_hosts", "worker_hosts"):
        flags.DEFINE_string(name, "", name)
    flags.DEFINE_integer("task_index", 0, "index")
    FLAGS = flags.FLAGS

    def main(_):
        cluster = tf.train.ClusterSpec({"ps": FLAGS.ps_hosts.split(","),
                                        "worker": FLAGS.worker_hosts.split(",")})
        server = tf.train.Server(cluster, job_name=FLAGS.job_name, task_index=FLAGS.task_index)
        print("up", json.dumps({"tf_config": len(os.environ.get("TF_CONFIG", "")),
                                "flags": len(FLAGS.ps_hosts) + len(FLAGS.worker_hosts)}),
              flush=True)
        if FLAGS.job_name == "ps":
            server.join()

    tf.app.run(main)
""")
# The launcher and srun, measured from inside the allocation: their CPU once both ended.
WRAPPER = ("import resource, subprocess, sys, json\n"
           "code = subprocess.call(sys.argv[1:])\n"
           "usage = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
           "print('launcher-cpu', json.dumps(usage.ru_utime + usage.ru_stime), flush=True)\n"
           "sys.exit(code)\n")
# Linux's limit on one environment string or argument (MAX_ARG_STRLEN: 32 pages).
MAX_ARG_STRLEN = 131072


def one_run(cluster: NetnsCluster, tasks: int, folder: Path) -> dict:
    script = folder / "server.py"
    script.write_text(SCRIPT)
    env = cluster.client_env()
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["TF_CPP_MIN_LOG_LEVEL"] = "2"
    command = ["salloc", "--nodes=3", f"--ntasks={tasks}", "--overcommit", sys.executable, "-c",
               WRAPPER, sys.executable, "-m", "tf1compat.cli.main", "launch", "--slurm", "--ps",
               "1", "--workers", str(tasks - 1), "--tf1-flags", "--grace", "3",
               "--run-args=--no-report", str(script)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, cwd=str(ROOT), env=env)
    granted = started_all = up_all = None
    started, up, sizes, lines, cpu = 0, 0, [], 0, None
    for line in process.stdout:
        now, lines = time.monotonic(), lines + 1
        if line.startswith("salloc: Granted"):
            granted = now
        elif " started " in line and line.startswith("tf1compat launch: started"):
            started += 1
            started_all = now if started == tasks else started_all
        elif re.match(r"^\[\w+:\d+\] up \{", line):
            up += 1
            sizes.append(json.loads(line.split(" up ", 1)[1]))
            up_all = now if up == tasks else up_all
        elif line.startswith("launcher-cpu "):
            cpu = json.loads(line.split(" ", 1)[1])
    process.wait()
    ended = time.monotonic()
    if process.returncode != 0 or None in (granted, started_all, up_all, cpu):
        raise RuntimeError(f"the {tasks}-task run failed (exit {process.returncode})")
    return {"started_s": started_all - granted, "up_s": up_all - granted,
            "wall_s": ended - granted, "tf_config_bytes": max(s["tf_config"] for s in sizes),
            "flags_bytes": max(s["flags"] for s in sizes), "launcher_cpu_s": cpu,
            "lines": lines, "ports_per_node": -(-tasks // len(cluster.nodes))}


def fit(sizes: list[int], values: list[float]) -> tuple[float, float]:
    """Least-squares (intercept, slope) of values over sizes."""
    mean_n, mean_v = statistics.fmean(sizes), statistics.fmean(values)
    slope = sum((n - mean_n) * (v - mean_v) for n, v in zip(sizes, values)) / \
        sum((n - mean_n) ** 2 for n in sizes)
    return mean_v - slope * mean_n, slope


def report(results: dict[int, dict]) -> str:
    sizes = sorted(results)
    # (key, title, format, extrapolated): start-up and wall are N TensorFlow starts sharing this
    # machine's cores, which on a cluster happen on N machines: not extrapolated.
    columns = [("started_s", "grant → every task started (s)", "{:.2f}", True),
               ("up_s", "grant → every server up (s)", "{:.1f}", False),
               ("wall_s", "run wall (s)", "{:.1f}", False),
               ("tf_config_bytes", "TF_CONFIG (bytes/task)", "{:.0f}", True),
               ("flags_bytes", "--ps_hosts+--worker_hosts (bytes)", "{:.0f}", True),
               ("ports_per_node", "ports per node", "{:.0f}", False),
               ("launcher_cpu_s", "launch + srun CPU (s)", "{:.2f}", True),
               ("lines", "output lines parsed", "{:.0f}", True)]
    rows = ["| tasks | " + " | ".join(title for _, title, _, _ in columns) + " |",
            "|---:|" + "---:|" * len(columns)]
    for size in sizes:
        rows.append(f"| {size} | " + " | ".join(form.format(results[size][key])
                                                 for key, _, form, _ in columns) + " |")
    formulas = {key: fit(sizes, [results[n][key] for n in sizes])
                for key, _, _, extrapolated in columns if extrapolated}
    for size in (100, 1000):
        cells = [form.format(formulas[key][0] + formulas[key][1] * size) if key in formulas
                 else "—" for key, _, form, _ in columns]
        rows.append(f"| {size} (fit) | " + " | ".join(cells) + " |")
    lines = ["\n".join(rows), ""]
    for key, (a, b) in formulas.items():
        lines.append(f"- {key} ≈ {a:.3g} + {b:.3g}·N")
    a, b = formulas["tf_config_bytes"]
    lines.append(f"- TF_CONFIG reaches Linux's {MAX_ARG_STRLEN}-byte limit on one environment "
                 f"string (MAX_ARG_STRLEN) at N ≈ {(MAX_ARG_STRLEN - a) / b:,.0f} tasks with "
                 f"these 2-character node names; each more character of a node's name adds a "
                 f"byte per task (N ≈ {(MAX_ARG_STRLEN - a) / (b + 28):,.0f} at 30 characters)")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="3,6,12")
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    base = Path(tempfile.mkdtemp(prefix="tf1compat-launch-scale-"))
    cluster = NetnsCluster(base, 3)
    try:
        cluster.start(60)
        results = {}
        for size in sizes:
            runs = [one_run(cluster, size, base) for _ in range(args.repeats)]
            results[size] = {key: statistics.median(run[key] for run in runs)
                             for key in runs[0]}
            print(f"{size} tasks: {json.dumps(results[size])}", flush=True)
        print(f"\ncpu: {os.cpu_count()} cores; 3 nodes (network namespaces), median of "
              f"{args.repeats}\n")
        print(report(results))
    finally:
        cluster.stop()
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
