"""`tf1compat run NOTEBOOK.ipynb`: where the executed notebook goes, then the run itself.

The executed notebook never replaces the notebook unless `--in-place` says so:
by default it goes beside it as NAME.tf1compat.ipynb, or to `--output`.
"""

from __future__ import annotations

import argparse
import os
from typing import Any, Optional

from tf1compat.notebook import NotebookError

SUFFIX = ".tf1compat.ipynb"


def output_path(notebook: str, output: Optional[str], in_place: bool) -> str:
    """Where the executed notebook is written.

    Raises:
      NotebookError: --output with --in-place, an --output that is the notebook itself
        (without --in-place), not an .ipynb, or in a folder that does not exist.
    """
    if in_place:
        if output:
            raise NotebookError(f"--output {output!r} and --in-place both say where the "
                                "executed notebook goes; accepted: one of them")
        return notebook
    if not output:
        return notebook[:-len(".ipynb")] + SUFFIX
    if not output.lower().endswith(".ipynb"):
        raise NotebookError(f"invalid --output {output!r}; accepted: a path ending in .ipynb")
    folder = os.path.dirname(os.path.abspath(output))
    if not os.path.isdir(folder):
        raise NotebookError(f"invalid --output {output!r}: the folder {folder} does not exist")
    if os.path.realpath(output) == os.path.realpath(notebook):
        raise NotebookError(f"--output {output!r} is the notebook itself; pass --in-place to "
                            "write the outputs into it")
    return output


def run_notebook(args: argparse.Namespace, spec) -> tuple[int, Optional[dict[str, Any]]]:
    """Runs the notebook of `args.script` with `spec`; returns (exit code, report)."""
    from tf1compat.notebook import require

    name = os.path.basename(args.script)
    if args.script_args:
        raise NotebookError(f"{name}: a notebook takes no arguments (received "
                            f"{args.script_args!r}); accepted: run's options before it")
    output = output_path(args.script, args.output, args.in_place)
    require("tf1compat run NOTEBOOK.ipynb")
    from tf1compat.notebook import execute

    outcome = execute.run(args.script, spec, output)
    return outcome.code, outcome.report
