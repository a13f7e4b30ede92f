"""`tf.contrib.layers`' regularizers: functions of a weight tensor returning a scalar penalty.

Contract (TF 1.x): `l1_regularizer(scale)` gives scale * sum(|w|);
`l2_regularizer(scale)` gives scale * tf.nn.l2_loss(w) = scale * sum(w**2) / 2.
An integer scale or a negative one raises ValueError; a scale of 0 gives a
regularizer returning None. `sum_regularizer` adds the penalties of a list;
`apply_regularization(regularizer, weights_list)` sums the penalty over the
weights (default: the WEIGHTS collection), adds it to REGULARIZATION_LOSSES
and returns it.
"""

from __future__ import annotations

import numbers
from typing import Callable, Optional


def _check_scale(scale) -> bool:
    """True when the scale disables the regularizer (0.0)."""
    if isinstance(scale, numbers.Integral):
        raise ValueError(f"scale cannot be an integer: {scale}")
    if isinstance(scale, numbers.Real):
        if scale < 0.0:
            raise ValueError(f"Setting a scale less than 0 on a regularizer: {scale:g}")
        if scale == 0.0:
            return True
    return False


def _regularizer(scale, scope, default_name: str, penalty: Callable) -> Callable:
    if _check_scale(scale):
        import tensorflow as tf

        tf.compat.v1.logging.info("Scale of 0 disables regularizer.")
        return lambda _: None

    def regularize(weights, name=None):
        import tensorflow as tf

        with tf.compat.v1.name_scope(scope, default_name, [weights]) as name:
            factor = tf.convert_to_tensor(scale, dtype=weights.dtype.base_dtype, name="scale")
            return tf.multiply(factor, penalty(weights), name=name)

    return regularize


def l1_regularizer(scale, scope: Optional[str] = None) -> Callable:
    import tensorflow as tf

    return _regularizer(scale, scope, "l1_regularizer",
                        lambda w: tf.reduce_sum(tf.abs(w)))


def l2_regularizer(scale, scope: Optional[str] = None) -> Callable:
    import tensorflow as tf

    return _regularizer(scale, scope, "l2_regularizer", tf.nn.l2_loss)


def sum_regularizer(regularizer_list, scope: Optional[str] = None) -> Optional[Callable]:
    regularizers = [reg for reg in regularizer_list if reg is not None]
    if not regularizers:
        return None

    def regularize(weights):
        import tensorflow as tf

        with tf.compat.v1.name_scope(scope, "sum_regularizer", [weights]) as name:
            penalties = [p for p in (reg(weights) for reg in regularizers) if p is not None]
            return tf.add_n(penalties, name=name) if penalties else None

    return regularize


def l1_l2_regularizer(scale_l1=1.0, scale_l2=1.0, scope: Optional[str] = None) -> Callable:
    if isinstance(scale_l1, numbers.Real) and isinstance(scale_l2, numbers.Real) \
            and scale_l1 == 0.0 and scale_l2 == 0.0:
        return lambda _: None
    return sum_regularizer([l1_regularizer(scale_l1), l2_regularizer(scale_l2)],
                           scope=scope or "l1_l2_regularizer")


def apply_regularization(regularizer: Callable, weights_list=None):
    """The summed penalty of `weights_list`, also added to REGULARIZATION_LOSSES.

    Raises:
      ValueError: no weights (the list and the WEIGHTS collection are empty), or a
        penalty that is not a scalar.
    """
    import tensorflow as tf

    v1 = tf.compat.v1
    weights_list = weights_list or v1.get_collection(v1.GraphKeys.WEIGHTS)
    if not weights_list:
        raise ValueError("No weights to regularize.")
    with v1.name_scope("get_regularization_penalty", values=weights_list) as scope:
        penalties = []
        for weights in weights_list:
            penalty = regularizer(weights)
            penalty = tf.constant(0.0) if penalty is None else penalty
            if penalty.shape.ndims != 0:
                raise ValueError("regularizer must return a scalar Tensor instead of a Tensor "
                                 f"with rank {penalty.shape.ndims}.")
            penalties.append(penalty)
        total = tf.add_n(penalties, name=scope)
        v1.add_to_collection(v1.GraphKeys.REGULARIZATION_LOSSES, total)
        return total
