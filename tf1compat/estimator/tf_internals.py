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
from typing import Any, Callable

from tf1compat.estimator.errors import EstimatorError
from tf1compat.shared import patches, tf_internals as declared

_API_NAME = "estimator"


def _register_estimator_api() -> tuple[None, Callable[[], None]]:
    """The registry's change "tf.estimator-api"; returns (None, its undo)."""
    registry = declared.TF_EXPORT_REGISTRY
    tf_export = importlib.import_module(registry.module)
    attributes = declared.resolve(registry, "_Attributes")
    tables = {"API_ATTRS": ("_estimator_api_names", "_estimator_api_constants"),
              "API_ATTRS_V1": ("_estimator_api_names_v1", "_estimator_api_constants_v1")}
    added_name = not hasattr(tf_export, "ESTIMATOR_API_NAME")
    tf_export.ESTIMATOR_API_NAME = _API_NAME
    added = []
    for table_name, names in tables.items():
        table = declared.resolve(registry, table_name)
        if _API_NAME not in table:
            table[_API_NAME] = attributes(*names)
            added.append(table)

    def undo() -> None:
        for table in added:
            table.pop(_API_NAME, None)
        if added_name:
            del tf_export.ESTIMATOR_API_NAME

    return None, undo


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


def _put(package_name: str, name: str, module: types.ModuleType) -> Callable[[], None]:
    """Puts `module` in place as package_name.name; returns how to take it away again."""
    package = importlib.import_module(package_name)
    if hasattr(package, name) or f"{package_name}.{name}" in sys.modules:
        return lambda: None  # a TensorFlow that still has it keeps its own
    sys.modules[f"{package_name}.{name}"] = module
    setattr(package, name, module)

    def take_away() -> None:
        sys.modules.pop(f"{package_name}.{name}", None)
        if getattr(package, name, None) is module:
            delattr(package, name)

    return take_away


def _put_stand_ins() -> tuple[None, Callable[[], None]]:
    """The registry's change "tf.estimator-stand-ins"; returns (None, its undo)."""
    packages = declared.ESTIMATOR_STAND_IN_PACKAGES
    distribute, tpu = (declared.resolve(packages, name).__name__ for name in packages.names)
    undos = [_put(distribute, "estimator_training", _estimator_training_module())]
    for name in ("session_support", "tpu_embedding", "tpu_embedding_gradient"):
        undos.append(_put(tpu, name, _tpu_only_module(name)))
    return None, lambda: [undo() for undo in reversed(undos)]


def install() -> None:
    """Puts the stand-ins in place (once: the registry's "tf.estimator-api" and
    "tf.estimator-stand-ins"); call before importing tensorflow_estimator."""
    with patches.all_or_nothing():
        patches.apply("tf.estimator-api", _register_estimator_api)
        patches.apply("tf.estimator-stand-ins", _put_stand_ins)
