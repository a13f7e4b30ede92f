"""The legacy script corpus: how to run each script, and how to compare what it prints.

Each script is TF1 code as it was written for TF 1.x, printing deterministic
results (seeded, fixed data; where threads make the order vary, only what the
order cannot change). `expected/NAME.out` holds what it printed under
`tf1compat run`, checked by hand against the arithmetic in the script.
Scripts that read data get `{data}`: a folder of tiny synthetic data sets in
the real on-disk formats (synthetic_data.py), made by the tests, never
downloaded. Used by the tests (tests/test_legacy_corpus.py) and by
count_runnable.py.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Optional

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parent.parent
DEVICE_MAP = ["--device-map", "gpu:*=cpu:*"]


@dataclasses.dataclass(frozen=True)
class Case:
    script: str
    args: tuple[str, ...] = ()    # "{tmp}": a scratch folder; "{data}": the synthetic data
    run_flags: tuple[str, ...] = ()  # flags for `tf1compat run` (e.g. the device map)
    extras: tuple[str, ...] = ()  # modules next to the script that it imports

    @property
    def files(self) -> tuple[str, ...]:
        return (self.script, *self.extras)


CASES = (
    Case("config_constructor.py"),
    Case("config_attributes.py"),
    Case("two_gpu_towers.py", run_flags=tuple(DEVICE_MAP)),
    Case("multi_tower_training.py", run_flags=tuple(DEVICE_MAP)),
    Case("queue_csv_reader.py", args=("{tmp}",)),
    Case("layers_model.py"),
    Case("app_flags.py", args=("--steps", "3")),
    Case("interactive_session.py"),
    Case("mnist_softmax.py", args=("--data_dir", "{data}/mnist", "--steps", "20")),
    Case("mnist_layers_contrib.py", args=("{data}/mnist",)),
    Case("cifar10_slim_towers.py", args=("{data}/cifar-10-batches-bin",),
         run_flags=tuple(DEVICE_MAP)),
    Case("ptb_word_lm.py", args=("--data_path", "{data}/ptb", "--save_path", "{tmp}"),
         extras=("ptb_reader.py",)),
    Case("char_rnn_contrib.py", args=("{tmp}",)),
    Case("csv_queue_threads.py", args=("{data}/csv",)),
    Case("tfrecord_reader.py", args=("{data}",)),
    Case("supervisor_summaries.py", args=("{tmp}",)),
    Case("ps_sync_replicas.py", args=("{tmp}",)),
    Case("flags_shared.py", args=("--steps", "3", "--batch_size", "8", "--optimizer",
                                  "momentum", "--learning_rate", "0.25", "extra1", "extra2"),
         extras=("flags_common.py",)),
)

# TF prints log_device_placement lines to stdout in an order that is not ours to fix.
_PLACEMENT_LOG = re.compile(r"^\S+: \(\w+\): /job:")


def printed(stdout: str) -> str:
    """What a script printed, without TensorFlow's placement log lines."""
    return "\n".join(line for line in stdout.splitlines()
                     if not _PLACEMENT_LOG.match(line)).strip() + "\n"


def expected(case: Case) -> str:
    return (HERE / "expected" / (Path(case.script).stem + ".out")).read_text()


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    return env


def needs_data(case: Case) -> bool:
    return any("{data}" in arg for arg in case.args)


def make_data(folder: Path) -> Path:
    """The synthetic data sets under `folder` (written once; a marker says they are complete)."""
    import synthetic_data

    if not (folder / ".complete").exists():
        synthetic_data.write_all(folder)
        (folder / ".complete").write_text("ok\n")
    return folder


def copy_case(case: Case, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name in case.files:
        shutil.copy(HERE / name, folder / name)


def _args(case: Case, scratch: Path, data: Optional[Path]) -> list[str]:
    scratch.mkdir(parents=True, exist_ok=True)
    if data is None and needs_data(case):
        data = make_data(scratch / "data")
    return [arg.replace("{tmp}", str(scratch)).replace("{data}", str(data))
            for arg in case.args]


def run_with_tf1compat(case: Case, folder: Path, scratch: Path, data: Optional[Path] = None,
                       timeout: float = 300) -> subprocess.CompletedProcess:
    """`tf1compat run [flags] SCRIPT ARGS` on the copy of the script in `folder`."""
    command = [sys.executable, "-m", "tf1compat.cli.main", "run", *case.run_flags,
               str(folder / case.script), *_args(case, scratch, data)]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                          env=environment(), cwd=str(folder))


def run_plain(case: Case, folder: Path, scratch: Path, data: Optional[Path] = None,
              timeout: float = 300) -> subprocess.CompletedProcess:
    """`python SCRIPT ARGS`, as a user runs a migrated script."""
    command = [sys.executable, str(folder / case.script), *_args(case, scratch, data)]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                          env=environment(), cwd=str(folder))


def same_results(result: subprocess.CompletedProcess, case: Case) -> bool:
    return result.returncode == 0 and printed(result.stdout) == expected(case)


def failure_line(result: subprocess.CompletedProcess) -> Optional[str]:
    """The last line of a failed run's stderr (its exception), for the counts table."""
    if result.returncode == 0:
        return None
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    return lines[-1][:160] if lines else f"exit code {result.returncode}"
