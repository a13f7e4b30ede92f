"""TF1 clusters: `tf.distribute.Server` with our session options, and between-graph replication.

A TF1 distributed script does three things with its cluster:

    server = tf.train.Server(cluster_spec, job_name=..., task_index=..., config=ConfigProto(...))
    if job_name == "ps": server.join()
    with tf.device(tf.train.replica_device_setter(cluster=cluster_spec, worker_device=...)):
        ...build the model: variables on the ps tasks, ops on this worker...
    with tf.Session(server.target) as sess: ...

Here each step takes a `Cluster` (or ClusterSpec, dict, TF_CONFIG), checks it
first, and takes session options the way `tf1compat.session` does:

    cluster = tf1compat.cluster.from_environment()          # TF_CONFIG from `tf1compat launch`
    if cluster.task_type == "ps":
        tf1compat.cluster.join(cluster)                     # serves until killed
    with tf1compat.cluster.session(cluster, soft_placement=True) as sess:
        with tf.compat.v1.device(tf1compat.cluster.replica_device_setter(cluster)):
            ...

On TF2, `tf.device` refuses a device function ("tf.device does not support
functions"): TF1's `with tf.device(replica_device_setter(...))` must become
`with tf.compat.v1.device(...)` inside a graph.

TensorFlow's gRPC servers have no authentication: anyone who reaches a
task's port can run any op on it (read files, start processes). Keep them on
loopback or a private network (`tf1compat launch` confines them to --host).
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator, Optional

from tf1compat.shared.cluster_server import server, with_task
from tf1compat.shared.cluster_spec import PS, Cluster
from tf1compat.shared.errors import ClusterError
from tf1compat.shared.options import SessionOptions


def from_environment(tf_config: Optional[str] = None) -> Cluster:
    """The Cluster (with this process's task) from TF_CONFIG, as `tf1compat launch` sets it."""
    return Cluster.from_tf_config(tf_config)


def join(cluster: Any = None, job_name: Optional[str] = None, task_index: Optional[int] = None,
         options: Any = None, /, **keywords: Any) -> None:
    """Starts this task's server and serves until the process is killed (a ps task's life)."""
    server(cluster, job_name, task_index, options, **keywords).join()


def device_filters(cluster: Cluster) -> list[str]:
    """The devices a task's session needs: the ps tasks and itself.

    Without filters a TF1 session on a cluster waits for every task of it, so
    one slow or missing worker stalls the others (TF1's between-graph advice).
    """
    return ([f"/job:{PS}"] if cluster.addresses(PS) else []) + \
        [f"/job:{cluster.task_type}/task:{cluster.task_index}"]


@contextlib.contextmanager
def session(cluster: Any = None, job_name: Optional[str] = None,
            task_index: Optional[int] = None, options: Any = None, /, *, graph=None,
            filters: Optional[list[str]] = None, **keywords: Any) -> Iterator[Any]:
    """Starts this task's server and yields a `tf1compat.session` on its target.

    The server stays up for as long as the process lives (TensorFlow cannot
    stop a started gRPC server), so other tasks can keep using it. The session
    sees only the ps tasks and this task (`device_filters`), unless `filters`
    says otherwise.

    >>> import tensorflow as tf
    >>> from tf1compat.shared.cluster_spec import local_cluster
    >>> with session(local_cluster(1), "worker", 0, cpus=1) as sess:
    ...     int(sess.run(tf.constant(2) * 3))
    6
    """
    from tf1compat.compat_session import session as compat_session

    resolved = with_task(cluster, job_name, task_index)
    resolved_options = SessionOptions.coerce(options, **keywords)
    started = server(resolved, None, None, resolved_options)
    proto = resolved_options.to_config_proto()
    proto.device_filters.extend(device_filters(resolved) if filters is None else filters)
    with compat_session(SessionOptions.from_config_proto(proto, unmapped="keep"), graph=graph,
                        target=started.target) as sess:
        sess.server = started
        yield sess


def worker_device(cluster: Cluster) -> str:
    """'/job:worker/task:1' for this worker (TF1's `worker_device` argument)."""
    return f"/job:{cluster.task_type}/task:{cluster.task_index}"


def replica_device_setter(cluster: Any = None, job_name: Optional[str] = None,
                          task_index: Optional[int] = None, *, ps_strategy=None,
                          worker_device_suffix: str = "") -> Any:
    """TF1's `replica_device_setter` for this worker: variables on ps tasks, ops here.

    Use it as `with tf.compat.v1.device(replica_device_setter(cluster)):` (TF2's
    `tf.device` takes no functions) inside a `tf.Graph`, while building
    the model in between-graph replication (one graph per worker, shared
    variables on the ps tasks, round-robin unless `ps_strategy` says otherwise).

    Args:
      cluster, job_name, task_index: as for `server`; the task must be a worker
        (or chief) of a cluster with a ps job.
      ps_strategy: optional TF1 ps strategy, e.g.
        `tf.compat.v1.train.GreedyLoadBalancingStrategy(...)`.
      worker_device_suffix: e.g. "/cpu:0" to pin this worker's ops to a device.

    Returns:
      A device function for `tf.device`.

    Raises:
      ClusterError: no ps or worker job, or this task is a ps task.
    """
    resolved = with_task(cluster, job_name, task_index).require("between_graph")
    if resolved.task_type == PS:
        raise ClusterError(f"replica_device_setter is for the tasks that build the model; "
                           f"{resolved.task} is a ps task (it only serves: use join())")
    import tensorflow as tf

    return tf.compat.v1.train.replica_device_setter(
        cluster=resolved.to_cluster_spec(),
        worker_device=worker_device(resolved) + worker_device_suffix,
        ps_strategy=ps_strategy)

