"""`tf1compat run` gives TF1 to all of the user's code: the script's folder, the working
directory, PYTHONPATH entries and --user-root folders; --library-root keeps TF2."""

import json
import os
import subprocess
import sys
import sysconfig
import textwrap

import pytest

from isolated import REPO_ROOT, python_env
from tf1compat.shared.errors import OptionError
from tf1compat.runner import roots


def write(path, source):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source))
    return path


def run_in(cwd, *args, pythonpath=()):
    """`tf1compat run ARGS` started in `cwd`, with `pythonpath` ahead of the checkout."""
    env = python_env()
    env["PYTHONPATH"] = os.pathsep.join([*map(str, pythonpath), str(REPO_ROOT)])
    return subprocess.run([sys.executable, "-m", "tf1compat.cli.main", "run", *args],
                          capture_output=True, text=True, timeout=240, env=env, cwd=str(cwd))


# A package of the model repository, imported from its root as the model garden does.
HOOKS = """
import tensorflow as tf


class StepCounterHook(tf.train.SessionRunHook):
    def begin(self):
        self.steps = 0

    def after_run(self, run_context, run_values):
        self.steps += 1


def kind():
    return repr(tf)
"""

TRAIN = """
import tensorflow as tf
from official.utils.hooks import StepCounterHook

step = tf.train.get_or_create_global_step()
train = tf.assign_add(step, 1)
hook = StepCounterHook()
with tf.train.MonitoredTrainingSession(hooks=[hook]) as sess:
    for _ in range(3):
        sess.run(train)
print("steps", hook.steps)
"""


@pytest.fixture
def model_repo(tmp_path):
    repo = tmp_path / "models"
    write(repo / "official" / "__init__.py", "")
    write(repo / "official" / "utils" / "__init__.py", "")
    write(repo / "official" / "utils" / "hooks.py", HOOKS)
    write(repo / "official" / "mnist" / "__init__.py", "")
    write(repo / "official" / "mnist" / "train.py", TRAIN)
    return repo


def test_package_from_the_repository_root_gets_tf1_and_the_report_lists_the_roots(
        model_repo, tmp_path):
    report_path = tmp_path / "report.json"
    result = run_in(model_repo, "--report-json", str(report_path), "official/mnist/train.py",
                    pythonpath=[model_repo])
    assert result.returncode == 0, result.stderr[-3000:]
    assert "steps 3" in result.stdout
    assert "SessionRunHook" not in result.stderr
    report = json.loads(report_path.read_text())
    user = {root["path"]: root["why"] for root in report["roots"]["user"]}
    repo = os.path.realpath(model_repo)
    assert user[os.path.join(repo, "official", "mnist")] == "script folder"
    assert user[repo] == "working directory"  # also on PYTHONPATH: listed once
    assert os.path.realpath(REPO_ROOT) in user  # the checkout on PYTHONPATH
    assert {r["path"] for r in report["roots"]["library"]} >= \
        {os.path.realpath(sysconfig.get_path("purelib"))}
    assert f"user code (gets TF1): {os.path.join(repo, 'official', 'mnist')} (script folder), " \
           f"{repo} (working directory)" in result.stderr


def test_package_only_on_pythonpath_gets_tf1(model_repo, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = run_in(elsewhere, str(model_repo / "official" / "mnist" / "train.py"),
                    pythonpath=[model_repo])
    assert result.returncode == 0, result.stderr[-3000:]
    assert "steps 3" in result.stdout
    assert f"{os.path.realpath(model_repo)} (PYTHONPATH)" in result.stderr


SHOW_KIND = """
import sys
sys.path.insert(0, sys.argv[1])
import extra
print("kind:", extra.kind())
"""


def test_user_root_flag_adds_a_folder_the_script_puts_on_sys_path(tmp_path):
    extra = tmp_path / "vendor"
    write(extra / "extra.py", HOOKS)
    main = write(tmp_path / "project" / "main.py", SHOW_KIND)
    without = run_in(tmp_path / "project", str(main), str(extra))
    assert without.returncode == 1
    assert "SessionRunHook" in without.stderr  # TF2's tf.train has none
    with_flag = run_in(tmp_path / "project", "--user-root", str(extra), str(main), str(extra))
    assert with_flag.returncode == 0, with_flag.stderr[-3000:]
    assert "kind: <TF1 module" in with_flag.stdout
    assert f"{os.path.realpath(extra)} (--user-root)" in with_flag.stderr


def test_library_root_keeps_a_folder_on_tf2(tmp_path):
    lib = tmp_path / "project" / "third_party"
    write(lib / "tf2lib.py", "import tensorflow as tf\ndef kind():\n    return tf.__name__, "
                             "hasattr(tf, 'Session')\n")
    main = write(tmp_path / "project" / "main.py", """
        import tf2lib
        print("kind:", tf2lib.kind())
        """)
    as_user = run_in(tmp_path / "project", str(main), pythonpath=[lib])
    assert "kind: ('tensorflow.compat.v1', True)" in as_user.stdout, as_user.stderr[-3000:]
    as_library = run_in(tmp_path / "project", "--library-root", str(lib), str(main),
                        pythonpath=[lib])
    assert as_library.returncode == 0, as_library.stderr[-3000:]
    assert "kind: ('tensorflow', False)" in as_library.stdout  # the real TF2 module
    assert f"libraries by --library-root (keep TF2): {os.path.realpath(lib)}" in \
        as_library.stderr


def test_a_root_that_is_not_a_folder_is_our_clear_error(tmp_path):
    main = write(tmp_path / "main.py", "print('ran')\n")
    result = run_in(tmp_path, "--user-root", str(tmp_path / "missing"), str(main))
    assert result.returncode == 2
    assert "invalid --user-root" in result.stderr and "does not exist" in result.stderr
    assert "Traceback" not in result.stderr and "ran" not in result.stdout
    result = run_in(tmp_path, "--library-root", str(tmp_path), str(main))
    assert result.returncode == 2
    assert "invalid --library-root" in result.stderr and "script's folder" in result.stderr


def test_pythonpath_entries_into_site_packages_stay_libraries(tmp_path):
    site_packages = sysconfig.get_path("purelib")
    found = roots.resolve(str(tmp_path), str(tmp_path),
                          os.pathsep.join([site_packages, "", str(REPO_ROOT)]))
    paths = found.user_paths()
    assert os.path.realpath(site_packages) not in paths
    assert paths == [os.path.realpath(tmp_path), os.path.realpath(REPO_ROOT)]
    with pytest.raises(OptionError, match="--user-root"):
        roots.resolve(str(tmp_path), str(tmp_path), "", [str(tmp_path / "nope")])
