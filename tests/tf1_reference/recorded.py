"""TensorFlow 1.15's side of a comparison, from committed records instead of a fresh run.

Every test that compares against TensorFlow 1.15 runs the reference through `run` here.
A run is identified by a digest of everything that can change what TF 1.15 prints: the
arguments (with this run's folders written as placeholders), the bytes of every file or
folder an argument names (the script or probe source, its data, a model_dir to resume),
the variables of its environment that TF 1.15 reads or the test sets for its probe, and
the reference's pinned requirements (requirements.txt). `recorded/<digest>.json` holds what that run printed, its exit status and
the files it wrote; the test gets it back as a CompletedProcess, with the files restored
under this run's folders.

A run with no record fails, naming the record its test had before (when there is one) and
the command that writes records: `python tests/tf1_reference/regenerate.py`. Stale data
cannot pass: a changed probe, script, input or requirement is a new digest.

TF 1.15 still runs live (and its output is held against the record, numbers within
LIVE_RTOL/LIVE_ATOL, the rest of the text equal) when:
- TF1COMPAT_TF1_LIVE=1 (pytest --tf1-live): every reference run, the full live pass;
- the record was added or changed since the commit submission_base.txt names (the main
  this submission builds on; without it, committed in the SUBMISSION_HOURS before HEAD's
  commit), so CI checks new data against TF 1.15 itself;
- its test is in LIVE_SAMPLE, a fixed sample across families, so the reference
  interpreter stays exercised in every CI run;
- the caller says `live=True`: inputs made by TF 2.21 in this run (a model_dir trained here
  and resumed by TF 1.15), which no record can stand for.
TF1COMPAT_TF1_RECORD=1 (regenerate.py) runs every reference run live and writes its record.
"""

from __future__ import annotations

import functools
import os
import subprocess
import threading
from pathlib import Path
from typing import Iterable, Optional, Sequence

from tf1_reference import record_files
from tf1_reference.record_files import RECORDS, Record

REPO_ROOT = Path(__file__).resolve().parents[2]
REGENERATE = "python tests/tf1_reference/regenerate.py"
# The tests whose reference runs go live in every CI run, one or two per family.
LIVE_SAMPLE = (
    "tests/test_legacy_corpus.py::test_expected_output_is_what_tf1_prints[mnist_softmax]",
    "tests/tf1_reference/test_contrib_reference.py::test_the_replacement_matches_tf1[layers]",
    "tests/contrib/test_contrib_reference_crf.py::test_crf_matches_tf_1_15[0]",
    "tests/contrib/test_seq2seq_decode_vs_tf115.py::test_greedy_embedding_helper_with_maximum",
    "tests/estimator/test_estimator_vs_tf115.py::test_a_premade_classifier_on_a_csv_trains_as_"
    "under_tf115[linear]",
)
# A submission's commits lie within a working session of at most three hours
# (TF1COMPAT_TF1_SUBMISSION_HOURS=0 replays every record: CI's time once they have landed).
SUBMISSION_HOURS = float(os.environ.get("TF1COMPAT_TF1_SUBMISSION_HOURS", "4"))
# Two runs of the same TF 1.15 build on two CPUs may differ in the last float digits.
LIVE_RTOL, LIVE_ATOL = 1e-4, 1e-6
_calls: dict[str, int] = {}
_calls_lock = threading.Lock()


def _case() -> str:
    """The pytest node id of the calling test, with the number of its reference run."""
    current = os.environ.get("PYTEST_CURRENT_TEST", "outside pytest").rsplit(" (", 1)[0]
    with _calls_lock:
        index = _calls.get(current, 0)
        _calls[current] = index + 1
    return f"{current}#{index}"


def _flag(name: str) -> bool:
    return os.environ.get(name, "") == "1"


# The commit this submission builds on: the main it started from, written by its first
# commit. Its records are those added or changed since. Without the file (or with a commit
# this clone lacks) the records committed in the SUBMISSION_HOURS before HEAD count instead;
# when the base is left stale, more records go live, never fewer.
SUBMISSION_BASE = Path(__file__).resolve().parent / "submission_base.txt"


def submission_base() -> Optional[str]:
    """The commit named in submission_base.txt (its first word not after a '#'), or None."""
    try:
        lines = SUBMISSION_BASE.read_text().splitlines()
    except OSError:
        return None
    words = [line.split()[0] for line in lines if line.strip() and not line.startswith("#")]
    return words[0] if words else None


@functools.lru_cache(maxsize=1)
def committed_in_submission() -> frozenset[str]:
    """Record names added or changed since the submission's base commit (else in the
    SUBMISSION_HOURS before HEAD's commit): the submission's own records."""
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(REPO_ROOT), *args], capture_output=True,
                              text=True, timeout=60, check=True).stdout
    folder = str(RECORDS.relative_to(REPO_ROOT))
    try:
        if SUBMISSION_HOURS <= 0:
            return frozenset()
        base = submission_base()
        if base is not None and subprocess.run(
                ["git", "-C", str(REPO_ROOT), "merge-base", "--is-ancestor", base, "HEAD"],
                capture_output=True, timeout=60).returncode == 0:
            names = git("diff", "--name-only", "--diff-filter=AMR", base, "HEAD", "--", folder)
        else:
            tip = int(git("log", "-1", "--format=%ct").strip())
            names = git("log", f"--since={int(tip - SUBMISSION_HOURS * 3600)}", "--name-only",
                        "--format=", "--", folder)
    except (OSError, ValueError, subprocess.SubprocessError):
        return frozenset()  # not a git checkout: no record is new
    return frozenset(Path(line).name for line in names.splitlines() if line.strip())


def live_reason(case: str, record: Optional[Record], live: bool) -> Optional[str]:
    """Why this reference run goes live, or None to replay its record."""
    if _flag("TF1COMPAT_TF1_RECORD"):
        return "writing records (regenerate)"
    if _flag("TF1COMPAT_TF1_LIVE"):
        return "full live pass (TF1COMPAT_TF1_LIVE=1)"
    if live:
        return "its inputs were made in this run"
    if record is not None and record.path.name in committed_in_submission():
        return "its record is new in this submission"
    if any(case.startswith(sample) for sample in LIVE_SAMPLE):
        return "in the live sample"
    return None


def _log_use(digest: str) -> None:
    """Notes a record as in use, for regenerate.py's pruning of records no test asks for."""
    log = os.environ.get("TF1COMPAT_TF1_RECORD_LOG")
    if log:
        with open(log, "a") as out:
            out.write(digest[:24] + "\n")


def run(python: os.PathLike | str, args: Sequence[str], *, cwd: os.PathLike | str,
        env: dict[str, str], timeout: float = 600, outputs: Optional[Iterable[str]] = None,
        live: bool = False, probe_env: Iterable[str] = (),
        varies: Iterable[str] = (), requirements: Iterable[Path] = ()) -> subprocess.CompletedProcess:
    """`python ARGS` under TensorFlow 1.15, from its record where one stands for it.

    `outputs`: paths (absolute, or relative to `cwd`) of what the run writes that the test
    reads; default: every path argument the run creates or changes. `live`: the inputs
    cannot be recorded (made by TF 2.21 in this run): always run TF 1.15. `probe_env`: the
    variables of `env` the caller sets for this probe (they count in the digest, as do the
    variables TF 1.15 reads: record_files.ENV_READ_BY_TF1). `varies`: patterns of stdout
    lines that differ from run to run (a pid), left out when a live run is held against its
    record. `requirements`: pinned requirement files beyond requirements.txt that the run
    needs (record_files.KERAS2_REQUIREMENTS): their bytes count in the digest.
    """
    cwd = Path(cwd)
    case = _case()
    key = record_files.Key.of(list(args), cwd, env, probe_env, requirements)
    record = record_files.load(key.digest)
    reason = live_reason(case, record, live)
    _log_use(key.digest)
    recording = _flag("TF1COMPAT_TF1_RECORD") and not live
    if record is None and not (live or recording or _flag("TF1COMPAT_TF1_LIVE")):
        raise AssertionError(record_files.missing_message(case, key, REGENERATE))
    if reason is None:
        return record.replay(key, cwd)
    before = key.snapshot(cwd, outputs)
    result = subprocess.run([str(python), *args], capture_output=True, text=True,
                            timeout=timeout, env=env, cwd=str(cwd))
    if recording:
        record_files.save(key, case, result, key.changed_since(before, cwd, outputs))
    elif record is not None:
        problem = record.differs_from(key, result, LIVE_RTOL, LIVE_ATOL, varies)
        if problem:
            raise AssertionError(
                f"TF 1.15, run live ({reason}), no longer prints what its record "
                f"{record.path.name} holds: {problem}. Regenerate: {REGENERATE} "
                f"'{case.rsplit('#', 1)[0]}'")
    return result
