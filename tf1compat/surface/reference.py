"""TensorFlow 1.15's side of the probe, as committed: tf1compat/surface/data/tf115.json.

The file holds, under "names", one entry a line (`reading.describe` under TF 1.15),
and under "about" how it was made: the digest of what produced it (the dump's
code, the reference's pinned requirements, the census names), the command that
regenerates it, and the walk's counts and time. `stale()` says when the digest no
longer matches the inputs.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from typing import Any, Optional

from tf1compat.process.atomic import write_atomically

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data", "tf115.json")
CENSUS_NAMES = os.path.join(HERE, "data", "census_names.txt")
REPO_ROOT = os.path.dirname(os.path.dirname(HERE))
REQUIREMENTS = os.path.join(REPO_ROOT, "tests", "tf1_reference", "requirements.txt")
REGENERATE = "python -m tf1compat.surface.regenerate"
# What the dump's output depends on, in the digest's order.
DUMP_CODE = tuple(os.path.join(HERE, name) for name in ("dump.py", "reading.py", "spelling.py",
                                                        "call_forms.py"))


def inputs() -> tuple[str, ...]:
    return DUMP_CODE + (REQUIREMENTS, CENSUS_NAMES)


def digest(paths: Optional[tuple[str, ...]] = None) -> str:
    """sha256 over each input's path (from the repository root) and bytes."""
    hasher = hashlib.sha256()
    for path in paths or inputs():
        hasher.update(os.path.relpath(path, REPO_ROOT).encode() + b"\0")
        with open(path, "rb") as handle:
            hasher.update(handle.read() + b"\0")
    return hasher.hexdigest()


@dataclasses.dataclass
class Reference:
    """TF 1.15's entries by name, and how they were made."""

    names: dict[str, dict[str, Any]]
    about: dict[str, Any]

    def present(self) -> dict[str, dict[str, Any]]:
        """The names TF 1.15 resolves (leaving out those that raise there too)."""
        return {name: entry for name, entry in self.names.items() if entry["kind"] != "absent"}


def load(path: str = DATA) -> Reference:
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    return Reference(data["names"], data["about"])


def stale(path: str = DATA) -> Optional[str]:
    """Why the committed data no longer stands for its inputs, or None when it does."""
    if not os.path.exists(path):
        return f"{os.path.relpath(path, REPO_ROOT)} is missing: run {REGENERATE}"
    recorded = load(path).about.get("digest")
    now = digest()
    if recorded != now:
        changed = ", ".join(os.path.relpath(p, REPO_ROOT) for p in inputs())
        return (f"{os.path.relpath(path, REPO_ROOT)} was made from other inputs (digest "
                f"{recorded}, now {now}; inputs: {changed}): run {REGENERATE}")
    return None


def write(path: str, names: dict[str, dict[str, Any]], about: dict[str, Any]) -> None:
    """Sorted keys, one name a line, so a change shows as the lines of the names it touches."""
    lines = ["{", f'"about": {json.dumps(about, sort_keys=True)},', '"names": {']
    items = sorted(names.items())
    for index, (name, entry) in enumerate(items):
        comma = "," if index < len(items) - 1 else ""
        lines.append(f"{json.dumps(name)}: {json.dumps(entry, sort_keys=True)}{comma}")
    lines += ["}", "}"]
    write_atomically(path, "\n".join(lines) + "\n")
