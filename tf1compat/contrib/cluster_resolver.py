"""`tf.contrib.cluster_resolver`: TF 1.15's `TPUClusterResolver`; the rest from the contrib table.

TF 1.15 looked a TPU name up in the Cloud TPU API only when it named a Cloud
TPU. An empty name, 'local', 'localhost:PORT', '/bns/...', 'uptc://...' and
'grpc://HOST:PORT' were taken as they are: the name is the session master,
nothing is looked up, and in graph mode `cluster_spec()` is None (a 'grpc://'
address gives a one-task cluster). TF1 scripts build their resolver that way
off a TPU (`TPUClusterResolver(FLAGS.tpu if FLAGS.use_tpu else '')`, then
`tf.contrib.tpu.RunConfig(cluster=resolver)` and `TPUEstimator(use_tpu=False)`).
TF 2.21's class sends every name but 'local' to the Cloud TPU client, which
answers '' with "Please provide a TPU Name to connect to." Here those names
behave as in TF 1.15; a Cloud TPU's name goes to TF 2.21's class, which this
one extends (so `isinstance` checks against it hold).
"""

from __future__ import annotations

import collections
import functools
import logging
import os
import re
from typing import Any, Optional

import tensorflow as tf

from tf1compat.contrib import registry

__all__ = ["TPUClusterResolver"]

_GKE_ENDPOINTS = "KUBE_GOOGLE_CLOUD_TPU_ENDPOINTS"
_TPU_NAME = "TPU_NAME"
_GCE_METADATA = "http://metadata.google.internal/computeMetadata/v1"
_GRPC = "grpc"
_GOOGLE_PREFIXES = ("localhost:", "/bns", "uptc://")
_TPU_CORE = re.compile(r".*task:(?P<host>\d+)/.*device:TPU:(?P<core>\d+)$")
_CONNECTION_RETRIES = 120  # TF 1.15's, for a master that does not answer yet
_log = logging.getLogger("tensorflow")


@functools.lru_cache(maxsize=1)
def is_running_in_gce() -> bool:
    """TF 1.15's test for Google Compute Engine: its metadata server answers within 1 s."""
    import urllib.request

    request = urllib.request.Request(_GCE_METADATA, headers={"Metadata-Flavor": "Google"})
    try:
        with urllib.request.urlopen(request, timeout=1) as response:
            return response.info().get("Metadata-Flavor") == "Google"
    except OSError:  # no metadata server: unknown host, refused, timed out
        return False


def _tf1_name(tpu: Any) -> str:
    """The TPU name as TF 1.15 took it: one list item, or the environment's for None."""
    if isinstance(tpu, list):
        if not tpu:
            raise ValueError("At least one TPU must be specified.")
        if len(tpu) != 1:
            raise NotImplementedError(
                "Using multiple TPUs in a single session is not yet implemented")
        tpu = tpu[0]
    if tpu is None:
        tpu = os.environ.get(_GKE_ENDPOINTS, os.environ.get(_TPU_NAME))
    if tpu is None:
        raise ValueError("Please provide a TPU Name to connect to.")
    return tpu.decode("utf-8") if isinstance(tpu, bytes) else str(tpu)


def _is_google_name(name: str) -> bool:
    """TF 1.15's names of a TPU reached without the Cloud API ('', 'local', '/bns', ...)."""
    return name in ("", "local") or name.startswith(_GOOGLE_PREFIXES)


class _NoCloudTpu:
    """The Cloud TPU client of a name nothing is looked up for."""

    def api_available(self) -> bool:
        return False

    def enter(self) -> None:
        pass

    def exit(self, *exc_info: Any) -> None:
        pass


class TPUClusterResolver(tf.distribute.cluster_resolver.TPUClusterResolver):
    """TF 1.15's `TPUClusterResolver`: a name that is not a Cloud TPU is the session master.

    Args: as TF 1.15's. `tpu`: a name, a one-item list, or None for the
    `KUBE_GOOGLE_CLOUD_TPU_ENDPOINTS` or `TPU_NAME` environment variable.

    Raises:
      ValueError: no name, and none in the environment ("Please provide a TPU Name to
        connect to."), or an empty list.
      RuntimeError: an empty name on Google Compute Engine, as TF 1.15 refused it.
    """

    def __init__(self, tpu=None, zone=None, project=None, job_name="worker",
                 coordinator_name=None, coordinator_address=None, credentials="default",
                 service=None, discovery_url=None):
        name = _tf1_name(tpu)
        google = _is_google_name(name)
        grpc = not google and name.startswith(_GRPC + "://")
        # TF 1.15 started a coordinator server for GKE's endpoints; TF 2.21's class does too.
        gke_coordinator = bool(coordinator_name and not coordinator_address and
                               _GKE_ENDPOINTS in os.environ)
        self._tf1_local = (google or grpc) and not gke_coordinator
        if not self._tf1_local:  # a Cloud TPU to look up: TF 2.21's way
            super().__init__(name, zone, project, job_name, coordinator_name,
                             coordinator_address, credentials, service, discovery_url)
            self.rpc_layer = _GRPC
            return
        if not name and is_running_in_gce():
            raise RuntimeError("You need to specify a TPU Name if you are running in the "
                               "Google Cloud environment.")
        self.task_type = job_name
        self.task_id = 0
        self._environment = "google" if google else ""
        self.rpc_layer = None if google else _GRPC
        if name.startswith("/bns"):  # TF 1.15 dropped a numeric port of a BNS address
            head, _, port = name.rpartition(":")
            if head and port.isdigit():
                name = head
        if grpc:
            name = name[len(_GRPC + "://"):]
        self._tpu = name
        self._coordinator_name = coordinator_name
        self._coordinator_address = coordinator_address
        self._cloud_tpu_client = _NoCloudTpu()
        self._tpu_topology = None

    def master(self, task_type=None, task_id=None, rpc_layer=None) -> str:
        """The session master: the name itself (its first endpoint), with `rpc_layer://`."""
        if not self._tf1_local:
            return super().master(task_type, task_id, rpc_layer)
        master = self._tpu.split(",")[0]
        layer = rpc_layer or self.rpc_layer
        return f"{layer}://{master}" if layer else master

    def get_master(self) -> str:
        return self.master()

    def get_job_name(self) -> Optional[str]:
        """TF 1.15's: the job name in eager mode or on GCE, else None."""
        if not self._tf1_local:
            return super().get_job_name()
        if tf.compat.v1.executing_eagerly_outside_functions() or is_running_in_gce():
            return self.task_type
        return None

    def cluster_spec(self) -> Optional[tf.train.ClusterSpec]:
        """None in graph mode for the names reached without gRPC ('', 'local', ...);
        else one task per endpoint (and the coordinator, when given)."""
        if not self._tf1_local:
            return super().cluster_spec()
        if self.rpc_layer is None and not tf.compat.v1.executing_eagerly_outside_functions():
            return None
        prefix = f"{self.rpc_layer}://" if self.rpc_layer else None
        tasks = [task[len(prefix):] if prefix and task.startswith(prefix) else task
                 for task in self._tpu.split(",")]
        spec = {self.task_type: tasks}
        if self._coordinator_address:
            spec[self._coordinator_name] = [self._coordinator_address]
        return tf.train.ClusterSpec(spec)

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None) -> dict:
        """{'TPU': cores per host} of the master's devices ({'TPU': 0} without TPUs)."""
        if not self._tf1_local:
            return super().num_accelerators(task_type, task_id, config_proto)
        for attempt in range(1, _CONNECTION_RETRIES + 2):
            try:
                names = _accelerator_names(self.master(), config_proto)
                break
            except tf.errors.DeadlineExceededError:
                message = ("Failed to connect to master. The TPU might not be ready (e.g. still "
                           "scheduling) or the master address is incorrect: got (%s)"
                           % self.master())
                if attempt > _CONNECTION_RETRIES:
                    raise RuntimeError(message) from None
                _log.warning(message)
                _log.warning("Retrying (%d/%d)...", attempt, _CONNECTION_RETRIES)
        cores: dict[str, int] = collections.Counter()
        for name in names:
            match = _TPU_CORE.match(name)
            if match:
                cores[match.group("host")] += 1
        if not cores:
            return {"TPU": 0}
        if len(set(cores.values())) != 1:
            raise RuntimeError("TPU cores on each device is not the same. This should never "
                               f"happen. Devices: {dict(cores)}")
        return {"TPU": next(iter(cores.values()))}

    @property
    def environment(self) -> str:
        """'google' for the names reached without the Cloud API and gRPC, else ''."""
        return self._environment if self._tf1_local else super().environment


def _accelerator_names(master: str, config_proto: Any) -> list[str]:
    """The names of the master's devices (eager: the non-CPU logical devices), as TF 1.15."""
    if tf.executing_eagerly():
        return [device.name for device in tf.config.list_logical_devices()
                if device.device_type not in ("CPU", "XLA_CPU")]
    with tf.Graph().as_default():
        with tf.compat.v1.Session(master, config=config_proto) as session:
            return [device.name for device in session.list_devices()]


def __getattr__(name: str) -> Any:
    return registry.attribute("cluster_resolver", name)
