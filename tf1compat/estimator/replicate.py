"""`tf.contrib.estimator.replicate_model_fn` and `TowerOptimizer`: TF 1.15's in-graph towers.

TF 1.15 replicated an Estimator's `model_fn` over local GPUs this way;
tensorflow-estimator dropped it after 1.15, so it is rebuilt here on
`tf.compat.v1`, keeping its graph: the batch is split on dimension 0 (under
`split_inputs`), the `model_fn` runs once per device (tower 0 without a name
scope, tower i under `tower_i`, all sharing one set of variables kept on the
consolidation device, so checkpoints name variables as a single-device model
does), each tower's loss is divided by the number of towers unless
`loss_reduction` is SUM, the gradients of all towers are summed on their
variable's device and applied once by the last tower's `TowerOptimizer`, and
the towers' losses are summed into the spec's `loss`. EVAL sums the towers'
metric variables into the first tower's; PREDICT concatenates predictions and
export outputs.

With `tf1compat run --device-map 'gpu:*=cpu:*'` the towers asked for
`/gpu:0`, `/gpu:1` land on logical CPUs 0 and 1.
"""

from __future__ import annotations

import copy
from typing import Any, Callable, Optional, Sequence

from tf1compat.estimator import loader
from tf1compat.estimator.errors import EstimatorError
from tf1compat.estimator import tower_specs
from tf1compat.estimator.tower_state import TowerOptimizer, scaled_loss, tower_state
from tf1compat.shared.lazy_tf import tensorflow as _tf

__all__ = ["replicate_model_fn", "TowerOptimizer"]

_library = loader.v1_api()
_VARIABLE_OPS = frozenset({"Variable", "VariableV2", "VarHandleOp"})
_TOWER_SCOPE = "tower_{}"


def _local_devices(device_type: str) -> list[str]:
    from tensorflow.python.client import device_lib

    return [device.name for device in device_lib.list_local_devices()
            if device.device_type == device_type]


def _checked_devices(devices: Optional[Sequence[str]]) -> list[str]:
    """The devices as given, each parsed; None or empty: every local GPU, else the CPU."""
    if not devices:
        return _local_devices("GPU") or _local_devices("CPU")
    if isinstance(devices, str):
        raise EstimatorError(f"replicate_model_fn(devices=...) takes a list of device names; "
                             f"received the string {devices!r} (write [{devices!r}])")
    tf = _tf()
    checked = []
    for device in devices:
        try:
            tf.DeviceSpec.from_string(device)
        except (ValueError, TypeError, AttributeError) as error:
            raise EstimatorError(
                f"replicate_model_fn(devices=...): {device!r} is not a device name ({error}); "
                "accepted: names such as '/gpu:0', '/device:GPU:1', '/cpu:0'") from None
        checked.append(device)
    return checked


def replicate_model_fn(model_fn: Callable, loss_reduction: Any = None,
                       devices: Optional[Sequence[str]] = None) -> Callable:
    """TF 1.15's `tf.contrib.estimator.replicate_model_fn`: `model_fn` once per device.

    Args:
      model_fn: an Estimator model_fn whose optimizers are wrapped in `TowerOptimizer`
        (required with more than one device).
      loss_reduction: a `tf.compat.v1.losses.Reduction`; SUM adds the towers' losses,
        any other (the default, SUM_BY_NONZERO_WEIGHTS) averages them; NONE is refused.
      devices: device names, one tower each; None: every local GPU, or the CPU.

    Returns:
      A model_fn for `tf.estimator.Estimator`.
    """
    tf = _tf()
    reduction = tf.compat.v1.losses.Reduction
    if loss_reduction is None:
        loss_reduction = reduction.SUM_BY_NONZERO_WEIGHTS
    if loss_reduction == reduction.NONE:
        raise EstimatorError(f"Tower losses need to be reduced in some way, yet "
                             f"{loss_reduction} reduction is specified (replicate_model_fn("
                             f"loss_reduction=...) accepts {', '.join(reduction.all()[1:])})")
    devices = _checked_devices(devices)
    single_gpu = len(devices) == 1 and "GPU" in devices[0].upper()
    consolidation = devices[0] if single_gpu else "/CPU:0"
    tf.compat.v1.logging.info(f"Replicating the `model_fn` across {devices}; variables and "
                              f"aggregation on {consolidation}")

    def replicated_model_fn(features, labels, mode, params=None, config=None):
        if len(devices) == 1:
            feature_shards, label_shards = [features], [labels]
        else:
            feature_shards, label_shards = _split_batch(features, labels, len(devices),
                                                        consolidation)
        specs = _tower_specs(model_fn, mode, feature_shards, label_shards, params, config,
                             devices, consolidation, loss_reduction)
        if len(devices) == 1:
            return specs[0]
        if mode == _library.ModeKeys.TRAIN:
            return tower_specs.train_spec(specs, consolidation)
        if mode == _library.ModeKeys.EVAL:
            return tower_specs.eval_spec(specs, consolidation)
        return tower_specs.predict_spec(specs, consolidation)

    replicated_model_fn.__name__ = f"replicated_{getattr(model_fn, '__name__', 'model_fn')}"
    return replicated_model_fn


def _split_batch(features: Any, labels: Any, shards: int, device: str) -> tuple[list, Any]:
    """Features and labels split on dimension 0 into one part per tower."""
    tf = _tf()

    def split(tensor: Any, name: str) -> list:
        if isinstance(tensor, tf.compat.v1.SparseTensor):
            return tf.compat.v1.sparse.split(sp_input=tensor, num_split=shards, axis=0)
        tensor = tf.convert_to_tensor(tensor)
        size = tf.compat.dimension_value(tensor.shape[0]) if tensor.shape.rank else None
        if size is not None and size % shards:
            raise EstimatorError(
                f"Batch size {size} needs to be divisible by the number of GPUs, which is "
                f"{shards} (replicate_model_fn splits {name} on dimension 0 into one part per "
                "device; make the input_fn's batch size a multiple of it)")
        return tf.split(tensor, shards)

    def split_all(value: Any, name: str) -> Any:
        if value is None:
            return None
        if isinstance(value, dict):
            parts = [{} for _ in range(shards)]
            for key, tensor in value.items():
                for part, piece in zip(parts, split(tensor, f"{name}[{key!r}]")):
                    part[key] = piece
            return parts
        return split(value, name)

    with tf.compat.v1.name_scope("split_inputs"), tf.compat.v1.device(device):
        return split_all(features, "features"), split_all(labels, "labels")


def _device_chooser(worker: str, variables_on: str) -> Callable:
    """Variables on `variables_on`, other ops on `worker`; a device an op already has wins."""
    tf = _tf()
    worker_spec = tf.DeviceSpec.from_string(worker)
    variable_spec = tf.DeviceSpec.from_string(variables_on)

    def choose(op: Any) -> str:
        current = tf.DeviceSpec.from_string(op.device or "")
        node_def = op if not hasattr(op, "node_def") else op.node_def
        base = variable_spec if node_def.op in _VARIABLE_OPS else worker_spec
        return base.make_merged_spec(current).to_string()

    return choose


def _tower_specs(model_fn: Callable, mode: str, features: list, labels: Any, params: Any,
                 config: Any, devices: list[str], consolidation: str,
                 loss_reduction: Any) -> list:
    """One EstimatorSpec per device, each loss scaled for the reduction across towers."""
    tf = _tf()
    from tensorflow.python.util import function_utils

    names = function_utils.fn_args(model_fn)
    passed = {}
    if "params" in names:
        passed["params"] = copy.deepcopy(params)
    if "config" in names:
        passed["config"] = copy.deepcopy(config)
    state = tower_state()
    state.start(loss_reduction, len(devices))
    specs = []
    for index, device in enumerate(devices):
        with tf.compat.v1.variable_scope("", reuse=index > 0) as variable_scope, \
                tf.compat.v1.name_scope(_TOWER_SCOPE.format(index) if index else "") as scope, \
                state.tower(index, variable_scope, scope), \
                tf.compat.v1.device(_device_chooser(device, consolidation)):
            spec = model_fn(mode=mode, features=features[index],
                            labels=labels[index] if labels else None, **passed)
            if spec.train_op is not None and len(devices) > 1 and not state.used:
                raise EstimatorError(
                    "Please wrap optimizers with TowerOptimizer in order to use "
                    "replicate_model_fn with multiple `devices` (model_fn "
                    f"{getattr(model_fn, '__qualname__', model_fn)!r} built its train_op "
                    "without one: optimizer = tf.contrib.estimator.TowerOptimizer(optimizer))")
            if spec.loss is not None:
                spec = tower_specs.with_fields(spec, loss=scaled_loss(spec.loss, loss_reduction,
                                                          len(devices)))
            specs.append(spec)
    if not state.same_calls_in_every_tower():
        raise EstimatorError("Each invocation of model_fn was supposed to make the same "
                             "optimizer calls (replicate_model_fn: every tower must call its "
                             "TowerOptimizers in the same order)")
    state.clear()
    return specs
