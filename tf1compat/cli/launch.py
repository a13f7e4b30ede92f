"""`tf1compat launch`: one process per task of a cluster, on this machine or on several.

    tf1compat launch --workers 2 train.py --epochs 3             # MultiWorkerMirroredStrategy
    tf1compat launch --chief --ps 1 --workers 2 train.py         # ParameterServerStrategy
    tf1compat launch --ps 1 --workers 2 --tf1-flags train_tf1.py # TF1 between-graph
    tf1compat launch --chief --ps 1 --workers 2 --evaluator train_estimator.py
                                                 # tf.estimator.train_and_evaluate
    tf1compat launch -m examples.distributed_tf2 mwms             # a module, as python -m
    tf1compat launch --hostfile hosts.txt train.py               # print each machine's command
    tf1compat launch --hostfile hosts.txt --task worker:1 train.py   # run that one task here
    salloc -n 3 tf1compat launch --slurm --ps 1 --workers 2 --tf1-flags train.py  # on Slurm
    tf1compat launch --emit slurm --ps 1 --workers 2 --tf1-flags train.py > job.sh  # sbatch job.sh
    tf1compat launch --emit tfjob --image IMAGE --ps 1 --workers 2 train.py > job.yaml
                                                 # kubectl apply -f job.yaml (Kubeflow TFJob)
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys

from tf1compat.cli.launch_serving import run_options, serves_tf1
from tf1compat.cli.script_argv import stop_at_script
from tf1compat.shared.cluster_spec import Cluster, local_cluster, parse_hostfile
from tf1compat.shared.errors import ClusterError, LaunchError
from tf1compat.cli import docs_pages


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "launch", help="start one process per task (TF_CONFIG set) and supervise them",
        description="Start one process per task of a TensorFlow cluster on this machine, with "
                    "free loopback ports (or, with --slurm, as the Slurm tasks of one srun "
                    "step) and each task's TF_CONFIG; prefix each output line "
                    "with the task name; stop every task when one fails or on Ctrl-C. "
                    "WARNING: TensorFlow's gRPC servers have no authentication: anyone who "
                    "can reach a task's port can run code in it. Keep --host on loopback or "
                    "a private network. launch's options go before SCRIPT; everything after it "
                    "is the script's, unchanged.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1] + "\n" + docs_pages.epilog("launch"),
        allow_abbrev=False)
    parser.add_argument("--workers", type=int, default=None, metavar="N",
                        help="number of worker tasks (default 1 without --hostfile)")
    parser.add_argument("--ps", type=int, default=0, metavar="M",
                        help="number of parameter-server tasks")
    parser.add_argument("--chief", action="store_true",
                        help="add a chief task (the coordinator of ParameterServerStrategy)")
    parser.add_argument("--evaluator", action="store_true",
                        help="add an evaluator task outside the cluster (TF_CONFIG task type "
                             "'evaluator', as tf.estimator.train_and_evaluate reads it); the "
                             "run then waits for it too")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address of every task, and the only one its servers listen on "
                             "(default 127.0.0.1)")
    parser.add_argument("--bind-all", action="store_true",
                        help="let TensorFlow's servers listen on every interface (its default; "
                             "unauthenticated: only on a network you trust)")
    parser.add_argument("--ports", metavar="P,P,...",
                        help="ports in task order (chief, ps..., worker...); default: free ones")
    parser.add_argument("--hostfile", metavar="FILE",
                        help="'host:port job' per line: print the command for each machine "
                             "(or, with --task, run that task here)")
    parser.add_argument("--task", metavar="JOB:INDEX",
                        help="with --hostfile: run only this task, on this machine")
    parser.add_argument("--tf1-flags", action="store_true",
                        help="also pass TF1's --job_name --task_index --ps_hosts --worker_hosts")
    parser.add_argument("--wait-for", metavar="JOB[,JOB]",
                        help="jobs whose success ends the run (default: the chief with ps "
                             "tasks, else chief and workers); other tasks are then stopped")
    parser.add_argument("--max-restarts", type=int, default=0, metavar="K",
                        help="after a failure, stop everything and start again up to K times")
    parser.add_argument("--grace", type=float, default=10.0, metavar="SECONDS",
                        help="wait this long after SIGINT/SIGTERM before SIGKILL (default 10)")
    parser.add_argument("--no-keras-fix", action="store_true",
                        help="do not put the Keras multi-worker fix into the tasks (by default "
                             "every task gets it, so Keras 3 Model.fit trains under "
                             "MultiWorkerMirroredStrategy: keras-team/keras#20585)")
    from tf1compat.cli import launch_slurm, launch_tfjob

    launch_slurm.add_options(parser)
    launch_tfjob.add_options(parser)
    serving = parser.add_mutually_exclusive_group()
    serving.add_argument("--tf1", action="store_true",
                         help="run a .py SCRIPT in every task as `tf1compat run` runs it "
                              "(TF1's API served: tf.app.flags, tf.contrib, sessions); the "
                              "default with --tf1-flags, whose scripts are TF1 programs")
    serving.add_argument("--python", action="store_true",
                         help="run a .py SCRIPT under plain python even with --tf1-flags (a "
                              "TF2 script; the default without --tf1-flags)")
    parser.add_argument("--run-args", metavar="ARGS",
                        help="`tf1compat run`'s options for every task, one quoted string "
                             "(--run-args=\"--device-map gpu:*=cpu:* --numpy 1\"); implies --tf1")
    parser.add_argument("-m", "--module", action="store_true",
                        help="SCRIPT is a module name, run as python -m SCRIPT")
    parser.add_argument("script", metavar="SCRIPT",
                        help="a .py file (or module with -m, or any program) run in every task")
    parser.add_argument("script_args", nargs=argparse.REMAINDER, metavar="ARGS",
                        help="arguments passed to SCRIPT, as given")
    stop_at_script(parser)
    parser.set_defaults(handler=run)


def command_for(args: argparse.Namespace) -> list[str]:
    if args.module:
        if args.tf1 or args.run_args:
            raise LaunchError("--tf1/--run-args serve a .py SCRIPT; a module runs as python -m "
                              "runs it (give the module's file to serve it as TF1)")
        return [sys.executable, "-u", "-m", args.script, *args.script_args]
    if args.script.endswith(".py"):
        if not os.path.exists(args.script):
            raise LaunchError(f"SCRIPT {args.script!r} does not exist")
        if serves_tf1(args):
            return [sys.executable, "-u", "-m", "tf1compat.cli.main", "run", *run_options(args),
                    args.script, *args.script_args]
        return [sys.executable, "-u", args.script, *args.script_args]
    if args.tf1 or args.run_args:
        raise LaunchError(f"--tf1/--run-args serve a .py SCRIPT; received {args.script!r}")
    return [args.script, *args.script_args]


def _ports(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise ClusterError(f"invalid --ports: received {text!r}; accepted: ports separated "
                           "by commas, e.g. 2222,2223") from None


def _task(text: str, cluster: Cluster) -> tuple[str, int]:
    job, _, index = text.partition(":")
    if not index.isdigit():
        raise ClusterError(f"invalid --task: received {text!r}; accepted: JOB:INDEX, e.g. worker:0")
    cluster.with_task(job, int(index))  # checks job and range
    return job, int(index)


def hostfile_commands(cluster: Cluster, hostfile: str, program: list[str]) -> str:
    """For each task, the command that runs it on its machine (two equivalent forms)."""
    shown = " ".join(shlex.quote(part) for part in program)
    lines = ["# One command per machine: run each on the host named above it, with the same",
             f"# {hostfile} there. TensorFlow's gRPC servers are unauthenticated: use a private",
             "# network. The TF_CONFIG form needs no tf1compat, but its servers listen on every",
             "# interface."]
    for job, index in cluster.tasks():
        address = cluster.addresses(job)[index]
        lines.append(f"\n# {job}:{index} on {address.rpartition(':')[0]}")
        lines.append(f"tf1compat launch --hostfile {shlex.quote(hostfile)} --task {job}:{index} "
                     f"{shown}")
        lines.append(f"#   or: TF_CONFIG={shlex.quote(cluster.to_tf_config_json(job, index))} "
                     f"python3 {shown}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from tf1compat.cli import launch_slurm, launch_tfjob
    from tf1compat.launch.launcher import Launcher

    if launch_tfjob.wanted(args):
        if not args.from_tf_config:
            return launch_tfjob.emit(args)
        return _supervise(launch_tfjob.replica_launcher(args, command_for))
    if args.slurm or args.emit or args.slurm_args is not None or args.port_base is not None:
        launch_slurm.check(args)
        if args.emit:
            return launch_slurm.emit(args)
        return launch_slurm.run(args, command_for(args))
    tasks = None
    if args.hostfile:
        if args.workers is not None or args.ps or args.chief or args.ports or args.evaluator:
            raise LaunchError("--hostfile gives the cluster: drop "
                              "--workers/--ps/--chief/--ports/--evaluator")
        try:
            with open(args.hostfile) as handle:
                cluster = parse_hostfile(handle, args.hostfile)
        except OSError as error:
            raise LaunchError(f"--hostfile {args.hostfile}: cannot read it "
                              f"({error.strerror})") from None
        if not args.task:
            program = (["-m", args.script] if args.module else [args.script]) \
                + list(args.script_args)
            print(hostfile_commands(cluster, args.hostfile, program))
            return 0
        tasks = [_task(args.task, cluster)]

        def factory() -> Cluster:
            return cluster
    else:
        if args.task:
            raise LaunchError("--task needs --hostfile (it picks one task of that cluster)")
        workers = 1 if args.workers is None else args.workers
        ports = _ports(args.ports) if args.ports else None
        local_cluster(workers, args.ps, args.chief, args.host, ports or None)  # check now

        def factory() -> Cluster:
            return local_cluster(workers, args.ps, args.chief, args.host, ports)
    command = command_for(args)  # the script must exist here only when it runs here
    wait_for = [job.strip() for job in args.wait_for.split(",")] if args.wait_for else None
    launcher = Launcher(factory, command, tasks=tasks, main_jobs=wait_for,
                        tf1_flags=args.tf1_flags, bind="all" if args.bind_all else "task",
                        grace=args.grace, max_restarts=args.max_restarts,
                        keras_fix=not args.no_keras_fix,
                        evaluators=1 if args.evaluator else 0)
    return _supervise(launcher)


def _supervise(launcher) -> int:
    if launcher.keras_fix:
        launcher.note("Keras multi-worker fix applied to every task (Model.fit under "
                      "MultiWorkerMirroredStrategy, modern.keras_multi_worker); "
                      "--no-keras-fix turns it off")
    from tf1compat.launch.attempts import report_outcome

    return report_outcome(launcher, launcher.run())
