"""`tf1compat compare --script SCRIPT [ARGS]`: a user's own TF1 script under their TensorFlow 1
interpreter and under tf1compat, side by side, number by number.

Each side runs in its own process with its own scratch folder as the working
directory (so a checkpoint one side writes is never restored by the other):

- `tf1`: `TF1_PYTHON SCRIPT ARGS`, the user's old environment (PYTHONPATH unset);
- `run`: `tf1compat run SCRIPT ARGS` on TF 2.21;
- `migrated` (with --migrated): the script and the .py files next to it copied into
  the scratch folder, `tf1compat migrate --write` on the copy, then `python SCRIPT ARGS`.

An argument naming an existing file or folder (from the current directory) is passed
as an absolute path; `{scratch}` in an argument is each side's own scratch folder, and
that folder is written back as `{scratch}` in what the side printed. The outputs are
compared by tf1compat.printed_numbers; the exit code is 1 when a side failed or a
number or line differs.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Optional

from tf1compat import printed_numbers
from tf1compat.shared.errors import Tf1CompatError

PACKAGE_ROOT = Path(__file__).resolve().parents[2]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--script", nargs=argparse.REMAINDER, metavar="SCRIPT [ARGS]",
                        help="compare this TF1 script (and its arguments; put them after "
                             "'--' when one is also an option of compare) under --tf1-python "
                             "and under `tf1compat run`")
    parser.add_argument("--tf1-python", metavar="PATH",
                        help="with --script: the python of a TensorFlow 1.x environment")
    parser.add_argument("--migrated", action="store_true",
                        help="with --script: also run it after `tf1compat migrate` (a scratch "
                             "copy) under plain python")
    parser.add_argument("--rtol", type=float, default=printed_numbers.DEFAULT_RTOL,
                        help=f"with --script: relative float tolerance (default "
                             f"{printed_numbers.DEFAULT_RTOL:g}); integers must be equal")
    parser.add_argument("--atol", type=float, default=printed_numbers.DEFAULT_ATOL,
                        help=f"with --script: absolute float tolerance (default "
                             f"{printed_numbers.DEFAULT_ATOL:g})")


def _options_after_script(args: argparse.Namespace) -> tuple[Path, list[str]]:
    """The script and its arguments; compare's own options given after the script apply too."""
    tokens = list(args.script)
    head, tail = (tokens[:tokens.index("--")], tokens[tokens.index("--") + 1:]) \
        if "--" in tokens else (tokens, [])
    late = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    for flag in ("--tf1-python", "--rtol", "--atol", "--timeout"):
        late.add_argument(flag, type=float if flag != "--tf1-python" else str)
    for flag in ("--migrated", "--json"):
        late.add_argument(flag, action="store_true", default=None)
    given, rest = late.parse_known_args(head)
    for name, value in vars(given).items():
        if value is not None:
            setattr(args, name, value)
    script_and_args = rest + tail
    if not script_and_args:
        raise Tf1CompatError("--script needs the script to compare: --script SCRIPT [ARGS]")
    script = Path(script_and_args[0])
    if not script.is_file():
        raise Tf1CompatError(f"--script {script}: no such script file")
    return script.resolve(), script_and_args[1:]


def _check(args: argparse.Namespace) -> Path:
    if not args.tf1_python:
        raise Tf1CompatError("--script needs --tf1-python PATH: the python of a TensorFlow 1.x "
                             "environment (e.g. a Python 3.7 venv with tensorflow-cpu==1.15.0)")
    python = Path(args.tf1_python)
    if not (python.is_file() and os.access(python, os.X_OK)):
        raise Tf1CompatError(f"--tf1-python {args.tf1_python}: not an executable file; give "
                             "the python of a TensorFlow 1.x environment")
    for name in ("rtol", "atol"):
        if getattr(args, name) < 0:
            raise Tf1CompatError(f"--{name} {getattr(args, name)}: must be >= 0")
    return python


def _script_args(script_args: list[str], scratch: Path) -> list[str]:
    out = []
    for arg in script_args:
        if "{scratch}" in arg:
            out.append(arg.replace("{scratch}", str(scratch)))
        elif not arg.startswith("-") and os.path.exists(arg):
            out.append(os.path.abspath(arg))
        else:
            out.append(arg)
    return out


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
    return env


def _migrated_copy(script: Path, folder: Path) -> Path:
    """The script and its sibling modules in `folder`, migrated in place."""
    folder.mkdir(parents=True)
    for sibling in script.parent.glob("*.py"):
        shutil.copy(sibling, folder / sibling.name)
    done = subprocess.run([sys.executable, "-m", "tf1compat.cli.main", "migrate", "--write",
                           str(folder)], capture_output=True, text=True,
                          env=_environment(True))
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise Tf1CompatError(f"tf1compat migrate failed on the copy of {script.name}: {last}")
    return folder / script.name


def _run_side(command: list[str], scratch: Path, env: dict[str, str],
              timeout: float) -> dict[str, Any]:
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env,
                              cwd=str(scratch), timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"ok": False, "exit_code": None, "error": f"timed out after {timeout:.0f} s",
                "printed": ""}
    printed = printed_numbers.without_tensorflow_log(done.stdout.replace(str(scratch),
                                                                         "{scratch}"))
    outcome: dict[str, Any] = {"ok": done.returncode == 0, "exit_code": done.returncode,
                               "printed": printed}
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()
                 and not line.startswith("  ")] or ["no output on stderr"]
        outcome["error"] = f"exit {done.returncode}: {lines[-1][:300]}"
    return outcome


def compare_script(script: Path, script_args: list[str], python: Path, migrated: bool,
                   rtol: float, atol: float, timeout: float
                   ) -> tuple[dict[str, Any], dict[str, printed_numbers.Comparison]]:
    """Runs every side and compares each with the TF1 side.

    Returns:
      The JSON-ready outcome, and each compared side's Comparison.
    """
    sides: dict[str, Any] = {}
    comparisons: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="tf1compat-compare-") as work_dir:
        work = Path(work_dir)
        plans = {"tf1": lambda scratch: ([str(python), str(script)], _environment(False)),
                 "run": lambda scratch: ([sys.executable, "-m", "tf1compat.cli.main", "run",
                                          "--no-report", str(script)], _environment(True))}
        if migrated:
            plans["migrated"] = lambda scratch: (
                [sys.executable, str(_migrated_copy(script, scratch / "migrated"))],
                _environment(True))
        for side, plan in plans.items():
            scratch = work / side
            scratch.mkdir()
            try:
                command, env = plan(scratch)
            except Tf1CompatError as error:
                sides[side] = {"ok": False, "exit_code": None, "error": str(error),
                               "printed": ""}
                continue
            print(f"compare --script: running {script.name} ({side})", file=sys.stderr,
                  flush=True)
            sides[side] = _run_side(command + _script_args(script_args, scratch), scratch,
                                    env, timeout)
    for side in plans:
        if side != "tf1" and sides["tf1"]["ok"] and sides[side]["ok"]:
            comparisons[side] = printed_numbers.compare(sides["tf1"]["printed"],
                                                        sides[side]["printed"], rtol, atol)
    ok = all(outcome["ok"] for outcome in sides.values()) and \
        all(comparison.ok for comparison in comparisons.values())
    outcome = {"script": str(script), "args": script_args, "tf1_python": str(python),
               "rtol": rtol, "atol": atol, "ok": ok, "sides": sides,
               "comparisons": {side: c.to_dict() for side, c in comparisons.items()}}
    return outcome, comparisons


def format_outcome(outcome: dict[str, Any],
                   comparisons: dict[str, printed_numbers.Comparison]) -> str:
    lines = [f"{Path(outcome['script']).name}: TF1 ({outcome['tf1_python']}) against "
             + " and ".join(side for side in outcome["sides"] if side != "tf1")]
    for side, result in outcome["sides"].items():
        if not result["ok"]:
            lines.append(f"  {side}: FAILED: {result['error']}")
    for side, comparison in comparisons.items():
        lines.append(f"  {side}: {'agrees' if comparison.ok else 'DIFFERS'}: "
                     + comparison.report().replace("\n", "\n  "))
        for agreement in comparison.agreements:
            lines.append(f"    line {agreement.line}: tf1 {agreement.expected} = "
                         f"{side} {agreement.actual}")
    lines.append("result: " + ("the same results" if outcome["ok"] else "DIFFERENT"))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    script, script_args = _options_after_script(args)
    python = _check(args)
    outcome, comparisons = compare_script(script, script_args, python, args.migrated,
                                          args.rtol, args.atol, args.timeout)
    print(json.dumps(outcome, indent=2) if args.json else format_outcome(outcome, comparisons))
    return 0 if outcome["ok"] else 1
