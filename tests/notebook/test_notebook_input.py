"""Notebooks `tf1compat run` refuses, where the executed notebook goes, and the kernel spec:
all checked before any kernel (or TensorFlow) starts, in this process."""

from __future__ import annotations

import json
import subprocess
import sys

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from budgets import budget
from isolated import python_env
from tf1compat.cli.main import main
from tf1compat.cli.run_notebook import output_path
from tf1compat.notebook import NotebookError
from tf1compat.notebook.reading import is_notebook_path


def one_error_line(capsys, *argv):
    code = main(list(map(str, argv)))
    out, err = capsys.readouterr()
    assert code == 2 and out == "", (code, out, err)
    assert "Traceback" not in err
    [line] = err.splitlines()
    assert line.startswith("tf1compat: error: ")
    return line


def write(path, cells, language="python"):
    notebook = new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {"name": "k", "display_name": f"{language} kernel",
                                       "language": language}
    nbformat.write(notebook, str(path))
    return path


ACCEPTED = "accepted: a Jupyter notebook (nbformat 4 JSON"


@pytest.mark.parametrize("text,expected", [
    ('{"cells": [null', "bad.ipynb: not a notebook: it is not valid JSON (Expecting"),
    ("[1, 2]", "bad.ipynb: not a notebook: it is a JSON list without the 'nbformat' field"),
    ('{"nbformat": 4, "nbformat_minor": 5, "cells": 3, "metadata": {}}',
     "bad.ipynb: not a valid notebook: "),
])
def test_what_is_not_a_notebook_is_one_line(tmp_path, capsys, text, expected):
    path = tmp_path / "bad.ipynb"
    path.write_text(text)
    line = one_error_line(capsys, "run", path)
    assert expected in line and ACCEPTED in line


def test_a_notebook_of_another_language_is_refused(tmp_path, capsys):
    path = write(tmp_path / "analysis.ipynb", [new_code_cell("x <- 1")], language="R")
    line = one_error_line(capsys, "run", path)
    assert "analysis.ipynb: a notebook in 'R' (kernel 'R kernel'), not Python" in line
    assert ACCEPTED in line


def test_a_syntax_error_names_its_cell_and_no_cell_runs(tmp_path, capsys):
    marker = tmp_path / "ran"
    path = write(tmp_path / "course.ipynb", [
        new_markdown_cell("# intro"),
        new_code_cell(f"%matplotlib inline\n!touch {marker}\nimport os"),  # IPython lines pass
        new_code_cell("x = 1\nprint(x"),
    ])
    line = one_error_line(capsys, "run", path)
    assert "course.ipynb: cell 3 has a syntax error on line 2: '(' was never closed: " \
           "'print(x'; accepted: Python code, with IPython's %magics and !shell lines" in line
    assert not marker.exists() and not (tmp_path / "course.tf1compat.ipynb").exists()


def test_notebook_options_are_for_notebooks_only(tmp_path, capsys):
    # A notebook by its name, as Jupyter tells: any other file runs as Python runs it.
    assert is_notebook_path("course.ipynb") and is_notebook_path("COURSE.IPYNB")
    assert not is_notebook_path("course.ipynb.py") and not is_notebook_path("notes.json")
    script = tmp_path / "train.py"
    script.write_text("print('never run')\n")
    notebook = write(tmp_path / "course.ipynb", [new_code_cell("print(1)")])
    line = one_error_line(capsys, "run", "--output", tmp_path / "x.ipynb", script)
    assert "--output applies to notebooks only; " in line and "train.py" in line
    line = one_error_line(capsys, "run", "--in-place", script)
    assert "--in-place applies to notebooks only" in line
    # After the script, they are the script's own arguments (script_argv), not run's.
    line = one_error_line(capsys, "run", notebook, "--output", "x.ipynb")
    assert "course.ipynb: a notebook takes no arguments (received ['--output', 'x.ipynb'])" \
        in line


def test_where_the_executed_notebook_goes(tmp_path, capsys):
    notebook = str(write(tmp_path / "course.ipynb", [new_code_cell("print(1)")]))
    before = (tmp_path / "course.ipynb").read_bytes()
    assert output_path(notebook, None, False) == str(tmp_path / "course.tf1compat.ipynb")
    assert output_path(notebook, None, True) == notebook
    assert output_path(notebook, str(tmp_path / "out.ipynb"), False) == \
        str(tmp_path / "out.ipynb")
    for output, in_place, expected in [
            (notebook, False, "is the notebook itself; pass --in-place"),
            (str(tmp_path / "out.ipynb"), True, "and --in-place both say where"),
            (str(tmp_path / "out.json"), False, "accepted: a path ending in .ipynb"),
            (str(tmp_path / "no" / "out.ipynb"), False, "does not exist")]:
        with pytest.raises(NotebookError, match=expected):
            output_path(notebook, output, in_place)
    line = one_error_line(capsys, "run", "--output", notebook, notebook)
    assert "--output" in line and "is the notebook itself" in line
    assert (tmp_path / "course.ipynb").read_bytes() == before


def test_kernel_install_list_remove(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "share" / "jupyter"))
    assert main(["kernel", "install", "--prefix", str(tmp_path), "--name", "TF1-course"]) == 0
    folder = tmp_path / "share" / "jupyter" / "kernels" / "tf1-course"
    assert str(folder) in capsys.readouterr().out
    spec = json.loads((folder / "kernel.json").read_text())
    assert spec["argv"] == [sys.executable, "-m", "ipykernel_launcher", "-f",
                            "{connection_file}", "--ext=tf1compat"]
    assert spec["display_name"] == "Python 3 (TF1 via tf1compat)"
    assert spec["language"] == "python"
    assert main(["kernel", "list"]) == 0
    assert f"tf1-course  {folder}" in capsys.readouterr().out.splitlines()
    assert main(["kernel", "remove", "tf1-course"]) == 0
    assert f"removed kernel 'tf1-course' from {folder}" in capsys.readouterr().out
    assert not folder.exists()
    line = one_error_line(capsys, "kernel", "remove", "tf1-course")
    assert "no tf1compat kernel named 'tf1-course' is installed" in line
    line = one_error_line(capsys, "kernel", "install", "--name", "a b", "--prefix", tmp_path)
    assert "invalid --name 'a b'" in line


@pytest.mark.parametrize("argv", [["run", "{notebook}"], ["kernel", "list"]])
def test_without_the_notebook_extra_the_hint_says_what_to_install(tmp_path, capsys,
                                                                  monkeypatch, argv):
    notebook = write(tmp_path / "course.ipynb", [new_code_cell("print(1)")])
    monkeypatch.setitem(sys.modules, "nbclient", None)  # what an import of a missing one sees
    line = one_error_line(capsys, *(arg.format(notebook=notebook) for arg in argv))
    assert "needs nbclient, which is not installed" in line
    assert line.endswith("pip install 'tf1compat[notebook]' (nbclient, nbformat, ipykernel, "
                         "IPython)")


def test_importing_tf1compat_stays_cheap():
    result = subprocess.run(
        [sys.executable, "-c", "import sys, tf1compat; print(callable(tf1compat."
         "load_ipython_extension), 'tensorflow' in sys.modules, 'IPython' in sys.modules)"],
        capture_output=True, text=True, env=python_env(), check=True, timeout=budget(5))
    assert result.stdout.split() == ["True", "False", "False"]
