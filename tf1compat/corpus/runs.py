"""One program run in one mode, in a fresh folder: the reference, `run`, `migrate`, `--to tf2`.

The folder holds `root/` (the repository's files at their paths, edited), `data/` (the
synthetic data), `tmp/` (scratch) and `home/` (HOME for the run, so nothing outside is read or
written: a Keras data set a maker put in `home/.keras/datasets` is found there).
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

from tf1compat.corpus import cluster_runs, makers, sources
from tf1compat.corpus.manifest import Program
from tf1compat.process.groups import kill_processes, signal_group

MODES = ("tf115", "run", "migrate", "tf2")
FOLDERS = ("root", "data", "tmp", "home")
HERE = Path(__file__).resolve().parent
PACKAGE_ROOT = HERE.parents[1]
# Variables of this process that would change what either TensorFlow does, or let the
# reference see TF 2.21's packages.
_DROPPED = ("PYTHONPATH", "TF2_BEHAVIOR", "PYTHONSTARTUP", "PYTEST_ADDOPTS",
            "PYTEST_CURRENT_TEST", "TF_USE_LEGACY_KERAS")


@dataclasses.dataclass(frozen=True)
class Outcome:
    mode: str
    returncode: Optional[int]   # None: stopped at the program's timeout
    stdout: str
    stderr: str
    seconds: float
    step: str = ""              # "migrate": the migrate command failed, not the program

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


def reference_python() -> Path:
    given = os.environ.get("TF1COMPAT_TF1_REFERENCE_PYTHON")
    if given:
        return Path(given)
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "tf1compat"
    return Path(os.environ.get("TF1COMPAT_TF1_REFERENCE_DIR", cache / "tf1-reference")) / "bin" / "python"


def reference_paths() -> list[str]:
    """Folders the reference imports from beside its venv: Keras 2 and the corpus's extras."""
    cache = reference_python().parents[2]
    keras2 = os.environ.get("TF1COMPAT_KERAS2_REFERENCE_DIR", str(cache / "keras2-reference"))
    extras = os.environ.get("TF1COMPAT_CORPUS_EXTRAS_DIR", str(cache / "corpus-extras"))
    return [p for p in (extras, keras2) if os.path.isdir(p)]


def prepare(program: Program, base: Path) -> tuple[Path, dict[str, str]]:
    """Lays out the program and its data under `base`; returns the script and the places
    (the folders, and a cluster program's task addresses)."""
    folders = {name: str(base / name) for name in FOLDERS}
    if program.cluster:
        folders.update(cluster_runs.addresses(program))
    for folder in folders.values():
        os.makedirs(folder, exist_ok=True)
    script = sources.lay_out(program, base / "root", folders)
    for data in program.data:
        makers.make(data.maker, Path(sources.fill(data.into, folders)), dict(data.options))
    return script, folders


def environment(program: Program, folders: dict[str, str], reference: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _DROPPED}
    env.update(HOME=folders["home"], MPLBACKEND="Agg", PYTHONHASHSEED="0",
               PYTHONDONTWRITEBYTECODE="1", TF_CPP_MIN_LOG_LEVEL="2", PYTHONUNBUFFERED="1")
    if reference:
        env["PYTHONPATH"] = os.pathsep.join(reference_paths())
    else:
        env["PYTHONPATH"] = str(PACKAGE_ROOT)
    for key, value in program.env:
        env[key] = sources.fill(value, folders)
    return env


def run(program: Program, mode: str, keep: Optional[Path] = None) -> Outcome:
    """Runs the program in `mode` in a fresh folder (kept at `keep` when given)."""
    if mode not in MODES:
        raise ValueError(f"mode {mode!r}; accepted: {', '.join(MODES)}")
    base = Path(tempfile.mkdtemp(prefix=f"corpus-{program.name}-"))
    try:
        script, folders = prepare(program, base)
        cwd = script.parent if program.cwd == "script" else base / "root"
        env = environment(program, folders, reference=(mode == "tf115"))
        args = [sources.fill(a, folders) for a in program.args]
        start = time.monotonic()
        if mode in ("migrate", "tf2"):
            migrated = _migrate(mode, base / "root", env, program.timeout)
            if migrated is not None:
                return _normal(dataclasses.replace(
                    migrated, seconds=time.monotonic() - start), folders)
        command = _command(program, mode, script, args)
        if program.cluster:
            outcome = _execute_cluster(program, mode, command, cwd, env, folders)
        else:
            outcome = _execute(mode, command, cwd, env, program.timeout)
        return _normal(dataclasses.replace(outcome, seconds=time.monotonic() - start), folders)
    finally:
        if keep is not None:
            shutil.rmtree(keep, ignore_errors=True)
            shutil.move(str(base), keep)
        else:
            shutil.rmtree(base, ignore_errors=True)


def _command(program: Program, mode: str, script: Path, args: list[str]) -> list[str]:
    # A program given a device map under run gets soft placement in the other modes: the
    # machine has no GPU, and TF 1.15 itself ran such a program only so.
    launcher = [str(HERE / "soft_placement.py")] if program.run_flags else []
    if mode == "tf115":
        return [str(reference_python()), *launcher, str(script), *args]
    if mode == "run":
        return [sys.executable, "-m", "tf1compat.cli.main", "run", *program.run_flags,
                str(script), *args]
    return [sys.executable, *launcher, str(script), *args]


def _migrate(mode: str, root: Path, env: dict, timeout: int) -> Optional[Outcome]:
    """Migrates the laid-out files in place; an Outcome only when migrate itself failed."""
    to = ["--to", "tf2"] if mode == "tf2" else []
    outcome = _execute(mode, [sys.executable, "-m", "tf1compat.cli.main", "migrate", "--write",
                              *to, str(root)], root, env, timeout)
    return dataclasses.replace(outcome, step="migrate") if outcome.returncode != 0 else None


def _execute(mode: str, command: list[str], cwd: Path, env: dict, timeout: int) -> Outcome:
    # Its own process group, so a program's children (queue threads are threads, but ps/worker
    # tasks and data loaders are processes) stop with it at the timeout.
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                               start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=timeout)
        return Outcome(mode, process.returncode, _text(stdout), _text(stderr), 0.0)
    except subprocess.TimeoutExpired:
        signal_group(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate()
        return Outcome(mode, None, _text(stdout), _text(stderr), 0.0)
    finally:
        if process.poll() is None:
            kill_processes([process])


def _execute_cluster(program: Program, mode: str, command: list[str], cwd: Path, env: dict,
                     places: dict[str, str]) -> Outcome:
    def command_for(job: str, index: int) -> list[str]:
        task = {**places, "job": job, "index": str(index)}
        return command + [sources.fill(arg, task) for arg in program.task_args]
    code, stdout, stderr = cluster_runs.run_tasks(program, command_for, cwd, env,
                                                  program.timeout, places["tmp"])
    return Outcome(mode, code, stdout, stderr, 0.0)


def _text(raw: Optional[bytes]) -> str:
    return (raw or b"").decode("utf-8", "replace")


def _normal(outcome: Outcome, folders: dict[str, str]) -> Outcome:
    """The run's folders written back as {root}, {data}, {tmp}, {home}, and the interpreters'
    own folders as {tf115} and {python}: the record says the same on every machine."""
    places = {key: value for key, value in folders.items() if key in FOLDERS}
    places.update(tf115=str(reference_python().parents[1]), python=sys.prefix)
    if "ps_hosts" in folders:  # a cluster's addresses change from run to run
        places.update({key: value for key, value in folders.items() if key not in FOLDERS
                       and key not in ("ps_hosts", "worker_hosts")})

    def clean(text: str) -> str:
        for key, path in sorted(places.items(), key=lambda kv: -len(kv[1])):
            text = text.replace(path, "{" + key + "}")
        return text
    return dataclasses.replace(outcome, stdout=clean(outcome.stdout),
                               stderr=clean(outcome.stderr))
