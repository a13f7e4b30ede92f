"""How far `migrate --to tf2` gets over the legacy corpus: per script, whether it was fully
converted, whether the converted script runs, and whether it prints what TF 1.15 printed
(`expected/NAME.out`, number by number); for the rest, what stayed and why.

    PYTHONPATH=. python -m tf1compat.migrate.tf2.measure [NAME ...]

Scripts whose TF 1.15 results depend on random initial values match only when both sides
start from the same values: `tf1compat compare --migrated-tf2` does that.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from tf1compat.migrate.driver import migrate_source_tf2

REPO_ROOT = Path(__file__).resolve().parents[3]
CORPUS = REPO_ROOT / "tests" / "legacy_scripts"


def measure(names=()) -> list[dict]:
    sys.path[:0] = [str(CORPUS), str(REPO_ROOT / "tests")]
    import corpus

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
                row["error"] = corpus.failure_line(result)
            rows.append(row)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return rows


def main(argv=None) -> int:
    rows = measure(tuple(argv if argv is not None else sys.argv[1:]))
    for row in rows:
        state = ("matches TF 1.15" if row.get("matches") else
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
