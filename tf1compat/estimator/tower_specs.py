"""The one EstimatorSpec `replicate_model_fn` returns, made from the towers' specs.

As TF 1.15 combined them: TRAIN takes the last tower's spec (its train_op
applies every tower's gradients) with the towers' losses summed; EVAL takes
the first tower's spec, the losses summed, and each metric's update op
followed by adding the other towers' metric variables into the first
tower's (then zeroing them); PREDICT concatenates the towers' predictions and
export outputs along the batch.
"""

from __future__ import annotations

from typing import Any

from tf1compat.estimator import loader
from tf1compat.estimator.errors import EstimatorError
from tf1compat.estimator.tower_state import sum_on
from tf1compat.shared.lazy_tf import tensorflow as _tf

_library = loader.v1_api()


def with_fields(spec: Any, **fields: Any) -> Any:
    """The spec with `fields` replaced, rebuilt (and so re-checked) as an EstimatorSpec."""
    values = {name: getattr(spec, name) for name in spec._fields}
    values.update(fields)
    return _library.EstimatorSpec(**values)


def train_spec(specs: list, device: str) -> Any:
    return with_fields(specs[-1], mode=_library.ModeKeys.TRAIN, train_op=specs[-1].train_op,
                       loss=sum_on([spec.loss for spec in specs], device, "loss"))


def eval_spec(specs: list, device: str) -> Any:
    tf = _tf()
    updates = [update for spec in specs for _, update in spec.eval_metric_ops.values()]
    with tf.control_dependencies(updates):
        reduced = _sum_metric_variables(len(specs))
    metrics = {name: (value, reduced) for name, (value, _) in specs[0].eval_metric_ops.items()}
    return with_fields(specs[0], mode=_library.ModeKeys.EVAL, eval_metric_ops=metrics,
                       loss=sum_on([spec.loss for spec in specs], device, "loss"))


def _sum_metric_variables(towers: int) -> Any:
    """Adds tower i's metric variables into tower 0's, then zeroes tower i's."""
    tf = _tf()
    variables = tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.METRIC_VARIABLES)
    per_tower, extra = divmod(len(variables), towers)
    if extra:
        raise EstimatorError(
            "Different `EstimatorSpec.eval_metric_ops` across `model_fn()` calls. Expected "
            f"{per_tower * towers} local variables, but got {len(variables)} instead "
            "(replicate_model_fn: every tower must build the same metrics)")
    ops = []
    for index in range(per_tower):
        first = variables[index]
        others = variables[index + per_tower::per_tower]
        added = tf.compat.v1.assign_add(first, tf.math.add_n(others))
        with tf.control_dependencies([added]):
            ops.extend(tf.compat.v1.assign(other, tf.zeros(tf.shape(other), dtype=other.dtype))
                       for other in others)
    return tf.group(*ops)


def _concat(dicts: list) -> dict:
    tf = _tf()
    names = {}
    for mapping in dicts:
        for name, tensor in (mapping or {}).items():
            names.setdefault(name, []).append(tensor)
    return {name: tf.concat(tensors, axis=0, name=name) for name, tensors in names.items()}


def predict_spec(specs: list, device: str) -> Any:
    tf = _tf()
    export = _library.export
    with tf.compat.v1.device(device):
        predictions = _concat([spec.predictions for spec in specs])
        outputs: dict[str, list] = {}
        for spec in specs:
            for name, output in (spec.export_outputs or {}).items():
                outputs.setdefault(name, []).append(output)
        combined = {}
        for name, parts in outputs.items():
            first = parts[0]
            if isinstance(first, export.PredictOutput):
                combined[name] = export.PredictOutput(_concat([part.outputs for part in parts]))
            elif isinstance(first, export.RegressionOutput):
                combined[name] = export.RegressionOutput(
                    tf.concat([part.value for part in parts], axis=0))
            elif isinstance(first, export.ClassificationOutput):
                scores = None if first.scores is None else \
                    tf.concat([part.scores for part in parts], axis=0)
                # TF 1.15 stacked the towers' classes (a new leading axis), not concatenated.
                classes = None if first.classes is None else \
                    tf.stack([part.classes for part in parts], axis=0)
                combined[name] = export.ClassificationOutput(scores=scores, classes=classes)
    return with_fields(specs[0], mode=_library.ModeKeys.PREDICT, predictions=predictions,
                       export_outputs=combined)
