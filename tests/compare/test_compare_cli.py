"""`tf1compat compare` as a user runs it: the table, --only, --json, --plot, exit codes.

How compare reports does not depend on oneDNN: the fakes run no TensorFlow, and the real
examples run here are the runs test_example_pairs makes under both settings."""

import json
import textwrap

import pytest

from isolated import run_cli

pytestmark = pytest.mark.no_rewritten_ops

FAKE_COMMON = (__import__("pathlib").Path(__file__).resolve().parents[2] / "examples" /
               "common.py").read_text()


@pytest.fixture()
def fake_examples(tmp_path):
    """An examples folder with one agreeing, one disagreeing and one failing example."""
    folder = tmp_path / "fakes"
    folder.mkdir()
    (folder / "__init__.py").write_text('EXAMPLES = ("same", "differs", "broken", "footer")\n')
    (folder / "common.py").write_text(FAKE_COMMON.replace("from examples", "from fakes"))
    template = textwrap.dedent('''
        from fakes import common
        NAME = "{name}"
        TITLE = "{name}"
        PREIMPORT = ()  # these fakes use no TensorFlow
        def tf1(settings):
            return {{"summary": "one", "values": {{"x": 1}},
                    "history": {{"loss": [2.0, 1.0], "accuracy": [0.5, 0.7]}}}}
        def tf2(settings):
            {tf2_body}
        def agree(a, b):
            return common.exact(a, b, ["x"])
        if __name__ == "__main__":
            common.main(__spec__.name)
        ''')
    bodies = {"same": 'return {"summary": "one", "values": {"x": 1}, '
                      '"history": {"loss": [2.1, 1.1], "accuracy": [0.5, 0.6]}}',
              "differs": 'return {"summary": "two", "values": {"x": 2}}',
              "broken": 'raise RuntimeError("this form is broken")',
              # TensorFlow writes where the failing op was built after the exception
              "footer": 'import atexit, sys; atexit.register(sys.stderr.write, "\\nOriginal '
                        'stack trace for \'batch\':\\n  File \'x.py\', line 1\\n"); '
                        'raise RuntimeError("queue closed")'}
    for name, body in bodies.items():
        (folder / f"{name}.py").write_text(template.format(name=name, tf2_body=body))
    return folder


def test_agreeing_example_exits_zero_with_table(fake_examples):
    result = run_cli("compare", "--examples", str(fake_examples), "--only", "same")
    assert result.returncode == 0, result.stderr
    assert "TF1 result" in result.stdout and "agree: identical x" in result.stdout
    assert "[1/1] same: agree" in result.stderr


def test_disagreement_and_failure_exit_non_zero(fake_examples):
    result = run_cli("compare", "--examples", str(fake_examples), "--json")
    assert result.returncode == 1
    rows = {row["example"]: row for row in json.loads(result.stdout)}
    assert rows["same"]["agreement"] == "agree"
    assert rows["differs"]["agreement"] == "DISAGREE"
    assert "TF1 1 != TF2 2" in rows["differs"]["detail"]
    assert rows["broken"]["agreement"] == "FAILED"
    assert "this form is broken" in rows["broken"]["detail"]
    assert rows["footer"]["agreement"] == "FAILED"
    assert "RuntimeError: queue closed" in rows["footer"]["detail"]
    assert "Original stack trace" not in rows["footer"]["detail"]


def test_only_takes_a_comma_separated_list_in_the_order_given(fake_examples):
    result = run_cli("compare", "--examples", str(fake_examples), "--only", "differs,same",
                     "--json")
    assert [row["example"] for row in json.loads(result.stdout)] == ["differs", "same"]


def test_plot_draws_training_curves(fake_examples, tmp_path):
    target = tmp_path / "curves.png"
    result = run_cli("compare", "--examples", str(fake_examples), "--only", "same",
                     "--plot", str(target))
    assert result.returncode == 0, result.stderr
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert target.stat().st_size > 10_000


def test_unknown_example_and_missing_folder_are_one_line_errors(fake_examples, tmp_path):
    unknown = run_cli("compare", "--examples", str(fake_examples), "--only", "nope")
    assert unknown.returncode == 2
    assert "--only nope: no such example; accepted: same, differs, broken" in unknown.stderr
    missing = run_cli("compare", "--examples", str(tmp_path / "none"))
    assert missing.returncode == 2 and "no examples folder" in missing.stderr
    assert "Traceback" not in unknown.stderr + missing.stderr


def test_compare_runs_real_examples_in_separate_processes():
    # One real pair is enough for the CLI's part (every pair runs in test_example_pairs).
    result = run_cli("compare", "--size", "small", "--only", "matmul_towers", "--json")
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    assert [row["example"] for row in rows] == ["matmul_towers"]
    assert all(row["agreement"] == "agree" for row in rows)
    assert rows[0]["tf1"]["values"]["tower_devices"] == ["CPU:0", "CPU:1"]
