"""Runs the probe: each name served under `run` and after `migrate`, held against TF 1.15.

Two processes on TF 2.21, started together: `serve_run` (every name in the TF1 view
of a user script) and `serve_migrate` (every name in one migrated script, under
plain Python). This process only compares what they wrote with the committed
TF 1.15 data (`reference`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from typing import Any, Iterable, Optional

from tf1compat.shared.errors import Tf1CompatError
from tf1compat.surface import compare
from tf1compat.surface.reference import Reference

PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIDES = ("run", "migrate")
# Set by `run` itself (bootstrap) where a script is run; `migrate`'s output runs without.
_RUN_ONLY = ("TF_USE_LEGACY_KERAS",)


class ProbeError(Tf1CompatError, RuntimeError):
    """A side of the probe did not finish."""


@dataclasses.dataclass
class Outcome:
    """One name: TF 1.15's entry, each side's entry and verdict."""

    name: str
    tf115: dict[str, Any]
    entries: dict[str, dict[str, Any]]
    verdicts: dict[str, compare.Verdict]

    def same(self, side: str) -> bool:
        return self.verdicts[side].status == compare.SAME

    def reason(self, side: str) -> str:
        verdict = self.verdicts[side]
        return f"{verdict.status}: {verdict.detail}" if verdict.detail else verdict.status


def sample(names: Iterable[str], size: Optional[int]) -> list[str]:
    """`size` names chosen by their digest (the same ones on every machine), or all."""
    names = sorted(set(names))
    if size is None or size >= len(names):
        return names
    chosen = sorted(names, key=lambda name: hashlib.sha256(name.encode()).hexdigest())[:size]
    return sorted(chosen)


def _environment(side: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if side == "run" or key not in _RUN_ONLY}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [PACKAGE_ROOT, env.get("PYTHONPATH")]))
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    env["PYTHONWARNINGS"] = "ignore"
    return env


def serve(names: list[str], timeout: float = 1800, tf115: Optional[dict[str, Any]] = None
          ) -> dict[str, dict[str, dict[str, Any]]]:
    """{side: {name: entry}} from the two TF 2.21 processes, run side by side (the migrate
    side also gets TF 1.15's entries, for the calls of names whose signatures differ)."""
    with tempfile.TemporaryDirectory(prefix="tf1compat-surface-") as folder:
        payloads = {"run": names,
                    "migrate": names if tf115 is None else
                    {"names": names, "tf115": {name: tf115[name] for name in names}}}
        started = {}
        for side in SIDES:
            names_path = os.path.join(folder, f"{side}-names.json")
            with open(names_path, "w", encoding="utf-8") as handle:
                json.dump(payloads[side], handle)
            out = os.path.join(folder, f"{side}.json")
            log = open(os.path.join(folder, f"{side}.log"), "w+", encoding="utf-8")
            command = [sys.executable, "-m", f"tf1compat.surface.serve_{side}", names_path, out]
            started[side] = (subprocess.Popen(command, env=_environment(side), cwd=folder,
                                              stdout=log, stderr=subprocess.STDOUT), out, log)
        served = {}
        for side, (process, out, log) in started.items():
            try:
                code = process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
                code = f"killed after {timeout:.0f} s"
            log.seek(0)
            tail = log.read()[-3000:]
            log.close()
            if code != 0:
                raise ProbeError(f"the probe's {side} side exited {code}:\n{tail}")
            with open(out, encoding="utf-8") as handle:
                served[side] = json.load(handle)
        return served


def _verdict(tf115: dict[str, Any], entry: dict[str, Any]) -> compare.Verdict:
    verdict = compare.compare(tf115, entry)
    calls = entry.get("calls")
    if verdict.status == compare.SIGNATURE and calls is not None:
        if not calls["problems"]:  # migrate rewrote every TF1 call form into one TF 2 takes
            return compare.Verdict(compare.SAME, f"by its calls ({calls['forms']} forms "
                                                 f"migrated and bound); by name: "
                                                 f"{verdict.detail}")
        verdict = compare.Verdict(verdict.status,
                                  f"{verdict.detail}; calls: {calls['problems'][0]}")
    said = [note for note in entry.get("findings", ()) if not note.startswith("changed")]
    if verdict.status != compare.SAME and said:  # what migrate said of the line is the reason
        return compare.Verdict(verdict.status, f"{verdict.detail}; migrate: {said[0]}")
    return verdict


def outcomes(reference: Reference, served: dict[str, dict[str, dict[str, Any]]]
             ) -> list[Outcome]:
    """One outcome per name both sides served an entry for, by name."""
    found = []
    for name in sorted(served["run"]):
        tf115 = reference.names[name]
        entries = {side: served[side][name] for side in SIDES}
        found.append(Outcome(name, tf115, entries,
                             {side: _verdict(tf115, entries[side]) for side in SIDES}))
    return found


def run_probe(reference: Reference, size: Optional[int] = None, extra: Iterable[str] = (),
              timeout: float = 1800) -> list[Outcome]:
    """The outcomes of TF 1.15's names (a sample of `size`, plus `extra`), both sides.

    Raises:
      ProbeError: a name of `extra` that TF 1.15 does not have, or a side that failed.
    """
    present = reference.present()
    unknown = [name for name in extra if name not in present]
    if unknown:
        raise ProbeError(f"--name {unknown[0]!r}: not a name TF 1.15 has in the data "
                         f"(a name of the walk or of the census names, in "
                         f"tf1compat/surface/data/tf115.json)")
    names = sorted(set(sample(present, size)) | set(extra))
    return outcomes(reference, serve(names, timeout, reference.names))
