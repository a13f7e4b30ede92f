"""What the Kubeflow training operator does with a TFJob, done on this machine.

From the manifest alone, as training-operator v1.9 does (pkg/controller.v1/tensorflow/
tensorflow.go): each replica's TF_CONFIG (every replica type in lower case in "cluster", the
evaluator too; addresses `<job>-<type>-<i>.<namespace>.svc:<tfjob-port>`; "task"; "environment":
"cloud"; none for a job of one replica), then its container's command with `$(VAR)` expanded
from the container's env, as Kubernetes expands it. Here the service names cannot resolve: each
address is mapped to 127.0.0.1 and a free port, and each pod's IP is 127.0.0.1. The job ends
as the operator ends it: succeeded once the chief has (without a chief: every worker, with
`successPolicy: AllWorkers`), then the replicas still running are deleted (SIGTERM:
`cleanPodPolicy: Running`); failed when a replica fails (`restartPolicy: Never`).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from budgets import budget
from isolated import REPO_ROOT, python_env

POD_IP = "127.0.0.1"


def documents(text: str) -> list[dict]:
    """The YAML documents of the emitted file: JSON each, between `---` lines, after comments."""
    body = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    return [json.loads(part) for part in body.split("\n---\n") if part.strip()]


def container(spec: dict) -> dict:
    (found,) = [c for c in spec["template"]["spec"]["containers"] if c["name"] == "tensorflow"]
    return found


def _port(spec: dict) -> int:
    ports = [p["containerPort"] for p in container(spec).get("ports", [])
             if p.get("name") == "tfjob-port"]
    return ports[0] if ports else 2222


def operator_tf_configs(tfjob: dict) -> dict[tuple[str, int], dict | None]:
    name, namespace = tfjob["metadata"]["name"], tfjob["metadata"]["namespace"]
    specs = tfjob["spec"]["tfReplicaSpecs"]
    cluster = {rtype.lower(): [f"{name}-{rtype.lower()}-{i}.{namespace}.svc:{_port(spec)}"
                               for i in range(spec.get("replicas", 1))]
               for rtype, spec in specs.items()}
    distributed = sum(len(addresses) for addresses in cluster.values()) != 1
    return {(rtype, i): ({"cluster": cluster, "task": {"type": rtype, "index": i},
                          "environment": "cloud"} if distributed else None)
            for rtype, addresses in cluster.items() for i in range(len(addresses))}


def map_to_local(tf_configs: dict, free_port) -> dict:
    """The same TF_CONFIG documents with every service address on 127.0.0.1:<free port>."""
    mapping = {}
    for document in tf_configs.values():
        for addresses in (document or {}).get("cluster", {}).values():
            for address in addresses:
                mapping.setdefault(address, f"127.0.0.1:{free_port()}")
    return {key: None if doc is None else {**doc, "cluster": {
        job: [mapping[a] for a in addresses] for job, addresses in doc["cluster"].items()}}
        for key, doc in tf_configs.items()}


def expand(command: list[str], env: dict[str, str]) -> list[str]:
    """Kubernetes' `$(VAR)` in a command: the variable's value where it is defined."""
    return [re.sub(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)",
                   lambda m: env.get(m.group(1), m.group(0)), part) for part in command]


def container_env(spec: dict) -> dict[str, str]:
    env = {}
    for variable in container(spec).get("env", []):
        if "value" in variable:
            env[variable["name"]] = variable["value"]
        elif variable.get("valueFrom", {}).get("fieldRef", {}).get("fieldPath") == "status.podIP":
            env[variable["name"]] = POD_IP
    return env


class Replica:
    def __init__(self, rtype: str, index: int, process: subprocess.Popen, log: Path):
        self.rtype, self.index, self.process, self.log = rtype, index, process, log

    @property
    def name(self) -> str:
        return f"{self.rtype}:{self.index}"

    def lines(self) -> list[str]:
        return self.log.read_text().splitlines() if self.log.exists() else []


def start_replicas(tfjob: dict, tf_configs: dict, logs: Path) -> list[Replica]:
    """Every replica's container command, with its TF_CONFIG (the image's `tf1compat` is this
    checkout's)."""
    replicas = []
    for rtype, spec in tfjob["spec"]["tfReplicaSpecs"].items():
        for index in range(spec.get("replicas", 1)):
            env = python_env(container_env(spec))
            env.pop("TF_CONFIG", None)
            document = tf_configs[(rtype.lower(), index)]
            if document is not None:
                env["TF_CONFIG"] = json.dumps(document)
            command = expand(container(spec)["command"], env)
            if command[0] == "tf1compat":
                command = [sys.executable, "-m", "tf1compat.cli.main", *command[1:]]
            log = logs / f"{rtype.lower()}-{index}.log"
            with open(log, "w") as out:
                process = subprocess.Popen(command, env=env, cwd=str(REPO_ROOT), stdout=out,
                                           stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                           start_new_session=True)
            replicas.append(Replica(rtype.lower(), index, process, log))
    return replicas


def run_to_the_end(tfjob: dict, replicas: list[Replica], timeout: float) -> str:
    """'Succeeded' or 'Failed: ...', as the operator decides; the replicas still running are
    then deleted (SIGTERM, SIGKILL after the pod's 30 s grace)."""
    if any(r.rtype == "chief" for r in replicas):
        deciders = [r for r in replicas if r.rtype == "chief"]
    else:
        deciders = [r for r in replicas if r.rtype == "worker"]
    deadline = time.monotonic() + budget(timeout)
    outcome = f"Failed: not done within {timeout} s"
    while time.monotonic() < deadline:
        failed = [r for r in replicas if r.process.poll() not in (None, 0)]
        if failed:
            outcome = f"Failed: {failed[0].name} exited {failed[0].process.returncode}"
            break
        if all(r.process.poll() == 0 for r in deciders):
            outcome = "Succeeded"
            break
        time.sleep(0.1)
    delete(replicas)
    return outcome


def delete(replicas: list[Replica], grace: float = 30) -> None:
    running = [r for r in replicas if r.process.poll() is None]
    for replica in running:
        replica.process.send_signal(signal.SIGTERM)  # the container's main process
    deadline = time.monotonic() + grace
    for replica in running:
        try:
            replica.process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pass
    for replica in replicas:  # what a pod's deletion leaves: nothing of its process group
        try:
            os.killpg(replica.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        replica.process.wait()
