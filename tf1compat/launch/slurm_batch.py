"""The sbatch script of `tf1compat launch --emit slurm`: the same layout, run later by Slurm.

The script asks for one Slurm task per launch task (`--ntasks`) plus the options given
with `--slurm-args`, and runs `tf1compat launch --slurm` with the same layout inside the
allocation, with this Python, in this folder, with this PYTHONPATH (the nodes are assumed
to share the file system, as they must for the script itself).
"""

from __future__ import annotations

import os
import shlex
import sys
from typing import Optional, Sequence

from tf1compat.shared.slurm_layout import describe_layout


def batch_script(tasks: Sequence[tuple[str, int]], launch_args: Sequence[str],
                 sbatch_args: Sequence[str], *, python: Optional[str] = None,
                 cwd: Optional[str] = None, pythonpath: Optional[str] = None) -> str:
    python = python or sys.executable
    cwd = cwd or os.getcwd()
    pythonpath = os.environ.get("PYTHONPATH", "") if pythonpath is None else pythonpath
    lines = ["#!/bin/bash",
             f"# tf1compat launch --emit slurm: {len(tasks)} tasks ({describe_layout(tasks)}),",
             "# one Slurm task each; submit with: sbatch THIS_FILE",
             "#SBATCH --job-name=tf1compat-launch",
             f"#SBATCH --ntasks={len(tasks)}"]
    if sbatch_args:  # one line: an option and its value may be two words ("-p cpu")
        lines.append("#SBATCH " + " ".join(shlex.quote(arg) for arg in sbatch_args))
    lines += ["set -euo pipefail", f"cd {shlex.quote(cwd)}"]
    if pythonpath:
        lines.append(f"export PYTHONPATH={shlex.quote(pythonpath)}")
    command = [python, "-m", "tf1compat.cli.main", "launch", "--slurm", *launch_args]
    lines.append("exec " + " ".join(shlex.quote(part) for part in command))
    return "\n".join(lines) + "\n"
