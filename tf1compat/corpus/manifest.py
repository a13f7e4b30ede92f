"""The corpus's programs, read from `data/programs/*.toml` (one file per source repository)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import tomllib
from pathlib import Path
from typing import Optional

DATA = Path(__file__).resolve().parent / "data"
PROGRAMS = DATA / "programs"

SHAPES = ("tutorial", "course", "research", "company", "multi-gpu", "cluster", "queue",
          "tfrecord", "estimator", "keras", "contrib", "notebook")
PLACEHOLDERS = ("{root}", "{data}", "{tmp}", "{home}")
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
_SHA1 = re.compile(r"^[0-9a-f]{40}$")
_PROGRAM_KEYS = {"name", "path", "blob", "shape", "extras", "args", "cwd", "data", "edits",
                 "success", "deterministic", "compare", "ignore", "rtol", "atol", "run_flags",
                 "timeout", "note", "env", "cluster", "task_args"}


class ManifestError(ValueError):
    """A repository file of the corpus that does not follow data/README.md."""


@dataclasses.dataclass(frozen=True)
class SourceFile:
    path: str   # in the repository
    blob: str   # git blob id at the repository's commit


@dataclasses.dataclass(frozen=True)
class Edit:
    file: str
    old: str
    new: str


@dataclasses.dataclass(frozen=True)
class DataSet:
    maker: str
    into: str
    options: tuple[tuple[str, object], ...] = ()


@dataclasses.dataclass(frozen=True)
class Program:
    name: str
    repo: str
    commit: str
    date: str
    kind: str
    script: SourceFile
    shape: str
    extras: tuple[SourceFile, ...] = ()
    args: tuple[str, ...] = ()
    cwd: str = "script"
    data: tuple[DataSet, ...] = ()
    edits: tuple[Edit, ...] = ()
    success: str = ""
    deterministic: bool = False
    compare: str = "stdout"
    ignore: str = ""
    rtol: float = 1e-4
    atol: float = 1e-6
    run_flags: tuple[str, ...] = ()
    timeout: int = 300
    note: str = ""
    env: tuple[tuple[str, str], ...] = ()
    cluster: tuple[int, ...] = ()        # (ps tasks, workers): one process per task
    task_args: tuple[str, ...] = ()      # each task's own flags ({job}, {index}, {ps_hosts}, ...)

    @property
    def files(self) -> tuple[SourceFile, ...]:
        return (self.script, *self.extras)

    @property
    def notebook(self) -> bool:
        return self.script.path.endswith(".ipynb")

    def inputs(self) -> dict:
        """Everything that decides what the program prints under TF 1.15, as plain data."""
        fields = dataclasses.asdict(self)
        for ignored in ("note", "success", "compare", "ignore", "rtol", "atol", "timeout",
                        "deterministic"):
            fields.pop(ignored)
        return fields

    def digest(self, maker_sources: dict[str, str]) -> str:
        """sha256 of the inputs and of the data makers' code: a TF 1.15 record is for one digest."""
        payload = {"program": self.inputs(),
                   "makers": {d.maker: maker_sources.get(d.maker, "") for d in self.data}}
        if "notebook" in maker_sources:
            payload["notebook"] = maker_sources["notebook"]
        text = json.dumps(payload, sort_keys=True, default=list)
        return hashlib.sha256(text.encode()).hexdigest()


@dataclasses.dataclass(frozen=True)
class Skipped:
    repo: str
    path: str
    reason: str


@dataclasses.dataclass(frozen=True)
class Corpus:
    programs: tuple[Program, ...]
    skipped: tuple[Skipped, ...]

    def named(self, names: Optional[list[str]]) -> tuple[Program, ...]:
        if not names:
            return self.programs
        known = {p.name: p for p in self.programs}
        unknown = [n for n in names if n not in known]
        if unknown:
            raise ManifestError(f"no corpus program named {', '.join(unknown)}; "
                                f"known: {', '.join(sorted(known))}")
        return tuple(known[n] for n in names)

    @property
    def repositories(self) -> set[str]:
        return {p.repo for p in self.programs}


def load(folder: Path = PROGRAMS) -> Corpus:
    programs: list[Program] = []
    skipped: list[Skipped] = []
    for path in sorted(folder.glob("*.toml")):
        repo_programs, repo_skipped = _read_file(path)
        programs += repo_programs
        skipped += repo_skipped
    seen: dict[str, str] = {}
    for program in programs:
        if program.name in seen:
            raise ManifestError(f"program name {program.name!r} is used twice "
                                f"({seen[program.name]} and {program.repo})")
        seen[program.name] = program.repo
    return Corpus(tuple(programs), tuple(skipped))


def _read_file(path: Path) -> tuple[list[Program], list[Skipped]]:
    try:
        table = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as error:
        raise ManifestError(f"{path.name}: not TOML: {error}") from None
    repository = table.get("repository")
    if not isinstance(repository, dict):
        raise ManifestError(f"{path.name}: no [repository] table")
    repo = _need(repository, "repo", str, path.name)
    if path.stem != repo.replace("/", "+"):
        raise ManifestError(f"{path.name}: holds {repo!r}; the file must be named "
                            f"{repo.replace('/', '+')}.toml")
    commit = _need(repository, "commit", str, path.name)
    if not _SHA1.match(commit):
        raise ManifestError(f"{path.name}: commit={commit!r} is not 40 hex digits")
    common = dict(repo=repo, commit=commit, date=_need(repository, "date", str, path.name),
                  kind=_need(repository, "kind", str, path.name))
    programs = [_program(entry, common, f"{path.name}: program {i}")
                for i, entry in enumerate(table.get("program", []))]
    skipped = [Skipped(repo, _need(s, "path", str, path.name), _need(s, "reason", str, path.name))
               for s in table.get("skipped", [])]
    return programs, skipped


def _program(entry: dict, common: dict, where: str) -> Program:
    unknown = set(entry) - _PROGRAM_KEYS
    if unknown:
        raise ManifestError(f"{where}: unknown keys {sorted(unknown)}; accepted: "
                            f"{sorted(_PROGRAM_KEYS)}")
    name = _need(entry, "name", str, where)
    where = f"{where} ({name})"
    if not _NAME.match(name):
        raise ManifestError(f"{where}: name={name!r}: use lower-case letters, digits, - and _")
    shape = _need(entry, "shape", str, where)
    if shape not in SHAPES:
        raise ManifestError(f"{where}: shape={shape!r}; accepted: {', '.join(SHAPES)}")
    script = _source({"path": entry.get("path"), "blob": entry.get("blob")}, where)
    extras = tuple(_source(e, where) for e in entry.get("extras", []))
    paths = {f.path for f in (script, *extras)}
    edits = tuple(Edit(e.get("file", script.path), _need(e, "old", str, where),
                       _need(e, "new", str, where)) for e in entry.get("edits", []))
    for edit in edits:
        if edit.file not in paths:
            raise ManifestError(f"{where}: an edit of {edit.file!r}, which is not among its "
                                f"files {sorted(paths)}")
    data = tuple(DataSet(_need(d, "maker", str, where), _need(d, "into", str, where),
                         tuple(sorted((k, v) for k, v in d.items() if k not in ("maker", "into"))))
                 for d in entry.get("data", []))
    cwd = entry.get("cwd", "script")
    if cwd not in ("script", "root"):
        raise ManifestError(f"{where}: cwd={cwd!r}; accepted: 'script', 'root'")
    for pattern_key in ("success", "compare", "ignore"):
        pattern = entry.get(pattern_key, "")
        try:
            re.compile(pattern)
        except re.error as error:
            raise ManifestError(f"{where}: {pattern_key}={pattern!r} is no regular expression: "
                                f"{error}") from None
    cluster = entry.get("cluster", {})
    if cluster and (set(cluster) != {"ps", "workers"} or not all(
            isinstance(cluster[k], int) and cluster[k] >= 0 for k in cluster)
            or cluster["workers"] < 1):
        raise ManifestError(f"{where}: cluster={cluster!r}; expected {{ ps = N, workers = M }} "
                            f"with M >= 1")
    if not entry.get("success"):
        raise ManifestError(f"{where}: no success pattern (what the program prints when done)")
    return Program(
        name=name, script=script, shape=shape, extras=extras,
        args=tuple(str(a) for a in entry.get("args", ())), cwd=cwd, data=data, edits=edits,
        success=entry["success"], deterministic=bool(entry.get("deterministic", False)),
        compare=entry.get("compare", "stdout"), ignore=entry.get("ignore", ""),
        rtol=float(entry.get("rtol", 1e-4)), atol=float(entry.get("atol", 1e-6)),
        run_flags=tuple(entry.get("run_flags", ())), timeout=int(entry.get("timeout", 300)),
        note=entry.get("note", ""), env=tuple(sorted(entry.get("env", {}).items())),
        cluster=(cluster["ps"], cluster["workers"]) if cluster else (),
        task_args=tuple(str(a) for a in entry.get("task_args", ())), **common)


def _source(entry: dict, where: str) -> SourceFile:
    path = _need(entry, "path", str, where)
    blob = _need(entry, "blob", str, where)
    if not _SHA1.match(blob):
        raise ManifestError(f"{where}: blob={blob!r} of {path} is not 40 hex digits")
    return SourceFile(path, blob)


def _need(table: dict, key: str, kind: type, where: str):
    value = table.get(key)
    if not isinstance(value, kind):
        raise ManifestError(f"{where}: {key}={value!r}; expected a {kind.__name__}")
    return value
