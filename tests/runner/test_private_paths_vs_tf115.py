"""TF1 scripts on TensorFlow's own modules (`tensorflow.python.*`) run as under TF 1.15: under
`run`, and after `migrate` (which writes their public names), against TF 1.15's records."""

from contrib.three_ways import assert_close, three_ways

# Freezes a graph (graph_util, whose convert_variables_to_constants TF 2.21's module lost), and
# uses the other modules TF1 code imports: gfile, file_io, compat, ops, control_flow_ops, RNN
# cells, moving averages, tfdbg, device_lib, the saved_model builder and loader, freeze_graph
# and optimize_for_inference_lib.
SCRIPT = """
import json
import os
import shutil
import tempfile
import numpy as np
import tensorflow as tf
from tensorflow.python import debug as tf_debug
from tensorflow.python.client import device_lib
from tensorflow.python.framework import graph_util
from tensorflow.python.framework import ops
from tensorflow.python.lib.io import file_io
from tensorflow.python.ops import control_flow_ops
from tensorflow.python.ops import rnn, rnn_cell
from tensorflow.python.ops.rnn_cell_impl import LSTMStateTuple
from tensorflow.python.platform import gfile
from tensorflow.python.saved_model import builder, loader, signature_constants
from tensorflow.python.saved_model import signature_def_utils, tag_constants
from tensorflow.python.tools import freeze_graph, optimize_for_inference_lib
from tensorflow.python.training import moving_averages
from tensorflow.python.util import compat


def result(name, value):
    print("RESULT " + json.dumps([name, value]))


workdir = tempfile.mkdtemp()
x = tf.placeholder(tf.float32, [None, 3], name="x")
w = tf.Variable(np.arange(6, dtype=np.float32).reshape(3, 2), name="w")
b = tf.Variable([0.5, -0.5], name="b")
y = tf.nn.bias_add(tf.matmul(x, w), b, name="y")
z = control_flow_ops.with_dependencies([y], tf.identity(y), name="z")
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    checkpoint = tf.train.Saver().save(sess, os.path.join(workdir, "model.ckpt"))
    graph_def = sess.graph.as_graph_def()
    frozen = graph_util.convert_variables_to_constants(sess, graph_def, ["y", "z"])
    export = os.path.join(workdir, "saved")
    saved = builder.SavedModelBuilder(export)
    signature = signature_def_utils.predict_signature_def({"x": x}, {"y": y})
    saved.add_meta_graph_and_variables(
        sess, [tag_constants.SERVING],
        signature_def_map={signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY: signature})
    saved.save()
result("frozen ops", sorted({node.op for node in frozen.node}))
sub_graph = graph_util.extract_sub_graph(frozen, ["y"])
result("sub graph", sorted(n.name for n in sub_graph.node))
result("no training nodes", sorted(n.name for n in graph_util.remove_training_nodes(sub_graph).node))
result("shape", str(graph_util.tensor_shape_from_node_def_name(ops.get_default_graph(), "x")))
result("tensor", [isinstance(y, ops.Tensor), ops.get_default_graph() is tf.get_default_graph()])
with ops.name_scope("outer", "default", [x]) as scope:
    result("scope", scope)
with tf.Graph().as_default() as graph:
    tf.import_graph_def(frozen, name="")
    with tf.Session(graph=graph) as sess:
        result("y", sess.run("y:0", {"x:0": [[1.0, 2.0, 3.0]]}).tolist())
    with tf.Session() as sess:
        meta = loader.load(sess, [tag_constants.SERVING], export)
        result("loaded", [sorted(meta.signature_def),
                          sess.run("y:0", {"x:0": [[1.0, 1.0, 1.0]]}).tolist()])
refrozen = freeze_graph.freeze_graph_with_def_protos(
    graph_def, None, checkpoint, "y", "save/restore_all", "save/Const:0",
    os.path.join(workdir, "frozen.pb"), True, "")
result("freeze_graph", sorted({node.op for node in refrozen.node}))
optimized = optimize_for_inference_lib.optimize_for_inference(
    refrozen, ["x"], ["y"], tf.float32.as_datatype_enum)
result("optimized", sorted(node.name for node in optimized.node))

path = os.path.join(workdir, "graph.pb")
with gfile.GFile(path, "wb") as handle:
    handle.write(frozen.SerializeToString())
with gfile.FastGFile(path, "rb") as handle:
    result("gfile", [len(handle.read()) == frozen.ByteSize(), gfile.Exists(path),
                     gfile.Exists(path + ".none")])
file_io.recursive_create_dir(os.path.join(workdir, "notes"))
note = os.path.join(workdir, "notes", "note.txt")
file_io.write_string_to_file(note, "hello")
result("file_io", [file_io.read_file_to_string(note), file_io.file_exists(note)])
result("compat", [compat.as_bytes("ab").decode(), compat.as_text(b"cd")])

with tf.Graph().as_default():
    inputs = tf.constant(np.arange(12, dtype=np.float32).reshape(2, 3, 2) / 10.0)
    cell = rnn_cell.LSTMCell(2, initializer=tf.constant_initializer(0.1))
    outputs, state = rnn.dynamic_rnn(cell, inputs, dtype=tf.float32)
    counter = tf.Variable(0.0, trainable=False, name="counter")
    average = moving_averages.assign_moving_average(counter, 10.0, 0.5, zero_debias=False)
    ema = moving_averages.ExponentialMovingAverage(0.9)
    ema_op = ema.apply([counter])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        result("lstm", sess.run(outputs).tolist())
        result("state", isinstance(state, LSTMStateTuple))
        result("moving average", [float(sess.run(average)), float(sess.run(average))])
        sess.run(ema_op)
        result("ema", float(sess.run(ema.average(counter))))
result("tfdbg", [bool(tf_debug.has_inf_or_nan(None, np.array([1.0, np.inf]))),
                 bool(tf_debug.has_inf_or_nan(None, np.array([1.0])))])
result("cpu", [d.name for d in device_lib.list_local_devices() if d.device_type == "CPU"])
shutil.rmtree(workdir)
"""


def test_tensorflow_modules_serve_tf1_names_as_tf115_does(tmp_path):
    expected, under_run, migrated = three_ways(tmp_path, SCRIPT)
    assert [name for name, _ in expected] == [
        "frozen ops", "sub graph", "no training nodes", "shape", "tensor", "scope", "y", "loaded",
        "freeze_graph", "optimized", "gfile", "file_io", "compat", "lstm", "state",
        "moving average", "ema", "tfdbg", "cpu"]
    assert_close(expected, under_run, 1e-5, "run")
    assert_close(expected, migrated, 1e-5, "migrate")
