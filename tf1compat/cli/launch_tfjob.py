"""`tf1compat launch --emit tfjob` and `--from-tf-config`: launch's layout on Kubernetes.

    tf1compat launch --emit tfjob --image registry.example.com/train:1 --ps 1 --workers 2 \\
        --tf1-flags train_tf1.py > job.yaml && kubectl apply -f job.yaml
    TF_CONFIG='{"cluster": ..., "task": ...}' tf1compat launch --from-tf-config train.py

`--emit tfjob` writes the Kubeflow TFJob (`tf1compat.launch.tfjob`); each of its replicas runs
`tf1compat launch --from-tf-config ...`, which runs the one task the TF_CONFIG given by the
training operator names, as a local launch task runs.
"""

from __future__ import annotations

import argparse
import json
import os

from tf1compat.shared.cluster_spec import EVALUATOR, WORKER, Cluster, local_cluster
from tf1compat.shared.errors import ClusterError, LaunchError

DEFAULT_NAME = "tf1compat-launch"
DEFAULT_HOST = "127.0.0.1"   # launch's --host default: "not given"


def add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--image", metavar="IMAGE",
                        help="with --emit tfjob: the container image of every replica "
                             "(tf1compat, TensorFlow and the script in it); required")
    parser.add_argument("--name", default=None, metavar="NAME",
                        help=f"with --emit tfjob: the TFJob's name (default {DEFAULT_NAME})")
    parser.add_argument("--namespace", default=None, metavar="NAMESPACE",
                        help="with --emit tfjob: its Kubernetes namespace (default: default)")
    parser.add_argument("--cpus-per-task", default=None, metavar="CPUS",
                        help="with --emit tfjob: CPUs each replica requests (2, 500m)")
    parser.add_argument("--memory-per-task", default=None, metavar="QUANTITY",
                        help="with --emit tfjob: memory each replica requests (4Gi)")
    parser.add_argument("--gpus-per-task", type=int, default=None, metavar="N",
                        help="with --emit tfjob: nvidia.com/gpu limit of each chief, worker "
                             "and evaluator replica (ps tasks get none)")
    parser.add_argument("--from-tf-config", action="store_true",
                        help="run here the one task that TF_CONFIG names (as a TFJob replica "
                             "does), with what a launch task gets: the task fixes, "
                             "--tf1-flags, servers confined to --host or to its address")


def _given(args: argparse.Namespace, names: tuple[str, ...]) -> list[str]:
    values = {"--hostfile": args.hostfile, "--task": args.task, "--ports": args.ports,
              "--slurm": args.slurm, "--slurm-args": args.slurm_args is not None,
              "--port-base": args.port_base is not None, "--wait-for": args.wait_for,
              "--host": args.host != DEFAULT_HOST, "--max-restarts": args.max_restarts,
              "--workers": args.workers is not None, "--ps": args.ps, "--chief": args.chief,
              "--evaluator": args.evaluator, "--image": args.image is not None,
              "--name": args.name is not None, "--namespace": args.namespace is not None,
              "--cpus-per-task": args.cpus_per_task is not None,
              "--memory-per-task": args.memory_per_task is not None,
              "--gpus-per-task": args.gpus_per_task is not None}
    return [name for name in names if values[name]]


TFJOB_ONLY = ("--image", "--name", "--namespace", "--cpus-per-task", "--memory-per-task",
              "--gpus-per-task")


def wanted(args: argparse.Namespace) -> bool:
    """Whether this command line is launch's Kubernetes side (else: a tfjob-only option alone)."""
    if args.emit == "tfjob" or args.from_tf_config:
        return True
    stray = _given(args, TFJOB_ONLY)
    if stray:
        raise LaunchError(f"{'/'.join(stray)} needs --emit tfjob")
    return False


def replica_command(args: argparse.Namespace) -> list[str]:
    """What every replica's container runs: launch's one-task side, then the program."""
    command = ["tf1compat", "launch", "--from-tf-config"]
    # The pod's own address (Kubernetes expands $(POD_IP) from the container's env).
    command += ["--bind-all"] if args.bind_all else ["--host", "$(POD_IP)"]
    for flag, given in (("--tf1-flags", args.tf1_flags), ("--no-keras-fix", args.no_keras_fix)):
        if given:
            command.append(flag)
    if args.grace != 10.0:
        command += ["--grace", f"{args.grace:g}"]
    from tf1compat.cli.launch_serving import serving_options

    command += serving_options(args)
    return command + (["-m"] if args.module else []) + [args.script, *args.script_args]


def emit(args: argparse.Namespace) -> int:
    from tf1compat.cli.launch_slurm import task_layout
    from tf1compat.launch.tfjob import Resources, manifest

    refused = _given(args, ("--hostfile", "--task", "--ports", "--host", "--slurm",
                            "--slurm-args", "--port-base", "--wait-for"))
    if refused:
        raise LaunchError(f"{'/'.join(refused)} cannot go with --emit tfjob: the training "
                          "operator gives the hosts (port 2222) and ends the job (the chief, "
                          "else every worker)")
    if args.max_restarts < 0:
        raise LaunchError(f"invalid --max-restarts: received {args.max_restarts}; accepted: "
                          "a count of 0 or more")
    tasks = task_layout(args)
    resources = Resources(args.cpus_per_task, args.memory_per_task, args.gpus_per_task)
    print(manifest(tasks, replica_command(args), name=args.name or DEFAULT_NAME,
                   namespace=args.namespace or "default", image=args.image,
                   max_restarts=args.max_restarts, resources=resources), end="")
    return 0


def replica(text: str) -> tuple[Cluster, str, int]:
    """The cluster and this replica's task from TF_CONFIG's text; an evaluator may be outside
    the cluster (launch's own TF_CONFIG) or in it (the training operator's)."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError:
        document = None  # Cluster.from_tf_config names the position
    task = document.get("task") if isinstance(document, dict) else None
    if isinstance(task, dict) and task.get("type") == EVALUATOR and \
            EVALUATOR not in (document.get("cluster") or {}):
        return Cluster.from_tf_config({"cluster": document["cluster"]}), EVALUATOR, \
            int(task.get("index", 0))
    cluster = Cluster.from_tf_config(text)
    if cluster.task_type is None:
        raise ClusterError("TF_CONFIG names no task (no \"task\": {\"type\": ..., \"index\": "
                           "...}): --from-tf-config runs the one task it names")
    return cluster, cluster.task_type, cluster.task_index


def replica_launcher(args: argparse.Namespace, command_for):
    """The Launcher of the one task TF_CONFIG names (no TF_CONFIG: one worker, as the
    operator gives a job of one replica none); `command_for(args)` is the program."""
    from tf1compat.launch.launcher import Launcher

    refused = _given(args, ("--hostfile", "--task", "--ports", "--slurm", "--slurm-args",
                            "--port-base", "--wait-for", "--max-restarts", "--workers", "--ps",
                            "--chief", "--evaluator") + TFJOB_ONLY)
    if args.emit or refused:
        raise LaunchError(f"{'/'.join(refused or ['--emit'])} cannot go with --from-tf-config: "
                          "TF_CONFIG gives the cluster and this task")
    bind_host = args.host if args.host != DEFAULT_HOST else None
    text = os.environ.get("TF_CONFIG", "")
    if text.strip():
        cluster, job, index = replica(text)
    else:
        cluster, job, index = local_cluster(1, host=bind_host or DEFAULT_HOST), WORKER, 0
    return Launcher(lambda: cluster, command_for(args), tasks=[(job, index)], tf1_flags=args.tf1_flags,
                    bind="all" if args.bind_all else "task", bind_host=bind_host,
                    grace=args.grace, keras_fix=not args.no_keras_fix)
