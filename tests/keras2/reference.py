"""Keras 2.3.1 on TensorFlow 1.15: the reference's side of the Keras 2 comparisons, recorded.

setup.sh installs Keras 2 (tests/tf1_reference/keras2-requirements.txt) into a folder beside
the TF 1.15 environment; its runs put that folder on PYTHONPATH, and their records' digests
include that requirements file (recorded.run's `requirements`).
"""

from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent / "scripts"


def run(python, args, cwd=SCRIPTS, outputs=None):
    """`python ARGS` under TF 1.15 + Keras 2.3.1 (from its record where there is one);
    `outputs` as recorded.run's (`[]`: the files it writes are not kept)."""
    import tf1_reference
    from tf1_reference import recorded
    from tf1_reference.record_files import KERAS2_REQUIREMENTS

    env = {**tf1_reference.environment(), "PYTHONPATH": str(tf1_reference.keras2_folder())}
    result = recorded.run(python, [str(a) for a in args], cwd=cwd, env=env, timeout=300,
                          outputs=outputs, requirements=[KERAS2_REQUIREMENTS])
    assert result.returncode == 0, result.stderr[-3000:]
    return result


def printed(stdout: str, prefixes=("losses", "predictions", "evaluate", "reloaded")) -> str:
    """The lines a Keras 2 script prints its numbers on (log_device_placement prints the graph's
    placement to stdout too, differently under each TensorFlow)."""
    return "\n".join(line for line in stdout.splitlines() if line.startswith(prefixes))


def run_migrated(source: str, folder, name: str = "migrated.py") -> str:
    """Runs migrated `source` under plain Python in `folder` (no variable chooses legacy Keras:
    the migrated script imports what it needs itself); its stdout, after asserting exit 0."""
    import subprocess
    import sys

    from budgets import budget
    from isolated import python_env

    path = folder / name
    path.write_text(source)
    plain = {key: value for key, value in python_env().items() if key != "TF_USE_LEGACY_KERAS"}
    after = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                           env=plain, cwd=str(folder), timeout=budget(240, floor=240))
    assert after.returncode == 0, after.stderr[-3000:]
    return after.stdout
