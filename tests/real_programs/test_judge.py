"""A run's verdict: exit, success marker, TF 1.15's numbers, and the class of a failure."""

from __future__ import annotations

import dataclasses

import pytest

from tf1compat.corpus import judge, manifest
from tf1compat.corpus.runs import Outcome

PROGRAM = manifest.Program(name="p", repo="a/b", commit="0" * 40, date="2018-01-01",
                           kind="tutorial", script=manifest.SourceFile("p.py", "0" * 40),
                           shape="tutorial", success=r"^Done", deterministic=True)
REFERENCE = Outcome("tf115", 0, "step 1 loss 0.5000\nDone\n", "", 1.0)


def outcome(stdout="step 1 loss 0.5000\nDone\n", stderr="", code=0):
    return Outcome("run", code, stdout, stderr, 1.0)


def test_same_numbers_within_tolerance_pass():
    verdict = judge.judge(PROGRAM, outcome("step 1 loss 0.50002\nDone\n"), REFERENCE)
    assert verdict.passed and verdict.failure == ""


def test_other_numbers_fail_as_numbers_differ():
    verdict = judge.judge(PROGRAM, outcome("step 1 loss 0.61\nDone\n"), REFERENCE)
    assert not verdict.passed and verdict.failure == "numbers differ"
    assert "0.61" in verdict.reason


def test_a_program_that_is_not_deterministic_is_not_held_to_numbers():
    loose = dataclasses.replace(PROGRAM, deterministic=False)
    assert judge.judge(loose, outcome("step 1 loss 0.61\nDone\n"), REFERENCE).passed


def test_exit_zero_without_the_marker_fails():
    verdict = judge.judge(PROGRAM, outcome("step 1 loss 0.5\n"), REFERENCE)
    assert verdict.failure == "no success marker"


def test_a_timeout_is_its_own_class():
    verdict = judge.judge(PROGRAM, Outcome("run", None, "", "", 300.0), REFERENCE)
    assert verdict.failure == "timeout"


@pytest.mark.parametrize("error, failure", [
    ("ModuleNotFoundError: No module named 'tensorflow.contrib.graph_editor'", "import path"),
    ("ModuleNotFoundError: No module named 'gym'", "other module"),
    ("AttributeError: module 'tensorflow' has no attribute 'app'", "name not served"),
    ("TypeError: conv2d() got an unexpected keyword argument 'use_cudnn_on_gpu'", "signature"),
    ("tensorflow.python.framework.errors_impl.InvalidArgumentError: Default MaxPoolingOp only "
     "supports NHWC on device type CPU", "device"),
    ("ValueError: something else", "other behaviour"),
])
def test_the_error_line_gives_the_class(error, failure):
    stderr = f"Traceback (most recent call last):\n  File \"p.py\", line 3\n{error}\n"
    verdict = judge.judge(PROGRAM, outcome("", stderr, code=1), REFERENCE)
    assert (verdict.failure, verdict.reason) == (failure, error)


def test_a_failed_migrate_is_told_from_a_failed_program():
    failed = dataclasses.replace(outcome("", "tf1compat migrate: x.py: cannot parse\n", 2),
                                 step="migrate")
    assert judge.judge(PROGRAM, failed, REFERENCE).failure == "migrate failed"


def test_compare_and_ignore_select_the_lines_held_to_tf115():
    chosen = dataclasses.replace(PROGRAM, compare=r"^INFO:tensorflow:loss", ignore=r"sec")
    text = judge.compared_text(chosen, "noise 3\n",
                               "INFO:tensorflow:loss = 1.5\nINFO:tensorflow:loss 2 sec\nother 7\n")
    assert text == "INFO:tensorflow:loss = 1.5\n"


def test_the_error_is_the_tracebacks_last_line_not_runs_summary():
    stderr = ("Traceback (most recent call last):\n  File \"p.py\", line 3, in <module>\n"
              "TypeError: __init__() got an unexpected keyword argument 'period'\n"
              "tf1compat run: p.py raised TypeError (exit code 1)\n"
              "  user code (gets TF1): /x (script folder)\n")
    assert judge.error_line(outcome("", stderr, code=1)) == \
        "TypeError: __init__() got an unexpected keyword argument 'period'"


def test_a_graph_execution_error_says_which_and_is_classed():
    stderr = ("Traceback (most recent call last):\n"
              "tensorflow.python.framework.errors_impl.InvalidArgumentError: Graph execution "
              "error:\n\nDetected at node 'tower_0/MatMul' defined at (most recent call last):\n"
              "Cannot assign a device for operation tower_0/MatMul: {{node tower_0/MatMul}} was "
              "explicitly assigned to /device:GPU:0 but available devices are [ CPU:0 ]\n")
    verdict = judge.judge(PROGRAM, outcome("", stderr, code=1), REFERENCE)
    assert verdict.failure == "device"
    assert "Cannot assign a device for operation tower_0/MatMul" in verdict.reason
