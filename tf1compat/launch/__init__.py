"""`tf1compat launch`'s internals: the launcher that starts and watches every task, the
host binding (a preloaded shim that keeps a task's servers on 127.0.0.1) and the fixes
each task gets at start-up (task_fixes, task_site/sitecustomize.py)."""
