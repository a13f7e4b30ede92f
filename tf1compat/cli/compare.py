"""`tf1compat compare`: every example in its TF1 and TF2 form, each in its own process, side by side.

With --script, a user's own TF1 script under their TF1 interpreter and under tf1compat
instead (compare_script.py).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Optional

from tf1compat.cli import compare_script, compare_tf2
from tf1compat.cli.error_line import failure_line
from tf1compat.shared.errors import Tf1CompatError
from tf1compat.cli import docs_pages

FORMS = ("tf1", "tf2")


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "compare", epilog=docs_pages.epilog("compare"),
        help="run every example in its TF1 and TF2 form and compare the results",
        description="Run each example twice, as TF1 code (tf1compat) and as TF2 code (modern), "
                    "each in its own process, and print the results side by side. Exits 1 "
                    "when a pair disagrees or a form fails. With --script SCRIPT [ARGS] "
                    "--tf1-python PATH: run your own TF1 script under that TensorFlow 1 "
                    "interpreter and under `tf1compat run` (and, with --migrated, after "
                    "migrate), and compare every number it printed. Example: tf1compat compare "
                    "--tf1-python ~/tf1/bin/python --script train.py --steps 10 (compare's "
                    "options go before --script SCRIPT; everything after it is the script's)",
        allow_abbrev=False)
    parser.add_argument("--only", action="append", metavar="NAME",
                        help="run only this example (repeat, or give a comma list)")
    parser.add_argument("--examples", metavar="DIR",
                        help="the examples folder (default: the checkout's examples/)")
    parser.add_argument("--size", choices=("small", "full"), default="full",
                        help="'small' runs in seconds (the tests use it); default full")
    parser.add_argument("--data", metavar="PATH", help="a local Fashion-MNIST .npz for training")
    parser.add_argument("--hdfs", metavar="URL",
                        help="hdfs://host:port: the CSV example also reads its file from HDFS")
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="forms run at once (default 1: timings stay comparable)")
    parser.add_argument("--timeout", type=float, default=900, metavar="S",
                        help="seconds one form may take (default 900)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    parser.add_argument("--plot", metavar="FILE.png",
                        help="draw TF1 vs TF2 training curves (loss, accuracy per epoch)")
    compare_script.add_arguments(parser)
    parser.set_defaults(handler=run)


def find_examples(given: Optional[str]) -> Path:
    """The examples folder: --examples, else the checkout's, else ./examples."""
    candidates = [Path(given)] if given else [
        Path(__file__).resolve().parents[2] / "examples", Path.cwd() / "examples"]
    for candidate in candidates:
        if (candidate / "__init__.py").is_file() and (candidate / "common.py").is_file():
            return candidate.resolve()
    where = given or " or ".join(str(c) for c in candidates)
    raise Tf1CompatError(f"no examples folder at {where}; pass --examples DIR, the examples/ "
                         "folder of a tf1compat checkout")


def _import_package(folder: Path):
    parent = str(folder.parent)
    if parent not in sys.path:
        sys.path.insert(0, parent)
    return importlib.import_module(folder.name)


def _selected(available: tuple[str, ...], only: Optional[list[str]]) -> list[str]:
    if not only:
        return list(available)
    wanted = [name.strip() for item in only for name in item.split(",") if name.strip()]
    unknown = [name for name in wanted if name not in available]
    if unknown:
        raise Tf1CompatError(f"--only {unknown[0]}: no such example; accepted: "
                             + ", ".join(available))
    return wanted


def _run_form(folder: Path, name: str, form: str, args: argparse.Namespace) -> dict[str, Any]:
    command = [sys.executable, "-m", f"{folder.name}.{name}", "--form", form, "--json",
               "--size", args.size]
    if args.data:
        command += ["--data", args.data]
    if args.hdfs:
        command += ["--hdfs", args.hdfs]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(folder.parent), env.get("PYTHONPATH")]))
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    start = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env,
                              cwd=str(folder.parent), timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return {"ok": False, "error": f"timed out after {args.timeout:.0f} s",
                "wall": time.perf_counter() - start}
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        last = failure_line(done.stderr) if done.stderr.strip() else "no output"
        return {"ok": False, "error": f"exit {done.returncode}: {last}",
                "wall": time.perf_counter() - start}
    outcome = json.loads(lines[-1])
    outcome.update(ok=True, wall=time.perf_counter() - start)
    return outcome


def _compare(package, name: str, outcomes: dict[str, dict]) -> dict[str, Any]:
    row = {"example": name, "title": getattr(_module(package, name), "TITLE", name)}
    for form in FORMS:
        outcome = outcomes[form]
        row[form] = outcome.get("result") if outcome["ok"] else None
        row[f"{form}_seconds"] = outcome.get("seconds")
        row[f"{form}_error"] = outcome.get("error")
    if all(outcomes[form]["ok"] for form in FORMS):
        agreed, detail = _module(package, name).agree(row["tf1"], row["tf2"])
        row.update(agreement="agree" if agreed else "DISAGREE", detail=detail)
    else:
        failed = [f"{form}: {outcomes[form]['error']}" for form in FORMS
                  if not outcomes[form]["ok"]]
        row.update(agreement="FAILED", detail="; ".join(failed))
    return row


def _module(package, name: str):
    return importlib.import_module(f"{package.__name__}.{name}")


def _cell(row: dict, form: str) -> str:
    if row[form] is None:
        return "failed: " + str(row[f"{form}_error"])
    return row[form]["summary"]


def format_table(rows: list[dict]) -> str:
    header = ("example", "TF1 result", "TF2 result", "agreement", "TF1 s", "TF2 s")
    widths = (22, 40, 40, 34, 6, 6)
    table = [header]
    for row in rows:
        seconds = [f"{row[f'{f}_seconds']:.1f}" if row[f"{f}_seconds"] is not None else "-"
                   for f in FORMS]
        table.append((row["example"], _cell(row, "tf1"), _cell(row, "tf2"),
                      f"{row['agreement']}: {row['detail']}", *seconds))
    lines = []
    for index, cells in enumerate(table):
        wrapped = [textwrap.wrap(str(cell), width) or [""] for cell, width in zip(cells, widths)]
        for line in range(max(len(w) for w in wrapped)):
            lines.append("  ".join((w[line] if line < len(w) else "").ljust(width)
                                   for w, width in zip(wrapped, widths)).rstrip())
        if index == 0:
            lines.append("  ".join("-" * width for width in widths))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    if args.script is not None:
        if args.init_checkpoint and not args.migrated_tf2:
            raise Tf1CompatError(f"--init-checkpoint {args.init_checkpoint} goes with "
                                 "--migrated-tf2")
        if args.migrated_tf2:
            return compare_tf2.run(args)
        return compare_script.run(args)
    for name in ("tf1_python", "migrated", "migrated_tf2", "init_checkpoint"):
        if getattr(args, name):
            raise Tf1CompatError(f"--{name.replace('_', '-')} goes with --script SCRIPT")
    if args.plot:  # before the examples run, not after minutes of them
        from tf1compat.cli.compare_plot import require_matplotlib

        require_matplotlib()
    folder = find_examples(args.examples)
    package = _import_package(folder)
    names = _selected(tuple(package.EXAMPLES), args.only)
    rows = []
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {(name, form): pool.submit(_run_form, folder, name, form, args)
                   for name in names for form in FORMS}
        for number, name in enumerate(names, 1):
            outcomes = {form: futures[(name, form)].result() for form in FORMS}
            row = _compare(package, name, outcomes)
            rows.append(row)
            times = ", ".join(f"{form} {outcomes[form]['wall']:.1f} s" for form in FORMS)
            print(f"[{number}/{len(names)}] {name}: {row['agreement']} ({times})",
                  file=sys.stderr, flush=True)
    if args.plot:
        from tf1compat.cli.compare_plot import plot_histories

        drawn = plot_histories(rows, args.plot)
        print(f"plotted {drawn} training example(s) to {args.plot}", file=sys.stderr)
    print(json.dumps(rows, indent=2) if args.json else format_table(rows))
    return 0 if all(row["agreement"] == "agree" for row in rows) else 1
