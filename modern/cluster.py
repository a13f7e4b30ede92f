"""TF2 clusters: TF_CONFIG both ways, and the strategy that matches the training mode.

The same cluster a TF1 script gives `tf.train.ClusterSpec` is, in TF2, the
`TF_CONFIG` environment variable that TensorFlow's cluster resolvers read:

    {"cluster": {"worker": ["127.0.0.1:2222", "127.0.0.1:2223"]},
     "task": {"type": "worker", "index": 0}}

- synchronous data parallelism: `multi_worker_mirrored(cluster)` returns a
  `tf.distribute.MultiWorkerMirroredStrategy` (all-reduce across workers) and
  makes Keras 3's `fit` work with it (see `modern.keras_multi_worker`);
- asynchronous: `parameter_server(cluster)` returns a
  `tf.distribute.ParameterServerStrategy` on the chief (the coordinator);
  in the ps and worker tasks it starts the in-process gRPC server and serves
  until the process is stopped (those tasks run no training code).
  `coordinator(strategy)` gives the `ClusterCoordinator` that schedules steps.

Every function takes a `Cluster`, a `tf.train.ClusterSpec` or dict plus the
task, TF_CONFIG text, or nothing (read TF_CONFIG from the environment, as
`tf1compat launch` sets it), and checks it before TensorFlow sees it.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Optional

from tf1compat.shared.cluster_spec import CHIEF, PS, WORKER, Cluster
from tf1compat.shared.errors import ClusterError


def from_environment(tf_config: Optional[str] = None) -> Cluster:
    """The Cluster (with this process's task) that TF_CONFIG describes."""
    return Cluster.from_tf_config(tf_config)


def tf_config(cluster: Any, task_type: Optional[str] = None,
              task_index: Optional[int] = None) -> str:
    """TF_CONFIG JSON for a task of a cluster (ClusterSpec, dict or Cluster).

    >>> tf_config({"worker": ["127.0.0.1:2222"]}, "worker", 0)
    '{"cluster":{"worker":["127.0.0.1:2222"]},"task":{"type":"worker","index":0}}'
    """
    return Cluster.coerce(cluster, task_type, task_index).to_tf_config_json()


def cluster_spec(tf_config_text: Optional[str] = None):
    """The `tf.train.ClusterSpec` that TF_CONFIG (text, or the environment) describes."""
    return Cluster.from_tf_config(tf_config_text).to_cluster_spec()


def cluster_resolver(cluster: Any = None, task_type: Optional[str] = None,
                     task_index: Optional[int] = None):
    """A `SimpleClusterResolver` for a checked cluster and task (gRPC)."""
    resolved = Cluster.coerce(cluster, task_type, task_index)
    if resolved.task_type is None:
        raise ClusterError(f"no task given for {resolved}: pass task_type= and task_index=, "
                           "or a TF_CONFIG with a \"task\"")
    import tensorflow as tf

    return tf.distribute.cluster_resolver.SimpleClusterResolver(
        resolved.to_cluster_spec(), task_type=resolved.task_type,
        task_id=resolved.task_index, rpc_layer="grpc")


def _configure(options: Any, keywords: dict) -> None:
    if options is not None or keywords:
        from modern.config import configure

        configure(options, **keywords)


def multi_worker_mirrored(cluster: Any = None, options: Any = None, /, *,
                          task_type: Optional[str] = None, task_index: Optional[int] = None,
                          communication: str = "auto", **keywords: Any):
    """`tf.distribute.MultiWorkerMirroredStrategy` for a cluster (synchronous training).

    Every chief and worker task runs the same training code; gradients are
    all-reduced each step, so every worker holds the same weights.

    Args:
      cluster: a `Cluster`, ClusterSpec/dict (with task_type/task_index),
        TF_CONFIG text, or None (TF_CONFIG from the environment).
      options: optional `SessionOptions` (or keywords) applied first with
        `modern.configure`, e.g. `cpus=1, intra_op_threads=1`.
      communication: "auto", "ring" or "nccl" (collective implementation).

    Returns:
      The strategy; Keras 3 `fit` is made to work with it (`modern.keras_multi_worker`).

    Raises:
      ClusterError: the cluster is invalid, has a ps job, or names no task.
    """
    resolved = Cluster.coerce(cluster, task_type, task_index).require("sync")
    _configure(options, keywords)
    import tensorflow as tf

    from modern import keras_multi_worker

    implementations = {"auto": tf.distribute.experimental.CommunicationImplementation.AUTO,
                       "ring": tf.distribute.experimental.CommunicationImplementation.RING,
                       "nccl": tf.distribute.experimental.CommunicationImplementation.NCCL}
    if communication not in implementations:
        raise ClusterError(f"invalid communication: received {communication!r}; accepted: "
                           f"{', '.join(implementations)}")
    keras_multi_worker.install()
    return tf.distribute.MultiWorkerMirroredStrategy(
        cluster_resolver=cluster_resolver(resolved),
        communication_options=tf.distribute.experimental.CommunicationOptions(
            implementation=implementations[communication]))


def serve(cluster: Any = None, options: Any = None, /, *, task_type: Optional[str] = None,
          task_index: Optional[int] = None, exit_when_done: bool = True, **keywords: Any):
    """Runs this task's in-process gRPC server until the process is stopped.

    This is what the ps and worker tasks of a ParameterServerStrategy cluster
    do: the chief sends them work. TensorFlow cannot stop a started server, so
    this returns only if `join` does (it does not; `tf1compat launch` stops
    these tasks once the chief is done).
    """
    resolved = Cluster.coerce(cluster, task_type, task_index)
    from tf1compat.shared.cluster_server import server

    os.environ.setdefault("GRPC_FAIL_FAST", "use_caller")
    started = server(resolved, None, None, options, **keywords)
    print(f"{resolved.task} serving at {resolved.address()} "
          f"(TensorFlow gRPC, no authentication)", flush=True)
    started.join()
    if exit_when_done:
        sys.exit(0)
    return started


def parameter_server(cluster: Any = None, options: Any = None, /, *,
                     task_type: Optional[str] = None, task_index: Optional[int] = None,
                     variable_partitioner: Any = None, **keywords: Any):
    """`tf.distribute.ParameterServerStrategy` on the chief; a serving loop elsewhere.

    Run the same script in every task (as `tf1compat launch --chief --ps M
    --workers N` does): in the ps and worker tasks this call starts the
    in-process server and never returns; on the chief it returns the strategy.
    Make its `ClusterCoordinator` with `coordinator(strategy)`.

    Raises:
      ClusterError: the cluster lacks a chief, ps or worker job, or names no task.
    """
    resolved = Cluster.coerce(cluster, task_type, task_index).require("async")
    if resolved.task_type in (PS, WORKER):
        serve(resolved, options, **keywords)
    if resolved.task_type != CHIEF:
        raise ClusterError(f"{resolved.task} has no role in parameter-server training; "
                           "accepted tasks: chief (coordinator), ps, worker")
    _configure(options, keywords)
    os.environ.setdefault("GRPC_FAIL_FAST", "use_caller")
    import tensorflow as tf

    return tf.distribute.ParameterServerStrategy(
        cluster_resolver(resolved), variable_partitioner=variable_partitioner)


def coordinator(strategy):
    """The `ClusterCoordinator` of a ParameterServerStrategy (made once per strategy)."""
    import tensorflow as tf

    existing = getattr(strategy, "_cluster_coordinator", None)
    if existing is not None:
        return existing
    return tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)

