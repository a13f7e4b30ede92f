"""`tf.contrib.summary`: TF 1.15's functions, which TF 2.21 still has where TF 1.15 kept them.

TF 1.15's contrib.summary re-exported `tensorflow.python.ops.summary_ops_v2`: `scalar(name,
tensor, family=None, step=None)` and its kin, the `*_record_summaries` contexts,
`create_file_writer` with its `name`, `initialize`. TF 2.21's module still defines those
same functions, so they are served from there, unchanged: the tags TF 1.15 wrote
(`family/family/name`, an image's `name/image`), the global step as the default step, and
TF1's graph-mode writer that `initialize` starts. TensorFlow's upgrade table sends them to
`tf.summary` instead, whose functions take other parameters (`data` for `tensor`, no
`family`) and whose `record_if` needs a condition. `all_summary_ops` is TF 2.21's
`tf.compat.v1.summary.all_v2_summary_ops`, the same collection.
"""

from __future__ import annotations

from typing import Any

from tf1compat.contrib import registry

# TF 1.15's contrib.summary names that TF 2.21's summary_ops_v2 defines with TF 1.15's signature.
SAME_AS_TF115 = ("scalar", "histogram", "image", "audio", "generic", "always_record_summaries",
                 "never_record_summaries", "record_summaries_every_n_global_steps",
                 "should_record_summaries", "initialize", "flush", "create_file_writer",
                 "import_event", "eval_dir", "summary_writer_initializer_op", "SummaryWriter")
__all__ = [*SAME_AS_TF115, "all_summary_ops"]


def all_summary_ops() -> Any:
    """The summary ops of the default graph (TF 1.15's collection; None when executing eagerly)."""
    import tensorflow as tf

    return tf.compat.v1.summary.all_v2_summary_ops()


def __getattr__(name: str) -> Any:
    if name in SAME_AS_TF115:
        from tensorflow.python.ops import summary_ops_v2

        return getattr(summary_ops_v2, name)
    return registry.attribute("summary", name)
