"""TF 1.15's `tf.contrib.estimator.forward_features` and `clip_gradients_by_norm`.

Both were contrib-only (tensorflow-estimator 2.15 kept `add_metrics`, not
these), so they are rebuilt here with TF 1.15's behaviour and messages.
"""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.estimator import loader
from tf1compat.shared.lazy_tf import tensorflow as _tf

_library = loader.v1_api()


def _key_list(keys: Any) -> Optional[list]:
    if keys is None:
        return None
    if isinstance(keys, str):
        return [keys]
    if not isinstance(keys, (list, tuple)):
        raise TypeError(f"keys should be either a string or a list of strings. Given: "
                        f"{type(keys)}")
    for key in keys:
        if not isinstance(key, str):
            raise TypeError(f"All items in the given keys list should be a string. There "
                            f"exist an item with type: {type(key)}")
    return list(keys)


def forward_features(estimator: Any, keys: Any = None,
                     sparse_default_values: Optional[dict] = None) -> Any:
    """An Estimator like `estimator` whose predictions also hold `keys` of the features.

    Args:
      estimator: a `tf.estimator.Estimator`.
      keys: a feature name, a list of them, or None for every feature.
      sparse_default_values: {name: default} for sparse features to forward densified.

    Raises:
      TypeError: `keys` is not a string or a list of strings.
      ValueError (at model_fn time): a key missing from the features or already a
        prediction, predictions that are not a dict, or a feature that is not a Tensor.
    """
    tf = _tf()
    keys = _key_list(keys)

    def chosen(features: dict) -> list:
        return list(features.keys()) if keys is None else keys

    def check(features: dict, predictions: Any) -> None:
        if not isinstance(predictions, dict):
            raise ValueError(f"Predictions should be a dict to be able to forward features. "
                             f"Given: {type(predictions)}")
        for key in chosen(features):
            if key not in features:
                raise ValueError(
                    f'keys should be exist in features. Key "{key}" is not in features dict. '
                    f"features dict has following keys: {features.keys()}. Please check "
                    "arguments of forward_features.")
            if key in predictions:
                raise ValueError(
                    f"Cannot forward feature key ({key}). Since it does exist in predictions. "
                    f"Existing prediction keys: {predictions.keys()}. Please check arguments "
                    "of forward_features.")

    def forwarding_model_fn(features, labels, mode, config):
        spec = estimator.model_fn(features, labels, mode, config)
        predictions = spec.predictions
        if predictions is None:
            return spec
        check(features, predictions)
        for key in chosen(features):
            feature = tf.compat.v1.convert_to_tensor_or_sparse_tensor(features[key])
            if sparse_default_values and key in sparse_default_values:
                if not isinstance(feature, tf.compat.v1.SparseTensor):
                    raise ValueError(f"Feature ({key}) is expected to be a `SparseTensor`.")
                feature = tf.compat.v1.sparse_tensor_to_dense(
                    feature, default_value=sparse_default_values[key])
            if not isinstance(feature, tf.Tensor):
                raise ValueError(
                    f"Feature ({key}) should be a Tensor. Please use `keys` argument of "
                    "forward_features to filter unwanted features, or add key to argument "
                    f"`sparse_default_values`. Type of features[{key}] is {type(feature)}.")
            predictions[key] = feature
        spec = spec._replace(predictions=predictions)
        for name in ("predict", "serving_default"):
            output = (spec.export_outputs or {}).get(name)
            if isinstance(output, _library.export.PredictOutput):
                for key in chosen(features):
                    output.outputs[key] = predictions[key]
        return spec

    from tf1compat.estimator.spec import Estimator

    return Estimator(model_fn=forwarding_model_fn, model_dir=estimator.model_dir,
                     config=estimator.config)


class _ClippingOptimizer(_tf().compat.v1.train.Optimizer):
    """An optimizer that clips the gradients by their global norm, then applies them."""

    def __init__(self, optimizer: Any, clip_norm: Any):
        super().__init__(use_locking=False, name="ClipByNorm" + optimizer.get_name())
        self._optimizer = optimizer
        self._clip_norm = clip_norm

    def compute_gradients(self, *args: Any, **kwargs: Any) -> Any:
        return self._optimizer.compute_gradients(*args, **kwargs)

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None,
                        name: Any = None) -> Any:
        gradients, variables = zip(*grads_and_vars)
        clipped = _tf().clip_by_global_norm(gradients, self._clip_norm)[0]
        return self._optimizer.apply_gradients(list(zip(clipped, variables)), global_step,
                                               name)

    def get_slot(self, *args: Any, **kwargs: Any) -> Any:
        return self._optimizer.get_slot(*args, **kwargs)

    def get_slot_names(self, *args: Any, **kwargs: Any) -> Any:
        return self._optimizer.get_slot_names(*args, **kwargs)


def clip_gradients_by_norm(optimizer: Any, clip_norm: Any) -> Any:
    """`optimizer`, its gradients clipped with `tf.clip_by_global_norm(grads, clip_norm)` first."""
    return _ClippingOptimizer(optimizer, clip_norm)
