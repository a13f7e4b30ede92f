"""The start-up hook of launch's tasks never stops a task, and says when its fixes are off."""

import subprocess
import sys

from isolated import REPO_ROOT

TASK_SITE = REPO_ROOT / "tf1compat" / "launch" / "task_site"


def test_a_failing_fix_is_one_line_on_stderr_and_the_task_still_runs(tmp_path):
    broken = tmp_path / "tf1compat" / "launch"
    broken.mkdir(parents=True)
    (broken.parent / "__init__.py").write_text("")
    (broken / "__init__.py").write_text("")
    (broken / "task_fixes.py").write_text(
        "def install_from_environment():\n    raise RuntimeError('boom')\n")
    result = subprocess.run([sys.executable, "-c", "print('task ran')"], capture_output=True,
                            text=True, timeout=60,
                            env={"PYTHONPATH": f"{TASK_SITE}:{tmp_path}", "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0
    assert result.stdout == "task ran\n"
    assert "tf1compat launch: the task fixes (tf1compat.launch.task_fixes) are not installed " \
           "in this task, which runs without them: RuntimeError: boom" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_python_without_tf1compat_gets_the_fixes_from_the_copy_the_hook_is_in(tmp_path):
    # `python -S` leaves site-packages (where tf1compat is installed) off sys.path, then the
    # hook is imported by hand, as site does for a sitecustomize on PYTHONPATH
    code = ("import sys, importlib; sys.path.insert(0, sys.argv[1]); "
            "importlib.import_module('sitecustomize'); "
            "import tf1compat.launch.task_fixes as fixes; print(fixes.__file__)")
    result = subprocess.run([sys.executable, "-S", "-c", code, str(TASK_SITE)],
                            capture_output=True, text=True, timeout=60, cwd=tmp_path,
                            env={"PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    assert "are not installed" not in result.stderr
    assert result.stdout.strip() == str(REPO_ROOT / "tf1compat" / "launch" / "task_fixes.py")
