"""`%load_ext tf1compat`: the notebook's own code gets TF1 from that cell on.

The run's hooks (`tf1compat.runner.served_hooks`) are installed in the kernel:
`import tensorflow as tf` in a cell gives the TF1 module, sessions get the
run's options, libraries keep TF2. Cells have no file of their own (their
globals have no `__file__`, and ipykernel compiles each one under a temporary
name), so the import hook is told that the shell's user namespace and the files
its compiler made for cells are user code; nothing else changes who is.

Under `tf1compat run NOTEBOOK.ipynb` the kernel is given the run's spec in
`TF1COMPAT_RUN_SPEC`: the command line's options and device map, and where to
write the report, which is rewritten after every cell so that `run` has it
whatever happens to the kernel. `%tf1compat report` prints it on demand.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Callable, Optional

from tf1compat.process.atomic import write_atomically
from tf1compat.runner import is_runner_frame

ENV_SPEC = "TF1COMPAT_RUN_SPEC"
_USAGE = "usage: %tf1compat report [--json FILE]"


class NotebookServing:
    """The hooks serving TF1 in this kernel, and the report of what they saw."""

    def __init__(self, shell, hooks, spec_path: Optional[str]):
        self.shell = shell
        self.hooks = hooks
        self.spec_path = spec_path
        self.cause: Optional[str] = None

    def report(self) -> dict[str, Any]:
        return self.hooks.report(0, "running", self.cause)

    def write_report(self, path: str) -> None:
        # `run` never reads half a report
        write_atomically(path, json.dumps(self.report(), indent=2))

    def after_cell(self, result) -> None:
        """post_run_cell: keeps the run's report current (what the cell's error means too)."""
        error = getattr(result, "error_in_exec", None)
        if error is not None:
            from tf1compat.runner.bootstrap import known_cause

            self.cause = known_cause(error, self.hooks.spec.device_map)
        if self.hooks.spec.report_path:
            self.write_report(self.hooks.spec.report_path)

    def magic(self, line: str) -> None:
        """%tf1compat report [--json FILE]: what TF1 names this notebook used, and how."""
        from IPython.core.error import UsageError

        from tf1compat.runner.report import format_report

        words = line.split()
        if not words or words[0] != "report" or len(words) not in (1, 3) or \
                (len(words) == 3 and words[1] != "--json"):
            raise UsageError(f"{_USAGE} (received: {line!r})")
        if len(words) == 3:
            self.write_report(words[2])
        lines = format_report(self.report()).split("\n")
        print(f"tf1compat: TF1 served to {os.path.basename(self.hooks.spec.script)} so far",
              *lines[1:], sep="\n")


_serving: Optional[NotebookServing] = None


def _notebook_path() -> str:
    """The notebook's path as the server names it (Jupyter Server sets JPY_SESSION_NAME)."""
    name = os.environ.get("JPY_SESSION_NAME") or "notebook"
    return os.path.join(os.getcwd(), os.path.basename(name))


def _is_cell(shell) -> Callable[[str], bool]:
    """Whether a file name is one the shell's compiler gave a cell ('Cell In[3]' in tracebacks)."""
    compiler = shell.compile

    def is_cell(filename: str) -> bool:
        return compiler.format_code_name(filename) is not None

    return is_cell


def _cell_where(shell) -> Callable[[Callable[[str], bool]], Callable[[], str]]:
    """Names the user code creating a session as IPython's tracebacks do: 'Cell In[3], line 2'."""

    def make(is_user_file: Callable[[str], bool]) -> Callable[[], str]:
        def where() -> str:
            frame = sys._getframe(1)
            while frame is not None:
                filename = frame.f_code.co_filename
                if is_user_file(filename):
                    label = shell.compile.format_code_name(filename)
                    return f"{label[0]} {label[1]}, line {frame.f_lineno}" if label \
                        else f"{filename}:{frame.f_lineno}"
                frame = frame.f_back
            return "?"
        return where

    return make




def _show_traceback(shell, etype, value, tb, tb_offset=None) -> None:
    """Shows a cell's error as IPython does, less the run's own frames at its end (the TF1
    module raising "tf.X is not in TF 2.21"): the error shows at the cell's line, as
    `tf1compat run` shows it for a script."""
    last_other = None
    entry = tb
    while entry is not None:
        if not is_runner_frame(entry.tb_frame.f_code.co_filename):
            last_other = entry
        entry = entry.tb_next
    if last_other is not None:
        last_other.tb_next = None
    shell.showtraceback((etype, value, tb), tb_offset=tb_offset, running_compiled_code=True)


def _spec(spec_path: Optional[str]):
    from tf1compat.runner import RunSpec

    if spec_path:
        with open(spec_path) as handle:
            return RunSpec.from_json(handle.read())
    return RunSpec(script=_notebook_path(), args=[], options={})


def load(shell) -> None:
    """Installs the hooks in this kernel and registers `%tf1compat` (once per kernel)."""
    global _serving
    if _serving is not None:
        return
    # Read once, and not passed on: a kernel a cell starts is not this run's.
    spec_path = os.environ.pop(ENV_SPEC, None)
    spec = _spec(spec_path)
    if "tensorflow" in sys.modules:
        print("tf1compat: warning: tensorflow was imported before %load_ext tf1compat; names "
              "imported before keep TF2, and legacy Keras may not be in use (restart the "
              "kernel and load tf1compat first)", file=sys.stderr)
    from tf1compat.runner import served_hooks
    from tf1compat.runner.bootstrap import prepare_environment
    from tf1compat.shared.errors import Tf1CompatError

    try:
        hooks = served_hooks.install(spec, os.path.dirname(os.path.abspath(spec.script)),
                                     prepare_environment(), where=_cell_where(shell))
    except Tf1CompatError as error:  # a missing TensorFlow internal, a bad option
        if spec.report_path:  # under `run`, which says why: no cell runs without TF1
            with open(spec.report_path, "w") as handle:
                json.dump({"not_started": str(error)}, handle)
            os._exit(1)
        print(f"tf1compat: cannot serve TF1 to this notebook: {error}", file=sys.stderr)
        return
    hooks.import_hook.add_cells(shell.user_ns, _is_cell(shell))
    _serving = NotebookServing(shell, hooks, spec_path)
    shell.register_magic_function(_serving.magic, magic_kind="line", magic_name="tf1compat")
    shell.events.register("post_run_cell", _serving.after_cell)
    shell.set_custom_exc((Exception,), _show_traceback)
    if spec.report_path:
        _serving.write_report(spec.report_path)
