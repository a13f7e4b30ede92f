"""Stand-ins for the TensorFlow internals that tensorflow-estimator 2.15 imports and TF 2.21 lacks.

tensorflow-estimator 2.15.0 (the last release) was written against TF 2.15.
TF 2.21 dropped three things it reaches for at import time:

- `tf_export.ESTIMATOR_API_NAME` and the `estimator` entries of its API
  registry, which every `@estimator_export` decorator uses;
- `tensorflow.python.distribute.estimator_training`, the distribute
  coordinator behind `RunConfig(train_distribute=...)` in a cluster;
- `tensorflow.python.tpu.session_support`, `tpu_embedding` and
  `tpu_embedding_gradient`, used only by TPUEstimator on a real TPU.

`install()` puts small replacements in their place before the library is
imported. Each replacement either does what the library needs on one machine
or raises `EstimatorError` naming what TF 2.21 no longer has.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

from tf1compat.estimator.errors import EstimatorError
from tf1compat.shared import tf_internals as declared

_API_NAME = "estimator"


def _register_estimator_api() -> None:
    registry = declared.TF_EXPORT_REGISTRY
    tf_export = importlib.import_module(registry.module)
    tf_export.ESTIMATOR_API_NAME = _API_NAME
    attributes = declared.resolve(registry, "_Attributes")
    declared.resolve(registry, "API_ATTRS").setdefault(
        _API_NAME, attributes("_estimator_api_names", "_estimator_api_constants"))
    declared.resolve(registry, "API_ATTRS_V1").setdefault(
        _API_NAME, attributes("_estimator_api_names_v1", "_estimator_api_constants_v1"))


def _cluster_of(tf_config: Any) -> dict:
    cluster = (tf_config or {}).get("cluster") or {}
    return {job: tasks for job, tasks in cluster.items() if tasks}


def _init_run_config(config: Any, tf_config: Any) -> None:
    """RunConfig with a distribution strategy: one machine works, a cluster is refused."""
    cluster = _cluster_of(tf_config)
    if cluster:
        raise EstimatorError(
            "RunConfig(train_distribute=/eval_distribute=...) with a cluster in TF_CONFIG "
            f"(jobs: {sorted(cluster)}) needs TensorFlow's distribute coordinator "
            "(tensorflow.python.distribute.estimator_training), which TF 2.21 removed; "
            "leave train_distribute unset and let TF_CONFIG describe the cluster "
            "(tf.estimator.train_and_evaluate then runs ps/worker training), or use "
            "tf.distribute with Keras")
    config._init_distributed_setting_from_environment_var(tf_config or {})  # pylint: disable=protected-access
    config._distribute_coordinator_mode = None  # pylint: disable=protected-access


def _estimator_training_module() -> types.ModuleType:
    module = types.ModuleType("tensorflow.python.distribute.estimator_training",
                              "tf1compat's stand-in for TF 2.15's distribute coordinator hooks "
                              "(one machine only)")
    module.init_run_config = _init_run_config
    module.should_run_distribute_coordinator = lambda config: False

    def _needs_coordinator(*args: Any, **kwargs: Any) -> None:
        raise EstimatorError("Estimator training in distribute-coordinator mode needs "
                             "tensorflow.python.distribute.estimator_training, which TF 2.21 "
                             "removed")

    module.estimator_train = module.estimator_evaluate = module.train_and_evaluate = \
        _needs_coordinator
    return module


def _tpu_only_module(name: str) -> types.ModuleType:
    """A module whose every name is a class that refuses to be built: TPU hardware only."""
    module = types.ModuleType(f"tensorflow.python.tpu.{name}",
                              f"tf1compat: TF 2.21 has no tensorflow.python.tpu.{name}")

    def __getattr__(attribute: str) -> Any:
        if attribute.startswith("__"):
            raise AttributeError(attribute)

        def refuse(self: Any, *args: Any, **kwargs: Any) -> None:
            raise EstimatorError(
                f"{name}.{attribute} is TPU-only machinery that TF 2.21 removed "
                f"(tensorflow.python.tpu.{name}); run TPUEstimator with use_tpu=False "
                "and without embedding_config_spec")

        value = type(attribute, (), {"__init__": refuse, "__module__": module.__name__})
        setattr(module, attribute, value)
        return value

    module.__getattr__ = __getattr__
    return module


def _put(package_name: str, name: str, module: types.ModuleType) -> None:
    package = importlib.import_module(package_name)
    if hasattr(package, name) or f"{package_name}.{name}" in sys.modules:
        return  # a TensorFlow that still has it keeps its own
    sys.modules[f"{package_name}.{name}"] = module
    setattr(package, name, module)


def install() -> None:
    """Puts the stand-ins in place (idempotent); call before importing tensorflow_estimator."""
    _register_estimator_api()
    packages = declared.ESTIMATOR_STAND_IN_PACKAGES
    distribute, tpu = (declared.resolve(packages, name).__name__ for name in packages.names)
    _put(distribute, "estimator_training", _estimator_training_module())
    for name in ("session_support", "tpu_embedding", "tpu_embedding_gradient"):
        _put(tpu, name, _tpu_only_module(name))
