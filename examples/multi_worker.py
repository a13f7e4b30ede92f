"""Beyond one machine: TF1 between-graph replication against TF2 MultiWorkerMirroredStrategy.

TF1: 1 parameter server + 2 workers, `replica_device_setter`, asynchronous SGD
(`examples.distributed_tf1`). TF2: 2 workers, Keras `fit` under
MultiWorkerMirroredStrategy with backups (`examples.distributed_tf2`). Both are
started by `tf1compat launch` on 127.0.0.1; each form's time includes starting
its processes. Asynchronous and synchronous SGD take different paths, so the
rule is on the outcome: final test accuracy within 0.05 of each other.
"""

from __future__ import annotations

from examples import common, distributed

NAME = "multi_worker"
TITLE = "TF1 ps + 2 workers vs TF2 MultiWorkerMirrored x2"
PREIMPORT = ()  # each form starts its own TensorFlow processes through launch


def _result(run: dict, label: str) -> dict:
    epochs = run["epochs"]
    return {"summary": f"{label}: test accuracy {run['final_accuracy']:.3f} after "
                       f"{len(epochs)} epochs",
            "values": {"final_accuracy": run["final_accuracy"]},
            "history": {"loss": [e["loss"] for e in epochs],
                        "accuracy": [e["accuracy"] for e in epochs]}}


def tf1(settings: common.Settings) -> dict:
    run = distributed.tf1_form(epochs=settings.epochs_or(2, 5), data=settings.data)
    return _result(run, "TF1 between-graph, 1 ps + 2 workers")


def tf2(settings: common.Settings) -> dict:
    run = distributed.tf2_form(epochs=settings.epochs_or(2, 5), data=settings.data)
    result = _result(run, "TF2 MultiWorkerMirrored, 2 workers")
    result["values"]["weights_identical"] = run["weights_identical"]
    return result


def agree(tf1_result: dict, tf2_result: dict):
    if not tf2_result["values"].get("weights_identical"):
        return False, "the TF2 workers did not hold identical weights after every epoch"
    close, detail = common.close(tf1_result, tf2_result, {"final_accuracy": 0.05})
    return close, detail + "; TF2 workers identical every epoch"


if __name__ == "__main__":
    common.main(__spec__.name)
