"""Under `run`, a TF1 test file's benchmarks are picked with TF 1.15's `--benchmarks=REGEX`
(TF 2 renamed it `--benchmark_filter=` and refuses the old flag), through tf.test.main and
googletest.main alike."""

import subprocess
import sys

import pytest

from isolated import REPO_ROOT, python_env

SCRIPT = """
import tensorflow as tf
from tensorflow.python.platform import googletest


class Speed(tf.test.Benchmark):
    def benchmark_one(self):
        print("ran one")
        self.report_benchmark(iters=1, wall_time=0.5, name="one")

    def benchmark_two(self):
        print("ran two")
        self.report_benchmark(iters=1, wall_time=0.5, name="two")


if __name__ == "__main__":
    {main}()
"""


@pytest.mark.parametrize("main", ["tf.test.main", "googletest.main"])
def test_benchmarks_flag_picks_benchmarks_as_tf115_did(tmp_path, main):
    script = tmp_path / "bench_test.py"
    script.write_text(SCRIPT.format(main=main))
    env = python_env()
    env["PYTHONPATH"] = str(REPO_ROOT)
    done = subprocess.run([sys.executable, "-m", "tf1compat.cli.main", "run", "--no-report",
                           str(script), "--benchmarks=Speed.benchmark_two"], env=env,
                          capture_output=True, text=True, timeout=240, cwd=str(tmp_path))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "ran two" in done.stdout and "ran one" not in done.stdout
