"""Placement as data for a TF1 session run: which op ran on which device.

`run` asks the session for the partition graphs of one `session.run` and
returns the `Placement` (`tf1compat.shared.placement`) of every node, and of
every op of the graph as written. `modern.placement.run` returns the same
object for TF2 functions and eager code.
"""

from __future__ import annotations

from typing import Optional

from tf1compat.shared.placement import PlacedOp, Placement, short_device, task_of

__all__ = ["Placement", "PlacedOp", "run", "short_device", "task_of"]


def run(session, fetches, feed_dict: Optional[dict] = None, options=None):
    """Runs `fetches` in a TF1 session and returns (values, Placement).

    Args:
      session: a `tf.compat.v1.Session` (e.g. from `tf1compat.session()`).
      fetches, feed_dict: as for `Session.run`.
      options: optional `RunOptions` to start from; partition graphs are added.

    Returns:
      (what `session.run` returns, a `Placement` of every node of the run and of
      every op of the session's graph that ran or was fused into a node that did).
    """
    from tf1compat.shared import tf_internals

    run_options = tf_internals.resolve(tf_internals.CONFIG_PROTOS, "RunOptions")()
    if options is not None:
        run_options.CopyFrom(options)
    run_options.output_partition_graphs = True
    metadata = tf_internals.resolve(tf_internals.CONFIG_PROTOS, "RunMetadata")()
    values = session.run(fetches, feed_dict=feed_dict, options=run_options,
                         run_metadata=metadata)
    return values, Placement.from_graph_defs(metadata.partition_graphs,
                                             written_graph=session.graph.as_graph_def())
