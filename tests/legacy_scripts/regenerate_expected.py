"""Writes expected/NAME.out for every corpus case from what it prints under TensorFlow 1.15.

Each script runs under the TF 1.15 reference interpreter (tests/tf1_reference/setup.sh
builds it) in a scratch copy, with the synthetic data sets, one process per script;
scripts that ask for GPUs get soft placement (tests/tf1_reference/soft_placement.py).
The scratch and data folders are written as {tmp} and {data}. A script that fails under
TF 1.15 stops the run: its expected output is left as it was.

Usage: python tests/legacy_scripts/regenerate_expected.py [--tf1-python PATH] [NAME ...]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent.parent))
import corpus  # noqa: E402
import tf1_reference  # noqa: E402

# Expected outputs come from TF 1.15 itself, never from the records of earlier runs.
os.environ["TF1COMPAT_TF1_LIVE"] = "1"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tf1-python", type=Path,
                        help="the TF 1.15 python (default: $TF1COMPAT_TF1_REFERENCE_PYTHON, "
                             "else the one setup.sh cached)")
    parser.add_argument("names", nargs="*", help="only these cases (default: all)")
    args = parser.parse_args(argv)
    python = args.tf1_python or tf1_reference.reference_python()
    if python is None:
        parser.error(tf1_reference.HOW_TO_GET_ONE)
    known = {Path(case.script).stem: case for case in corpus.CASES}
    unknown = [name for name in args.names if name not in known]
    if unknown:
        parser.error(f"no corpus case {unknown[0]!r}; accepted: {', '.join(known)}")
    cases = [known[name] for name in args.names] if args.names else list(corpus.CASES)
    with tempfile.TemporaryDirectory(prefix="tf1compat-expected-") as work_dir:
        work = Path(work_dir)
        data = corpus.make_data(work / "data")
        for case in cases:
            name = Path(case.script).stem
            folder = work / "scripts" / name
            corpus.copy_case(case, folder)
            result = corpus.run_with_reference(case, python, folder, work / "scratch" / name,
                                               data)
            if result.returncode != 0:
                print(result.stderr[-3000:], file=sys.stderr)
                print(f"{name}: failed under TensorFlow 1.15 (exit {result.returncode})",
                      file=sys.stderr)
                return 1
            target = HERE / "expected" / (name + ".out")
            text = corpus.printed(result.stdout)
            changed = not target.exists() or target.read_text() != text
            target.write_text(text)
            print(f"{name}: {'rewritten' if changed else 'unchanged'}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
