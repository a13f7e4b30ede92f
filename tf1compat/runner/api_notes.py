"""TF1 APIs that run here (graph mode) but have no TF2 path yet, and why.

Data only. The runner reports the ones a script used; `migrate` reports the
ones it leaves in place. A key is a name under `tf.` (as the script spells
it, e.g. 'train.string_input_producer'); a key ending in '.' covers a whole
namespace.
"""

from __future__ import annotations

from typing import Optional

_QUEUES = ("queue-based input: TF2 refuses queues under eager execution; the TF2 path is "
           "tf.data (tf1compat.input_pipeline / modern.input_pipeline)")
_LAYERS = ("tf.layers: Keras 3 has none; runs on legacy Keras (tf_keras); "
           "the TF2 path is a Keras 3 model, rewritten by hand")
_SUPERVISION = "TF1 session supervision: compat-only; the TF2 path is tf.function + checkpoints"

NO_TF2_PATH: dict[str, str] = {
    **{f"train.{name}": _QUEUES for name in (
        "string_input_producer", "input_producer", "range_input_producer",
        "slice_input_producer", "batch", "shuffle_batch", "batch_join", "shuffle_batch_join",
        "maybe_batch", "maybe_shuffle_batch", "start_queue_runners", "QueueRunner",
        "add_queue_runner", "queue_runner.")},
    **{name: _QUEUES for name in (
        "TextLineReader", "TFRecordReader", "FixedLengthRecordReader", "WholeFileReader",
        "IdentityReader", "ReaderBase", "FIFOQueue", "RandomShuffleQueue", "PaddingFIFOQueue",
        "PriorityQueue")},
    "layers.": _LAYERS,
    "train.Supervisor": _SUPERVISION,
    "train.MonitoredTrainingSession": _SUPERVISION,
}


def note_for(name: str) -> Optional[str]:
    """The reason `tf.<name>` has no TF2 path, or None when it has one.

    >>> note_for('train.string_input_producer').startswith('queue-based')
    True
    >>> note_for('layers.dense').startswith('tf.layers')
    True
    >>> note_for('Session') is None
    True
    """
    if name in NO_TF2_PATH:
        return NO_TF2_PATH[name]
    for key, note in NO_TF2_PATH.items():
        if key.endswith(".") and name.startswith(key):
            return note
    return None
