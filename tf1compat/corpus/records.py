"""The committed data: TF 1.15's output per program (`data/tf115/NAME.json`) and the last full
measure (`data/results.json`), each with the digest of what made it."""

from __future__ import annotations

import hashlib
import inspect
import json
import re
import subprocess
from pathlib import Path
from typing import Optional

from tf1compat.corpus import makers, sources
from tf1compat.corpus.manifest import DATA, Program
from tf1compat.corpus.runs import Outcome, PACKAGE_ROOT
from tf1compat.process.atomic import write_atomically

TF115 = DATA / "tf115"
RESULTS = DATA / "results.json"
# What `run` and `migrate` are made of: the results describe these files.
_CODE_FOLDERS = ("tf1compat", "modern")
_NOT_CODE = ("tf1compat/corpus/",)


def digest(program: Program) -> str:
    """The digest of what makes the program's TF 1.15 output: its entry, its data makers' code,
    and for a notebook the code that makes it a script."""
    code = makers.maker_sources()
    if program.notebook:
        code = {**code, "notebook": inspect.getsource(sources.notebook_as_script)}
    return program.digest(code)


def read_reference(program: Program) -> Optional[dict]:
    path = TF115 / f"{program.name}.json"
    return json.loads(path.read_text()) if path.is_file() else None


def reference_outcome(program: Program) -> Optional[Outcome]:
    record = read_reference(program)
    if record is None:
        return None
    return Outcome("tf115", record["returncode"], record["stdout"], record["stderr"],
                   record["seconds"])


def write_reference(program: Program, outcome: Outcome) -> Path:
    TF115.mkdir(parents=True, exist_ok=True)
    record = {"program": program.name, "digest": digest(program),
              "made_by": "tensorflow-cpu==1.15.0 (Python 3.7)",
              "returncode": outcome.returncode, "seconds": round(outcome.seconds, 1),
              "stdout": outcome.stdout, "stderr": kept_stderr(program, outcome.stderr)}
    path = TF115 / f"{program.name}.json"
    write_atomically(path, json.dumps(record, indent=1, sort_keys=True) + "\n")
    return path


def code_digest(root: Path = PACKAGE_ROOT) -> str:
    """sha256 over the files of tf1compat and modern (the corpus tool's own files aside), as
    git tracks them: the code a measure describes."""
    listed = subprocess.run(["git", "ls-files", "-z", *_CODE_FOLDERS], cwd=root,
                            capture_output=True, check=True).stdout.decode().split("\0")
    hasher = hashlib.sha256()
    for path in sorted(p for p in listed if p and not p.startswith(_NOT_CODE)):
        file = root / path
        if file.is_file():
            hasher.update(path.encode() + b"\0" + file.read_bytes() + b"\0")
    return hasher.hexdigest()


def head_commit(root: Path = PACKAGE_ROOT) -> str:
    done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else "unknown"


def read_results() -> Optional[dict]:
    return json.loads(RESULTS.read_text()) if RESULTS.is_file() else None


def write_results(results: dict) -> None:
    write_atomically(RESULTS, json.dumps(results, indent=1, sort_keys=True) + "\n")


def kept_stderr(program: Program, text: str, tail: int = 60) -> str:
    """What a record keeps of stderr: its last `tail` lines (what a failure shows) and, where
    the program's numbers are read from both streams, every line they are read from, in order
    (a record of the tail alone compared the run's first lines with TF 1.15's later ones)."""
    lines = text.splitlines()
    kept = set(range(max(0, len(lines) - tail), len(lines)))
    if program.compare != "stdout":
        pattern = re.compile(program.compare)
        kept.update(index for index, line in enumerate(lines) if pattern.search(line))
    return "\n".join(lines[index] for index in sorted(kept))


