"""`migrate`: tf.test.main and googletest.main get the command line with TF 1.15's
`--benchmarks=REGEX` renamed to TF 2's `--benchmark_filter=REGEX` (tf1compat.test_argv), so a
migrated benchmark file runs with the command line it always had."""

import subprocess
import sys

import libcst as cst
import pytest
from libcst.codemod import CodemodContext

from isolated import python_env
from runner.test_tf115_benchmark_flag import SCRIPT as BENCHMARKS
from tf1compat.migrate.driver import migrate_source
from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.test_main import TestMainRule
from tf1compat.shared.test_flags import test_argv


def test_test_main_calls_get_the_renamed_flag():
    code = ("import tensorflow as tf\nfrom tensorflow.python.platform import googletest\n"
            "tf.test.main()\ngoogletest.main()\ntf.compat.v1.test.main(argv=None)\n"
            "tf.test.main(my_argv)\nmain()\nabsltest.main()\ntf.test.main(*rest)\n")
    rule = TestMainRule(CodemodContext())
    lines = rule.transform_module(cst.parse_module(code)).code.splitlines()
    assert lines[2] == "import tf1compat"
    assert lines[4:11] == [
        "tf.test.main(argv=tf1compat.test_argv())",
        "googletest.main(argv=tf1compat.test_argv())",
        "tf.compat.v1.test.main(argv=tf1compat.test_argv(None))",
        "tf.test.main(tf1compat.test_argv(my_argv))", "main()", "absltest.main()",
        "tf.test.main(*rest)"]
    assert [(f.line, f.kind) for f in rule.findings] == [  # the lines as the script wrote them
        (3, Kind.CHANGED), (4, Kind.CHANGED), (5, Kind.CHANGED), (6, Kind.CHANGED),
        (9, Kind.NOT_CONVERTED)]


def test_test_argv_renames_the_first_old_flag_only():
    assert test_argv(["t.py", "--benchmarks=A", "--x", "--benchmarks=B"]) == [
        "t.py", "--benchmark_filter=A", "--x", "--benchmarks=B"]
    given = ["t.py", "-benchmarks=."]
    assert test_argv(given) == ["t.py", "--benchmark_filter=."] and given == ["t.py",
                                                                            "-benchmarks=."]


# the benchmark file `run`'s test runs with TF 1.15's flag, ended by tf.test.main()
SCRIPT = BENCHMARKS.format(main="tf.test.main")


@pytest.mark.parametrize("flag", ["--benchmarks=Speed.benchmark_two",
                                  "--benchmark_filter=Speed.benchmark_two"])
def test_a_migrated_benchmark_file_runs_with_its_old_command_line(tmp_path, flag):
    migrated, _ = migrate_source(SCRIPT, "bench_test.py", "tf1compat")
    script = tmp_path / "bench_test.py"
    script.write_text(migrated)
    done = subprocess.run([sys.executable, str(script), flag], env=python_env(),
                          capture_output=True, text=True, timeout=240, cwd=str(tmp_path))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "ran two" in done.stdout and "ran one" not in done.stdout
