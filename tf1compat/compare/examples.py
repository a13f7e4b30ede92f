"""The examples side by side: each example in its TF1 form (tf1compat) and its TF2 form
(modern), each in its own process, one row per example (`tf1compat compare`)."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any, Optional

from tf1compat.compare.error_line import failure_line
from tf1compat.shared.errors import Tf1CompatError

FORMS = ("tf1", "tf2")


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


def import_package(folder: Path):
    parent = str(folder.parent)
    if parent not in sys.path:
        sys.path.insert(0, parent)
    return importlib.import_module(folder.name)


def selected(available: tuple[str, ...], only: Optional[list[str]]) -> list[str]:
    if not only:
        return list(available)
    wanted = [name.strip() for item in only for name in item.split(",") if name.strip()]
    unknown = [name for name in wanted if name not in available]
    if unknown:
        raise Tf1CompatError(f"--only {unknown[0]}: no such example; accepted: "
                             + ", ".join(available))
    return wanted


def run_form(folder: Path, name: str, form: str, size: str, data: Optional[str],
             hdfs: Optional[str], timeout: float) -> dict[str, Any]:
    """One example in one form, in its own process: its JSON outcome, with ok and wall."""
    command = [sys.executable, "-m", f"{folder.name}.{name}", "--form", form, "--json",
               "--size", size]
    if data:
        command += ["--data", data]
    if hdfs:
        command += ["--hdfs", hdfs]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(folder.parent), env.get("PYTHONPATH")]))
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    start = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env,
                              cwd=str(folder.parent), timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"ok": False, "error": f"timed out after {timeout:.0f} s",
                "wall": time.perf_counter() - start}
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        last = failure_line(done.stderr) if done.stderr.strip() else "no output"
        return {"ok": False, "error": f"exit {done.returncode}: {last}",
                "wall": time.perf_counter() - start}
    outcome = json.loads(lines[-1])
    outcome.update(ok=True, wall=time.perf_counter() - start)
    return outcome


def compare_row(package, name: str, outcomes: dict[str, dict]) -> dict[str, Any]:
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
