"""Start-up hook of the Python processes `tf1compat launch` starts (see tf1compat.launch.task_fixes).

This folder is first on a task's PYTHONPATH and holds this file only. The
task's own `sitecustomize` (found further along sys.path) runs first, as if
this one were not there; then the fixes of `tf1compat.launch.task_fixes` are arranged.
Nothing here may stop the task from starting: a failure to arrange the fixes
is one line on stderr, naming what failed, and the task runs without them.
"""

import importlib.machinery
import importlib.util
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))


def _run_the_tasks_own_sitecustomize() -> None:
    path = [entry for entry in sys.path if os.path.abspath(entry or os.curdir) != _HERE]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", path)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules["sitecustomize"] = module
    spec.loader.exec_module(module)


def _arrange_fixes() -> None:
    try:
        from tf1compat.launch import task_fixes
    except ImportError:  # tf1compat not importable by this Python: use the copy we are in
        # _HERE is <root>/tf1compat/launch/task_site: the folder that holds tf1compat
        root = os.path.dirname(os.path.dirname(os.path.dirname(_HERE)))
        sys.path.append(root)
        try:
            from tf1compat.launch import task_fixes
        finally:
            sys.path.remove(root)
    task_fixes.install_from_environment()


try:
    _run_the_tasks_own_sitecustomize()
finally:
    try:
        _arrange_fixes()
    except Exception as error:  # noqa: BLE001 - the task must start regardless; said below
        sys.stderr.write(f"tf1compat launch: the task fixes (tf1compat.launch.task_fixes) are not "
                         f"installed in this task, which runs without them: "
                         f"{type(error).__name__}: {error}\n")
