"""The legacy script corpus: how to run each script, and how to compare what it prints.

Each script is TF1 code as it was written for TF 1.x, printing deterministic
results (seeded, fixed data; where threads make the order vary, only what the
order cannot change). `expected/NAME.out` holds what it printed under real
TensorFlow 1.15 (regenerate_expected.py writes them; README.md says how), with
the scratch and data folders written as `{tmp}` and `{data}`. Outputs are
compared number by number (tf1compat.compare.printed_numbers): integers exactly,
floats within the case's rtol/atol, the text besides the numbers equal.
Scripts that read data get `{data}`: a folder of tiny synthetic data sets in
the real on-disk formats (synthetic_data.py), made by the tests, never
downloaded. Used by the tests (tests/test_legacy_corpus.py), by
regenerate_expected.py and by count_runnable.py.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Optional

from tf1compat.compare import printed_numbers

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parent.parent
DEVICE_MAP = ["--device-map", "gpu:*=cpu:*"]
REFERENCE_BOOTSTRAP = REPO_ROOT / "tests" / "tf1_reference" / "soft_placement.py"


@dataclasses.dataclass(frozen=True)
class Case:
    script: str
    args: tuple[str, ...] = ()    # "{tmp}": a scratch folder; "{data}": the synthetic data
    run_flags: tuple[str, ...] = ()  # flags for `tf1compat run` (e.g. the device map)
    extras: tuple[str, ...] = ()  # modules next to the script that it imports
    # the float tolerance of its printed results: |run - tf1| <= atol + rtol * |tf1|
    rtol: float = printed_numbers.DEFAULT_RTOL
    atol: float = printed_numbers.DEFAULT_ATOL
    # what varies from run to run in TF 1.15 too (thread order, timing), so the script prints
    # only what that cannot change
    varies: str = ""

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
         run_flags=tuple(DEVICE_MAP),
         varies="shuffle_batch's 4 threads fill the batches in any order, so the losses vary: "
                "it prints that they are finite, the step count and the test labels"),
    Case("ptb_word_lm.py", args=("--data_path", "{data}/ptb", "--save_path", "{tmp}"),
         extras=("ptb_reader.py",)),
    Case("char_rnn_contrib.py", args=("{tmp}",)),
    Case("csv_queue_threads.py", args=("{data}/csv",),
         varies="4 reader threads and shuffled files give the rows in any order: it prints "
                "row counts, sums and label counts, which no order changes"),
    Case("tfrecord_reader.py", args=("{data}",)),
    Case("supervisor_summaries.py", args=("{tmp}",)),
    Case("ps_sync_replicas.py", args=("{tmp}",),
         varies="how many runs the hook sees before the last step depends on timing: it "
                "prints whether it saw at least 20"),
    Case("eager_linear_regression.py"),
    Case("flags_shared.py", args=("--steps", "3", "--batch_size", "8", "--optimizer",
                                  "momentum", "--learning_rate", "0.25", "extra1", "extra2"),
         extras=("flags_common.py",)),
    Case("crf_tagger.py", args=("{tmp}",)),
    Case("hparams_model.py", args=("--hparams", "learning_rate=0.05,hidden=[6,4],activation=tanh,"
                                   "train_steps=12,optimizer=momentum,use_bias=false")),
    Case("projector_export.py", args=("{tmp}",)),
    Case("slim_resnet_tiny.py", args=("{tmp}",)),
    Case("slim_train_eval.py", args=("{tmp}",)),
    # 40 Adam steps take the loss to 0.0085, where float round-off shows in the 5th decimal
    Case("seq2seq_attention_beam.py", atol=5e-5),
)

def printed(stdout: str) -> str:
    """What a script printed, without TensorFlow's placement log lines."""
    return printed_numbers.without_tensorflow_log(stdout)


def compare(case: Case, stdout: str) -> printed_numbers.Comparison:
    """What a run printed against expected/NAME.out, with the case's tolerance."""
    return printed_numbers.compare(expected(case), printed(stdout), case.rtol, case.atol)


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


def _folders(case: Case, scratch: Path, data: Optional[Path]) -> dict[str, str]:
    """{placeholder: folder} for the case's arguments (data made under scratch if needed)."""
    scratch.mkdir(parents=True, exist_ok=True)
    if data is None and needs_data(case):
        data = make_data(scratch / "data")
    folders = {"{tmp}": str(scratch)}
    if data is not None:
        folders["{data}"] = str(data)
    return folders


def _args(case: Case, folders: dict[str, str]) -> list[str]:
    args = []
    for arg in case.args:
        for placeholder, folder in folders.items():
            arg = arg.replace(placeholder, folder)
        args.append(arg)
    return args


def script_args(case: Case, scratch: Path, data: Optional[Path] = None) -> list[str]:
    """The case's command line after its script, its folders made under `scratch`."""
    return _args(case, _folders(case, scratch, data))


def _run(command: list[str], case: Case, folder: Path, folders: dict[str, str],
         env: dict[str, str], timeout: float,
         recorded_reference: bool = False) -> subprocess.CompletedProcess:
    """Runs the command (the TF 1.15 reference from its record: tf1_reference/recorded.py);
    its stdout comes back with the folders written as placeholders."""
    if recorded_reference:
        from tf1_reference import recorded

        result = recorded.run(command[0], command[1:], cwd=folder, env=env, timeout=timeout,
                              outputs=())
    else:
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                                env=env, cwd=str(folder))
    # the longest folder first: the data folder may lie inside the scratch folder
    for placeholder, path in sorted(folders.items(), key=lambda item: -len(item[1])):
        result.stdout = result.stdout.replace(path, placeholder)
    return result


def run_with_tf1compat(case: Case, folder: Path, scratch: Path, data: Optional[Path] = None,
                       timeout: float = 300) -> subprocess.CompletedProcess:
    """`tf1compat run [flags] SCRIPT ARGS` on the copy of the script in `folder`."""
    folders = _folders(case, scratch, data)
    command = [sys.executable, "-m", "tf1compat.cli.main", "run", *case.run_flags,
               str(folder / case.script), *_args(case, folders)]
    return _run(command, case, folder, folders, environment(), timeout)


def run_plain(case: Case, folder: Path, scratch: Path, data: Optional[Path] = None,
              timeout: float = 300) -> subprocess.CompletedProcess:
    """`python SCRIPT ARGS`, as a user runs a migrated script."""
    folders = _folders(case, scratch, data)
    command = [sys.executable, str(folder / case.script), *_args(case, folders)]
    return _run(command, case, folder, folders, environment(), timeout)


def run_with_reference(case: Case, python: Path, folder: Path, scratch: Path,
                       data: Optional[Path] = None,
                       timeout: float = 600) -> subprocess.CompletedProcess:
    """`SCRIPT ARGS` under the TensorFlow 1.15 reference interpreter `python`.

    A case that `tf1compat run` gives a device map (it asks for GPUs) runs with soft
    placement forced on every session, so its GPU ops land on the CPU as under the map.
    """
    folders = _folders(case, scratch, data)
    bootstrap = [str(REFERENCE_BOOTSTRAP), "--soft-placement"] if case.run_flags else []
    command = [str(python), *bootstrap, str(folder / case.script), *_args(case, folders)]
    from tf1compat.compare.script import tf1_environment

    return _run(command, case, folder, folders, tf1_environment(environment()), timeout,
                recorded_reference=True)


def same_results(result: subprocess.CompletedProcess, case: Case) -> bool:
    return result.returncode == 0 and compare(case, result.stdout).ok


def failure_line(result: subprocess.CompletedProcess) -> Optional[str]:
    """The last line of a failed run's stderr (its exception), for the counts table."""
    if result.returncode == 0:
        return None
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    return lines[-1][:160] if lines else f"exit code {result.returncode}"
