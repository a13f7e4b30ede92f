"""Every private name of a library other than TensorFlow that tf1compat and modern read or
patch, declared once: Keras 3, tf_keras, tf_slim, tensorflow-estimator, LibCST, and Python's
own standard library.

The same form as TensorFlow's (`tf1compat.shared.tf_internal_table`): where the name is,
what it is used for, the feature that depends on it and what happens without it. The test
`tests/foundation/test_tf_internals.py` fails when the code reads a private attribute that
is declared in neither table; `tf1compat doctor` checks each one in the installed library.
"""

from __future__ import annotations

import dataclasses

from tf1compat.shared.tf_internal_table import TfInternal


@dataclasses.dataclass(frozen=True)
class LibraryInternal(TfInternal):
    """Private names of one module of another library (fields as `TfInternal`'s).

    Attributes:
      library: the distribution they belong to, as pip names it.
      prepare: "module:function" to call first, for a library that loads only through
        tf1compat (tensorflow-estimator on TF 2.21).
      homeless_attributes: private attributes no class or module holds to look them up
        (set on an object while the library runs); `names` declares the code that sets or
        reads them.
    """

    library: str = ""
    prepare: str = ""
    homeless_attributes: tuple[str, ...] = ()

    @property
    def attribute_names(self) -> tuple[str, ...]:
        """Every private attribute name declared here (the last part of each location)."""
        return tuple(location.rpartition(".")[2] for location in self.locations) + \
            self.homeless_attributes


KERAS_TRAINER = LibraryInternal(
    "keras.src.backend.tensorflow.trainer",
    ("TensorFlowTrainer._maybe_symbolic_build", "TensorFlowTrainer._symbolic_build",
     "_collective_all_reduce_multi_worker", "reduce_per_replica"),
    instance_names=("TensorFlowTrainer._distribute_strategy",),
    used_for="wrapped so that Keras 3 fit builds and reduces once per worker under "
             "MultiWorkerMirroredStrategy", feature="Keras fit on several workers",
    without="multi-worker fit behaves as Keras 3 alone does (hangs or unreduced metrics)",
    library="keras", checked_on=("3.15.1",))

KERAS_INITIAL_EPOCH = LibraryInternal(
    "keras.src.trainers.trainer", (), instance_names=("Trainer._initial_epoch",),
    used_for="set from a backup so that fit resumes at the epoch it stopped in",
    feature="modern.fault_tolerance", without="a restored fit counts its epochs from 0",
    library="keras", checked_on=("3.15.1",))

KERAS_BACKUP_STATE = LibraryInternal(
    "keras.src.callbacks.backup_and_restore", (),
    instance_names=("BackupAndRestore._current_epoch", "BackupAndRestore._last_batch_seen"),
    used_for="names each backup after the epoch and batch Keras' own callback is at",
    feature="modern.fault_tolerance", without="backups cannot be named; fit with backups fails",
    library="keras", checked_on=("3.15.1",))

TF_KERAS_LEGACY_CELLS = LibraryInternal(
    "tf_keras.src.layers.rnn.legacy_cells", (),
    instance_names=("BasicLSTMCell._kernel", "BasicLSTMCell._bias",
                    "GRUCell._kernel_initializer"),
    used_for="the weights and initializer of TF1's cells, which contrib's LSTMBlockCell and "
             "the cuDNN-compatible cells compute with", feature="tf.contrib.rnn, cudnn_rnn",
    without="LSTMBlockCell and the cuDNN-compatible cells fail when called",
    library="tf_keras", checked_on=("2.21.0",))

TF_SLIM_ARG_SCOPE = LibraryInternal(
    "tf_slim.ops.arg_scope", ("_ARGSTACK", "_DECORATED_OPS", "add_arg_scope"),
    homeless_attributes=("_key_op",),
    used_for="shared with tf.contrib.framework's arg_scope (one stack, one table, and the "
             "_key_op add_arg_scope sets on each function it decorates)",
    feature="arg_scope across contrib and slim",
    without="an arg_scope of one does not reach the other's layers",
    library="tf-slim", checked_on=("1.1.0",))

ESTIMATOR_RUN_CONFIG = LibraryInternal(
    "tensorflow_estimator.python.estimator.run_config",
    ("RunConfig._init_distributed_setting_from_environment_var",),
    homeless_attributes=("_distribute_coordinator_mode",),
    used_for="RunConfig(train_distribute=) set up as on one machine, without TF's removed "
             "distribute coordinator", feature="tf.estimator with a distribution strategy",
    without="RunConfig(train_distribute=...) fails", library="tensorflow-estimator",
    checked_on=("2.15.0",), prepare="tf1compat.estimator.loader:v1_api")

LIBCST_MATCHER_TRANSFORMER = LibraryInternal(
    "libcst.matchers._visitors", (),
    instance_names=("MatcherDecoratableTransformer._extra_visit_funcs",
                    "MatcherDecoratableTransformer._extra_leave_funcs",
                    "MatcherDecoratableTransformer._matchers"),
    used_for="skips the matcher machinery of a migrate rule that declares no matchers",
    feature="tf1compat migrate's speed", without="tf1compat migrate fails",
    library="libcst", checked_on=("1.9.0",))

ARGPARSE_OPTIONS = LibraryInternal(
    "argparse", (), instance_names=("ArgumentParser._option_string_actions",),
    used_for="reads which flags a script's own parser declares",
    feature="run's script flags beside its own", without="tf1compat run fails on such scripts",
    library="python", checked_on=("3.11", "3.12"))

IMPORT_SPEC_INITIALIZING = LibraryInternal(
    "importlib._bootstrap", ("_load_unlocked",), homeless_attributes=("_initializing",),
    used_for="ModuleSpec._initializing, which _load_unlocked sets while a module's code runs, "
             "tells a module still being imported from one fully imported",
    feature="code run after TensorFlow's import (hdfs://, the runtime watch)",
    without="that code could run on a half-imported TensorFlow",
    library="python", checked_on=("3.11", "3.12"))

DECLARED: tuple[LibraryInternal, ...] = tuple(
    value for value in list(globals().values()) if isinstance(value, LibraryInternal))
