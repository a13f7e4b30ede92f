"""An installed library that is TF1 code (it imports tensorflow.contrib as it loads) gets TF1
under `tf1compat run`, as the script does; `--library-root` keeps it on TF 2.21."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

from isolated import REPO_ROOT, python_env

# Written for TF 1.x: a module-level contrib import, and graph-mode code in its functions.
OLDLIB = {
    "__init__.py": "from oldlib.layers import dense_sum\n",
    "layers.py": """
        import tensorflow as tf
        from tensorflow.contrib.framework.python.ops import add_arg_scope


        @add_arg_scope
        def dense_sum(values, scale=1.0):
            x = tf.placeholder(tf.float32, [None], name="x")
            total = tf.reduce_sum(x) * scale
            with tf.Session() as sess:
                return sess.run(total, feed_dict={x: values})
    """,
}

SCRIPT = """
import oldlib
print("sum", oldlib.dense_sum([1.0, 2.0, 3.5], scale=2.0))
"""


@pytest.fixture
def installed(tmp_path):
    """oldlib installed in a user site of this Python (an installed-library folder to `run`),
    and the environment that finds it there."""
    env = python_env()
    env["PYTHONUSERBASE"] = str(tmp_path / "userbase")
    site_dir = subprocess.run([sys.executable, "-c", "import site; print(site.getusersitepackages())"],
                              env=env, capture_output=True, text=True, check=True).stdout.strip()
    for relative, source in OLDLIB.items():
        path = os.path.join(site_dir, "oldlib", relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as handle:
            handle.write(textwrap.dedent(source))
    env["PYTHONPATH"] = os.pathsep.join([site_dir, str(REPO_ROOT)])
    (tmp_path / "train.py").write_text(SCRIPT)
    return env, os.path.realpath(os.path.join(site_dir, "oldlib"))


def _run(tmp_path, env, *flags):
    report = tmp_path / "report.json"
    done = subprocess.run([sys.executable, "-m", "tf1compat.cli.main", "run", *flags,
                           "--report-json", str(report), "train.py"], cwd=str(tmp_path),
                          env=env, capture_output=True, text=True, timeout=240)
    return done, report


def test_a_tf1_library_is_served_tf1_and_the_report_says_why(tmp_path, installed):
    env, folder = installed
    done, report = _run(tmp_path, env)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "sum 13.0" in done.stdout
    user = json.loads(report.read_text())["roots"]["user"]
    taken = [root for root in user if root["path"] == folder]
    assert taken and taken[0]["why"] == ("TF1 library: oldlib/layers.py line 3 uses "
                                         "tensorflow.contrib.framework.python.ops as it loads")
    assert "TF1 library: oldlib/layers.py" in done.stderr  # the printed report too


def test_library_root_keeps_it_on_tf2_and_the_error_names_user_root(tmp_path, installed):
    env, folder = installed
    done, _ = _run(tmp_path, env, "--library-root", folder)
    assert done.returncode == 1
    assert "No module named 'tensorflow.contrib'" in done.stderr
    assert f"--user-root {folder}" in done.stderr
