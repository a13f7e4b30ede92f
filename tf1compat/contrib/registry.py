"""One table for `tf.contrib`: each `contrib.X.Y` -> how TF 2.21 serves it, and where.

Both users read this table: `tf1compat run` (the shim resolves
`tf.contrib.X.Y` at run time) and `tf1compat migrate` (a rule rewrites
`tf.contrib.X.Y` to the import of its home). A name is

- **mapped** when a TF2 or `tf.compat.v1` symbol does the same job: the
  mapping is TensorFlow's own (`tf_upgrade_v2`'s table
  `all_renames_v2.manual_symbol_renames`, read from the installed wheel) or
  one of ours below where that table has none;
- **replaced** when tf1compat has a small faithful replacement
  (`tf1compat.contrib.<module>`);
- **unsupported** when neither exists; the entry's note names the
  replacement when one is known (TensorFlow's upgrade tables point many names
  to TensorFlow Addons, which has no release for TF 2.21).

Any other `contrib.X` is unsupported too, with the note TensorFlow's upgrade
tool gives for its namespace, if any.

>>> lookup('layers.flatten').served.value, lookup('layers.flatten').target
('replaced', 'tf1compat.contrib.layers.flatten')
>>> lookup('framework.get_or_create_global_step').target
'tf.compat.v1.train.get_or_create_global_step'
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import importlib
import types
from typing import Any, Optional

from tf1compat.errors import Tf1CompatError

# Our modules, one per contrib namespace we serve (tf1compat/contrib/<name>.py).
MODULES = ("layers", "framework", "rnn", "seq2seq", "slim", "cudnn_rnn", "legacy_seq2seq")
_TFA = "TensorFlow Addons, which has no release for TF 2.21 (its last, 0.23, needs TF < 2.16)"


class Served(str, enum.Enum):
    NATIVE = "native"            # tf.compat.v1 has it
    MAPPED = "mapped"            # a TF2 / tf.compat.v1 home does the same job
    REPLACED = "replaced"        # a tf1compat replacement
    UNSUPPORTED = "unsupported"  # no home: the note says what to use instead


@dataclasses.dataclass(frozen=True)
class Entry:
    """One `tf.contrib` name.

    Attributes:
      name: the name under `tf.contrib.`, e.g. 'layers.flatten'.
      served: how it is served.
      target: mapped: the dotted TF name ('tf.compat.v1.train.get_global_step');
        replaced: the tf1compat name; unsupported: '' (the note says more).
      source: 'tf_upgrade_v2' (TensorFlow's tables) or 'tf1compat'.
      note: what to know (for unsupported: the replacement, if one is known).
    """

    name: str
    served: Served
    target: str
    source: str
    note: str = ""

    def to_dict(self) -> dict[str, str]:
        data = {"served": self.served.value, "target": self.target, "source": self.source}
        if self.note:
            data["note"] = self.note
        return data


class ContribError(Tf1CompatError, AttributeError):
    """A `tf.contrib` name that TF 2.21 and tf1compat do not serve; names it and its replacement."""

    def __init__(self, name: str, hint: str):
        self.name = name
        self.hint = hint
        super().__init__(f"tf.contrib.{name} is not available on TF 2.21 (tf.contrib was removed "
                         f"in TF 2): {hint}")


_V1 = "tf.compat.v1."
_RNN_CELLS = "tf.compat.v1.nn.rnn_cell."
_LEGACY_HOMES = (_RNN_CELLS, _V1 + "layers.")
_LEGACY = "runs on legacy Keras (tf_keras), as tf.compat.v1.nn.rnn_cell does under Keras 3"

# Replacements written here: namespace -> names (each one is tf1compat.contrib.<namespace>.<name>).
REPLACED: dict[str, tuple[str, ...]] = {
    "layers": ("flatten", "fully_connected", "linear", "relu", "conv2d", "convolution2d",
               "max_pool2d", "avg_pool2d", "batch_norm", "dropout", "one_hot_encoding",
               "l1_regularizer", "l2_regularizer", "l1_l2_regularizer", "sum_regularizer",
               "apply_regularization", "xavier_initializer", "xavier_initializer_conv2d",
               "variance_scaling_initializer", "repeat"),
    "framework": ("get_variables", "get_model_variables", "get_trainable_variables",
                  "get_local_variables", "get_variables_to_restore", "get_variables_by_name",
                  "get_variables_by_suffix", "get_unique_variable", "variable", "model_variable",
                  "local_variable", "add_model_variable", "arg_scope", "add_arg_scope",
                  "has_arg_scope", "arg_scoped_arguments", "assign_from_checkpoint_fn"),
    "rnn": ("LSTMBlockCell",),
    "seq2seq": ("sequence_loss", "Helper", "TrainingHelper", "GreedyEmbeddingHelper", "Decoder",
                "BasicDecoder", "BasicDecoderOutput", "dynamic_decode", "tile_batch",
                "AttentionMechanism", "BahdanauAttention", "LuongAttention", "AttentionWrapper",
                "AttentionWrapperState", "BeamSearchDecoder", "BeamSearchDecoderOutput",
                "BeamSearchDecoderState", "FinalBeamSearchDecoderOutput", "gather_tree"),
    "legacy_seq2seq": ("rnn_decoder", "basic_rnn_seq2seq", "sequence_loss_by_example",
                       "sequence_loss"),
    "slim": ("prefetch_queue", "prefetch_queue.prefetch_queue"),
    "cudnn_rnn": ("CudnnCompatibleLSTMCell", "CudnnCompatibleGRUCell"),
}

# contrib modules that are a tf1compat module outside tf1compat.contrib: name -> module.
# contrib.learn's MNIST reader is the one `tensorflow.examples.tutorials.mnist.input_data`
# re-exported, which tf1compat.tutorials.mnist stands for.
MODULE_HOMES: dict[str, str] = {
    "learn.datasets.mnist": "tf1compat.tutorials.mnist",
    "learn.python.learn.datasets.mnist": "tf1compat.tutorials.mnist",
}
MODULE_HOME_NOTE = ("contrib.learn's MNIST reader, the one tensorflow.examples.tutorials.mnist."
                     "input_data re-exported; local files only, it never downloads")

# Why a name TensorFlow's upgrade tool does convert is replaced here instead.
_KERAS_3 = ("TensorFlow's upgrade tool rewrites it to {}, which under Keras 3 fails on TF1 "
            "graph variables (Invalid dtype: float32_ref); replaced instead")
REPLACED_NOTES: dict[str, str] = {
    "layers.l1_regularizer": _KERAS_3.format("tf.keras.regularizers.l1"),
    "layers.l2_regularizer": _KERAS_3.format("tf.keras.regularizers.l2(0.5 * scale)"),
    **{f"layers.{name}": "TensorFlow's upgrade tool rewrites the call (not the name) into a "
                         "Keras VarianceScaling initializer; replaced to keep contrib's formula "
                         "(a truncated normal of stddev sqrt(1.3 * factor / n))"
       for name in ("xavier_initializer", "xavier_initializer_conv2d",
                    "variance_scaling_initializer")},
}

# Mappings TensorFlow's table lacks (or gets wrong for TF 2.21): name -> (target, note).
MAPPED: dict[str, tuple[str, str]] = {
    "framework.get_or_create_global_step": (_V1 + "train.get_or_create_global_step", ""),
    "framework.get_global_step": (_V1 + "train.get_global_step", ""),
    "framework.create_global_step": (_V1 + "train.create_global_step", ""),
    "framework.init_from_checkpoint": (_V1 + "train.init_from_checkpoint", ""),
    "framework.list_variables": (_V1 + "train.list_variables", ""),
    **{f"rnn.{cell}": (_RNN_CELLS + cell, _LEGACY) for cell in (
        "RNNCell", "BasicRNNCell", "BasicLSTMCell", "LSTMCell", "GRUCell", "MultiRNNCell",
        "LSTMStateTuple", "DropoutWrapper", "ResidualWrapper", "DeviceWrapper")},
    "rnn.static_rnn": (_V1 + "nn.static_rnn", ""),
    "rnn.static_bidirectional_rnn": (_V1 + "nn.static_bidirectional_rnn", ""),
    "rnn.static_state_saving_rnn": (_V1 + "nn.static_state_saving_rnn", ""),
}

# Names with no home; the note names what to use instead.
UNSUPPORTED: dict[str, str] = {
    "layers.layer_norm": "use tf.keras.layers.LayerNormalization (its epsilon defaults to 1e-3, "
                         "contrib's to 1e-12), as TensorFlow's upgrade tool advises",
    "layers.optimize_loss": "build the optimizer and call minimize() (tf.compat.v1.train)",
    "cudnn_rnn.CudnnLSTM": "needs a GPU with cuDNN; on CPU use "
                           "tf.contrib.cudnn_rnn.CudnnCompatibleLSTMCell (served) or "
                           "tf.keras.layers.LSTM",
    "cudnn_rnn.CudnnGRU": "needs a GPU with cuDNN; on CPU use "
                          "tf.contrib.cudnn_rnn.CudnnCompatibleGRUCell (served) or "
                          "tf.keras.layers.GRU",
    "slim.learning": "slim's training loop: use tf.compat.v1.train.MonitoredTrainingSession",
    # contrib.losses (slim.losses) took the logits first: tf.losses is not a drop-in.
    "losses": "use tf.compat.v1.losses.<name>(labels, logits, ...): contrib.losses took the "
              "logits first, so pass both by keyword",
    "slim.losses": "use tf.compat.v1.losses.<name>(labels, logits, ...): slim.losses was "
                   "contrib.losses, which took the logits first, so pass both by keyword",
    "learn": "tf.contrib.learn has no successor in TF 2.21 (tf.estimator is gone too): "
             "rewrite the model with tf.compat.v1 graph code or Keras",
}


@functools.lru_cache(maxsize=None)
def _tf_tables() -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """TensorFlow's own upgrade tables (renames, Addons mappings, module notes), contrib only."""
    try:
        from tensorflow.tools.compatibility import all_renames_v2, module_deprecations_v2
    except ImportError:  # a TensorFlow build without the upgrade tool: our table alone
        return {}, {}, {}

    def contrib(table: dict[str, Any]) -> dict[str, Any]:
        return {key[len("tf.contrib."):]: value for key, value in table.items()
                if key.startswith("tf.contrib.")}

    modules = {name: message for name, (_, message) in
               contrib(module_deprecations_v2.MODULE_DEPRECATIONS).items()}
    return (contrib(all_renames_v2.manual_symbol_renames),
            contrib(all_renames_v2.addons_symbol_mappings), modules)


@functools.lru_cache(maxsize=None)
def table() -> dict[str, Entry]:
    """Every known `contrib.X.Y` name -> its Entry (TensorFlow's mappings, then ours on top)."""
    renames, addons, _ = _tf_tables()
    entries: dict[str, Entry] = {}
    for name, target in renames.items():
        entries[name] = Entry(name, Served.MAPPED, target, "tf_upgrade_v2")
    for name, target in addons.items():
        entries[name] = Entry(name, Served.UNSUPPORTED, "", "tf_upgrade_v2",
                              f"TensorFlow's upgrade table moves it to {target} in "
                              + _TFA)
    for name, (target, note) in MAPPED.items():
        entries[name] = Entry(name, Served.MAPPED, target, "tf1compat", note)
    for name, note in UNSUPPORTED.items():
        entries[name] = Entry(name, Served.UNSUPPORTED, "", "tf1compat", note)
    for namespace, names in REPLACED.items():
        for name in names:
            full = f"{namespace}.{name}"
            entries[full] = Entry(full, Served.REPLACED, f"tf1compat.contrib.{full}", "tf1compat",
                                  REPLACED_NOTES.get(full, ""))
    for name, module in MODULE_HOMES.items():
        entries[name] = Entry(name, Served.REPLACED, module, "tf1compat", MODULE_HOME_NOTE)
    # slim re-exports contrib.layers and contrib.framework under its own name.
    for name, entry in list(entries.items()):
        namespace, _, rest = name.partition(".")
        if namespace in ("layers", "framework") and f"slim.{rest}" not in entries:
            target = f"tf1compat.contrib.slim.{rest}" if entry.served is Served.REPLACED \
                else entry.target
            entries[f"slim.{rest}"] = dataclasses.replace(entry, name=f"slim.{rest}",
                                                          target=target)
    return entries


def lookup(name: str) -> Optional[Entry]:
    """The entry of `contrib.<name>` ('layers.flatten'), or None when nothing is known."""
    return table().get(name)


def hint(name: str) -> str:
    """What to say about `contrib.<name>` when it is not served."""
    entry = lookup(name)
    if entry is not None and entry.note:
        return entry.note
    _, _, modules = _tf_tables()
    parts = name.split(".")
    for end in range(len(parts) - 1, 0, -1):
        prefix = ".".join(parts[:end])
        if prefix in UNSUPPORTED:
            return UNSUPPORTED[prefix]
        if prefix in modules:
            said = modules[prefix].replace("(Manual edit required) ", "")
            if "addons" in said.lower():
                said += " (TensorFlow Addons has no release for TF 2.21)"
            return f"not served by tf1compat; TensorFlow's upgrade tool says: {said}"
    return ("no replacement is known to tf1compat or to TensorFlow's upgrade tables; rewrite it "
            "with tf.compat.v1 or TF2 code")


def resolve(name: str) -> Any:
    """The object `tf.contrib.<name>` stands for on TF 2.21.

    Raises:
      ContribError: the name is unsupported or unknown (the message names the replacement,
        when one is known), or its mapped home is not in this TensorFlow.
    """
    entry = lookup(name)
    if entry is None or entry.served is Served.UNSUPPORTED:
        raise ContribError(name, hint(name))
    try:
        return import_dotted(entry.target)
    except (AttributeError, ImportError) as error:
        if isinstance(error, Tf1CompatError):
            raise
        raise ContribError(name, f"TensorFlow's upgrade table maps it to {entry.target}, which "
                                 f"TF 2.21 does not have ({error})") from None


def import_for(entry: Entry) -> str:
    """The module to import for a replaced entry's target ('tf1compat.contrib.layers')."""
    if entry.name in MODULE_HOMES:
        return entry.target
    return "tf1compat.contrib." + entry.name.split(".")[0]


def missing_home(entry: Entry) -> Optional[str]:
    """Why a mapped entry's home is not in this TensorFlow, or None when it is (or not mapped).

    Legacy-Keras homes (`tf.compat.v1.nn.rnn_cell.*`, `tf.compat.v1.layers.*`) are not
    imported: whether tf_keras is installed here says nothing about where the code will run.
    """
    if entry.served is not Served.MAPPED or entry.target.startswith(_LEGACY_HOMES):
        return None
    try:
        import_dotted(entry.target)
    except (AttributeError, ImportError) as error:
        return (f"tf.contrib.{entry.name}: TensorFlow's upgrade table maps it to "
                f"{entry.target}, which TF 2.21 does not have ({error})")
    return None


def import_dotted(target: str) -> Any:
    """'tf.compat.v1.train.get_global_step' or 'tf1compat.contrib.layers.flatten' -> the object.

    `tf.compat.v1.nn.rnn_cell.*` and `tf.compat.v1.layers.*` come from legacy Keras
    (tf1compat.rnn_cell / tf1compat.layers), which works whatever TF_USE_LEGACY_KERAS says.
    """
    for prefix, module_name in zip(_LEGACY_HOMES, ("tf1compat.rnn_cell", "tf1compat.layers")):
        if target.startswith(prefix):
            return getattr(importlib.import_module(module_name), target[len(prefix):])
    if target.startswith("tf."):
        value: Any = importlib.import_module("tensorflow")
        for part in target.split(".")[1:]:
            value = getattr(value, part)
        return value
    parts = target.split(".")
    for end in range(len(parts), 0, -1):
        try:
            value = importlib.import_module(".".join(parts[:end]))
        except ImportError:
            continue
        for part in parts[end:]:
            value = getattr(value, part)
        return value
    raise ImportError(f"cannot import {target}")


def is_namespace(name: str) -> bool:
    """Whether `contrib.<name>` is a module holding known names ('layers', 'framework.nest')."""
    prefix = name + "."
    return name in MODULES or any(key.startswith(prefix) for key in table())


def attribute(namespace: str, name: str) -> Any:
    """`tf.contrib.<namespace>.<name>` for a module's `__getattr__`: resolved, or ContribError."""
    if name.startswith("__"):
        raise AttributeError(name)
    full = f"{namespace}.{name}"
    if lookup(full) is None and is_namespace(full):
        return namespace_module(full)
    return resolve(full)


@functools.lru_cache(maxsize=None)
def namespace_module(name: str) -> Any:
    """A module for a contrib namespace tf1compat has no file for ('data', 'framework.nest')."""
    if name in MODULES:
        return importlib.import_module(f"tf1compat.contrib.{name}")
    return ContribNamespace(name)


class ContribNamespace(types.ModuleType):
    """`tf.contrib.<name>` for a namespace served from the table alone (e.g. contrib.data)."""

    def __init__(self, name: str):
        super().__init__(f"tf1compat.contrib.{name}",
                         f"tf.contrib.{name}, served from tf1compat's contrib table")
        self.__dict__["_contrib_name"] = name

    def __getattr__(self, name: str) -> Any:
        return attribute(self._contrib_name, name)

    def __dir__(self) -> list[str]:
        prefix = self._contrib_name + "."
        return sorted({key[len(prefix):].split(".")[0] for key in table()
                       if key.startswith(prefix)})
