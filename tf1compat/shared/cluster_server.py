"""This task's `tf.distribute.Server`, started with our session options.

TF1 scripts start it as `tf.train.Server(cluster, job_name, task_index,
config=ConfigProto(...))` and TF2 parameter-server tasks as
`tf.distribute.Server(...)`: the same object, so `tf1compat.cluster.server`
and `modern.cluster.serve` both start it here, after checking the cluster
and the task (TensorFlow aborts the process on some bad ones).
"""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.shared.cluster_spec import Cluster
from tf1compat.shared.errors import ClusterError
from tf1compat.shared.options import SessionOptions


def with_task(cluster: Any, job_name: Optional[str], task_index: Optional[int]) -> Cluster:
    """The checked Cluster of `cluster`, which must name this process's task."""
    resolved = Cluster.coerce(cluster, job_name, task_index)
    if resolved.task_type is None:
        raise ClusterError(f"no task given for {resolved}: pass job_name= and task_index=, "
                           "or a TF_CONFIG with a \"task\"")
    return resolved


def server(cluster: Any = None, job_name: Optional[str] = None, task_index: Optional[int] = None,
           options: Any = None, /, *, start: bool = True, **keywords: Any):
    """Starts this task's `tf.distribute.Server` (TF1: `tf.train.Server`) with session options.

    Args:
      cluster: a `Cluster`, `tf.train.ClusterSpec`, {job: [host:port]}, TF_CONFIG
        text, or None (read TF_CONFIG from the environment).
      job_name, task_index: this process's task (default: from TF_CONFIG).
      options: `SessionOptions` or a ConfigProto; the server's default session
        config (TF1's `tf.train.Server(config=...)`).
      start: start serving now (TF's default).
      **keywords: option keywords, e.g. `soft_placement=True`.

    Returns:
      The started `tf.distribute.Server`; `server.target` is the session target.

    Raises:
      ClusterError: the cluster or the task is invalid (checked before any
        server starts: TF would abort the process on some of these).
      OptionError: a session option is rejected.
    """
    resolved = with_task(cluster, job_name, task_index)
    config = SessionOptions.coerce(options, **keywords).to_config_proto()
    import tensorflow as tf

    return tf.distribute.Server(resolved.to_cluster_spec(), job_name=resolved.task_type,
                                task_index=resolved.task_index, protocol="grpc",
                                config=config, start=start)
