"""`tf1compat launch --slurm` and `--emit slurm`: launch's task layout on a Slurm cluster.

    salloc --ntasks=3 tf1compat launch --slurm --ps 1 --workers 2 --tf1-flags train.py
    tf1compat launch --slurm --slurm-args="--ntasks-per-node=2 -p cpu" --workers 4 train.py
    tf1compat launch --emit slurm --ps 1 --workers 2 --tf1-flags train.py > job.sh
"""

from __future__ import annotations

import argparse
import os
import shlex

from tf1compat.shared.errors import LaunchError

EMIT_FORMATS = ("slurm", "tfjob")


def add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--slurm", action="store_true",
                        help="run every task as a Slurm task of one srun step, inside the "
                             "allocation of salloc/sbatch (or one srun asks for with "
                             "--slurm-args); hosts from the allocation's node list")
    parser.add_argument("--slurm-args", metavar="ARGS", default=None,
                        help="with --slurm: more srun options, one quoted string written with "
                             "'=' (--slurm-args=\"--nodes=2 -p cpu\"); with --emit slurm: "
                             "the #SBATCH options")
    parser.add_argument("--port-base", type=int, default=None, metavar="PORT",
                        help="with --slurm: a task listens on PORT + its local rank on its node "
                             "(default 20000 + 32 x (job id mod 1000))")
    parser.add_argument("--emit", choices=EMIT_FORMATS, default=None,
                        help="write (to stdout), without running anything, an sbatch script "
                             "that runs this layout with --slurm (slurm), or a Kubeflow TFJob "
                             "manifest for kubectl apply (tfjob, with --image)")


def _slurm_args(args: argparse.Namespace) -> list[str]:
    if args.slurm_args is None:
        return []
    try:
        return shlex.split(args.slurm_args)
    except ValueError as error:
        raise LaunchError(f"invalid --slurm-args: received {args.slurm_args!r} ({error}); "
                          "accepted: srun options in one shell-quoted string") from None


def check(args: argparse.Namespace) -> None:
    """Options that have no meaning on Slurm, named (one line each)."""
    if args.slurm and args.emit:
        raise LaunchError("--emit slurm writes a script that uses --slurm: give one of them")
    local_only = [name for name, given in (
        ("--hostfile", args.hostfile), ("--task", args.task), ("--ports", args.ports),
        ("--host", args.host != "127.0.0.1")) if given]
    if args.max_restarts < 0:
        raise LaunchError(f"invalid --max-restarts: received {args.max_restarts}; accepted: 0 "
                          "or more")
    if local_only:
        raise LaunchError(f"{'/'.join(local_only)} cannot go with --slurm or --emit slurm: "
                          "Slurm gives the hosts and launch the ports (--port-base)")
    if args.port_base is not None and not 1024 <= args.port_base <= 65535:
        raise LaunchError(f"invalid --port-base: received {args.port_base}; accepted: a port "
                          "from 1024 to 65535")
    if args.slurm_args is not None and not (args.slurm or args.emit):
        raise LaunchError("--slurm-args needs --slurm or --emit slurm")
    if args.port_base is not None and not (args.slurm or args.emit):
        raise LaunchError("--port-base needs --slurm or --emit slurm")


def task_layout(args: argparse.Namespace) -> list[tuple[str, int]]:
    from tf1compat.shared.slurm_layout import layout

    workers = 1 if args.workers is None else args.workers
    if workers < 0 or args.ps < 0:
        raise LaunchError(f"invalid --workers/--ps: received {workers}/{args.ps}; accepted: "
                          "counts of 0 or more")
    tasks = layout(workers, args.ps, args.chief, args.evaluator)
    if not any(job != "evaluator" for job, _ in tasks):
        raise LaunchError("the layout has no task: give --workers N (and --ps, --chief)")
    return tasks


def run(args: argparse.Namespace, command: list[str]) -> int:
    from tf1compat.launch.attempts import report_outcome
    from tf1compat.launch.slurm_launcher import SlurmLauncher
    from tf1compat.shared.slurm_layout import Allocation

    tasks = task_layout(args)
    srun_args = _slurm_args(args)
    allocation = Allocation.from_environment(os.environ)
    if allocation is None and args.slurm_args is None:
        raise LaunchError("--slurm outside a Slurm allocation (SLURM_JOB_ID is not set): run "
                          "it inside salloc or sbatch, or pass --slurm-args=\"...\" for srun "
                          f"to ask for one ({len(tasks)} tasks)")
    if allocation is not None:
        allocation.check_room(tasks, overcommit=any(a in ("-O", "--overcommit")
                                                    for a in srun_args))
    wait_for = [job.strip() for job in args.wait_for.split(",")] if args.wait_for else None
    # each attempt a new srun step in the same allocation, on the nodes it still has
    launcher = SlurmLauncher(tasks, command, srun_args=srun_args, tf1_flags=args.tf1_flags,
                             bind="all" if args.bind_all else "task",
                             keras_fix=not args.no_keras_fix, port_base=args.port_base,
                             grace=args.grace, main_jobs=wait_for,
                             max_restarts=args.max_restarts)
    return report_outcome(launcher, launcher.run())


def launch_options(args: argparse.Namespace) -> list[str]:
    """The launch options of this command line that the batch script passes on."""
    options = []
    if args.chief:
        options.append("--chief")
    if args.ps:
        options += ["--ps", str(args.ps)]
    options += ["--workers", str(1 if args.workers is None else args.workers)]
    for flag, given in (("--evaluator", args.evaluator), ("--tf1-flags", args.tf1_flags),
                        ("--bind-all", args.bind_all), ("--no-keras-fix", args.no_keras_fix)):
        if given:
            options.append(flag)
    if args.port_base is not None:
        options += ["--port-base", str(args.port_base)]
    if args.wait_for:
        options += ["--wait-for", args.wait_for]
    if args.grace != 10.0:
        options += ["--grace", f"{args.grace:g}"]
    if args.max_restarts:
        options += ["--max-restarts", str(args.max_restarts)]
    from tf1compat.cli.launch_serving import serving_options

    return options + serving_options(args)


def emit(args: argparse.Namespace) -> int:
    from tf1compat.launch.slurm_batch import batch_script

    tasks = task_layout(args)
    script = args.script
    if not args.module and os.path.exists(script):
        script = os.path.abspath(script)
    program = (["-m", script] if args.module else [script]) + list(args.script_args)
    # a restart needs the allocation to outlive a failed node
    sbatch_args = (["--no-kill"] if args.max_restarts else []) + _slurm_args(args)
    print(batch_script(tasks, launch_options(args) + program, sbatch_args), end="")
    return 0
