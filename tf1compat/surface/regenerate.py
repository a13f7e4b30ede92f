"""`python -m tf1compat.surface.regenerate [--reference-python PATH]`: rewrites TF 1.15's data.

Writes the census names (data/census_names.txt) from the weight sources, runs
`dump.py` under the TensorFlow 1.15 reference interpreter
($TF1COMPAT_TF1_REFERENCE_PYTHON, else the one tests/tf1_reference/setup.sh
builds), and writes data/tf115.json with the digest of its inputs.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

from tf1compat.surface import reference, weights

# Variables TF 2.21 sets or needs that must not reach TF 1.15 (it would start eager, or
# import tf1compat and TF 2.21 from PYTHONPATH).
_NOT_FOR_TF1 = ("PYTHONPATH", "TF2_BEHAVIOR", "TF_USE_LEGACY_KERAS")


def reference_python(given: str | None) -> str:
    path = given or os.environ.get("TF1COMPAT_TF1_REFERENCE_PYTHON") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
        "tf1compat", "tf1-reference", "bin", "python")
    if not os.path.exists(path):
        raise SystemExit(f"regenerate: no TensorFlow 1.15 reference interpreter at {path!r}: "
                         "run 'bash tests/tf1_reference/setup.sh' or pass --reference-python "
                         "(a Python 3.7 with tensorflow-cpu==1.15.0)")
    return path


def dump(python: str, names_path: str) -> dict:
    import json

    env = {key: value for key, value in os.environ.items() if key not in _NOT_FOR_TF1}
    env["TF_CPP_MIN_LOG_LEVEL"] = "2"
    with tempfile.TemporaryDirectory(prefix="tf1compat-surface-") as folder:
        out = os.path.join(folder, "tf115.json")
        command = [python, os.path.join(reference.HERE, "dump.py"), out, names_path]
        result = subprocess.run(command, env=env, capture_output=True, text=True,
                                timeout=1800)
        if result.returncode != 0:
            raise SystemExit(f"regenerate: the dump exited {result.returncode} under "
                             f"{python}:\n{result.stderr[-4000:]}")
        with open(out, encoding="utf-8") as handle:
            return json.load(handle)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tf1compat.surface.regenerate",
                                     description=__doc__.split("\n\n")[1])
    parser.add_argument("--reference-python", help="a Python 3.7 with tensorflow-cpu==1.15.0")
    parser.add_argument("--uses", action="append",
                        help="a census uses.csv whose names the dump resolves too "
                             f"(default: {', '.join(weights.default_sources())})")
    args = parser.parse_args(argv)
    python = reference_python(args.reference_python)
    census = weights.merged(args.uses or weights.default_sources())
    with open(reference.CENSUS_NAMES, "w", encoding="utf-8") as handle:
        handle.write(weights.names_text(census.values()))
    start = time.monotonic()
    dumped = dump(python, reference.CENSUS_NAMES)
    seconds = time.monotonic() - start
    names = dumped.pop("names")
    about = dict(dumped, digest=reference.digest(), command=reference.REGENERATE,
                 inputs=[os.path.relpath(path, reference.REPO_ROOT)
                         for path in reference.inputs()],
                 dump_seconds=round(seconds, 1), count=len(names))
    reference.write(reference.DATA, names, about)
    size = os.path.getsize(reference.DATA)
    print(f"regenerate: {len(names)} names in {os.path.relpath(reference.DATA)} "
          f"({size / 1e6:.1f} MB), the dump took {seconds:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
