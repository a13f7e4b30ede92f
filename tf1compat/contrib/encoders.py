"""contrib.layers' sequence encoders (`embed_sequence`, `bow_encoder`) and
`embedding_lookup_unique`, on `tf.compat.v1`.

Contracts of TF 1.x that scripts and checkpoints depend on:

- `embed_sequence(ids, vocab_size, embed_dim, unique=False, initializer=None,
  regularizer=None, trainable=True, scope=None, reuse=None)`: one model variable
  `<scope>/embeddings` [vocab_size, embed_dim] (default scope 'EmbedSequence', the
  initializer `get_variable`'s default when None), looked up for every id: [..., embed_dim].
  Without `reuse`, both sizes are required (ValueError naming them).
- `bow_encoder(ids, vocab_size, embed_dim, sparse_lookup=True, ...)`: the mean of the ids'
  embeddings over the last axis, default scope 'bow_encoder'; with `sparse_lookup`, dense
  ids are read as a sparse tensor without their zeros (as contrib's `dense_to_sparse_tensor`
  read them) and averaged by `safe_embedding_lookup_sparse` (negative ids pruned; a row left
  with none gets id 0's embedding).
- `embedding_lookup_unique(params, ids)`: each distinct id looked up once, then gathered
  back to the ids' shape (name scope 'EmbeddingLookupUnique').
"""

from __future__ import annotations

import tensorflow as tf

from tf1compat.contrib.framework import model_variable

__all__ = ["embed_sequence", "bow_encoder", "embedding_lookup_unique"]

_V1 = tf.compat.v1


def embedding_lookup_unique(params, ids, partition_strategy="mod", name=None):
    with _V1.name_scope(name, "EmbeddingLookupUnique", [params, ids]):
        ids = tf.convert_to_tensor(ids)
        ids_shape = tf.shape(ids)
        unique_ids, positions = tf.unique(tf.reshape(ids, [-1]))
        found = _V1.nn.embedding_lookup(params, unique_ids, partition_strategy)
        every = tf.gather(found, positions)
        embedded = tf.reshape(every, tf.concat([ids_shape, tf.shape(found)[1:]], 0))
        embedded.set_shape(ids.get_shape().concatenate(found.get_shape()[1:]))
        return embedded


def embed_sequence(ids, vocab_size=None, embed_dim=None, unique=False, initializer=None,
                   regularizer=None, trainable=True, scope=None, reuse=None):
    if not (reuse or (vocab_size and embed_dim)):
        raise ValueError("embed_sequence needs vocab_size and embed_dim when not reusing its "
                         f"variables; got vocab_size={vocab_size} and embed_dim={embed_dim}")
    with _V1.variable_scope(scope, "EmbedSequence", [ids], reuse=reuse):
        shape = None if vocab_size is None or embed_dim is None else [vocab_size, embed_dim]
        embeddings = model_variable("embeddings", shape=shape, initializer=initializer,
                                    regularizer=regularizer, trainable=trainable)
        if unique:
            return embedding_lookup_unique(embeddings, ids)
        return _V1.nn.embedding_lookup(embeddings, ids)


def bow_encoder(ids, vocab_size, embed_dim, sparse_lookup=True, initializer=None,
                regularizer=None, trainable=True, scope=None, reuse=None):
    with _V1.variable_scope(scope, "bow_encoder", [ids], reuse=reuse):
        embeddings = model_variable("embeddings", shape=[vocab_size, embed_dim],
                                    initializer=initializer, regularizer=regularizer,
                                    trainable=trainable)
        if not sparse_lookup:
            if isinstance(ids, tf.SparseTensor):
                raise TypeError(f"bow_encoder(sparse_lookup=False) needs dense ids, got {ids}")
            return tf.reduce_mean(_V1.nn.embedding_lookup(embeddings, ids), axis=1)
        sparse_ids = ids if isinstance(ids, tf.SparseTensor) else _dense_to_sparse(ids)
        return _V1.nn.safe_embedding_lookup_sparse([embeddings], sparse_ids,
                                                   combiner="mean", default_id=0)


def _dense_to_sparse(ids) -> tf.SparseTensor:
    """Dense ids as a SparseTensor of the entries that are not 0: contrib's
    `dense_to_sparse_tensor` left out its dtype's zero value (its docstring said -1; negative
    ids are then pruned by `safe_embedding_lookup_sparse`)."""
    ids = tf.convert_to_tensor(ids)
    where = tf.where(tf.not_equal(ids, tf.zeros([], ids.dtype)))
    return tf.SparseTensor(where, tf.gather_nd(ids, where), tf.shape(ids, out_type=tf.int64))
