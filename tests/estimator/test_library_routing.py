"""tensorflow-estimator's modules see TF 2.21 with Keras 2 (tf_keras) for `import tensorflow`,
through builtins of their own: `builtins.__import__` is never swapped, so an import hook set
while the library loads (from any thread) stays in place."""

import subprocess
import sys

from isolated import REPO_ROOT, python_env

PROGRAM = """
import builtins, sys, threading

seen = []
original = builtins.__import__


def watching(name, *args, **kwargs):  # a hook of the program's own, set before the library loads
    seen.append(name)
    return original(name, *args, **kwargs)


builtins.__import__ = watching
import tensorflow as tf
from tf1compat.estimator import loader

swapped = []
stop = threading.Event()


def watch():  # the process-wide import, read from another thread while the library loads
    while not stop.is_set():
        if builtins.__import__ is not watching:
            swapped.append(builtins.__import__)


thread = threading.Thread(target=watch)
thread.start()
api = loader.v1_api()
stop.set()
thread.join()
canned = sys.modules["tensorflow_estimator.python.estimator.canned.dnn"]
import tf_keras
print("swapped", len(swapped), "still-ours", builtins.__import__ is watching)
print("view-keras", canned.tf.keras is tf_keras, "user-keras", tf.keras is not tf_keras)
print("estimator", api.Estimator.__module__)
print("hook-saw-library", any(name.startswith("tensorflow") for name in seen))
"""


def test_the_estimator_loads_without_touching_builtins_import():
    env = python_env()
    env["PYTHONPATH"] = str(REPO_ROOT)
    done = subprocess.run([sys.executable, "-c", PROGRAM], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert "swapped 0 still-ours True" in lines
    assert "view-keras True user-keras True" in lines
    assert "hook-saw-library True" in lines  # the library's imports went through the hook
    assert any(line.startswith("estimator tensorflow_estimator.") for line in lines), lines
