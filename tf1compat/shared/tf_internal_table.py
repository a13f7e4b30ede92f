"""Every private TensorFlow name tf1compat and modern read or patch, declared once.

TensorFlow's public API (`tf.*`) is stable across releases; what lies under
`tensorflow.python`, `tensorflow.core` and `tensorflow.tools`, and any
`_underscore` attribute of a TensorFlow object, is not. Each name this
project relies on there is declared here: where it is, what it is used for,
the feature that depends on it, and whether `tf1compat run` cannot work
without it (required) or only that feature turns off (optional).
`tf1compat.shared.tf_internals` resolves and checks them; the test
`tests/foundation/test_tf_internals.py` fails when the code uses a private
TensorFlow name that is not declared here.
"""

from __future__ import annotations

import dataclasses

# The TensorFlow releases every declaration below was checked against.
TESTED_VERSIONS = ("2.21.0",)


@dataclasses.dataclass(frozen=True)
class TfInternal:
    """Private TensorFlow names of one module that one feature relies on.

    Attributes:
      module: the dotted module, e.g. "tensorflow.python.framework.ops".
      names: attribute paths inside it, e.g. "Operation._set_device_from_string";
        "" stands for the module object itself.
      instance_names: "Class._attribute" entries: attributes that `Class.__init__`
        sets on each instance (checked in its code, without building one).
      used_for: what tf1compat does with them.
      feature: what depends on them.
      without: what happens when one is missing.
      required: `tf1compat run` cannot work without them (else only `feature` is off).
      at_run_start: `tf1compat run` checks them before the script starts (the others
        are checked where their feature loads, and by `tf1compat doctor`).
      checked_on: TensorFlow versions on which they were checked.
    """

    module: str
    names: tuple[str, ...]
    used_for: str
    feature: str
    without: str
    required: bool = False
    at_run_start: bool = False
    instance_names: tuple[str, ...] = ()
    checked_on: tuple[str, ...] = TESTED_VERSIONS

    @property
    def locations(self) -> tuple[str, ...]:
        """Each declared name in full, e.g. 'tensorflow.python.framework.ops.Operation.x'."""
        return tuple(f"{self.module}.{name}" if name else self.module
                     for name in self.names + self.instance_names)

    @property
    def label(self) -> str:
        """The declaration in one line: module and names."""
        names = [name for name in self.names + self.instance_names if name]
        return f"{self.module}: {', '.join(names)}" if names else self.module


# --- what `tf1compat run` needs (checked when it starts) -------------------------------------

SESSION_INIT = TfInternal(
    "tensorflow.python.client.session", ("BaseSession.__init__",),
    used_for="wrapped so every session (tf.Session, InteractiveSession, MonitoredTrainingSession) "
             "gets the command line's options and is recorded",
    feature="tf1compat run", required=True, at_run_start=True,
    without="tf1compat run cannot start")

CONFIG_PROTOS = TfInternal(
    "tensorflow.core.protobuf.config_pb2", ("ConfigProto", "RunOptions", "RunMetadata"),
    used_for="session options as ConfigProto, and run metadata for placement as data, without "
             "importing all of TensorFlow",
    feature="session options", required=True, at_run_start=True,
    without="tf1compat run cannot start; no ConfigProto conversion")

OPERATION_SET_DEVICE = TfInternal(
    "tensorflow.python.framework.ops", ("Operation._set_device_from_string",),
    used_for="wrapped to remap the device of each graph op (tf.device strings, device functions, "
             "colocation)",
    feature="--device-map", at_run_start=True,
    without="the script's device requests are left as they are (a warning says so)")

MAPPED_DEVICE_LISTING = TfInternal(
    "tensorflow.python.client.device_lib", ("list_local_devices",),
    used_for="wrapped so that the script's own device listings show the GPUs of --device-map",
    feature="--device-map's GPU listings", at_run_start=True,
    without="the script's device_lib listings show the machine's devices only (a warning says so)")

NCHW_KERNELS = TfInternal(
    "tensorflow.python.ops.gen_nn_ops",
    ("conv2d", "conv2d_backprop_input", "depthwise_conv2d_native", "max_pool", "avg_pool"),
    used_for="wrapped so that an NCHW convolution or pool a script builds for the GPUs of "
             "--device-map runs on the CPU as NHWC between two transposes (TF's CPU kernels "
             "refuse NCHW where oneDNN is off)",
    feature="--device-map's GPU code paths (channels_first) on a CPU without oneDNN",
    at_run_start=True,
    without="an NCHW convolution or pool fails on the CPU as under TensorFlow alone "
            "(\"only supports NHWC\")")

ONEDNN_STATUS = TfInternal(
    "tensorflow.python.util._pywrap_util_port", ("IsMklEnabled",),
    used_for="whether this process runs oneDNN's CPU kernels (which take NCHW themselves)",
    feature="--device-map's GPU code paths (channels_first) on a CPU without oneDNN",
    at_run_start=True,
    without="NCHW convolutions and pools are converted whether or not oneDNN is on")

NODE_ERROR_MESSAGE = TfInternal(
    "tensorflow.python.framework.error_interpolation", ("_build_node_error_message",),
    used_for="wrapped to leave the runner's frames out of the op stacks TF1 errors print",
    feature="op stacks without the runner's frames", at_run_start=True,
    without="op stacks in TF errors also show tf1compat's and runpy's frames")

NEST_IS_NESTED = TfInternal(
    "tensorflow.python.util.nest", ("is_nested",),
    used_for="served for TF 1.15's tensorflow.python.util.nest.is_sequence, its old name "
             "(tf1compat.runner.private_paths.homes.RENAMED_IN_TF2)",
    feature="TF 1.15's private names renamed in TF 2",
    without="tensorflow.python.util.nest.is_sequence is unsupported, with what to use instead")

PYWRAP_TENSORFLOW = TfInternal(
    "tensorflow.python.pywrap_tensorflow", ("",),
    used_for="TF 1.15's tf.pywrap_tensorflow, served as the TF1 view of this module (run) and "
             "its names' public TF1 homes (migrate)",
    feature="tf.pywrap_tensorflow.X under run and after migrate",
    without="tf.pywrap_tensorflow raises an error naming it; `from tensorflow.python import "
            "pywrap_tensorflow` is unaffected")

NCCL_ALL_SUM = TfInternal(
    "tensorflow.python.ops.nccl_ops", ("all_sum",),
    used_for="NCCL's all-sum for contrib.all_reduce's build_nccl_* (TF 1.15 built them on it)",
    feature="tf.contrib.all_reduce's NCCL forms",
    without="build_nccl_* raise an error naming the missing name; the other forms work")

BENCHMARKS_MAIN = TfInternal(
    "tensorflow.python.platform.benchmark", ("benchmarks_main",),
    used_for="wrapped to read TF 1.15's --benchmarks=REGEX (TF 2 renamed it --benchmark_filter) "
             "wherever tf.test.main and googletest.main reach it",
    feature="a TF1 test file's benchmarks chosen by --benchmarks=", at_run_start=True,
    without="--benchmarks= is refused as an unknown flag, as on TF 2.21")

DEPRECATION_SILENCE = TfInternal(
    "tensorflow.python.util.deprecation", ("silence",),
    used_for="silences TF's deprecation notices for tf1compat's own calls (disable_v2_behavior, "
             "the queue pipeline)",
    feature="quiet calls of tf1compat's own", at_run_start=True,
    without="TF prints deprecation notices for calls the script did not make")

# --- modern (TF2) -----------------------------------------------------------------------------

EAGER_CONTEXT = TfInternal(
    "tensorflow.python.eager.context", ("Context.ensure_initialized", "context"),
    instance_names=("Context._context_handle",),
    used_for="tells whether the TF2 runtime has started, and notes the line that started it",
    feature="modern.configure's started-runtime check",
    without="modern.configure cannot tell the runtime started: TF's own RuntimeError shows, "
            "without the line that started it")

RUN_METADATA = TfInternal(
    "tensorflow.python.eager.context",
    ("enable_run_metadata", "export_run_metadata", "disable_run_metadata"),
    used_for="collects the devices each node of a tf.function ran on",
    feature="modern.placement.run",
    without="modern.placement.run raises an error naming the missing name")

FUNCTION_JIT_COMPILE = TfInternal(
    "tensorflow.python.eager.polymorphic_function.polymorphic_function", (),
    instance_names=("Function._jit_compile",),
    used_for="keeps a tf.function's jit_compile when modern.placement.run retraces it",
    feature="modern.placement.run of a jit_compile function",
    without="the retraced function runs without XLA")

KERAS2_SESSION_CONFIG = TfInternal(
    "tensorflow.python.client.session", (),
    instance_names=("BaseSession._config",),
    used_for="the CPUs of the session Keras 2 uses, to list the GPUs --device-map puts on them",
    feature="keras.backend.tensorflow_backend._get_available_gpus under --device-map",
    without="Keras 2's GPU listing counts the device map's GPUs on all of the machine's CPUs")

ONE_DEVICE_STRATEGY_DEVICE = TfInternal(
    "tensorflow.python.distribute.one_device_strategy", (),
    instance_names=("OneDeviceExtended._device",),
    used_for="the device of a OneDeviceStrategy, which has no worker_devices",
    feature="modern.distribute.replica_devices of a OneDeviceStrategy",
    without="replica_devices of a OneDeviceStrategy fails")

STRATEGY_COORDINATOR = TfInternal(
    "tensorflow.python.distribute.parameter_server_strategy_v2", (),
    instance_names=("ParameterServerStrategyV2._cluster_coordinator",),
    used_for="reuses the ClusterCoordinator a ParameterServerStrategy already has",
    feature="modern.cluster.coordinator reuse",
    without="a coordinator is asked of TF each time (TF itself keeps one per strategy)")

# --- tf.estimator (tensorflow-estimator 2.15 on TF 2.21) ---------------------------------------

TF_EXPORT_REGISTRY = TfInternal(
    "tensorflow.python.util.tf_export", ("_Attributes", "API_ATTRS", "API_ATTRS_V1"),
    used_for="registers the 'estimator' API that tensorflow-estimator's decorators need",
    feature="tf.estimator",
    without="tf.estimator raises an error naming the missing name")

ESTIMATOR_STAND_IN_PACKAGES = TfInternal(
    "tensorflow.python", ("distribute", "tpu"),
    used_for="holds the stand-ins for estimator_training and the TPU modules TF 2.21 removed",
    feature="tf.estimator",
    without="tf.estimator raises an error naming the missing name")

FUNCTION_ARGS = TfInternal(
    "tensorflow.python.util.function_utils", ("fn_args",),
    used_for="the arguments of a model_fn, as tensorflow-estimator reads them",
    feature="tf.estimator",
    without="tf.estimator raises an error naming the missing name")

LOCAL_DEVICES = TfInternal(
    "tensorflow.python.client.device_lib", ("list_local_devices",),
    used_for="the local GPUs (else the CPU) replicate_model_fn builds towers on by default",
    feature="tf.contrib.estimator.replicate_model_fn",
    without="tf.estimator raises an error naming the missing name")

# Checked before tensorflow-estimator is imported.
ESTIMATOR_INTERNALS = (TF_EXPORT_REGISTRY, ESTIMATOR_STAND_IN_PACKAGES, FUNCTION_ARGS,
                       LOCAL_DEVICES)

# --- tf.contrib -------------------------------------------------------------------------------

_EAGER = "tf.contrib.eager"
_EAGER_WITHOUT = "import tensorflow.contrib.eager raises an error naming the missing name"

EAGER_ITERATOR = TfInternal(
    "tensorflow.python.data.ops.iterator_ops", ("OwnedIterator", "OwnedIterator._next_internal"),
    used_for="tfe.Iterator: a tf.data iterator read in sync mode", feature=_EAGER,
    without=_EAGER_WITHOUT)

EAGER_BACKPROP = TfInternal(
    "tensorflow.python.eager.backprop",
    ("implicit_grad", "implicit_val_and_grad", "gradients_function", "val_and_grad_function",
     "GradientTape"),
    used_for="tfe's gradient functions, served as TensorFlow's own", feature=_EAGER,
    without=_EAGER_WITHOUT)

EAGER_CONTEXT_NAMES = TfInternal(
    "tensorflow.python.eager.context",
    ("executing_eagerly", "num_gpus", "ensure_initialized", "context", "DEVICE_PLACEMENT_EXPLICIT",
     "DEVICE_PLACEMENT_WARN", "DEVICE_PLACEMENT_SILENT", "SYNC", "ASYNC", "execution_mode",
     "set_execution_mode", "async_wait", "async_clear_error"),
    used_for="tfe's execution-mode names and devices, and eager checks of tfe.metrics",
    feature=_EAGER, without=_EAGER_WITHOUT)

EAGER_FUNCTIONS = TfInternal(
    "tensorflow.python.eager.def_function", ("function",),
    used_for="tfe.function and tfe.defun", feature=_EAGER, without=_EAGER_WITHOUT)

EAGER_OPS = TfInternal(
    "tensorflow.python.framework.ops", ("enable_eager_execution", "eager_run"),
    used_for="tfe.enable_eager_execution and tfe.run", feature=_EAGER, without=_EAGER_WITHOUT)

EAGER_TENSOR_SPEC = TfInternal(
    "tensorflow.python.framework.tensor_spec", ("TensorSpec",),
    used_for="tfe.TensorSpec", feature=_EAGER, without=_EAGER_WITHOUT)

EAGER_TEST_UTIL = TfInternal(
    "tensorflow.python.framework.test_util",
    ("run_in_graph_and_eager_modes", "run_all_in_graph_and_eager_modes"),
    used_for="tfe's test decorators", feature=_EAGER, without=_EAGER_WITHOUT)

EAGER_CUSTOM_GRADIENT = TfInternal(
    "tensorflow.python.ops.custom_gradient", ("custom_gradient",),
    used_for="tfe.custom_gradient", feature=_EAGER, without=_EAGER_WITHOUT)

EAGER_RESOURCE_VARIABLE = TfInternal(
    "tensorflow.python.ops.resource_variable_ops", ("ResourceVariable",),
    used_for="tfe.Variable and the variables of tfe.metrics", feature=_EAGER,
    without=_EAGER_WITHOUT)

EAGER_PY_FUNC = TfInternal(
    "tensorflow.python.ops.script_ops", ("eager_py_func",),
    used_for="tfe.py_func", feature=_EAGER, without=_EAGER_WITHOUT)

EAGER_TEMPLATE = TfInternal(
    "tensorflow.python.ops.template", ("make_template_internal",),
    used_for="tfe.make_template", feature=_EAGER, without=_EAGER_WITHOUT)

EAGER_VARIABLE_STORE = TfInternal(
    "tensorflow.python.ops.variable_scope", ("EagerVariableStore",),
    used_for="tfe.EagerVariableStore", feature=_EAGER, without=_EAGER_WITHOUT)

EAGER_CHECKPOINT = TfInternal(
    "tensorflow.python.checkpoint.checkpoint", ("CheckpointV1",),
    used_for="tfe.Checkpoint", feature=_EAGER, without=_EAGER_WITHOUT)

EAGER_TRACKABLE = TfInternal(
    "tensorflow.python.trackable.autotrackable", ("AutoTrackable",),
    used_for="tfe.Checkpointable", feature=_EAGER, without=_EAGER_WITHOUT)

SLIM_OPS_MODULE = TfInternal(
    "tensorflow.python.framework.ops", ("",),
    used_for="the module tf_slim reads Tensor and IndexedSlices from, given a view that has them",
    feature="tf.contrib.slim",
    without="tf.contrib.slim (tf_slim) fails to load")

ADAM_STATE = TfInternal(
    "tensorflow.python.training.adam", ("AdamOptimizer._get_beta_accumulators",),
    instance_names=("AdamOptimizer._lr_t", "AdamOptimizer._beta1_t", "AdamOptimizer._beta2_t",
                    "AdamOptimizer._epsilon_t"),
    used_for="the step's hyper-parameters of a v1 AdamOptimizer, for the sparse lazy update",
    feature="tf.contrib.opt LazyAdamOptimizer and NadamOptimizer",
    without="these optimizers fail when it applies gradients")

OPTIMIZER_SUBCLASS_API = TfInternal(
    "tensorflow.python.training.optimizer",
    ("Optimizer._prepare", "Optimizer._apply_dense", "Optimizer._resource_apply_dense",
     "Optimizer._apply_sparse", "Optimizer._resource_apply_sparse", "Optimizer._zeros_slot",
     "Optimizer._call_if_callable"),
    instance_names=("Optimizer._use_locking",),
    used_for="the methods a v1 Optimizer subclass overrides or calls (slots, locking, "
             "callable hyper-parameters)",
    feature="tf.contrib.opt optimizers (LARS, AdamW, MomentumW, ...)",
    without="these optimizers fail when they apply gradients")

CONTRIB_LOOKUP = TfInternal(
    "tensorflow.python.ops.lookup_ops",
    ("HashTable", "FastHashSpec", "HasherSpec", "StrongHashSpec", "IdTableWithHashBuckets",
     "InitializableLookupTableBase", "LookupInterface", "TableInitializerBase",
     "TextFileIdTableInitializer", "TextFileStringTableInitializer", "index_table_from_file",
     "index_to_string_table_from_file", "index_table_from_tensor",
     "index_to_string_table_from_tensor"),
    used_for="the lookup tables TF 1.15's contrib.lookup re-exported, which TF 2.21 keeps with "
             "no public name",
    feature="tf.contrib.lookup",
    without="tf.contrib.lookup fails to load")

CONTRIB_SUMMARY = TfInternal(
    "tensorflow.python.ops.summary_ops_v2", ("",),
    used_for="TF 1.15's contrib.summary functions, which TF 2.21 keeps there with no public "
             "name",
    feature="tf.contrib.summary",
    without="tf.contrib.summary's names fail where they are read")

UPGRADE_TABLES = TfInternal(
    "tensorflow.tools.compatibility",
    ("all_renames_v2.manual_symbol_renames", "all_renames_v2.addons_symbol_mappings",
     "module_deprecations_v2.MODULE_DEPRECATIONS"),
    used_for="TensorFlow's own tf_upgrade_v2 tables of where contrib names went",
    feature="tf.contrib hints from TF's upgrade tables",
    without="contrib errors give tf1compat's own hints only")

UPGRADE_TOOL = TfInternal(
    "tensorflow.tools.compatibility",
    ("ast_edits.ASTCodeUpgrader", "tf_upgrade_v2.TFAPIChangeSpec"),
    instance_names=("ast_edits.ASTCodeUpgrader._api_change_spec",),
    used_for="TensorFlow's own tf_upgrade_v2, run on source text, and its table of rewrites",
    feature="tf1compat migrate",
    without="tf1compat migrate stops with an error naming the missing name")

CONTRIB_SPARSE_CROSS = TfInternal(
    "tensorflow.python.ops.gen_sparse_ops", ("sparse_cross",),
    used_for="the core kernel of TF 1.15's contrib sparse_feature_cross (its second version)",
    feature="tf.contrib.layers' crossed feature columns (and contrib.learn's models on them)",
    without="crossing features fails where it is called")

# TF 1.15's private modules that TF 2 moved whole (tf1compat.runner.private_paths.moved)
_MOVED = "TF 1.15's {} at its old path (scripts, migrated code, TF 1.15's contrib files)"
_MOVED_WITHOUT = "importing the old path fails, naming the module"
MOVED_TRACKABLE = TfInternal(
    "tensorflow.python.trackable",
    ("base", "data_structures", "autotrackable", "resource", "layer_utils", "python_state"),
    used_for="where TF 1.15's training.tracking modules went",
    feature=_MOVED.format("training.tracking"), without=_MOVED_WITHOUT)
MOVED_CHECKPOINT = TfInternal(
    "tensorflow.python.checkpoint", ("checkpoint", "graph_view", "restore"),
    used_for="where TF 1.15's training.tracking util and graph_view went",
    feature=_MOVED.format("training.tracking"), without=_MOVED_WITHOUT)
MOVED_TRAINING_OPS = TfInternal(
    "tensorflow.python.ops.gen_training_ops", ("",),
    used_for="what is left of TF 1.15's training.training_ops, the kernels' generated module",
    feature=_MOVED.format("training.training_ops"), without=_MOVED_WITHOUT)
MOVED_STRATEGY_CONTEXT = TfInternal(
    "tensorflow.python.distribute.distribute_lib", ("",),
    used_for="where TF 1.15's distribute.distribution_strategy_context went",
    feature=_MOVED.format("distribute.distribution_strategy_context"), without=_MOVED_WITHOUT)
MOVED_LAYERS_NORMALIZATION = TfInternal(  # its forward points to a tf_keras path that is gone
    "tensorflow.python.layers", ("normalization",), used_for="TF1's batch-normalization layer",
    feature=_MOVED.format("layers.normalization"), without=_MOVED_WITHOUT)

# --- other tools ------------------------------------------------------------------------------

MKL_ENABLED = TfInternal(
    "tensorflow.python.util._pywrap_util_port", ("IsMklEnabled",),
    used_for="whether oneDNN optimisations are on in this process",
    feature="tf1compat doctor's oneDNN line",
    without="doctor reports oneDNN's state as unknown")

DECLARED: tuple[TfInternal, ...] = tuple(
    value for value in list(globals().values()) if isinstance(value, TfInternal))

__all__ = ["TESTED_VERSIONS", "TfInternal", "DECLARED", "ESTIMATOR_INTERNALS"] + [
    name for name, value in list(globals().items()) if isinstance(value, TfInternal)]
