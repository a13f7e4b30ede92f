"""The contrib table's data: which `tf.contrib` names tf1compat maps, replaces or refuses.

`tf1compat.contrib.registry` builds one table from these (on top of
TensorFlow's own upgrade mappings) and answers every lookup from it.
"""

from __future__ import annotations

from tf1compat.estimator.contrib import (NOT_SERVED as _CONTRIB_ESTIMATOR_NOT_SERVED,
                                         SERVED as _CONTRIB_ESTIMATOR_SERVED)

TFA = "TensorFlow Addons, which has no release for TF 2.21 (its last, 0.23, needs TF < 2.16)"
_V1 = "tf.compat.v1."
_RNN_CELLS = "tf.compat.v1.nn.rnn_cell."
LEGACY_HOMES = (_RNN_CELLS, _V1 + "layers.")
_LEGACY = "runs on legacy Keras (tf_keras), as tf.compat.v1.nn.rnn_cell does under Keras 3"

# contrib.eager (tf1compat.contrib.eager): TensorFlow core under contrib's names, and ours.
_EAGER_METRICS = ("Metric", "Mean", "Accuracy", "CategoricalAccuracy", "BinaryAccuracy",
                  "SparseAccuracy")
# Values, not callables: the device policies and execution modes enable_eager_execution takes.
EAGER_CONSTANTS = ("DEVICE_PLACEMENT_EXPLICIT", "DEVICE_PLACEMENT_WARN", "DEVICE_PLACEMENT_SILENT",
                   "SYNC", "ASYNC")
EAGER_SERVED = (
    "enable_eager_execution", "executing_eagerly", "in_eager_mode", "Variable", "Iterator",
    "implicit_gradients", "implicit_value_and_gradients", "gradients_function",
    "value_and_gradients_function", "GradientTape", "defun", "function", "num_gpus",
    "list_devices", "py_func", "Checkpoint", "Checkpointable", "custom_gradient",
    "make_template", "run_test_in_graph_and_eager_modes", "run_all_tests_in_graph_and_eager_modes",
    "Network", "Sequential", "get_optimizer_variables", "EagerVariableStore", "TensorSpec",
    *EAGER_CONSTANTS, "execution_mode", "set_execution_mode", "async_wait", "async_clear_error", "run",
    "metrics", *(f"metrics.{name}" for name in _EAGER_METRICS))
_EAGER_CALLBACKS = ("TF 2.21 has no eager execution callbacks: tf.debugging."
                    "enable_check_numerics() stops at the first op producing inf or NaN")
EAGER_UNSUPPORTED: dict[str, str] = {
    "eager.Saver": "TF 2.21's tf.compat.v1.train.Saver refuses eager execution: save the "
                   "variables with tf.compat.v1.train.Checkpoint(**variables) (tfe.Checkpoint, "
                   "served), which also reads checkpoints tfe.Saver wrote",
    "eager.restore_variables_on_create": "not served: restore with tf.compat.v1.train."
                                         "Checkpoint(...).restore(path), which restores "
                                         "variables as they are created",
    **{f"eager.{name}": "not served (TF 1.15 deprecated it): save and restore the network with "
                        "tf.compat.v1.train.Checkpoint(model=network)"
       for name in ("save_network_checkpoint", "restore_network_checkpoint")},
    **{f"eager.{name}": _EAGER_CALLBACKS for name in (
        "add_execution_callback", "clear_execution_callbacks", "errstate", "ExecutionCallback",
        "inf_callback", "inf_nan_callback", "nan_callback", "seterr")},
    **{f"eager.{name}": "remote eager execution is not served: use tf.config."
                        "experimental_connect_to_cluster (TF2)"
       for name in ("connect_to_remote_host", "enable_remote_eager_execution", "set_server_def")},
}

# contrib.lookup (tf1compat.contrib.lookup): TensorFlow's lookup_ops objects that have no public
# TF2 name, and contrib's own functions.
_LOOKUP_OWN = ("index_table_from_tensor", "index_to_string_table_from_tensor", "index_to_string",
               "string_to_index", "string_to_index_table_from_file",
               "string_to_index_table_from_tensor")
LOOKUP_CONSTANTS = ("FastHashSpec",)  # a value: the HasherSpec the index tables default to
LOOKUP_SERVED = (
    "HashTable", "FastHashSpec", "HasherSpec", "StrongHashSpec", "IdTableWithHashBuckets",
    "InitializableLookupTableBase", "LookupInterface", "TableInitializerBase",
    "TextFileIdTableInitializer", "TextFileStringTableInitializer", "index_table_from_file",
    "index_to_string_table_from_file", *_LOOKUP_OWN)
_LOOKUP_NOTES = {
    "HashTable": "TF 2.21's lookup_ops.HashTable, kept for contrib code: "
                 "tf.compat.v1.lookup.StaticHashTable with TF1's `init`",
    **{name: "contrib's own function, on TensorFlow's lookup_ops (its `mapping` is "
             "TensorFlow's `vocabulary_list`)" for name in _LOOKUP_OWN},
}
_LOOKUP_SAME = ("the object TF 1.15's contrib.lookup re-exported from TensorFlow's lookup_ops, "
                "which TF 2.21 keeps with no public name")

# Values, not callables: TensorFlow Probability's reparameterization types (core's without it).
DISTRIBUTIONS_CONSTANTS = ("FULLY_REPARAMETERIZED", "NOT_REPARAMETERIZED")

# Replacements written here: namespace -> names (each one is tf1compat.contrib.<namespace>.<name>).
REPLACED: dict[str, tuple[str, ...]] = {
    "layers": ("flatten", "fully_connected", "linear", "relu", "conv2d", "convolution2d",
               "max_pool2d", "avg_pool2d", "batch_norm", "dropout", "one_hot_encoding",
               "l1_regularizer", "l2_regularizer", "l1_l2_regularizer", "sum_regularizer",
               "apply_regularization", "xavier_initializer", "xavier_initializer_conv2d",
               "variance_scaling_initializer", "repeat", "layer_norm", "separable_conv2d",
               "separable_convolution2d", "softmax"),
    "framework": ("get_variables", "get_model_variables", "get_trainable_variables",
                  "get_local_variables", "get_variables_to_restore", "get_variables_by_name",
                  "get_variables_by_suffix", "get_unique_variable", "variable", "model_variable",
                  "local_variable", "add_model_variable", "arg_scope", "add_arg_scope",
                  "has_arg_scope", "arg_scoped_arguments", "assign_from_checkpoint_fn"),
    "rnn": ("LSTMBlockCell", "LayerNormBasicLSTMCell"),
    "seq2seq": ("sequence_loss", "Helper", "TrainingHelper", "GreedyEmbeddingHelper", "Decoder",
                "BasicDecoder", "BasicDecoderOutput", "dynamic_decode", "tile_batch",
                "AttentionMechanism", "BahdanauAttention", "LuongAttention", "AttentionWrapper",
                "AttentionWrapperState", "BeamSearchDecoder", "BeamSearchDecoderOutput",
                "BeamSearchDecoderState", "FinalBeamSearchDecoderOutput", "gather_tree"),
    "legacy_seq2seq": ("rnn_decoder", "basic_rnn_seq2seq", "sequence_loss_by_example",
                       "sequence_loss"),
    "slim": ("prefetch_queue", "prefetch_queue.prefetch_queue"),
    "cudnn_rnn": ("CudnnCompatibleLSTMCell", "CudnnCompatibleGRUCell"),
    "training": ("HParams",),
    "learn": ("RunConfig",),
    # TensorFlow Probability's divergences and core's, from one function (as TF 1.15's)
    "distributions": ("kl_divergence", *DISTRIBUTIONS_CONSTANTS),
    "opt": ("LazyAdamOptimizer", "NadamOptimizer", "LARSOptimizer", "AdamWOptimizer",
            "MomentumWOptimizer", "DecoupledWeightDecayExtension",
            "extend_with_decoupled_weight_decay"),
    "crf": ("crf_sequence_score", "crf_log_norm", "crf_log_likelihood", "crf_unary_score",
            "crf_binary_score", "crf_multitag_sequence_score", "viterbi_decode", "crf_decode",
            "CrfForwardRnnCell", "CrfDecodeForwardRnnCell", "CrfDecodeBackwardRnnCell"),
    "eager": EAGER_SERVED,
    "cluster_resolver": ("TPUClusterResolver",),
    "image": ("transform", "translate", "rotate", "translations_to_projective_transforms",
              "angles_to_projective_transforms", "compose_transforms",
              "flat_transforms_to_matrices", "matrices_to_flat_transforms"),
    "lookup": LOOKUP_SERVED,
    # TF 1.15's predictor classes, from its source; the factories are ours (tf1compat.contrib.
    # predictor: TF 1.15's factories module imports tf.contrib.learn's kernels)
    "predictor": ("from_saved_model", "from_estimator"),
    # TF 1.15's own functions, still in TF 2.21's summary_ops_v2 (tf1compat.contrib.summary)
    "summary": ("scalar", "histogram", "image", "audio", "generic", "always_record_summaries",
                "never_record_summaries", "record_summaries_every_n_global_steps",
                "should_record_summaries", "initialize", "flush", "create_file_writer",
                "import_event", "eval_dir", "summary_writer_initializer_op", "SummaryWriter",
                "all_summary_ops"),
}

# Replacements living outside tf1compat.contrib.<namespace>: name -> the tf1compat object.
_UTILS = "tf1compat.contrib.layer_utils."
REPLACED_AT: dict[str, str] = {
    **{f"{namespace}{name}": _UTILS + name
       for namespace in ("layers.", "layers.utils.", "slim.utils.")
       for name in ("collect_named_outputs", "convert_collection_to_dict")},
    **{f"{namespace}{name}": _UTILS + name
       for namespace in ("layers.utils.", "slim.utils.")
       for name in ("append_tensor_alias", "gather_tensors_aliases", "get_tensor_aliases")},
    # contrib.layers' encoders, which tf_slim does not carry (tf1compat.contrib.encoders)
    **{f"layers.{name}": f"tf1compat.contrib.encoders.{name}"
       for name in ("embed_sequence", "bow_encoder", "embedding_lookup_unique")},
    # contrib.learn's text preprocessing, pure Python (tf1compat.contrib.vocabulary_processor)
    **{f"learn.preprocessing.{name}": f"tf1compat.contrib.vocabulary_processor.{name}"
       for name in ("VocabularyProcessor", "ByteProcessor", "tokenizer")},
    "learn.preprocessing.CategoricalVocabulary":
        "tf1compat.contrib.categorical_vocabulary.CategoricalVocabulary",
    # TF 1.15's tensorflow.python.distribute.all_reduce, which contrib re-exported at
    # all_reduce.python.all_reduce (tf_cnn_benchmarks imports it there); tf1compat's own
    **{f"all_reduce.{name}": f"tf1compat.contrib.graph_all_reduce.{name}"
       for name in ("build_ring_all_reduce", "build_recursive_hd_all_reduce",
                    "build_shuffle_all_reduce", "build_nccl_all_reduce", "build_nccl_then_ring",
                    "build_nccl_then_recursive_hd", "build_nccl_then_shuffle",
                    "build_shuffle_then_ring", "build_shuffle_then_shuffle")},
}

# Replacements of contrib objects that TF 1.15 also gave under core spellings (the same
# object there): served under those too, or a script gets TF 1.15's behaviour under one
# spelling and TF 2.21's under another. contrib name -> its other spellings: `tf.<path>` paths
# and `module:name` homes (tests/contrib/test_contrib_homes.py holds them to TF 1.15's record).
SERVED_UNDER_EVERY_SPELLING: dict[str, tuple[str, ...]] = {
    "cluster_resolver.TPUClusterResolver": (
        "distribute.cluster_resolver.TPUClusterResolver",
        "tensorflow.python.distribute.cluster_resolver.tpu_cluster_resolver:TPUClusterResolver"),
}
# The same, by spelling: spelling -> the contrib name it stands for.
OTHER_SPELLINGS: dict[str, str] = {spelling: name
                                   for name, spellings in SERVED_UNDER_EVERY_SPELLING.items()
                                   for spelling in spellings}

# slim's data, training and evaluation stack and its nets, served by the tf_slim library
# (contrib.slim's own code, kept on PyPI). name -> the tf_slim module.
TF_SLIM = "tf-slim"
LIBRARY_MODULES: dict[str, str] = {
    **{f"slim.{name}": f"tf_slim.data.{name}" for name in (
        "dataset", "dataset_data_provider", "data_decoder", "data_provider", "parallel_reader",
        "tfexample_decoder")},
    "slim.queues": "tf_slim.queues",
    "slim.learning": "tf_slim.learning",
    "slim.evaluation": "tf_slim.evaluation",
    "slim.metrics": "tf_slim.metrics",
    "slim.model_analyzer": "tf_slim.model_analyzer",
    "slim.summaries": "tf_slim.summaries",
    # contrib.losses (slim.losses is the same module): logits first, as TF 1.x's
    "slim.losses": "tf_slim.losses",
    "losses": "tf_slim.losses",
    # slim.nets: contrib.slim's model definitions (checkpoint variable names as TF 1.x's); their
    # layers share one arg_scope with tf1compat's (tf1compat.contrib.tf_slim_arg_scope)
    "slim.nets": "tf_slim.nets",
    **{f"slim.nets.{name}": f"tf_slim.nets.{name}" for name in (
        "alexnet", "inception", "inception_v1", "inception_v2", "inception_v3", "overfeat",
        "resnet_utils", "resnet_v1", "resnet_v2", "vgg")},
}
# Single functions from tf_slim (not arg_scope'd there, so no arg_scope mixing): name -> target.
LIBRARY_NAMES: dict[str, str] = {
    "layers.optimize_loss": "tf_slim.layers.optimizers.optimize_loss",
    "slim.optimize_loss": "tf_slim.layers.optimizers.optimize_loss",
}
LIBRARY_NOTE = ("contrib.slim's own code, from the tf_slim library "
                "(pip install 'tf1compat[slim]')")

# contrib modules served by a tf1compat module of their own: name -> module.
# contrib.learn's MNIST reader is the one `tensorflow.examples.tutorials.mnist.input_data`
# re-exported, which tf1compat.tutorials.mnist stands for. The projector's config messages are
# TensorBoard's (same fields as TF 1.x's); tf1compat's module adds TF 1.x's
# visualize_embeddings(summary_writer, config).
MODULE_HOMES: dict[str, str] = {
    "learn.datasets.mnist": "tf1compat.tutorials.mnist",
    "learn.python.learn.datasets.mnist": "tf1compat.tutorials.mnist",
    "tensorboard.plugins.projector": "tf1compat.contrib.projector",
    # the module files of contrib.learn.preprocessing, as deep paths import them
    "learn.preprocessing.text": "tf1compat.contrib.vocabulary_processor",
    "learn.preprocessing.categorical_vocabulary": "tf1compat.contrib.categorical_vocabulary",
}
# TensorFlow's own modules TF 1.15 had, TF 2.21 has not, and tf1compat serves whole: the
# module path -> tf1compat's module (its contrib spelling is in REPLACED_AT).
PRIVATE_MODULE_HOMES: dict[str, str] = {
    "tensorflow.python.distribute.all_reduce": "tf1compat.contrib.graph_all_reduce",
}
MODULE_HOME_NOTE = ("contrib.learn's MNIST reader, the one tensorflow.examples.tutorials.mnist."
                     "input_data re-exported; local files only, it never downloads")
MODULE_HOME_NOTES: dict[str, str] = {  # a module's own note, where it is not the MNIST reader
    **{name: "contrib.learn's text preprocessing module (pure Python); restore() reads the "
             "pickles TF 1.15 saved"
       for name in ("learn.preprocessing.text", "learn.preprocessing.categorical_vocabulary")},
    "tensorboard.plugins.projector": "TensorBoard's projector messages (pip install "
                                     "'tf1compat[projector]') with TF 1.x's "
                                     "visualize_embeddings(summary_writer, config)",
}

# Why a name TensorFlow's upgrade tool does convert is replaced here instead.
_KERAS_3 = ("TensorFlow's upgrade tool rewrites it to {}, which under Keras 3 fails on TF1 "
            "graph variables (Invalid dtype: float32_ref); replaced instead")
REPLACED_NOTES: dict[str, str] = {
    **{f"lookup.{name}": _LOOKUP_NOTES.get(name, _LOOKUP_SAME) for name in LOOKUP_SERVED},
    "layers.layer_norm": "TensorFlow's upgrade tool points to tf.keras.layers.LayerNormalization, "
                         "whose epsilon (1e-3, contrib's 1e-12) and variable names differ; "
                         "replaced to keep contrib's",
    "layers.l1_regularizer": _KERAS_3.format("tf.keras.regularizers.l1"),
    "layers.l2_regularizer": _KERAS_3.format("tf.keras.regularizers.l2(0.5 * scale)"),
    **{f"layers.{name}": "TensorFlow's upgrade tool rewrites the call (not the name) into a "
                         "Keras VarianceScaling initializer; replaced to keep contrib's formula "
                         "(a truncated normal of stddev sqrt(1.3 * factor / n))"
       for name in ("xavier_initializer", "xavier_initializer_conv2d",
                    "variance_scaling_initializer")},
    "cluster_resolver.TPUClusterResolver":
        "TensorFlow's upgrade tool maps it to tf.distribute.cluster_resolver.TPUClusterResolver, "
        "which on TF 2.21 sends an empty name to the Cloud TPU API ('Please provide a TPU Name'); "
        "replaced to keep TF 1.15's local names ('', 'local', 'grpc://...': the session master, "
        "nothing looked up)",
    **{f"image.{name}": "TensorFlow's upgrade table moves it to TensorFlow Addons (no release "
                        "for TF 2.21); served on TF 2.21's own ImageProjectiveTransformV2, the "
                        "kernel contrib.image ran"
       for name in ("transform", "rotate", "compose_transforms",
                    "angles_to_projective_transforms", "matrices_to_flat_transforms")},
}

# Mappings TensorFlow's table lacks (or gets wrong for TF 2.21): name -> (target, note).
MAPPED: dict[str, tuple[str, str]] = {
    "framework.get_or_create_global_step": (_V1 + "train.get_or_create_global_step", ""),
    # TF 1.15's C++ IsSequence, renamed in TF 2 (TF 1.15's tf.nest had no is_sequence)
    "framework.nest.is_sequence": ("tf.nest.is_nested", "TF 2's name of the same test"),
    "framework.get_global_step": (_V1 + "train.get_global_step", ""),
    "framework.create_global_step": (_V1 + "train.create_global_step", ""),
    "framework.init_from_checkpoint": (_V1 + "train.init_from_checkpoint", ""),
    "framework.list_variables": (_V1 + "train.list_variables", ""),
    "framework.load_checkpoint": (_V1 + "train.load_checkpoint", ""),
    **{f"rnn.{cell}": (_RNN_CELLS + cell, _LEGACY) for cell in (
        "RNNCell", "BasicRNNCell", "BasicLSTMCell", "LSTMCell", "GRUCell", "MultiRNNCell",
        "LSTMStateTuple", "DropoutWrapper", "ResidualWrapper", "DeviceWrapper")},
    "rnn.static_rnn": (_V1 + "nn.static_rnn", ""),
    "rnn.static_bidirectional_rnn": (_V1 + "nn.static_bidirectional_rnn", ""),
    "rnn.static_state_saving_rnn": (_V1 + "nn.static_state_saving_rnn", ""),
    **{f"lookup.{name}": (_V1 + f"lookup.{name}", "") for name in (
        "KeyValueTensorInitializer", "TextFileInitializer", "TextFileIndex")},
    # the very functions TF 1.15's contrib.util re-exported from tensor_util
    "util.make_tensor_proto": (_V1 + "make_tensor_proto", ""),
    "util.make_ndarray": (_V1 + "make_ndarray", ""),
    "util.constant_value": (_V1 + "get_static_value", ""),
    "lookup.MutableHashTable": (_V1 + "lookup.experimental.MutableHashTable", ""),
    "lookup.MutableDenseHashTable": (_V1 + "lookup.experimental.DenseHashTable",
                                     "contrib's MutableDenseHashTable was this class; TF 2.21's "
                                     "lookup_ops.MutableDenseHashTable is a raw op"),
}

# Names with no home; the note names what to use instead.
UNSUPPORTED: dict[str, str] = {
    **EAGER_UNSUPPORTED,
    "cudnn_rnn.CudnnLSTM": "needs a GPU with cuDNN; on CPU use "
                           "tf.contrib.cudnn_rnn.CudnnCompatibleLSTMCell (served) or "
                           "tf.keras.layers.LSTM",
    "cudnn_rnn.CudnnGRU": "needs a GPU with cuDNN; on CPU use "
                          "tf.contrib.cudnn_rnn.CudnnCompatibleGRUCell (served) or "
                          "tf.keras.layers.GRU",
    "learn": "this part of tf.contrib.learn has no successor in TF 2.21: rewrite the model with "
             "tf.compat.v1 graph code, tf.estimator (served by tf1compat.estimator) or Keras",
}

# contrib names TF1's Estimator library holds, served by tf1compat.estimator: name -> target.
# tf.contrib.estimator's names are tf1compat.estimator.contrib's SERVED and NOT_SERVED.
ESTIMATOR_HOMES: dict[str, str] = {
    **{f"tpu.{name}": f"tf1compat.estimator.tpu.{name}" for name in (
        "TPUEstimator", "TPUEstimatorSpec", "RunConfig", "TPUConfig", "InputPipelineConfig")},
    **{f"estimator.{name}": f"tf1compat.estimator.contrib.{name}"
       for name in _CONTRIB_ESTIMATOR_SERVED},
}
ESTIMATOR_HOME_NOTE = ("TF1's Estimator library, on TF 2.21 (TPUEstimator runs with use_tpu=False; "
                       "contrib.estimator's replicate_model_fn towers are rebuilt on "
                       "tf.compat.v1)")
ESTIMATOR_UNSUPPORTED: dict[str, str] = {
    f"estimator.{name}": f"not served by tf1compat: {instead}"
    for name, instead in _CONTRIB_ESTIMATOR_NOT_SERVED.items()}
