"""The records behind tests/tf1_reference/recorded.py: what identifies a TF 1.15 run (Key),
and what it printed and wrote (Record), stored as recorded/<digest>.json.

Paths of this run are written as placeholders in everything that is hashed or stored: the
run's working folder as <<cwd>>, this checkout as <<repo>>, every other folder an argument
names as <<dir0>>, <<dir1>>, ... in the order the arguments name them. So the same probe in
another temporary folder has the same digest, and a replayed record names this run's paths.
"""

from __future__ import annotations

import ast
import base64
import dataclasses
import hashlib
import json
import re
import subprocess
from pathlib import Path
from typing import Iterable, Optional

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
RECORDS = HERE / "recorded"
REQUIREMENTS = HERE / "requirements.txt"
# The reference's Keras 2 (setup.sh installs it beside TF 1.15): in the digest of its runs only.
KERAS2_REQUIREMENTS = HERE / "keras2-requirements.txt"
FORMAT = 2  # bumped when what the digest covers changes: every record is then stale
STDERR_KEPT = 4000
# The variables of the environment that change what TF 1.15 computes or prints on a CPU
# machine. Not every TF_ variable: a test process's environment also holds what earlier tests
# in the same worker set in it (TF_FORCE_GPU_ALLOW_GROWTH from a portable configure step,
# TF_USE_LEGACY_KERAS), which TF 1.15 does not read. Variables a caller sets for its probe
# on purpose are named by the caller (`probe_env`) and count too.
ENV_READ_BY_TF1 = frozenset({
    "TF_CONFIG", "CUDA_VISIBLE_DEVICES", "PYTHONHASHSEED", "TF_DETERMINISTIC_OPS",
    "TF_CUDNN_DETERMINISTIC", "TF_XLA_FLAGS", "TF_NUM_INTRAOP_THREADS",
    "TF_NUM_INTEROP_THREADS", "OMP_NUM_THREADS", "KMP_AFFINITY", "KMP_BLOCKTIME",
    "TF_ENABLE_AUTO_MIXED_PRECISION", "TF_CPP_VMODULE"})
# TF 2.21's own switches and log levels: never part of a digest, even when a probe sets them.
_ENV_IGNORED = frozenset({"TF_CPP_MIN_LOG_LEVEL", "TF_CPP_MAX_VLOG_LEVEL",
                          "TF_ENABLE_ONEDNN_OPTS", "TF2_BEHAVIOR"})
# What TF 1.15 writes that no test reads and that would bloat the records: event files (with
# wall times, so never the same twice), graph dumps and meta graphs (a resumed Estimator
# rebuilds its graph). Left out of records and of the digests of folders alike.
_NOT_RECORDED = re.compile(r"(^events\.out\.tfevents\.|^graph\.pbtxt$|\.meta$)")
_PYTEST_TEMPORARY = re.compile(r"/pytest-of-[^/\s'\"]+/pytest-\d+/[^\s'\"]*")
_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf)")


def _env_relevant(name: str, probe_env: Iterable[str]) -> bool:
    return (name in ENV_READ_BY_TF1 or name in probe_env) and name not in _ENV_IGNORED


def _files_under(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    if path.is_dir():
        return sorted(p for p in path.rglob("*")
                      if p.is_file() and not _NOT_RECORDED.search(p.name))
    return []


def _sibling_imports(script: Path) -> list[Path]:
    """The modules next to a script that it imports (corpus scripts share flag modules)."""
    try:
        tree = ast.parse(script.read_text())
    except (SyntaxError, UnicodeDecodeError, OSError):
        return []
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return sorted(p for p in (script.parent / f"{name}.py" for name in names) if p.is_file())


def _path_argument(arg: str) -> Optional[str]:
    """The absolute path an argument gives (itself, or the value of `--name=PATH`), or None."""
    value = arg.split("=", 1)[1] if arg.startswith("--") and "=" in arg else arg
    return value if value.startswith("/") and "\n" not in value else None


@dataclasses.dataclass
class Key:
    """What identifies one reference run, and this run's placeholders."""

    roots: list[tuple[str, str]]  # (real folder, placeholder), longest folder first
    args: list[str]               # as given
    digest: str
    identity: dict = dataclasses.field(default_factory=dict)  # what the digest is of

    @classmethod
    def of(cls, args: list[str], cwd: Path, env: dict[str, str],
           probe_env: Iterable[str] = (), requirements: Iterable[Path] = ()) -> "Key":
        roots = [(str(cwd.resolve()), "<<cwd>>"), (str(REPO_ROOT), "<<repo>>")]
        paths = []
        for value in filter(None, map(_path_argument, args)):
            path = Path(value).resolve()
            paths.append(path)
            if not any(path == Path(r) or Path(r) in path.parents for r, _ in roots):
                folder = path if path.is_dir() or not path.suffix else path.parent
                roots.append((str(folder), f"<<dir{len(roots) - 2}>>"))
        roots.sort(key=lambda item: -len(item[0]))
        key = cls(roots, args, "")
        inputs, sources = {}, [key.normalise(a) for a in args]
        for path in paths:
            for file in _files_under(path) + (_sibling_imports(path) if path.suffix == ".py"
                                              else []):
                content = key.normalise_bytes(file.read_bytes())
                inputs[key.normalise(str(file))] = hashlib.sha256(content).hexdigest()
                if file == path and path.suffix == ".py":
                    sources.append(content.decode("utf-8", "replace"))
        key._refuse_temporary_paths(sources)
        identity = {
            "format": FORMAT, "args": [key.normalise(a) for a in args], "inputs": inputs,
            "env": {k: key.normalise(v) for k, v in sorted(env.items())
                    if _env_relevant(k, frozenset(probe_env))},
            "requirements": hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest(),
        }
        for extra in requirements:  # a run that needs more than TF 1.15 (Keras 2): its pins too
            identity[f"requirements:{extra.name}"] = hashlib.sha256(extra.read_bytes()).hexdigest()
        key.identity = identity
        key.digest = hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()
        return key

    @staticmethod
    def _refuse_temporary_paths(texts: list[str]) -> None:
        """A probe that names one of pytest's temporary folders in its source or arguments,
        outside the folders its arguments give, would have another digest in every run."""
        for text in texts:
            found = _PYTEST_TEMPORARY.search(text)
            if found:
                raise AssertionError(
                    f"a TF 1.15 reference run names the temporary path {found.group(0)!r} in "
                    "its source or arguments: pass that folder as an argument of its own, so "
                    "the record's digest covers what it holds rather than where it is")

    def normalise(self, text: str) -> str:
        for real, placeholder in self.roots:
            text = text.replace(real, placeholder)
        return text

    def normalise_bytes(self, data: bytes) -> bytes:
        try:
            return self.normalise(data.decode("utf-8")).encode("utf-8")
        except UnicodeDecodeError:
            return data

    def localise(self, text: str) -> str:
        for real, placeholder in self.roots:
            text = text.replace(placeholder, real)
        return text

    def _watched(self, cwd: Path, outputs: Optional[Iterable[str]]) -> list[Path]:
        if outputs is not None:
            return [cwd / p for p in outputs]
        return [Path(value) for value in filter(None, map(_path_argument, self.args))]

    def snapshot(self, cwd: Path, outputs: Optional[Iterable[str]]) -> dict[Path, str]:
        return {file: hashlib.sha256(file.read_bytes()).hexdigest()
                for path in self._watched(cwd, outputs) for file in _files_under(path)}

    def changed_since(self, before: dict[Path, str], cwd: Path,
                      outputs: Optional[Iterable[str]]) -> list[Path]:
        after = self.snapshot(cwd, outputs)
        return [file for file, digest in after.items() if before.get(file) != digest]


@dataclasses.dataclass
class Record:
    path: Path
    data: dict

    def replay(self, key: Key, cwd: Path) -> subprocess.CompletedProcess:
        for name, content in self.data["files"].items():
            target = Path(key.localise(name))
            target.parent.mkdir(parents=True, exist_ok=True)
            if "text" in content:
                target.write_text(key.localise(content["text"]))
            else:
                target.write_bytes(base64.b64decode(content["base64"]))
        return subprocess.CompletedProcess(
            ["tf1.15-record", self.path.name, *key.args], self.data["returncode"],
            key.localise(self.data["stdout"]), key.localise(self.data["stderr"]))

    def differs_from(self, key: Key, live: subprocess.CompletedProcess, rtol: float,
                     atol: float, varies: Iterable[str] = ()) -> Optional[str]:
        """What the live run printed that the record does not hold, or None; lines that
        match a `varies` pattern (a pid, a port) are not compared."""
        if live.returncode != self.data["returncode"]:
            return (f"exit status {live.returncode}, recorded {self.data['returncode']}; "
                    f"stderr: {live.stderr[-1500:]}")
        patterns = [re.compile(pattern) for pattern in varies]

        def kept(text: str) -> str:
            return "\n".join(line for line in text.splitlines()
                              if not any(pattern.search(line) for pattern in patterns))
        return _text_difference(kept(self.data["stdout"]), kept(key.normalise(live.stdout)),
                                rtol, atol)


def _text_difference(recorded: str, live: str, rtol: float, atol: float) -> Optional[str]:
    """The first place two outputs differ: numbers beyond rtol/atol, or other text."""
    recorded_numbers, live_numbers = _NUMBER.findall(recorded), _NUMBER.findall(live)
    if _NUMBER.sub("#", recorded) != _NUMBER.sub("#", live) or \
            len(recorded_numbers) != len(live_numbers):
        for index, (a, b) in enumerate(zip(recorded.splitlines(), live.splitlines())):
            if _NUMBER.sub("#", a) != _NUMBER.sub("#", b):
                return f"line {index + 1} is {b[:200]!r}, recorded {a[:200]!r}"
        return "the output has another number of lines or numbers"
    for index, (a, b) in enumerate(zip(recorded_numbers, live_numbers)):
        x, y = float(a), float(b)
        if x != x and y != y:
            continue
        exact = not any(c in a + b for c in ".eEni")
        if (exact and a.lstrip("+") != b.lstrip("+")) or abs(x - y) > atol + rtol * abs(x):
            return f"number {index + 1} of stdout is {b}, recorded {a} (rtol {rtol}, atol {atol})"
    return None


def load(digest: str) -> Optional[Record]:
    path = RECORDS / f"{digest[:24]}.json"
    if not path.exists():
        return None
    data = json.loads(path.read_text())
    return Record(path, data) if data["digest"] == digest else None


def latest_for(case: str) -> Optional[Record]:
    """The record a test's reference run had before (a record names the run it was made by):
    the same run of the same test, else another run of that test."""
    test = case.rsplit("#", 1)[0]
    same_test = None
    for path in sorted(RECORDS.glob("*.json")):
        data = json.loads(path.read_text())
        if data["case"] == case:
            return Record(path, data)
        if same_test is None and data["case"].rsplit("#", 1)[0] == test:
            same_test = Record(path, data)
    return same_test


def save(key: Key, case: str, result: subprocess.CompletedProcess, files: list[Path]) -> Path:
    stored = {}
    for file in files:
        data = file.read_bytes()
        try:
            stored[key.normalise(str(file))] = {"text": key.normalise(data.decode("utf-8"))}
        except UnicodeDecodeError:
            stored[key.normalise(str(file))] = {"base64": base64.b64encode(data).decode()}
    RECORDS.mkdir(exist_ok=True)
    path = RECORDS / f"{key.digest[:24]}.json"
    path.write_text(json.dumps({
        "digest": key.digest, "case": case, "identity": key.identity,
        "requirements": [line for line in REQUIREMENTS.read_text().splitlines()
                         if line and not line.startswith("#")],
        "args": [key.normalise(a) for a in key.args], "returncode": result.returncode,
        "stdout": key.normalise(result.stdout),
        "stderr": key.normalise(result.stderr[-STDERR_KEPT:]), "files": stored,
    }, indent=1, sort_keys=True) + "\n")
    return path


def missing_message(case: str, key: Key, regenerate: str) -> str:
    test = case.rsplit("#", 1)[0]
    earlier = latest_for(case)
    why = (f"its record {earlier.path.name} was made from other inputs: "
           f"{identity_difference(earlier.data.get('identity', {}), key.identity)}"
           if earlier is not None else "no run of this test was ever recorded")
    return (f"no TensorFlow 1.15 record for reference run {case} (digest {key.digest[:24]}): "
            f"{why}. Write it with the reference interpreter: {regenerate} '{test}'")


def identity_difference(recorded: dict, now: dict) -> str:
    """What changed between the inputs a record was made from and this run's, in words."""
    changes = []
    for part in ("format", "requirements"):
        if recorded.get(part) != now.get(part):
            changes.append(f"{part} {now.get(part)!r:.40} (recorded {recorded.get(part)!r:.40})")
    if recorded.get("args") != now.get("args"):
        changes.append(f"arguments {now.get('args')!r:.300} (recorded "
                       f"{recorded.get('args')!r:.300})")
    for part in ("inputs", "env"):
        before, after = recorded.get(part, {}), now.get(part, {})
        for name in sorted(set(before) | set(after)):
            if name not in before:
                changes.append(f"{part[:-1] if part == 'inputs' else part} {name} is new"
                               + (f" (={after[name]!r:.80})" if part == "env" else ""))
            elif name not in after:
                changes.append(f"{part[:-1] if part == 'inputs' else part} {name} is gone")
            elif before[name] != after[name]:
                changes.append(f"{'input' if part == 'inputs' else 'env'} {name} changed"
                               + (f" to {after[name]!r:.80}" if part == "env" else ""))
    return "; ".join(changes) or "nothing the record names (a record of an older format)"
