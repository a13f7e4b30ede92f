"""The Kubernetes manifest of `tf1compat launch --emit tfjob`: launch's layout as a Kubeflow
TFJob (`kubeflow.org/v1`), run by the Kubeflow training operator.

What the operator does with it (training-operator v1.9, `pkg/controller.v1/tensorflow/
tensorflow.go`, https://github.com/kubeflow/training-operator/blob/v1.9.0/pkg/controller.v1/
tensorflow/tensorflow.go, and `pkg/apis/kubeflow.org/v1/tensorflow_types.go`):

- one pod per replica of `spec.tfReplicaSpecs` (Chief, PS, Worker, Evaluator), and one
  headless service per pod named `<job>-<type>-<index>` (type in lower case);
- in the container named `tensorflow` only, `TF_CONFIG` =
  `{"cluster": {type: ["<job>-<type>-<i>.<namespace>.svc:<port>", ...]}, "task": {"type":
  type, "index": i}, "environment": "cloud"}` with every replica type in lower case, the
  evaluator included (since kubeflow/training-operator#1146; TF's RunConfig keeps it out
  of the training cluster itself); `<port>` is the container port named `tfjob-port`
  (default 2222); `.svc` gets `.$CUSTOM_CLUSTER_DOMAIN` appended where the operator has it
  set; a job of one replica gets no TF_CONFIG at all;
- the job succeeds when the chief has (without a chief: worker 0, or every worker with
  `successPolicy: AllWorkers`); `runPolicy.cleanPodPolicy: Running` then deletes the pods
  still running (ps servers never return on their own).

Every replica runs `tf1compat launch --from-tf-config` in the image: the one task its
TF_CONFIG names, with what a local task gets (the task fixes, TF1's flags computed from
TF_CONFIG with `--tf1-flags`, prefixed output), its servers listening on the pod's own
address (`$(POD_IP)`, from the downward API) only. A NetworkPolicy lets only the job's own
pods reach the port: TensorFlow's servers have no authentication.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Optional, Sequence

from tf1compat.shared.errors import LaunchError
from tf1compat.shared.slurm_layout import describe_layout

API_VERSION = "kubeflow.org/v1"
CONTAINER = "tensorflow"      # the operator sets TF_CONFIG in this container only
PORT_NAME, PORT = "tfjob-port", 2222
JOB_LABEL = "training.kubeflow.org/job-name"   # on every pod the operator creates
REPLICA_TYPES = {"chief": "Chief", "ps": "PS", "worker": "Worker", "evaluator": "Evaluator"}
GPU_RESOURCE = "nvidia.com/gpu"
NAME_LIMIT = 63
# A Service's name is a DNS-1035 label; a namespace's a DNS-1123 label.
_DNS_1035 = re.compile(r"^[a-z]([-a-z0-9]*[a-z0-9])?$")
_DNS_1123 = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
_CPU = re.compile(r"^(\d+(\.\d+)?|\d+m)$")
_MEMORY = re.compile(r"^\d+(\.\d+)?(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?$")


@dataclasses.dataclass(frozen=True)
class Resources:
    """What each replica asks for (requests = limits); None: not asked."""

    cpus: Optional[str] = None
    memory: Optional[str] = None
    gpus: Optional[int] = None     # chief, workers and the evaluator; ps tasks get none


def service_names(name: str, tasks: Sequence[tuple[str, int]]) -> list[str]:
    return [f"{name}-{job}-{index}" for job, index in tasks]


def check_name(name: str, tasks: Sequence[tuple[str, int]]) -> None:
    """The job name: its services `<name>-<type>-<index>` must be DNS-1035 labels."""
    longest = max(service_names(name, tasks), key=len)
    room = NAME_LIMIT - (len(longest) - len(name))
    if not _DNS_1035.match(name) or len(name) > room:
        raise LaunchError(
            f"invalid --name: received {name!r}; accepted: a Kubernetes DNS-1035 label: "
            "lowercase letters, digits and '-', starting with a letter and ending with a "
            f"letter or digit, at most {room} characters here (the operator names a service "
            f"{longest.replace(name, 'NAME', 1)!r}, {NAME_LIMIT} characters at most)")


def check_namespace(namespace: str) -> None:
    if not _DNS_1123.match(namespace) or len(namespace) > NAME_LIMIT:
        raise LaunchError(
            f"invalid --namespace: received {namespace!r}; accepted: a Kubernetes DNS-1123 "
            "label: lowercase letters, digits and '-', starting and ending with a letter or "
            f"digit, at most {NAME_LIMIT} characters")


def check_image(image: Optional[str]) -> str:
    if image is None:
        raise LaunchError("--emit tfjob needs --image IMAGE: the container image every "
                          "replica runs (with tf1compat, TensorFlow and the script in it)")
    if not image.strip() or any(char.isspace() for char in image):
        raise LaunchError(f"invalid --image: received {image!r}; accepted: an image "
                          "reference without spaces, e.g. registry.example.com/train:1.0")
    return image


def check_resources(resources: Resources) -> None:
    for option, value, pattern, example in (
            ("--cpus-per-task", resources.cpus, _CPU, "2, 0.5 or 500m"),
            ("--memory-per-task", resources.memory, _MEMORY, "4Gi or 512Mi")):
        if value is not None and not pattern.match(value):
            raise LaunchError(f"invalid {option}: received {value!r}; accepted: a Kubernetes "
                              f"quantity, e.g. {example}")
    if resources.gpus is not None and resources.gpus < 0:
        raise LaunchError(f"invalid --gpus-per-task: received {resources.gpus}; accepted: a "
                          "count of 0 or more")


def _resources(job: str, resources: Resources) -> dict:
    amounts = {key: value for key, value in (("cpu", resources.cpus),
                                             ("memory", resources.memory)) if value}
    limits = dict(amounts)
    if resources.gpus and job != "ps":
        limits[GPU_RESOURCE] = resources.gpus
    return {key: value for key, value in (("requests", amounts), ("limits", limits)) if value}


def _container(job: str, image: str, command: Sequence[str], resources: Resources) -> dict:
    container = {
        "name": CONTAINER, "image": image, "command": list(command),
        # $(POD_IP) in the command: Kubernetes expands it from this variable.
        "env": [{"name": "POD_IP", "valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}},
                {"name": "PYTHONUNBUFFERED", "value": "1"}],
        "ports": [{"name": PORT_NAME, "containerPort": PORT}]}
    asked = _resources(job, resources)
    if asked:
        container["resources"] = asked
    return container


def tfjob(tasks: Sequence[tuple[str, int]], command: Sequence[str], *, name: str,
          namespace: str, image: str, max_restarts: int = 0,
          resources: Resources = Resources()) -> dict:
    """The TFJob: one replica spec per job of `tasks` (launch's order), each running `command`."""
    counts: dict[str, int] = {}
    for job, _ in tasks:
        counts[job] = counts.get(job, 0) + 1
    specs = {}
    for job, replicas in counts.items():
        specs[REPLICA_TYPES[job]] = {
            "replicas": replicas,
            # OnFailure: the kubelet restarts a failed container in its pod, at the same
            # address, so the other replicas' TF_CONFIG still names it.
            "restartPolicy": "OnFailure" if max_restarts else "Never",
            "template": {"metadata": {"labels": {JOB_LABEL: name}},
                         "spec": {"containers": [_container(job, image, command, resources)]}}}
    spec = {"runPolicy": {"cleanPodPolicy": "Running", "backoffLimit": max_restarts},
            "tfReplicaSpecs": specs}
    if "chief" not in counts:  # as launch: the run ends when every worker has finished
        spec["successPolicy"] = "AllWorkers"
    return {"apiVersion": API_VERSION, "kind": "TFJob",
            "metadata": {"name": name, "namespace": namespace,
                         "labels": {"app.kubernetes.io/created-by": "tf1compat"}},
            "spec": spec}


def network_policy(name: str, namespace: str) -> dict:
    """Only the job's own pods may reach its servers' port."""
    pods = {"matchLabels": {JOB_LABEL: name}}
    return {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
            "metadata": {"name": f"{name}-tfjob-port", "namespace": namespace},
            "spec": {"podSelector": pods, "policyTypes": ["Ingress"],
                     "ingress": [{"from": [{"podSelector": pods}],
                                  "ports": [{"protocol": "TCP", "port": PORT}]}]}}


def manifest(tasks: Sequence[tuple[str, int]], command: Sequence[str], *, name: str,
             namespace: str, image: str, max_restarts: int = 0,
             resources: Resources = Resources()) -> str:
    """The file `kubectl apply -f` takes: the TFJob and its NetworkPolicy, as YAML documents
    (each written as JSON, which is YAML)."""
    check_name(name, tasks)
    check_namespace(namespace)
    check_image(image)
    check_resources(resources)
    documents = [tfjob(tasks, command, name=name, namespace=namespace, image=image,
                       max_restarts=max_restarts, resources=resources),
                 network_policy(name, namespace)]
    header = [f"# tf1compat launch --emit tfjob: {len(tasks)} replicas "
              f"({describe_layout(tasks)}) of TFJob {namespace}/{name}",
              "# needs the Kubeflow training operator; submit with: kubectl apply -f THIS_FILE"]
    return "\n".join(header) + "\n" + "\n---\n".join(
        json.dumps(document, indent=2) for document in documents) + "\n"

