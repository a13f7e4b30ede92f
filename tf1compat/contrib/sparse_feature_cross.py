"""TF 1.15's `tensorflow.contrib.layers.python.ops.sparse_feature_cross_op` on TF 2.21's core.

contrib.layers' crossed feature columns (`crossed_column`, and through them `embedding_ops`,
`feature_column_ops`, contrib.learn's linear models) cross features with this module's
`sparse_feature_cross`, which TF 1.15 ran on a kernel library of contrib's own
(`_sparse_feature_cross_op.so`). Its second version, the one taken whenever `hash_key` is
given, moved into TensorFlow's core as the `SparseCross` op that TF 2.21 still has, with the
same attributes; crossing into strings (`hashed_output=False`) gives the same `a_X_b` strings
whatever the version. TF 1.15's first version of the hashed cross (`hash_key=None`, which
TensorFlow deprecated in 2016) has no kernel in TF 2.21: such a call is refused, saying which
argument to pass.
"""

from __future__ import annotations

from typing import Any

from tf1compat.shared.errors import Tf1CompatError

SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY = 0xDECAFCAFFE
# What the TF 1.15 file's first version used where no hash_key is given, for the strings path
_STRING_CROSS_KEY = SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY


class UnhashableCross(Tf1CompatError, NotImplementedError):
    """A hashed cross in TF 1.15's first hashing, which TF 2.21 has no kernel for."""


def sparse_feature_cross(inputs, hashed_output=False, num_buckets=0, name=None,
                         hash_key=None) -> Any:
    """Crosses a list of `Tensor`s or `SparseTensor`s, as TF 1.15's contrib op did.

    Raises:
      TypeError: `inputs` is not a list of Tensors and SparseTensors (TF 1.15's message).
      UnhashableCross: `hashed_output=True` with no `hash_key`.
    """
    import tensorflow as tf
    from tensorflow.python.ops import gen_sparse_ops  # declared: tf_internals.CONTRIB_SPARSE_CROSS

    if not isinstance(inputs, list):
        raise TypeError("Inputs must be a list")
    if not all(isinstance(i, (tf.SparseTensor, tf.Tensor)) for i in inputs):
        raise TypeError("All inputs must be SparseTensors")
    if hashed_output and not hash_key:
        raise UnhashableCross(
            "sparse_feature_cross(hashed_output=True, hash_key=None): TF 1.15's first hashing "
            "of crossed features (deprecated since 2016) ran on a kernel of contrib's own that "
            "TF 2.21 does not have; pass hash_key=tf.contrib.layers."
            "SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY (crossed_column(..., hash_key=...)), whose "
            "bucket ids differ from those TF 1.15 gave without it")
    sparse = [i for i in inputs if isinstance(i, tf.SparseTensor)]
    dense = [i for i in inputs if not isinstance(i, tf.SparseTensor)]
    values = [sp.values for sp in sparse]
    internal_type = tf.string
    for index, value in enumerate(values):
        if value.dtype != tf.string:
            values[index] = tf.cast(value, tf.int64)
            internal_type = tf.int64
    for index, value in enumerate(dense):
        if value.dtype != tf.string:
            dense[index] = tf.cast(value, tf.int64)
            internal_type = tf.int64
    indices, crossed, shape = gen_sparse_ops.sparse_cross(
        indices=[sp.indices for sp in sparse], values=values,
        shapes=[sp.dense_shape for sp in sparse], dense_inputs=dense,
        hashed_output=hashed_output, num_buckets=num_buckets,
        hash_key=hash_key or _STRING_CROSS_KEY,
        out_type=tf.int64 if hashed_output else tf.string, internal_type=internal_type,
        name=name)
    return tf.SparseTensor(indices, crossed, shape)
