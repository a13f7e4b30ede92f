"""Counts how many corpus scripts run on TF 2.21 with the same printed results, three ways.

1. `tf_upgrade_v2` alone (TensorFlow's own tool), then `python SCRIPT`;
2. `tf1compat migrate --write`, then `python SCRIPT`;
3. `tf1compat run SCRIPT` on the unmodified script (with --device-map where it asks for GPUs).

"Runs" means exit code 0 and the printed results of expected/NAME.out.
Usage: python tests/legacy_scripts/count_runnable.py [--jobs N] [--json]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus  # noqa: E402

WAYS = ("tf_upgrade_v2 alone", "tf1compat migrate", "tf1compat run")


def _copy_corpus(folder: Path) -> Path:
    folder.mkdir(parents=True)
    for case in corpus.CASES:
        corpus.copy_case(case, folder)
    return folder


def _prepare(work: Path) -> dict[str, Path]:
    original = _copy_corpus(work / "original")
    upgraded = work / "tf_upgrade_v2"
    subprocess.run([sys.executable, "-m", "tensorflow.tools.compatibility.tf_upgrade_v2_main",
                    "--intree", str(original), "--outtree", str(upgraded),
                    "--reportfile", str(work / "tf_upgrade_v2_report.txt")],
                   check=True, capture_output=True, env=corpus.environment())
    migrated = _copy_corpus(work / "migrated")
    subprocess.run([sys.executable, "-m", "tf1compat.cli.main", "migrate", str(migrated),
                    "--write"], check=True, capture_output=True, env=corpus.environment())
    return {"tf_upgrade_v2 alone": upgraded, "tf1compat migrate": migrated,
            "tf1compat run": original}


def count(jobs: int = 2) -> dict[str, dict[str, object]]:
    """{way: {script: None (ran, same results) or the reason it did not}}."""
    with tempfile.TemporaryDirectory(prefix="tf1compat-corpus-") as work_dir:
        work = Path(work_dir)
        folders = _prepare(work)
        data = corpus.make_data(work / "data")
        tasks = {}
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            for way in WAYS:
                for case in corpus.CASES:
                    scratch = work / "scratch" / way.replace(" ", "_") / case.script
                    runner = corpus.run_with_tf1compat if way == "tf1compat run" \
                        else corpus.run_plain
                    tasks[(way, case)] = pool.submit(runner, case, folders[way], scratch, data)
        outcome: dict[str, dict[str, object]] = {way: {} for way in WAYS}
        for (way, case), future in tasks.items():
            result = future.result()
            if corpus.same_results(result, case):
                outcome[way][case.script] = None
            elif result.returncode == 0:
                outcome[way][case.script] = "ran, but printed other results"
            else:
                outcome[way][case.script] = corpus.failure_line(result)
        return outcome


def table(outcome: dict[str, dict[str, object]]) -> str:
    total = len(corpus.CASES)
    lines = ["| way | scripts that run with the same results |", "|---|---|"]
    for way in WAYS:
        ran = sum(reason is None for reason in outcome[way].values())
        lines.append(f"| {way} | {ran} / {total} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2, help="scripts run at once (default 2)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    outcome = count(args.jobs)
    if args.json:
        print(json.dumps(outcome, indent=2))
        return 0
    print(table(outcome))
    for way in WAYS:
        failed = {script: why for script, why in outcome[way].items() if why is not None}
        if failed:
            print(f"\n{way}: did not run as before")
            for script, why in failed.items():
                print(f"  {script}: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
