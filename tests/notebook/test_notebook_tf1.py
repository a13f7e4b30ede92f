"""A TF1 notebook of our own (tf1_course.ipynb), run three ways, each printing what the same
code prints as a script under `tf1compat run`:

- `tf1compat run tf1_course.ipynb`: nbclient and ipykernel, TF1 served by the run;
- through the installed kernel spec, with nbclient as Jupyter runs it;
- after `tf1compat migrate --write`, under the plain Python kernel (and then `%load_ext
  tf1compat` in that kernel serves TF1 from its cell on).

Printed numbers are compared with tolerances (printed_numbers), not as text. Each way starts
one kernel (one TensorFlow process); the script run is the fourth, the notebook whose cell
fails the fifth, and migrate itself loads TensorFlow in this process.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from budgets import budget
from isolated import python_env, run_cli
from tf1compat.cli.main import main
from tf1compat.compare.printed_numbers import compare

COURSE = Path(__file__).resolve().parent / "tf1_course.ipynb"
CSV = "a,b,label\n1.5,2.0,1\n0.5,-1.0,0\n3.0,0.25,1\n"
SHELL_LINE = "shell lines run too"  # printed by the notebook's `!echo`, not by the script
KERNEL_S = 60  # one kernel on an idle machine: TensorFlow's start, then the cells
# The three ways share one script run (a module fixture): on one xdist worker it runs once.
COURSE_GROUP = pytest.mark.xdist_group("notebook-course")


def course_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "course"
    folder.mkdir()
    shutil.copy(COURSE, folder / COURSE.name)
    (folder / "data.csv").write_text(CSV)
    return folder


def as_script(notebook) -> str:
    """The code cells as one script, without the lines only IPython runs (%magics, !shell)."""
    return "\n".join(line for cell in notebook.cells if cell.cell_type == "code"
                     for line in cell.source.splitlines()
                     if not line.lstrip().startswith(("%", "!"))) + "\n"


def printed(notebook) -> str:
    """What the code cells printed to stdout, in order, less TensorFlow's log: in a notebook
    TensorFlow logs to stdout (the migrated notebook's disable_v2_behavior() logs a warning)."""
    text = "".join(output.get("text", "") for cell in notebook.cells
                   if cell.cell_type == "code" for output in cell.outputs
                   if output.output_type == "stream" and output.name == "stdout")
    kept, skip = [], 0
    for line in text.splitlines():
        if line.startswith("WARNING:tensorflow:"):
            skip = 1
        elif skip and line == "Instructions for updating:":
            skip = 2  # the instruction itself is the next line
        elif skip == 2:
            skip = 0
        else:
            skip = 0
            kept.append(line)
            continue
    return "".join(line + "\n" for line in kept)


def assert_prints_as_the_script(notebook, script_stdout: str) -> None:
    text = printed(notebook)
    assert SHELL_LINE in text.splitlines(), text
    text = "\n".join(line for line in text.splitlines() if line != SHELL_LINE) + "\n"
    comparison = compare(script_stdout, text)
    assert comparison.ok, [d.describe() for d in comparison.differences]
    assert "towers" in text and "hidden (3, 4)" in text  # the numbers were there to compare
    [plot] = [cell for cell in notebook.cells if "plt.show()" in cell.source]
    assert any("image/png" in output.get("data", {}) for output in plot.outputs), plot.outputs


@pytest.fixture(scope="module")
def script_stdout(tmp_path_factory) -> str:
    """What the notebook's code prints as a script under `tf1compat run`."""
    folder = course_folder(tmp_path_factory.mktemp("script"))
    script = folder / "course.py"
    script.write_text(as_script(nbformat.read(str(COURSE), 4)))
    result = run_cli("run", "--no-report", str(script), cwd=folder, timeout=KERNEL_S)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def execute(path: Path, kernel_name: str, env: dict) -> nbformat.NotebookNode:
    """Runs the notebook as Jupyter does (nbclient), in its folder."""
    notebook = nbformat.read(str(path), 4)
    client = NotebookClient(notebook, kernel_name=kernel_name, timeout=int(budget(KERNEL_S)),
                            startup_timeout=int(budget(KERNEL_S)),
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute(env=env)
    return notebook


@COURSE_GROUP
def test_run_executes_the_notebook_as_its_script_runs(tmp_path, script_stdout):
    folder = course_folder(tmp_path)
    before = (folder / COURSE.name).read_bytes()
    report = tmp_path / "report.json"
    result = run_cli("run", "--soft-placement", "--device-map", "gpu:*=cpu:*", "--report-json",
                     str(report), COURSE.name, cwd=folder, timeout=KERNEL_S)
    assert result.returncode == 0, result.stderr[-3000:]
    assert (folder / COURSE.name).read_bytes() == before  # never written over
    executed = nbformat.read(str(folder / "tf1_course.tf1compat.ipynb"), 4)
    assert_prints_as_the_script(executed, script_stdout)
    echoed = [line for line in result.stdout.splitlines() if line != SHELL_LINE]
    assert echoed == [line for line in script_stdout.splitlines()], result.stdout
    data = json.loads(report.read_text())
    assert data["device_map"] == ["gpu:*=cpu:*"] and data["device_remaps"] == []
    [session] = data["sessions"]
    assert session["command_line"] == {"soft_placement": True}  # the run's options reached it
    assert session["where"] == "Cell In[2], line 9"
    assert session["options"] == {"soft_placement": True, "cpus": 2, "intra_op_threads": 1,
                                  "inter_op_threads": 1}
    assert "tf1compat run: tf1_course.ipynb finished (exit code 0)" in result.stderr
    assert "replaced: tf.contrib.layers.fully_connected -> " \
           "tf1compat.contrib.layers.fully_connected" in result.stderr


@COURSE_GROUP
def test_the_kernel_spec_serves_tf1_to_every_cell(tmp_path, script_stdout, monkeypatch):
    folder = course_folder(tmp_path)
    jupyter = tmp_path / "prefix" / "share" / "jupyter"
    assert main(["kernel", "install", "--prefix", str(tmp_path / "prefix")]) == 0
    monkeypatch.setenv("JUPYTER_PATH", str(jupyter))  # where nbclient looks the kernel up
    notebook = nbformat.read(str(folder / COURSE.name), 4)
    notebook.cells += [
        new_code_cell("import sys\nprint('libraries keep TF2', "
                      "sys.modules['tensorflow'] is not tf, hasattr(sys.modules['tensorflow'], "
                      "'function'))"),
        new_code_cell("%tf1compat report")]
    nbformat.write(notebook, str(folder / COURSE.name))
    executed = execute(folder / COURSE.name, "tf1compat",
                       python_env({"IPYTHONDIR": str(tmp_path / "ipython")}))
    *course, library, report = executed.cells
    library_text = "".join(output.get("text", "") for output in library.outputs)
    assert library_text == "libraries keep TF2 True True\n"
    executed.cells = course
    assert_prints_as_the_script(executed, script_stdout)
    report_text = "".join(output.get("text", "") for output in report.outputs)
    assert "tf1compat: TF1 served to notebook so far" in report_text
    assert "1. Session at Cell In[2], line 9: soft_placement=True, cpus=2" in report_text
    assert "tf.contrib.layers.fully_connected -> tf1compat.contrib.layers" in report_text


@COURSE_GROUP
def test_the_migrated_notebook_runs_on_the_plain_kernel(tmp_path, script_stdout, capsys):
    folder = course_folder(tmp_path)
    assert main(["migrate", "--write", str(folder / COURSE.name)]) == 0, capsys.readouterr()
    migrated = nbformat.read(str(folder / COURSE.name), 4)
    assert "tf.contrib" not in as_script(migrated) and "tf.ConfigProto" not in as_script(migrated)
    # Then, in the same kernel, %load_ext serves TF1 from its cell on (`tf` was imported before).
    migrated.cells += [new_code_cell("%load_ext tf1compat"),
                       new_code_cell("import tensorflow as tf1\nprint('from here on', "
                                     "type(tf1).__name__, tf1 is tf, hasattr(tf1, 'contrib'))")]
    nbformat.write(migrated, str(folder / COURSE.name))
    executed = execute(folder / COURSE.name, "python3",
                       python_env({"IPYTHONDIR": str(tmp_path / "ipython")}))
    *course, load, after = executed.cells
    executed.cells = course
    assert_prints_as_the_script(executed, script_stdout)
    warning = "".join(output.get("text", "") for output in load.outputs)
    assert "tf1compat: warning: tensorflow was imported before %load_ext tf1compat" in warning
    assert printed(nbformat.v4.new_notebook(cells=[after])) == \
        "from here on TF1Module False True\n"


def test_a_failing_cell_stops_the_run_and_is_named(tmp_path):
    notebook = new_notebook(cells=[
        new_code_cell("import tensorflow as tf\nprint('first cell ran')"),
        new_markdown_cell("Then a name TF 2.21 does not have."),
        new_code_cell("def build():\n    return tf.contrib.nonexistent_layer\n\nbuild()"),
        new_code_cell("print('never')"),
    ])
    nbformat.write(notebook, str(tmp_path / "broken.ipynb"))
    out = tmp_path / "out" / "ran.ipynb"
    out.parent.mkdir()
    result = run_cli("run", "--output", str(out), "--report-json", str(tmp_path / "r.json"),
                     "broken.ipynb", cwd=tmp_path, timeout=KERNEL_S)
    assert result.returncode == 1, result.stderr[-3000:]
    assert result.stdout == "first cell ran\n"
    lines = result.stderr.splitlines()
    [line] = [line for line in lines if line.startswith("tf1compat run: broken.ipynb: ")]
    assert line.startswith("tf1compat run: broken.ipynb: cell 3 (In [2]) raised ContribError: "
                           "tf.contrib.nonexistent_layer is not available on TF 2.21")
    trace = result.stderr[:result.stderr.index(line)]
    assert "Cell In[2], line 4" in trace and "----> 2     return tf.contrib.nonexistent_layer" \
        in trace
    assert "tf1compat" + os.sep + "runner" not in trace and "nbclient" not in result.stderr
    assert "\x1b[" not in result.stderr
    executed = nbformat.read(str(out), 4)
    assert [o.output_type for o in executed.cells[2].outputs] == ["error"]
    assert executed.cells[2].outputs[0].ename == "ContribError"
    assert executed.cells[3].outputs == [] and executed.cells[3].execution_count is None
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["status"] == "raised ContribError in cell 3" and report["exit_code"] == 1
    assert "tf1compat run: broken.ipynb raised ContribError in cell 3 (exit code 1)" in lines
