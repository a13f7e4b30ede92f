"""TF 1.15's `tensorflow.python.*` modules that TF 2.21 moved whole (or whose forward points
nowhere), and where they went.

Between 1.15 and 2.21 TensorFlow moved some private modules as a whole: the checkpointing
machinery (`training/tracking/*`) became `trackable/*` and `checkpoint/*`, the distribution
strategy context functions joined `distribute_lib`, the training kernels' wrappers are only
their generated module. TF1 code imports them by the old path (`from tensorflow.python.
training.tracking import data_structures` in contrib.checkpoint and cudnn_rnn,
`from tensorflow.python.training import training_ops` in every contrib optimizer). Nothing in
either version ties old path to new, so each move is declared here, with the TF 2.21 modules
that now hold the old module's names, looked up in order; checked by
tests/runner/test_private_paths_moved.py against TF 1.15's own modules' names. No
TensorFlow import here. The targets are declared TensorFlow internals (tf_internals.
MOVED_TRACKABLE, MOVED_CHECKPOINT, MOVED_TRAINING_OPS, MOVED_STRATEGY_CONTEXT).
"""

from __future__ import annotations

from typing import Optional

_TRACKING = "tensorflow.python.training.tracking"
_TRACKABLE = "tensorflow.python.trackable."
_CHECKPOINT = "tensorflow.python.checkpoint."
MOVED: dict[str, tuple[str, ...]] = {
    f"{_TRACKING}.base": (f"{_TRACKABLE}base", f"{_CHECKPOINT}restore"),
    f"{_TRACKING}.data_structures": (f"{_TRACKABLE}data_structures",),
    f"{_TRACKING}.tracking": (f"{_TRACKABLE}autotrackable", f"{_TRACKABLE}resource"),
    f"{_TRACKING}.util": (f"{_CHECKPOINT}checkpoint",),
    f"{_TRACKING}.graph_view": (f"{_CHECKPOINT}graph_view",),
    f"{_TRACKING}.layer_utils": (f"{_TRACKABLE}layer_utils",),
    f"{_TRACKING}.python_state": (f"{_TRACKABLE}python_state",),
    "tensorflow.python.training.training_ops": ("tensorflow.python.ops.gen_training_ops",),
    "tensorflow.python.distribute.distribution_strategy_context":
        ("tensorflow.python.distribute.distribute_lib",),
    # TF 2.21's module forwards TF1's batch-normalization layer to `tf_keras.legacy_tf_layers.
    # normalization`, a path tf_keras 2.21 keeps only under `tf_keras.src`: importing any of
    # its names fails there. The layer is the one `tf.layers.BatchNormalization` is under run.
    "tensorflow.python.layers.normalization": ("tf_keras.src.legacy_tf_layers.normalization",),
}
# Packages every module of which moved: nothing of theirs is left to import at the old path.
MOVED_PACKAGES = frozenset({_TRACKING})


def moved_to(module: str) -> Optional[tuple[str, ...]]:
    """The TF 2.21 modules holding what TF 1.15's `module` held, or None where it did not
    move ('tensorflow.python.training.tracking.util' -> ('tensorflow.python.checkpoint.
    checkpoint',))."""
    return MOVED.get(module)


def is_moved_package(module: str) -> bool:
    """Whether `module` is a TF 1.15 package whose modules all moved (`training.tracking`)."""
    return module in MOVED_PACKAGES
