"""The declaration of every run-time change tf1compat and modern make to another library or
to Python (`tf1compat.shared.patches` makes them).

Each entry says what changes, whose it is and on which versions it was checked, the feature
it serves, where it is installed, and what happens without it. A TensorFlow target names its
declaration in `tf1compat.shared.tf_internal_table` as well, whose check at start reports a
missing one by name.
"""

from __future__ import annotations

import dataclasses
from typing import Optional

from tf1compat.shared import tf_internal_table as tf
from tf1compat.shared.tf_internal_table import TfInternal

# The versions of each library every entry below was checked on.
CHECKED_ON = {"tensorflow": ("2.21.0",), "keras": ("3.15.1",), "tf_slim": ("1.1.0",),
              "tensorflow_estimator": ("2.15.0",), "numpy": ("2.4.6",),
              "python": ("3.11", "3.12"), "tensorflow 1.15": ("1.15.0",)}


@dataclasses.dataclass(frozen=True)
class Patch:
    """One run-time change of another library or of Python.

    Attributes:
      key: how the code that makes it names it.
      target: what changes, in words a maintainer can look up.
      owner: whose it is: tensorflow, keras, tf_slim, tensorflow_estimator, numpy, python
        (builtins, sys.meta_path, sys.modules), or tensorflow 1.15.
      feature: what depends on it.
      without: what happens when it cannot be made.
      installed_by: the function that makes it, and when.
      attribute: for an attribute, "module:path" to look it up by (absent otherwise).
      internal: the declaration of its TensorFlow private names, for TensorFlow targets.
      elsewhere: for a change made in another interpreter (the TF 1.15 reference's), why it
        cannot go through this process's registry; empty otherwise.
    """

    key: str
    target: str
    owner: str
    feature: str
    without: str
    installed_by: str
    attribute: str = ""
    internal: Optional[TfInternal] = None
    elsewhere: str = ""

    @property
    def checked_on(self) -> tuple[str, ...]:
        return CHECKED_ON[self.owner]


def _tf(key: str, internal: TfInternal, name: str, installed_by: str) -> Patch:
    return Patch(key, f"{internal.module}.{name}", "tensorflow", internal.feature,
                 internal.without, installed_by, f"{internal.module}:{name}", internal)


PATCHES = (
    # --- `tf1compat run` and notebooks (tf1compat.runner.served_hooks.install) ---------------
    _tf("tf.session-init", tf.SESSION_INIT, "BaseSession.__init__",
        "tf1compat.runner.tf_patches.SessionHook.install, at run start"),
    _tf("tf.operation-device", tf.OPERATION_SET_DEVICE, "Operation._set_device_from_string",
        "tf1compat.runner.tf_patches.DeviceHook.install, at run start with --device-map"),
    _tf("tf.device-listing", tf.MAPPED_DEVICE_LISTING, "list_local_devices",
        "tf1compat.runner.device_listing.install, at run start with --device-map"),
    Patch("tf.nchw-on-cpu", "tensorflow.python.ops.gen_nn_ops: conv2d, "
          "conv2d_backprop_input, depthwise_conv2d_native, max_pool, avg_pool", "tensorflow",
          tf.NCHW_KERNELS.feature, tf.NCHW_KERNELS.without,
          "tf1compat.runner.nchw_on_cpu.install, at run start with --device-map where oneDNN "
          "is off", "tensorflow.python.ops.gen_nn_ops:conv2d", tf.NCHW_KERNELS),
    _tf("tf.node-error-message", tf.NODE_ERROR_MESSAGE, "_build_node_error_message",
        "tf1compat.runner.tf_patches.hide_runner_frames, at run start"),
    _tf("tf.benchmarks-main", tf.BENCHMARKS_MAIN, "benchmarks_main",
        "tf1compat.runner.tf_patches.tf115_benchmark_flag, at run start"),
    Patch("python.import-hook", "builtins.__import__", "python",
          "`import tensorflow` in user code gives TF 1.15's API",
          "tf1compat run cannot start", "tf1compat.runner.shim.install, at run start",
          "builtins:__import__"),
    Patch("python.import-module", "importlib.import_module", "python",
          "importlib.import_module('tensorflow') in user code gives TF 1.15's API, as "
          "`import tensorflow` does",
          "importlib.import_module gives user code TensorFlow 2's modules",
          "tf1compat.runner.shim.install, at run start", "importlib:import_module"),
    Patch("python.keras-deferred", "sys.modules['keras.src.optimizers'] and "
          "sys.modules['tf_keras.src.optimizers'], None while tensorflow loads", "python",
          "a TF1 script that never uses Keras starts without loading it, and migrate reads "
          "TF 2.21's signatures without it (about a quarter of their start-up CPU)",
          "TensorFlow loads Keras as it loads: the run starts slower, and behaves the same",
          "tf1compat.shared.deferred_keras.while_tensorflow_loads, at run start and when "
          "migrate first reads TF 2.21's signatures; undone once tensorflow is imported"),
    Patch("numpy.legacy-printing",
          "numpy._core.printoptions.default_format_options_dict['legacy']", "numpy",
          "--numpy 1: arrays print as NumPy 1 printed them, in every thread",
          "threads other than the main one print arrays as NumPy 2 does",
          "tf1compat.runner.numpy1.install, at run start with --numpy 1",
          "numpy._core.printoptions:default_format_options_dict"),
    Patch("numpy.size-one-scalars",
          "numpy.ndarray's nb_float and nb_int slots and its type dict's __float__, __int__",
          "numpy", "--numpy 1: float(), int() and %-formatting of a size-1 array give its "
          "number, as NumPy 1 gave it (a [1]-shaped result of sess.run)",
          "a size-1 array with ndim > 0 raises NumPy 2.4's TypeError (only 0-dimensional "
          "arrays can be converted to Python scalars)",
          "tf1compat.runner.numpy1.install, at run start with --numpy 1",
          "numpy:ndarray"),
    # --- tf.estimator (tf1compat.estimator.loader, on first use) ----------------------------
    Patch("tf.estimator-api", "tensorflow.python.util.tf_export: ESTIMATOR_API_NAME, "
          "API_ATTRS['estimator'], API_ATTRS_V1['estimator']", "tensorflow",
          tf.TF_EXPORT_REGISTRY.feature, tf.TF_EXPORT_REGISTRY.without,
          "tf1compat.estimator.tf_internals.install, on tf.estimator's first use",
          "tensorflow.python.util.tf_export:API_ATTRS", tf.TF_EXPORT_REGISTRY),
    Patch("tf.estimator-stand-ins", "sys.modules and tensorflow.python.{distribute,tpu}: "
          "estimator_training, session_support, tpu_embedding, tpu_embedding_gradient",
          "tensorflow", tf.ESTIMATOR_STAND_IN_PACKAGES.feature,
          tf.ESTIMATOR_STAND_IN_PACKAGES.without,
          "tf1compat.estimator.tf_internals.install, on tf.estimator's first use",
          internal=tf.ESTIMATOR_STAND_IN_PACKAGES),
    Patch("python.estimator-finder", "sys.meta_path: a finder for tensorflow_estimator.*, "
          "whose modules get their own __builtins__ with a routed __import__",
          "python", "tensorflow-estimator's `import tensorflow`/keras get tf_keras",
          "tf.estimator's Keras parts use Keras 3 and fail",
          "tf1compat.estimator.keras_routing.route_library_imports, on tf.estimator's first use"),
    # --- tf.contrib --------------------------------------------------------------------------
    Patch("python.contrib-finder", "sys.meta_path: a finder for tf1compat.contrib.*",
          "python", "tf.contrib modules served as real modules",
          "`import tf1compat.contrib.<module>` fails for served modules",
          "tf1compat.contrib.finder.install, when tf1compat.contrib is imported"),
    Patch("python.tf115-code-finder", "sys.meta_path: a finder for "
          "tf1compat.contrib.from_tf115.*", "python",
          "contrib packages served from TF 1.15's own source (graph_editor, labeled_tensor, ...)",
          "those packages' names are unsupported",
          "tf1compat.contrib.tf115_code.install, when tf1compat.contrib is imported"),
    Patch("tf_slim.normalization-view", "tf_slim.layers.layers.normalization_layers",
          "tf_slim", "slim's batch_norm on TF 2.21's layers",
          "tf.contrib.slim's batch_norm fails", "tf1compat.contrib.tf_slim_compat.load",
          "tf_slim.layers.layers:normalization_layers"),
    Patch("tf_slim.ops-views", "the `ops` attribute of tf_slim.{learning, layers.optimizers, "
          "layers.utils, layers.rev_block_lib, training.training}", "tf_slim",
          "slim reads Tensor and IndexedSlices from TF 2.21's ops", "slim's training fails",
          "tf1compat.contrib.tf_slim_compat.load", internal=tf.SLIM_OPS_MODULE),
    Patch("tf_slim.private-module-views", "every tf_slim.* attribute holding a "
          "tensorflow.python module", "tf_slim",
          "slim's reads of TF 1.15's private names served", "slim fails on a moved name",
          "tf1compat.contrib.tf_slim_compat.load"),
    Patch("tf_slim.shared-arg-scope", "tf_slim.ops.arg_scope._DECORATED_OPS and _ARGSTACK, "
          "and _key_op of tf_slim's layers", "tf_slim",
          "one arg_scope for tf.contrib.framework and slim",
          "arg_scope of one does not reach the other's layers",
          "tf1compat.contrib.tf_slim_arg_scope.share", "tf_slim.ops.arg_scope:_ARGSTACK"),
    # --- import watches (tf1compat, modern, launched tasks) -----------------------------------
    Patch("python.import-watch", "sys.meta_path: a finder that runs code after a module loads "
          "(and its loader's exec_module)", "python",
          "hdfs:// and the runtime watch set up when TensorFlow or Keras load",
          "hdfs:// needs tf1compat.hdfs.ensure_registered()",
          "tf1compat.shared.import_watch.when_imported; removes itself when done"),
    Patch("tf.eager-context-watch", "tensorflow.python.eager.context.Context.ensure_initialized",
          "tensorflow", tf.EAGER_CONTEXT.feature, tf.EAGER_CONTEXT.without,
          "modern.runtime.install_watch (import modern); undone once the runtime starts",
          "tensorflow.python.eager.context:Context.ensure_initialized", tf.EAGER_CONTEXT),
    Patch("keras.multi-worker-build",
          "keras.src.backend.tensorflow.trainer.TensorFlowTrainer._maybe_symbolic_build",
          "keras", "Keras 3 fit under MultiWorkerMirroredStrategy",
          "multi-worker fit hangs or fails as Keras 3 alone does",
          "modern.keras_multi_worker.install (multi_worker_mirrored(), launched tasks)",
          "keras.src.backend.tensorflow.trainer:TensorFlowTrainer._maybe_symbolic_build"),
    Patch("keras.reduce-per-replica", "keras.src.backend.tensorflow.trainer.reduce_per_replica",
          "keras", "Keras 3 fit under MultiWorkerMirroredStrategy",
          "multi-worker fit's results are not reduced across workers",
          "modern.keras_multi_worker.install",
          "keras.src.backend.tensorflow.trainer:reduce_per_replica"),
    # --- made in other interpreters --------------------------------------------------------
    Patch("python.task-sitecustomize", "sys.modules['sitecustomize']", "python",
          "a launched task's own sitecustomize runs before launch's fixes",
          "the task's sitecustomize would not run",
          "tf1compat/launch/task_site/sitecustomize.py, at a launched task's start",
          elsewhere="runs while the task's interpreter starts, before any package loads"),
    Patch("tf115.soft-placement", "tf.compat.v1.Session.__init__ (TF 1.15 or 2.21)",
          "tensorflow 1.15", "corpus programs run with allow_soft_placement",
          "a program pinned to a GPU fails on CPU", "tf1compat/corpus/soft_placement.py",
          elsewhere="a wrapper script the corpus runs under TensorFlow 1.15 too"),
    Patch("tf115.initialization-watch", "tf.global_variables_initializer and Session.run "
          "under TF 1.15", "tensorflow 1.15",
          "compare --migrated-tf2 starts TF2 from TF 1.15's initial values",
          "the TF2 side starts from other random values",
          "tf1compat/compare/tf1_initial_checkpoint.py",
          elsewhere="runs in the TF 1.15 interpreter (Python 3.7), where tf1compat is not "
                    "installed"),
)

DECLARED_PATCHES = {patch.key: patch for patch in PATCHES}
assert len(DECLARED_PATCHES) == len(PATCHES), "two patches share a key"
