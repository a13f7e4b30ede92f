"""How far `migrate --to tf2` gets over the legacy corpus: per script, whether it was fully
converted, whether the converted script runs, and whether it prints what TF 1.15 printed
(`expected/NAME.out`, number by number); for the rest, what stayed and why.

    PYTHONPATH=. python -m tf1compat.migrate.tf2.measure [NAME ...]

Scripts whose TF 1.15 results depend on random initial values match only when both sides
start from the same values: with a TF 1.15 interpreter ($TF1COMPAT_TF1_REFERENCE_PYTHON or
the cache tests/tf1_reference/setup.sh builds), a converted script that does not match from
its own initializers runs again from the TF1 run's initial checkpoint, as `tf1compat compare
--migrated-tf2` runs it (tf1compat/compare/tf1_initial_checkpoint.py writes it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tf1compat.migrate.driver import migrate_source_tf2

REPO_ROOT = Path(__file__).resolve().parents[3]
CORPUS = REPO_ROOT / "tests" / "legacy_scripts"


def measure(names=()) -> list[dict]:
    sys.path[:0] = [str(CORPUS), str(REPO_ROOT / "tests")]
    import corpus

    import tf1_reference

    reference = tf1_reference.reference_python()
    rows = []
    scratch = Path(tempfile.mkdtemp(prefix="tf2-measure-"))
    try:
        data = corpus.make_data(scratch / "data")
        for case in corpus.CASES:
            if names and Path(case.script).stem not in names:
                continue
            folder = scratch / Path(case.script).stem
            corpus.copy_case(case, folder)
            converted, reasons = True, []
            for name in case.files:
                path = folder / name
                text, findings, ok = migrate_source_tf2(path.read_text(), str(path))
                path.write_text(text)
                converted &= ok
                reasons += [f"{name}:{f.line}: {f.message}" for f in findings
                            if f.rule == "tf2" and f.kind.value == "not converted"]
            row = {"script": case.script, "converted": converted, "reasons": reasons}
            if converted:
                result = corpus.run_plain(case, folder, folder / "tmp", data)
                row["runs"] = result.returncode == 0
                row["matches"] = corpus.same_results(result, case)
                if row["runs"] and not row["matches"] and reference is not None:
                    row["matches"] = _matches_from_checkpoint(corpus, case, reference,
                                                              scratch, folder, data)
                    row["from_checkpoint"] = row["matches"]
                row["error"] = corpus.failure_line(result)
            rows.append(row)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return rows


def _matches_from_checkpoint(corpus, case, reference: Path, scratch: Path, migrated: Path,
                             data: Path) -> bool:
    """Whether the migrated script, started from the TF1 run's initial checkpoint, prints
    what TF 1.15 printed."""
    from tf1compat.compare.script import tf1_environment
    from tf1compat.compare.migrated_tf2 import BOOTSTRAP, INIT_CHECKPOINT_VARIABLE

    original = scratch / f"{Path(case.script).stem}-tf1"
    corpus.copy_case(case, original)
    prefix = scratch / f"{Path(case.script).stem}-initial" / "model.ckpt-0"
    arguments = corpus.script_args(case, original / "tmp", data)
    done = subprocess.run([str(reference), str(BOOTSTRAP), "--save", str(prefix),
                           str(original / case.script), *arguments],
                          capture_output=True, text=True, cwd=str(original), timeout=600,
                          env=tf1_environment(corpus.environment()))
    if done.returncode != 0 or not Path(f"{prefix}.index").is_file():
        return False
    os.environ[INIT_CHECKPOINT_VARIABLE] = str(prefix)
    try:
        result = corpus.run_plain(case, migrated, migrated / "tmp-from-checkpoint", data)
    finally:
        del os.environ[INIT_CHECKPOINT_VARIABLE]
    return corpus.same_results(result, case)


def main(argv=None) -> int:
    rows = measure(tuple(argv if argv is not None else sys.argv[1:]))
    for row in rows:
        state = ("matches TF 1.15" + (" from its initial checkpoint" if
                                      row.get("from_checkpoint") else "")
                 if row.get("matches") else
                 "runs, differs" if row.get("runs") else
                 f"fails: {row.get('error')}") if row["converted"] else "not converted"
        print(f"{row['script']}: {state}")
        for reason in row["reasons"]:
            print(f"    {reason}")
    converted = [row for row in rows if row["converted"]]
    print(f"{len(rows)} scripts: {len(converted)} fully converted, "
          f"{sum(bool(row.get('runs')) for row in converted)} run, "
          f"{sum(bool(row.get('matches')) for row in converted)} match TF 1.15")
    return 0


if __name__ == "__main__":
    sys.exit(main())
