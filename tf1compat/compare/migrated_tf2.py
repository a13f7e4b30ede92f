"""`tf1compat compare --tf1-python PATH --migrated-tf2 [--init-checkpoint P] --script SCRIPT`:
a TF1 script under TensorFlow 1 and its `migrate --to tf2` rewrite under plain python,
started from the same variable values, number by number.

Random initializers draw other numbers under TF 1.15 and TF2, so the sides share one TF1
checkpoint of the initial values:

- `tf1`: the script under TF1_PYTHON through tf1_initial_checkpoint.py, which saves every
  global variable right after the script's first `global_variables_initializer()` run (the
  checkpoint of a run stopped after 0 steps; the run then goes on, as it would have) or,
  with --init-checkpoint, restores that checkpoint there;
- `tf2`: `tf1compat migrate --to tf2 --write` on a copy of the script and the .py files next
  to it, run with TF1_INIT_CHECKPOINT naming the checkpoint, which the migrated code loads
  by TF1 variable name where TF1 initialized (modern.tf1_checkpoint).

Each side runs in its own copy of the working directory (tf1compat.compare.script); their printed
numbers are compared by tf1compat.compare.printed_numbers within --rtol/--atol.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any, Optional

from tf1compat.compare import printed_numbers
from tf1compat.compare import script as compare_script
from tf1compat.compare.side_folder import SideFolder
from tf1compat.shared.errors import Tf1CompatError
from tf1compat.shared.initial_checkpoint import INIT_CHECKPOINT_VARIABLE

BOOTSTRAP = Path(__file__).resolve().parent / "tf1_initial_checkpoint.py"
_LEFTOVERS = ("compat.v1", "tf1compat")


def checked_prefix(given: str) -> Path:
    """The --init-checkpoint prefix, absolute; raises naming the value when no TF1 checkpoint
    has that prefix."""
    prefix = Path(os.path.abspath(given))
    if not Path(f"{prefix}.index").is_file():
        raise Tf1CompatError(f"--init-checkpoint {given}: no {given}.index; give the prefix a "
                             "TF1 Saver wrote (model.ckpt-N, without .index or .data-*)")
    return prefix


def _side_path(script: Path, original: Path, folder: SideFolder) -> str:
    inside = folder.inside(original)
    return str(script) if inside is not None and not script.is_absolute() else \
        str(inside or original)


def compare_migrated_tf2(script: Path, script_args: list[str], python: Path,
                         init_checkpoint: Optional[str], rtol: float, atol: float,
                         timeout: float, runner=compare_script.execute
                         ) -> tuple[dict[str, Any], dict[str, printed_numbers.Comparison]]:
    """Runs the `tf1` and `tf2` sides and compares them. `runner(command, cwd, env, timeout)`
    runs the TF1 side (the tests give the recorded TF 1.15 reference).

    Returns the JSON-ready outcome and the tf2 side's Comparison (when both ran)."""
    given = checked_prefix(init_checkpoint) if init_checkpoint else None
    source = Path.cwd()
    original = Path(os.path.abspath(script))
    work = Path(tempfile.mkdtemp(prefix="tf1compat-compare-tf2-")).resolve()
    prefix = given or work / "initial" / "model.ckpt-0"
    sides: dict[str, Any] = {}
    converted: dict[str, Any] = {}
    try:
        folder = SideFolder.create(source, work / "tf1", skip=work)
        command = [str(python), str(BOOTSTRAP), "--restore" if given else "--save",
                   str(prefix), _side_path(script, original, folder), *script_args]
        print(f"compare --script: running {script.name} (tf1)", file=sys.stderr, flush=True)
        sides["tf1"] = compare_script._run_side(command, folder, compare_script._environment(
            False), timeout, runner)
        if sides["tf1"]["ok"] and not Path(f"{prefix}.index").is_file():
            sides["tf1"].update(ok=False, error="the script never ran "
                                "tf.global_variables_initializer(), so no initial checkpoint "
                                "was written; give one with --init-checkpoint")
        folder = SideFolder.create(source, work / "tf2", skip=work)
        try:
            migrated = compare_script._migrated_copy(original, folder, to="tf2")
        except Tf1CompatError as error:
            sides["tf2"] = {"ok": False, "exit_code": None, "error": str(error),
                            "printed": "", **folder.changes()}
        else:
            code = migrated.read_text()
            converted = {"converted": not any(left in code for left in _LEFTOVERS)}
            path = _side_path(script, original, folder) if folder.inside(original) else \
                str(migrated)
            env = compare_script._environment(True)
            env[INIT_CHECKPOINT_VARIABLE] = str(prefix)
            print(f"compare --script: running {script.name} (tf2)", file=sys.stderr,
                  flush=True)
            sides["tf2"] = {**compare_script._run_side([sys.executable, path, *script_args],
                                                       folder, env, timeout), **converted}
    finally:
        kept = any(o["written"] or o["removed"] for o in sides.values())
        if not kept:
            shutil.rmtree(work, ignore_errors=True)
    comparisons = {}
    if sides["tf1"]["ok"] and sides["tf2"]["ok"]:
        comparisons["tf2"] = printed_numbers.compare(sides["tf1"]["printed"],
                                                     sides["tf2"]["printed"], rtol, atol)
    result = compare_script._result(sides, comparisons)
    outcome = {"script": str(original), "args": list(script_args), "tf1_python": str(python),
               "cwd": str(source), "rtol": rtol, "atol": atol, "ok": result == "same",
               "result": result, "init_checkpoint": str(given) if given else
               "written by the tf1 side after its initializer run", "sides": sides,
               "kept_in": str(work) if kept else None,
               "comparisons": {side: c.to_dict() for side, c in comparisons.items()}}
    return outcome, comparisons
