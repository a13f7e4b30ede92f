"""`tf1compat migrate` as a user runs it: files, folders, notebooks, bad input, --write."""

import json
import os
import stat

import pytest

from tf1compat.cli.main import main

TF1_SCRIPT = """import tensorflow as tf

config = tf.ConfigProto()
config.gpu_options.allow_growth = True
x = tf.placeholder(tf.float32, [None])
with tf.Session(config=config) as sess:
    print(sess.run(x * 2, {x: [1.0]}))
"""


def migrate(capsys, *args):
    code = main(["migrate", *map(str, args)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_report_without_write_changes_nothing(tmp_path, capsys):
    script = tmp_path / "train.py"
    script.write_text(TF1_SCRIPT)
    code, out, _ = migrate(capsys, script)
    assert code == 0
    assert script.read_text() == TF1_SCRIPT
    assert f"{script}: would change (use --write)" in out
    assert "tf_upgrade_v2: " in out and "rename(s)" in out
    assert f"{script}:3: changed: ConfigProto and 1 attribute assignment(s) -> with " \
           "tf1compat.session(growth=True) at line 6" in out
    assert "nothing written (use --write)" in out


def test_diff_shows_the_rewrite(tmp_path, capsys):
    script = tmp_path / "train.py"
    script.write_text(TF1_SCRIPT)
    code, out, _ = migrate(capsys, script, "--diff")
    assert code == 0 and script.read_text() == TF1_SCRIPT
    assert "-with tf.Session(config=config) as sess:" in out
    assert "+with tf1compat.session(growth=True, graph=tf.compat.v1.get_default_graph()) as sess:" \
        in out
    assert "+tf.compat.v1.disable_v2_behavior()" in out


def test_write_is_atomic_keeps_permissions_and_a_second_run_changes_nothing(tmp_path, capsys):
    script = tmp_path / "train.py"
    script.write_text(TF1_SCRIPT)
    script.chmod(0o750)
    code, out, _ = migrate(capsys, tmp_path, "--write")
    assert code == 0 and f"{script}: written" in out
    migrated = script.read_text()
    assert "tf1compat.session(growth=True" in migrated and "tf.ConfigProto" not in migrated
    assert stat.S_IMODE(os.stat(script).st_mode) == 0o750
    assert [p.name for p in tmp_path.iterdir()] == ["train.py"]  # no temporary left
    code, out, _ = migrate(capsys, tmp_path, "--write")
    assert code == 0 and f"{script}: unchanged" in out and script.read_text() == migrated


def test_a_syntax_error_is_reported_and_the_batch_goes_on(tmp_path, capsys):
    (tmp_path / "a_broken.py").write_text("import tensorflow as tf\ndef f(:\n")
    (tmp_path / "b_good.py").write_text(TF1_SCRIPT)
    code, out, _ = migrate(capsys, tmp_path, "--write", "--json")
    assert code == 1
    files = {os.path.basename(f["path"]): f for f in json.loads(out)["files"]}
    assert files["a_broken.py"]["status"] == "error"
    [error] = files["a_broken.py"]["findings"]
    assert error["line"] == 2 and error["kind"] == "error" and "syntax error" in error["message"]
    assert files["b_good.py"]["status"] == "changed" and files["b_good.py"]["written"]
    assert (tmp_path / "a_broken.py").read_text() == "import tensorflow as tf\ndef f(:\n"


def test_notebook_code_cells_are_migrated_in_place(tmp_path, capsys):
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": ["# TF1 notebook"]},
        {"cell_type": "code", "metadata": {}, "execution_count": 1, "outputs": [],
         "source": ["%matplotlib inline\n", "import tensorflow as tf\n",
                    "config = tf.ConfigProto(allow_soft_placement=True)"]},
        {"cell_type": "code", "metadata": {}, "execution_count": 2, "outputs": [],
         "source": ["x = tf.placeholder(tf.float32)\n",
                    "with tf.Session(config=config) as sess:\n",
                    "    print(sess.run(x, {x: 1.0}))"]},
    ]
    path = tmp_path / "old.ipynb"
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4,
                                "nbformat_minor": 5}))
    code, out, _ = migrate(capsys, path, "--write")
    assert code == 0, out
    notebook = json.loads(path.read_text())
    first, second = ("".join(c["source"]) for c in notebook["cells"][1:])
    assert first.startswith("%matplotlib inline\nimport tensorflow as tf\nimport tf1compat\n")
    assert "tf.compat.v1.disable_v2_behavior()" in first and "ConfigProto" not in first
    assert "with tf1compat.session(soft_placement=True" in second
    assert "tf.compat.v1.placeholder" in second
    assert notebook["cells"][0]["source"] == ["# TF1 notebook"]
    assert ":3: changed: code cell 1: ConfigProto -> with tf1compat.session(soft_placement=True) " \
           "at line 2 of code cell 2" in out
    code, out, _ = migrate(capsys, path, "--write")
    assert f"{path}: unchanged" in out


@pytest.mark.parametrize("make,expected", [
    (lambda tmp: tmp / "missing.py", "does not exist"),
    (lambda tmp: (tmp / "empty").mkdir() or tmp / "empty", "holds no Python files"),
])
def test_bad_paths_are_one_line_errors(tmp_path, capsys, make, expected):
    code, out, err = migrate(capsys, make(tmp_path))
    assert code == 2 and out == ""
    lines = [line for line in err.splitlines() if line.startswith("tf1compat")]
    assert len(lines) == 1 and expected in lines[0] and "Traceback" not in err
