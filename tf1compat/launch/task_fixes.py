"""Fixes `tf1compat launch` puts into every Python process of every task it starts.

Today one: Keras 3's `Model.fit` under `MultiWorkerMirroredStrategy`
(`modern.keras_multi_worker`, keras-team/keras#20585), so that an unmodified TF2
multi-worker script -- the strategy, a model compiled in `strategy.scope()`,
`model.fit(dataset)` -- trains. A script calling
`modern.cluster.multi_worker_mirrored()` gets the same fix itself.

How it reaches the task: launch puts `task_site/` first on the task's PYTHONPATH;
Python imports its `sitecustomize` at start-up, which runs the task's own
sitecustomize (if any) and then `install_from_environment()`. That imports
neither TensorFlow nor Keras: the fix is applied right after Keras's TensorFlow
trainer has been imported (`tf1compat.shared.import_watch`), in the processes that
import it, and nowhere else.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Mapping

ENV_KERAS_FIX = "TF1COMPAT_KERAS_MULTI_WORKER"
SITE_DIR = Path(__file__).with_name("task_site")
KERAS_TRAINER = "keras.src.backend.tensorflow.trainer"


def environment(env: Mapping[str, str], keras_fix: bool = True) -> dict[str, str]:
    """The variables to add to a task's environment `env` (empty with keras_fix=False)."""
    if not keras_fix:
        return {}
    path = env.get("PYTHONPATH", "")
    entries = [entry for entry in path.split(os.pathsep) if entry] if path else []
    if str(SITE_DIR) not in entries:
        entries.insert(0, str(SITE_DIR))
    return {"PYTHONPATH": os.pathsep.join(entries), ENV_KERAS_FIX: "1"}


def _install_keras_fix(_trainer_module) -> None:
    from modern import keras_multi_worker

    keras_multi_worker.install()


def install_from_environment() -> bool:
    """Arranges the fixes the environment asks for; True when the Keras fix is arranged."""
    if os.environ.get(ENV_KERAS_FIX) != "1":
        return False
    from tf1compat.shared import import_watch

    import_watch.when_imported(KERAS_TRAINER, _install_keras_fix)
    return True
