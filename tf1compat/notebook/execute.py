"""`tf1compat run NOTEBOOK.ipynb`: the code cells run in order in one Jupyter kernel, TF1 served.

nbclient drives an ipykernel started with the extension loaded
(`kernelspec.kernel_json`) and the run's spec in its environment, so the cells
get what a script under `run` gets: the same roots, device map, session options
and report (the kernel rewrites it after each cell). Each cell's printed output
is echoed as it completes (stdout to stdout, stderr to stderr), as a script's
would be. The first failing cell stops the run: its traceback as the notebook
shows it, then one line naming the cell. The executed notebook, outputs and
error included, is written whatever happened.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import sys
import tempfile
from typing import Any, Optional

from tf1compat.notebook import kernelspec
from tf1compat.notebook.extension import ENV_SPEC

_RUN_KERNEL = "tf1compat-run"
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
# A kernel that loads TensorFlow takes seconds to answer, minutes on a loaded machine; a kernel
# that dies is noticed at once (jupyter_client polls it), so this only bounds a hung start.
STARTUP_TIMEOUT_S = 1800


@dataclasses.dataclass
class NotebookRun:
    """How the run went: the exit code, the kernel's report, the failing cell if one failed."""

    code: int
    report: Optional[dict[str, Any]]
    failed_cell: Optional[int] = None  # counted from 1, every cell from the top
    message: str = ""  # the report's status, when not "finished"
    kernel_error: str = ""  # why the kernel ended, when it died
    kernel_log: str = ""  # the end of what it printed outside any cell, then


def plain(text: str) -> str:
    """Text without the terminal colours of IPython's tracebacks."""
    return _ANSI.sub("", text)


def _echo(cell) -> None:
    """What the cell printed, to our stdout and stderr, as a script's prints would go."""
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream":
            stream = sys.stderr if output.get("name") == "stderr" else sys.stdout
            stream.write(output.get("text", ""))
            stream.flush()


def _error_of(cell) -> tuple[str, str, str]:
    """(error name, value, traceback as plain text) of the cell's error output."""
    for output in cell.get("outputs", []):
        if output.get("output_type") == "error":
            return (output.get("ename", "Error"), output.get("evalue", ""),
                    plain("\n".join(output.get("traceback", []))))
    return "Error", "", ""


def run(path: str, spec, output: str) -> NotebookRun:
    """Runs the notebook at `path` with `spec`'s TF1 serving, and writes the executed notebook
    to `output` (unless the kernel could not serve TF1: then no cell ran).

    Raises:
      NotebookError: the notebook cannot be run (`reading.read` says why).
    """
    import nbformat

    from tf1compat.notebook import reading

    notebook = reading.read(path)
    with tempfile.TemporaryDirectory(prefix="tf1compat-run-") as folder:
        spec.report_path = os.path.join(folder, "report.json")
        spec_path = os.path.join(folder, "spec.json")
        with open(spec_path, "w") as handle:
            handle.write(spec.to_json())
        outcome = _execute(path, notebook, folder, spec_path)
        report = None
        if os.path.exists(spec.report_path):
            with open(spec.report_path) as handle:
                report = json.load(handle)
    name = os.path.basename(path)
    if report is not None and "not_started" in report:  # the kernel said why, in one line
        print(f"tf1compat run: {name}: cannot start: {report['not_started']}", file=sys.stderr)
        return NotebookRun(1, report, message="not started")
    if outcome.kernel_error:
        if outcome.kernel_log:
            print(outcome.kernel_log, file=sys.stderr)
        print(f"tf1compat run: {name}: the {outcome.message} ({outcome.kernel_error})",
              file=sys.stderr)
    nbformat.write(notebook, output)
    if report is not None:
        report.update(script=path, exit_code=outcome.code,
                      status=outcome.message or "finished")
    outcome.report = report
    return outcome


def _execute(path: str, notebook, folder: str, spec_path: str) -> NotebookRun:
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import AsyncKernelManager
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, DeadKernelError

    kernels = os.path.join(folder, "kernels")
    kernelspec.write(kernels, _RUN_KERNEL)
    manager = AsyncKernelManager(kernel_name=_RUN_KERNEL,
                                 kernel_spec_manager=KernelSpecManager(kernel_dirs=[kernels]))
    client = NotebookClient(notebook, km=manager, timeout=None,
                            startup_timeout=STARTUP_TIMEOUT_S,
                            resources={"metadata": {"path": os.path.dirname(
                                os.path.abspath(path))}})
    name = os.path.basename(path)
    number = None  # the cell running, counted from 1
    # The kernel's own output (its log, output from outside any cell) goes to a file: what
    # the cells print reaches the notebook, and is echoed here once.
    log_path = os.path.join(folder, "kernel.log")
    try:
        with open(log_path, "w") as log, client.setup_kernel(
                env=dict(os.environ, **{ENV_SPEC: spec_path}), stdout=log, stderr=log):
            reply = client.wait_for_reply(client.kc.kernel_info())
            if reply is not None and "language_info" in reply["content"]:
                notebook.metadata["language_info"] = reply["content"]["language_info"]
            for index, cell in enumerate(notebook.cells):
                number = index + 1
                try:
                    client.execute_cell(cell, index)
                except CellExecutionError:
                    _echo(cell)
                    ename, evalue, trace = _error_of(cell)
                    if trace:
                        print(trace, file=sys.stderr)
                    count = cell.get("execution_count")
                    label = f" (In [{count}])" if count else ""
                    print(f"tf1compat run: {name}: cell {index + 1}{label} raised {ename}: "
                          f"{evalue}", file=sys.stderr)
                    return NotebookRun(1, None, index + 1,
                                       f"raised {ename} in cell {index + 1}")
                _echo(cell)
    except (DeadKernelError, RuntimeError) as error:  # the kernel died, at start or in a cell
        where = f"in cell {number}" if number is not None else "at start"
        with open(log_path, errors="replace") as log:
            tail = [line for line in log.read().splitlines()[-20:]
                    if "running over TCP without encryption" not in line]
        return NotebookRun(1, None, None, f"kernel died {where}",
                           str(error) or type(error).__name__, "\n".join(tail))
    return NotebookRun(0, None)
