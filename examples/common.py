"""What every example shares: its settings, how a form is run and timed, and agreement rules.

An example module defines NAME, TITLE, `tf1(settings) -> dict`, `tf2(settings) -> dict`
and `agree(tf1_result, tf2_result) -> (bool, str)`, and ends with
`if __name__ == "__main__": common.main(__spec__.name)`. A result is a JSON-able
dict with a short "summary" for tables, "values" that are compared, and
optionally a per-epoch "history" ({"loss": [...], "accuracy": [...]}) for plots.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import json
import math
import os
import subprocess
import sys
import time
from typing import Any, Optional, Sequence

FORMS = ("tf1", "tf2")


@dataclasses.dataclass(frozen=True)
class Settings:
    """How big a run is: 'small' takes seconds (tests), 'full' is the seed's size."""

    size: str = "small"
    data: Optional[str] = None
    epochs: Optional[int] = None
    hdfs: Optional[str] = None  # an hdfs://host:port the CSV example also reads from

    def epochs_or(self, small: int, full: int) -> int:
        if self.epochs is not None:
            return self.epochs
        return small if self.size == "small" else full


def run_form(module_name: str, form: str, settings: Settings) -> dict[str, Any]:
    """Runs one form of an example in this process; returns its result and time.

    The libraries a module lists in PREIMPORT (TensorFlow unless it says
    otherwise) are imported before the clock starts: every form pays that alike.
    """
    module = importlib.import_module(module_name)
    for library in getattr(module, "PREIMPORT", ("tensorflow",)):
        importlib.import_module(library)
    start = time.perf_counter()
    result = getattr(module, form)(settings)
    return {"example": module.NAME, "form": form, "seconds": time.perf_counter() - start,
            "result": result}


def form_command(module_name: str, form: str, settings: Settings) -> list[str]:
    """The command that runs one form in its own process, printing JSON."""
    command = [sys.executable, "-m", module_name, "--form", form, "--json", "--size",
               settings.size]
    if settings.data:
        command += ["--data", settings.data]
    if settings.epochs is not None:
        command += ["--epochs", str(settings.epochs)]
    if settings.hdfs:
        command += ["--hdfs", settings.hdfs]
    return command


def exact(tf1: dict, tf2: dict, keys: Sequence[str]) -> tuple[bool, str]:
    """Agreement when the values must be identical."""
    differing = [key for key in keys if tf1["values"].get(key) != tf2["values"].get(key)]
    if differing:
        key = differing[0]
        return False, f"{key}: TF1 {tf1['values'].get(key)!r} != TF2 {tf2['values'].get(key)!r}"
    return True, "identical " + ", ".join(keys)


def _flat(value: Any) -> list[float]:
    if isinstance(value, (list, tuple)):
        return [item for part in value for item in _flat(part)]
    return [float(value)]


def close(tf1: dict, tf2: dict, tolerances: dict[str, float]) -> tuple[bool, str]:
    """Agreement within an absolute tolerance per value (lists compared element-wise)."""
    details = []
    for key, tolerance in tolerances.items():
        left, right = _flat(tf1["values"][key]), _flat(tf2["values"][key])
        if len(left) != len(right):
            return False, f"{key}: {len(left)} values in TF1, {len(right)} in TF2"
        worst = max((abs(a - b) for a, b in zip(left, right)), default=0.0)
        if math.isnan(worst) or worst > tolerance:
            return False, f"{key}: max |TF1-TF2| = {worst:.2g} > {tolerance:g}"
        details.append(f"{key} within {worst:.1g} (<= {tolerance:g})")
    return True, "; ".join(details)


def _parse(argv: Optional[Sequence[str]]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Run an example in its TF1 and TF2 forms.")
    parser.add_argument("--form", choices=(*FORMS, "both"), default="both")
    parser.add_argument("--size", choices=("small", "full"), default="full")
    parser.add_argument("--data", help="a local Fashion-MNIST .npz (default: sklearn digits)")
    parser.add_argument("--epochs", type=int)
    parser.add_argument("--hdfs", metavar="URL",
                        help="hdfs://host:port: the CSV example also reads its file from HDFS")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    return parser.parse_args(argv)


def main(module_name: str, argv: Optional[Sequence[str]] = None) -> None:
    """`python -m examples.NAME`: one form here, or both, each in its own process."""
    args = _parse(argv)
    settings = Settings(args.size, args.data, args.epochs, args.hdfs)
    if args.form != "both":
        outcome = run_form(module_name, args.form, settings)
        print(json.dumps(outcome) if args.json else
              f"{args.form}: {outcome['result']['summary']} ({outcome['seconds']:.1f} s)")
        return
    outcomes = {}
    for form in FORMS:
        done = subprocess.run(form_command(module_name, form, settings), capture_output=True,
                              text=True, env=dict(os.environ))
        if done.returncode != 0:
            sys.stderr.write(done.stderr)
            raise SystemExit(f"the {form} form failed (exit {done.returncode})")
        outcomes[form] = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"{form}: {outcomes[form]['result']['summary']} "
              f"({outcomes[form]['seconds']:.1f} s)")
    module = importlib.import_module(module_name)
    agreed, detail = module.agree(outcomes["tf1"]["result"], outcomes["tf2"]["result"])
    print(("agree: " if agreed else "DISAGREE: ") + detail)
    raise SystemExit(0 if agreed else 1)
