"""`tf.contrib.lookup` and the deep-path `arg_scope` import run as under TF 1.15: under `run`,
and after `migrate`, against TF 1.15's records."""

from .three_ways import assert_close, three_ways

SCRIPT = """
import json
import os
import shutil
import tempfile
import tensorflow as tf
from tensorflow.contrib.framework.python.ops import add_arg_scope, arg_scope
from tensorflow.contrib.framework.python.ops.arg_scope import arg_scoped_arguments
import tensorflow.contrib.framework.python.ops.arg_scope as arg_scope_attribute
from tensorflow.contrib.lookup import HashTable, KeyValueTensorInitializer

lookup = tf.contrib.lookup


def result(name, value):
    print("RESULT " + json.dumps([name, value]))


def text(values):
    return [value.decode() for value in values]


workdir = tempfile.mkdtemp()
vocabulary = os.path.join(workdir, "vocab.txt")
with open(vocabulary, "w") as handle:
    handle.write("emerson\\nlake\\npalmer\\n")
words = tf.constant(["emerson", "lake", "palmer", "king", "crimson"])
index = lookup.index_table_from_tensor(mapping=["emerson", "lake", "palmer"], num_oov_buckets=1)
by_file = lookup.index_table_from_file(vocabulary, default_value=-1)
reverse = lookup.index_to_string_table_from_tensor(["emerson", "lake", "palmer"],
                                                   default_value="?")
reverse_file = lookup.index_to_string_table_from_file(vocabulary)
table = HashTable(KeyValueTensorInitializer(["a", "b"], [1, 2], value_dtype=tf.int64), -1)
from_text = lookup.HashTable(lookup.TextFileInitializer(
    vocabulary, tf.string, lookup.TextFileIndex.WHOLE_LINE, tf.int64,
    lookup.TextFileIndex.LINE_NUMBER), -1)
mutable = lookup.MutableHashTable(tf.string, tf.int64, default_value=-1)
insert = mutable.insert(tf.constant(["x", "y"]), tf.constant([7, 8], tf.int64))
dense = lookup.MutableDenseHashTable(tf.int64, tf.int64, default_value=0, empty_key=-1,
                                     deleted_key=-2)
dense_insert = dense.insert(tf.constant([3, 4], tf.int64), tf.constant([30, 40], tf.int64))
buckets = lookup.IdTableWithHashBuckets(
    lookup.HashTable(lookup.KeyValueTensorInitializer(["a"], [0], value_dtype=tf.int64), -1),
    num_oov_buckets=3)
deprecated = [lookup.string_to_index(tf.constant(["lake", "zappa"]), ["emerson", "lake"]),
              lookup.index_to_string(tf.constant([1, 5], tf.int64), ["emerson", "lake"]),
              lookup.string_to_index_table_from_file(vocabulary, num_oov_buckets=1).lookup(
                  tf.constant(["palmer", "zappa"])),
              lookup.string_to_index_table_from_tensor(["emerson", "lake"]).lookup(
                  tf.constant(["lake", "zappa"]))]


@add_arg_scope
def scaled(x, scale=1.0):
    return x * scale


with arg_scope([scaled], scale=3.0):
    scaled_value = scaled(tf.constant(2.0))
with tf.Session() as sess:
    sess.run(tf.tables_initializer())
    sess.run(table.init)
    result("index", sess.run(index.lookup(words)).tolist())
    result("by file", sess.run(by_file.lookup(words)).tolist())
    result("reverse", text(sess.run(reverse.lookup(tf.constant([2, 0, 7], tf.int64)))))
    result("reverse file", text(sess.run(reverse_file.lookup(tf.constant([1, 9], tf.int64)))))
    result("hash table", [sess.run(table.lookup(tf.constant(["b", "a", "z"]))).tolist(),
                          int(sess.run(table.size()))])
    result("text file", sess.run(from_text.lookup(tf.constant(["palmer", "zappa"]))).tolist())
    sess.run([insert, dense_insert])
    result("mutable", sess.run(mutable.lookup(tf.constant(["y", "q"]))).tolist())
    result("dense", sess.run(dense.lookup(tf.constant([4, 5], tf.int64))).tolist())
    ids = sess.run(buckets.lookup(tf.constant(["a", "zz", "zz"]))).tolist()
    result("buckets", [ids[0], 1 <= ids[1] <= 3, ids[1] == ids[2]])
    sess.run(tf.tables_initializer())  # the deprecated tables were made after the first run
    found, strings, from_file, from_tensor = sess.run(deprecated)
    result("deprecated", [found.tolist(), text(strings), from_file.tolist(),
                          from_tensor.tolist()])
    result("arg_scope", float(sess.run(scaled_value)))
result("kinds", [callable(arg_scope), callable(arg_scope_attribute),
                 arg_scoped_arguments(scaled)])
shutil.rmtree(workdir)
"""


def test_contrib_lookup_and_the_deep_arg_scope_match_tf115(tmp_path):
    expected, under_run, migrated = three_ways(tmp_path, SCRIPT)
    assert [name for name, _ in expected] == [
        "index", "by file", "reverse", "reverse file", "hash table", "text file", "mutable",
        "dense", "buckets", "deprecated", "arg_scope", "kinds"]
    assert_close(expected, under_run, 0, "run")
    assert_close(expected, migrated, 0, "migrate")
