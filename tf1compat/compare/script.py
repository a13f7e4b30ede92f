"""A user's own TF1 script (`tf1compat compare --script SCRIPT [ARGS]`) under their TensorFlow 1
interpreter and under tf1compat, side by side, number by number.

Each side runs in its own process, in its own copy of the working directory the
user ran compare from (side_folder): it reads the inputs by the same relative
paths as under `python SCRIPT`, and what it writes stays in its copy (so a
checkpoint one side writes is never restored by the other, nor left in the user's
folder). The sides:

- `tf1`: `TF1_PYTHON SCRIPT ARGS`, the user's old environment (PYTHONPATH unset);
- `run`: `tf1compat run SCRIPT ARGS` on TF 2.21;
- `migrated` (with --migrated): `tf1compat migrate --write` on the copy of the script
  and the .py files next to it, then `python SCRIPT ARGS`.

ARGS are passed as given. A side's copy is written back as the working directory
in what it printed. The outputs are compared by tf1compat.compare.printed_numbers; the
exit code is 1 when a side failed or a number or line differs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Optional

from tf1compat.compare import printed_numbers
from tf1compat.compare.error_line import failure_line
from tf1compat.compare.side_folder import SideFolder
from tf1compat.shared.errors import Tf1CompatError

PACKAGE_ROOT = Path(__file__).resolve().parents[2]


# Importing TensorFlow 2 sets TF2_BEHAVIOR=1 in its process's environment; TensorFlow 1.15 obeys
# it and starts eager, so a TF1 interpreter started from such a process must not inherit it.
TF2_ONLY_VARIABLES = ("PYTHONPATH", "TF2_BEHAVIOR")


def tf1_environment(environ: Optional[dict[str, str]] = None) -> dict[str, str]:
    """`environ` (default: this process's) for a TensorFlow 1.x interpreter: without
    PYTHONPATH (it must not see tf1compat or TF 2.21) and without TF2_BEHAVIOR."""
    environ = os.environ if environ is None else environ
    return {key: value for key, value in environ.items() if key not in TF2_ONLY_VARIABLES}


def _environment(with_tf1compat: bool) -> dict[str, str]:
    env = tf1_environment()
    if with_tf1compat:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PACKAGE_ROOT),
                                                          os.environ.get("PYTHONPATH")]))
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    # A script outside the working directory imports its modules from their own folder:
    # no __pycache__ may be left there.
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def _migrated_copy(script: Path, folder: SideFolder, to: str = "tf1compat") -> Path:
    """The script and its sibling modules, migrated in place: in the side's copy of the
    working directory (where every .py file is a copy), or next to it for a script outside."""
    in_copy = folder.inside(script) is not None
    if in_copy:
        script = folder.inside(script)
    else:
        outside = folder.root.parent / f"{folder.root.name}-script"
        outside.mkdir()
        for sibling in script.parent.glob("*.py"):
            shutil.copy(sibling, outside / sibling.name)
        script = outside / script.name
    modules = sorted(script.parent.glob("*.py"))
    done = subprocess.run([sys.executable, "-m", "tf1compat.cli.main", "migrate", "--write",
                           "--to", to, *map(str, modules)], capture_output=True, text=True,
                          env=_environment(True))
    if done.returncode != 0:
        raise Tf1CompatError(f"tf1compat migrate failed on the copy of {script.name}: "
                             f"{failure_line(done.stderr)}")
    if in_copy:  # migrating is not what the script wrote
        folder.restamp(modules)
    return script


def execute(command: list[str], cwd: Path, env: dict[str, str],
            timeout: float) -> subprocess.CompletedProcess:
    """Runs one side's command (the default of `_run_side`)."""
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=str(cwd),
                          timeout=timeout)


def _run_side(command: list[str], folder: SideFolder, env: dict[str, str],
              timeout: float, runner=execute) -> dict[str, Any]:
    def as_user_sees(text: str) -> str:  # the side's copy shown as the working directory
        for root in {str(folder.root), os.path.realpath(folder.root)}:
            text = text.replace(root, str(folder.source))
        return text

    try:
        done = runner(command, folder.root, env, timeout)
    except subprocess.TimeoutExpired:
        outcome: dict[str, Any] = {"ok": False, "exit_code": None,
                                   "error": f"timed out after {timeout:.0f} s", "printed": ""}
    else:
        outcome = {"ok": done.returncode == 0, "exit_code": done.returncode,
                   "printed": printed_numbers.without_tensorflow_log(as_user_sees(done.stdout))}
        if done.returncode != 0:
            outcome["error"] = f"exit {done.returncode}: " \
                f"{as_user_sees(failure_line(done.stderr))[:300]}"
    outcome.update(folder.changes())
    return outcome


def _result(sides: dict[str, Any], comparisons: dict[str, printed_numbers.Comparison]) -> str:
    """What the comparison found: same, different, failed, both failed (all failed with
    --migrated), or changed your files."""
    failed = [side for side, outcome in sides.items() if not outcome["ok"]]
    if failed and len(failed) == len(sides):
        return "both failed" if len(sides) == 2 else "all failed"
    if failed:
        return "failed"
    if not all(comparison.ok for comparison in comparisons.values()):
        return "different"
    return "changed your files" if any(o["leaked"] for o in sides.values()) else "same"


def compare_script(script: Path, script_args: list[str], python: Path, migrated: bool,
                   rtol: float, atol: float, timeout: float
                   ) -> tuple[dict[str, Any], dict[str, printed_numbers.Comparison]]:
    """Runs every side, each in its own copy of the working directory, and compares each
    with the TF1 side.

    Returns:
      The JSON-ready outcome, and each compared side's Comparison.

    Raises:
      Tf1CompatError: the working directory is too big to give each side a copy.
    """
    source = Path.cwd()
    original = Path(os.path.abspath(script))
    sides: dict[str, Any] = {}
    comparisons: dict[str, Any] = {}
    plans = {"tf1": lambda path: ([str(python), path], _environment(False)),
             "run": lambda path: ([sys.executable, "-m", "tf1compat.cli.main", "run",
                                   "--no-report", "--", path], _environment(True))}
    if migrated:
        plans["migrated"] = lambda path: ([sys.executable, path], _environment(True))
    work = Path(tempfile.mkdtemp(prefix="tf1compat-compare-")).resolve()
    try:
        for side, plan in plans.items():
            folder = SideFolder.create(source, work / side, skip=work)
            inside = folder.inside(original)
            # argv[0] as the user gave it, when it leads to the side's copy
            path = str(script) if inside is not None and not script.is_absolute() else \
                str(inside or original)
            try:
                if side == "migrated":
                    migrated_script = _migrated_copy(original, folder)
                    path = path if inside is not None else str(migrated_script)
                command, env = plan(path)
            except Tf1CompatError as error:
                sides[side] = {"ok": False, "exit_code": None, "error": str(error),
                               "printed": "", **folder.changes()}
                continue
            print(f"compare --script: running {script.name} ({side})", file=sys.stderr,
                  flush=True)
            sides[side] = _run_side(command + list(script_args), folder, env, timeout)
    finally:
        kept = any(o["written"] or o["removed"] for o in sides.values())
        if not kept:
            shutil.rmtree(work, ignore_errors=True)
    for side in plans:
        if side != "tf1" and sides["tf1"]["ok"] and sides[side]["ok"]:
            comparisons[side] = printed_numbers.compare(sides["tf1"]["printed"],
                                                        sides[side]["printed"], rtol, atol)
    result = _result(sides, comparisons)
    outcome = {"script": str(original), "args": list(script_args),
               "tf1_python": str(python), "cwd": str(source), "rtol": rtol, "atol": atol,
               "ok": result == "same", "result": result, "sides": sides,
               "kept_in": str(work) if kept else None,
               "comparisons": {side: c.to_dict() for side, c in comparisons.items()}}
    return outcome, comparisons


_RESULT_LINES = {"same": "the same results", "different": "DIFFERENT",
                 "both failed": "both failed", "all failed": "all failed",
                 "changed your files": "CHANGED YOUR FILES (through a link)"}


def format_outcome(outcome: dict[str, Any],
                   comparisons: dict[str, printed_numbers.Comparison]) -> str:
    lines = [f"{Path(outcome['script']).name}: TF1 ({outcome['tf1_python']}) against "
             + " and ".join(side for side in outcome["sides"] if side != "tf1")]
    for side, result in outcome["sides"].items():
        if not result["ok"]:
            lines.append(f"  {side}: FAILED: {result['error']}")
        if result["leaked"]:
            lines.append(f"  {side}: CHANGED in {outcome['cwd']} through its link: "
                         + ", ".join(result["leaked"]))
    for side, comparison in comparisons.items():
        lines.append(f"  {side}: {'agrees' if comparison.ok else 'DIFFERS'}: "
                     + comparison.report().replace("\n", "\n  "))
        for agreement in comparison.agreements:
            lines.append(f"    line {agreement.line}: tf1 {agreement.expected} = "
                         f"{side} {agreement.actual}")
    for side, result in outcome["sides"].items():
        if result["written"] or result["removed"]:
            lines.append(f"  {side} wrote: " + (", ".join(result["written"]) or "nothing")
                         + (f"; removed: {', '.join(result['removed'])}"
                            if result["removed"] else "")
                         + f" (kept in {Path(outcome['kept_in']) / side})")
    failed = [side for side, result in outcome["sides"].items() if not result["ok"]]
    lines.append("result: " + _RESULT_LINES.get(outcome["result"],
                                                 "FAILED under " + " and ".join(failed)))
    return "\n".join(lines)
