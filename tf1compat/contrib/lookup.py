"""`tf.contrib.lookup`: TensorFlow's lookup tables under contrib's names.

TF 1.15's contrib.lookup was TensorFlow's own `lookup_ops` plus a few
functions of its own. On TF 2.21:

- the names with a public `tf.compat.v1.lookup` home are mapped there (the
  contrib table: `KeyValueTensorInitializer`, `TextFileInitializer`,
  `TextFileIndex`, `MutableHashTable`, and `MutableDenseHashTable`, which is
  `lookup.experimental.DenseHashTable`: TF 2.21's `lookup_ops.MutableDenseHashTable`
  is a raw op, not the class);
- the names TF 1.15 re-exported from `lookup_ops` with no public TF2 name
  (`index_table_from_file`, `IdTableWithHashBuckets`, the hasher specs, ...)
  are the same TensorFlow objects, served from here;
- `HashTable` is TF 2.21's `lookup_ops.HashTable`, kept by TensorFlow for
  contrib code: `tf.compat.v1.lookup.StaticHashTable` with TF1's `init`;
- contrib's own `index_table_from_tensor(mapping, ...)` and
  `index_to_string_table_from_tensor(mapping, ...)` (TensorFlow's functions
  with `vocabulary_list` named `mapping`), and the deprecated
  `string_to_index*` / `index_to_string` built on them.
"""

from __future__ import annotations

from typing import Any

from tensorflow.python.ops import lookup_ops as _lookup_ops

from tf1compat.contrib import registry

# TensorFlow's own objects, as TF 1.15's contrib.lookup re-exported them.
HashTable = _lookup_ops.HashTable
FastHashSpec = _lookup_ops.FastHashSpec
HasherSpec = _lookup_ops.HasherSpec
StrongHashSpec = _lookup_ops.StrongHashSpec
IdTableWithHashBuckets = _lookup_ops.IdTableWithHashBuckets
InitializableLookupTableBase = _lookup_ops.InitializableLookupTableBase
LookupInterface = _lookup_ops.LookupInterface
TableInitializerBase = _lookup_ops.TableInitializerBase
TextFileIdTableInitializer = _lookup_ops.TextFileIdTableInitializer
TextFileStringTableInitializer = _lookup_ops.TextFileStringTableInitializer
index_table_from_file = _lookup_ops.index_table_from_file
index_to_string_table_from_file = _lookup_ops.index_to_string_table_from_file

__all__ = ["HashTable", "FastHashSpec", "HasherSpec", "StrongHashSpec", "IdTableWithHashBuckets",
           "InitializableLookupTableBase", "LookupInterface", "TableInitializerBase",
           "TextFileIdTableInitializer", "TextFileStringTableInitializer",
           "index_table_from_file", "index_to_string_table_from_file",
           "index_table_from_tensor", "index_to_string_table_from_tensor", "index_to_string",
           "string_to_index", "string_to_index_table_from_file",
           "string_to_index_table_from_tensor"]


def _require(mapping: Any) -> None:
    if mapping is None:
        raise ValueError("mapping must be specified; received mapping=None (a 1-D tensor or "
                         "list of the vocabulary)")


def index_table_from_tensor(mapping, num_oov_buckets=0, default_value=-1,
                            hasher_spec=FastHashSpec, dtype=None, name=None):
    """A table from the strings (or integers) of `mapping` to their positions (contrib's
    spelling of `lookup_ops.index_table_from_tensor(vocabulary_list, ...)`).

    Raises:
      ValueError: `mapping` is None, or `num_oov_buckets` is negative (TensorFlow's check).
    """
    import tensorflow as tf

    _require(mapping)
    return _lookup_ops.index_table_from_tensor(
        vocabulary_list=mapping, num_oov_buckets=num_oov_buckets, default_value=default_value,
        hasher_spec=hasher_spec, dtype=tf.string if dtype is None else dtype, name=name)


def index_to_string_table_from_tensor(mapping, default_value="UNK", name=None):
    """A table from positions to the strings of `mapping` (contrib's spelling of
    `lookup_ops.index_to_string_table_from_tensor(vocabulary_list, ...)`).

    Raises:
      ValueError: `mapping` is None.
    """
    _require(mapping)
    return _lookup_ops.index_to_string_table_from_tensor(
        vocabulary_list=mapping, default_value=default_value, name=name)


def string_to_index_table_from_file(vocabulary_file=None, num_oov_buckets=0, vocab_size=None,
                                    default_value=-1, hasher_spec=FastHashSpec, name=None):
    """Deprecated in TF 1.x: `index_table_from_file` with string keys."""
    import tensorflow as tf

    return index_table_from_file(vocabulary_file, num_oov_buckets, vocab_size, default_value,
                                 hasher_spec, key_dtype=tf.string, name=name)


def string_to_index_table_from_tensor(mapping, num_oov_buckets=0, default_value=-1,
                                      hasher_spec=FastHashSpec, name=None):
    """Deprecated in TF 1.x: `index_table_from_tensor` with string keys.

    Raises:
      ValueError: `mapping` is not a tensor of strings.
    """
    import tensorflow as tf

    with tf.compat.v1.name_scope(name, "string_to_index") as scope:
        mapping = tf.convert_to_tensor(mapping)
    if mapping.dtype.base_dtype != tf.string:
        raise ValueError(f"string_to_index_table_from_tensor requires strings; received a "
                         f"mapping of {mapping.dtype.name}")
    return index_table_from_tensor(mapping, num_oov_buckets, default_value, hasher_spec,
                                   name=scope)


def string_to_index(tensor, mapping, default_value=-1, name=None):
    """Deprecated in TF 1.x: the positions of `tensor`'s strings in `mapping`."""
    table = index_table_from_tensor(mapping=mapping, default_value=default_value, name=name)
    return table.lookup(tensor)


def index_to_string(tensor, mapping, default_value="UNK", name=None):
    """Deprecated in TF 1.x: the strings of `mapping` at the positions in `tensor`."""
    table = index_to_string_table_from_tensor(mapping=mapping, default_value=default_value,
                                              name=name)
    return table.lookup(tensor)


def __getattr__(name: str) -> Any:
    return registry.attribute("lookup", name)
