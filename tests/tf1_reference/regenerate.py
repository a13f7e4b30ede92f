"""Writes the TensorFlow 1.15 records (tests/tf1_reference/recorded/) from live reference runs.

Runs the tests that compare against TF 1.15 with TF1COMPAT_TF1_RECORD=1: each of their
reference runs goes live under the reference interpreter (tests/tf1_reference/setup.sh builds
it) and writes its record. With no test named, it runs every test marked `tf1_reference`
and then removes the records that no test asked for.

Usage: python tests/tf1_reference/regenerate.py [PYTEST NODE ID OR PATH ...] [-- PYTEST ARGS]
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE.parent))
import tf1_reference  # noqa: E402
from tf1_reference.record_files import RECORDS  # noqa: E402


def main(argv: list[str]) -> int:
    if "-h" in argv or "--help" in argv:
        print(__doc__)
        return 0
    selection, extra = (argv[:argv.index("--")], argv[argv.index("--") + 1:]) \
        if "--" in argv else (argv, [])
    python = tf1_reference.reference_python()
    if python is None:
        print(f"regenerate: {tf1_reference.HOW_TO_GET_ONE}", file=sys.stderr)
        return 2
    with tempfile.NamedTemporaryFile("r", prefix="tf1-records-used-") as log:
        env = dict(os.environ, TF1COMPAT_TF1_RECORD="1", TF1COMPAT_TF1_RECORD_LOG=log.name,
                   TF1COMPAT_TF1_REFERENCE_PYTHON=str(python))
        command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                   *(selection or ["-m", "tf1_reference", "tests"]), *extra]
        print("+", " ".join(command), flush=True)
        code = subprocess.call(command, cwd=str(REPO_ROOT), env=env)
        used = {line.strip() for line in log.read().splitlines() if line.strip()}
    if code == 0 and not selection:
        unused = [path for path in sorted(RECORDS.glob("*.json")) if path.stem not in used]
        for path in unused:
            path.unlink()
        print(f"regenerate: {len(used)} records in use, {len(unused)} unused removed")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
