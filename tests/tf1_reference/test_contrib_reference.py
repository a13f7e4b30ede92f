"""The served tf.contrib replacements against TF 1.15's own tf.contrib: the same probe source
runs under the TF 1.15 reference and under `tf1compat run` (same inputs, seeded or assigned
variables); outputs, gradients, variable names and collections must agree.

Float tolerance: rtol 1e-4, atol 1e-5 (float32 kernels of two TensorFlow builds, oneDNN on or
off, sum in other orders); names, shapes and counts exactly.
"""

from pathlib import Path

import pytest

import tf1_reference
from tf1_reference.probe_prelude import PRELUDE

pytestmark = pytest.mark.tf1_reference
RTOL, ATOL = 1e-4, 1e-5

LAYERS = PRELUDE + '''
layers = tf.contrib.layers
tf.set_random_seed(7)
images = tf.constant(RNG.rand(2, 8, 8, 3).astype(np.float32))
with tf.contrib.framework.arg_scope([layers.conv2d, layers.fully_connected],
                                    weights_initializer=layers.xavier_initializer(seed=1),
                                    weights_regularizer=layers.l2_regularizer(0.01)):
    conv = layers.conv2d(images, 4, [3, 3], scope="conv")
    valid = layers.convolution2d(images, 2, 3, stride=2, padding="VALID", scope="conv_valid",
                                 weights_initializer=layers.xavier_initializer_conv2d(seed=2),
                                 biases_initializer=tf.constant_initializer(0.1))
    pooled = layers.max_pool2d(conv, [2, 2])
    averaged = layers.avg_pool2d(conv, [2, 2], stride=1, padding="SAME")
    flat = layers.flatten(pooled)
    hidden = layers.fully_connected(flat, 5, scope="fc")
    linear = layers.linear(hidden, 3, scope="lin")
    relu = layers.relu(hidden, 3, scope="rel")
    repeated = layers.repeat(hidden, 2, layers.fully_connected, 5, scope="rep")
kept = layers.dropout(hidden, 0.5, is_training=False)
dropped = layers.dropout(hidden, 0.5, seed=3)
one_hot = layers.one_hot_encoding(tf.constant([0, 2, 1]), 4)
scaled = tf.get_variable("scaled", [6, 5], initializer=layers.variance_scaling_initializer(
    factor=1.0, mode="FAN_AVG", uniform=True, seed=4))
normal = tf.get_variable("normal", [4, 3], initializer=layers.xavier_initializer(
    uniform=False, seed=5))
fan_out = tf.get_variable("fan_out", [5, 2], initializer=layers.variance_scaling_initializer(
    mode="FAN_OUT", seed=6))
penalties = {"l1": layers.l1_regularizer(0.1)(scaled),
             "l2": layers.l2_regularizer(0.2)(scaled),
             "l1_l2": layers.l1_l2_regularizer(0.1, 0.2)(normal),
             "sum": layers.sum_regularizer([layers.l1_regularizer(0.3),
                                            layers.l2_regularizer(0.4)])(normal),
             "applied": layers.apply_regularization(layers.l1_regularizer(0.05),
                                                    [scaled, normal])}
result = {"collections": collections(),
          "shapes": {t.op.name.split("/")[0]: t.shape.as_list()
                     for t in (conv, valid, pooled, averaged, flat, hidden, one_hot)}}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    result["initial"] = {name: floats(sess.run(name + ":0")) for name in (
        "conv/weights", "conv_valid/weights", "conv_valid/biases", "fc/weights", "scaled",
        "normal", "fan_out")}
    result["regularization_losses"] = floats(sess.run(tf.losses.get_regularization_losses()))
    result["penalties"] = {k: floats(v) for k, v in sess.run(penalties).items()}
    result["dropped"] = floats(sess.run(dropped))
    result.update(outputs_and_gradients(sess, {
        "conv": conv, "valid": valid, "pooled": pooled, "averaged": averaged, "hidden": hidden,
        "linear": linear, "relu": relu, "repeated": repeated, "kept": kept,
        "one_hot": one_hot}, [images]))
print(json.dumps(result))
'''

BATCH_NORM = PRELUDE + '''
result = {}
for label, shape, kwargs in [
        ("rank2", [6, 3], {}), ("rank3", [2, 4, 3], {"scale": True}),
        ("rank4", [2, 3, 3, 2], {"scale": True, "decay": 0.9}),
        ("rank4_in_place", [2, 3, 3, 2], {"updates_collections": None, "scale": True}),
        ("rank4_not_fused", [2, 3, 3, 2], {"fused": False, "scale": True}),
        ("rank2_not_fused", [6, 3], {"fused": False, "scale": True}),
        ("rank3_tensor_flag", [2, 4, 3], {"is_training": "tensor", "center": False}),
        ("rank4_nchw", [2, 2, 3, 3], {"data_format": "NCHW", "fused": False, "scale": True}),
        ("rank4_inference", [2, 3, 3, 2], {"is_training": False, "scale": True})]:
    with tf.Graph().as_default():
        x = tf.constant((RNG.rand(*shape) * 3).astype(np.float32))
        training = kwargs.pop("is_training", True)
        feed = None
        if training == "tensor":
            training = tf.placeholder(tf.bool, [])
            feed = {training: True}
        y = tf.contrib.layers.batch_norm(x, is_training=training, activation_fn=tf.nn.relu,
                                         **kwargs)
        entry = {"collections": collections(), "name": y.op.name.split("/")[0]}
        updates = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            entry.update(outputs_and_gradients(sess, {"y": y}, [x], feed))
            for _ in range(2):
                sess.run([y] + updates, feed)
            entry["after_updates"] = {v.op.name: floats(sess.run(v))
                                      for v in tf.global_variables()}
        result[label] = entry
print(json.dumps(result))
'''

FRAMEWORK = PRELUDE + '''
import os
framework = tf.contrib.framework
with tf.variable_scope("net"):
    framework.model_variable("weights", [2], initializer=tf.constant_initializer([1.0, 2.0]))
    framework.variable("counter", [], dtype=tf.int32, trainable=False)
    with tf.variable_scope("head"):
        framework.model_variable("weights", [1], initializer=tf.ones_initializer())
        framework.model_variable("bias", [1], regularizer=tf.contrib.layers.l2_regularizer(0.1))
with tf.variable_scope("other"):
    extra = tf.get_variable("weights", [3], initializer=tf.zeros_initializer())
framework.add_model_variable(extra)
seen = framework.local_variable(0.0, name="seen")


@framework.add_arg_scope
def scaled(value, factor=1.0, offset=0.0):
    return value * factor + offset


@framework.add_arg_scope
def no_defaults(a, b):
    return a + b


with framework.arg_scope([scaled], factor=2.0):
    with framework.arg_scope([scaled], offset=1.0) as scope:
        inner = scaled(3.0)
    outer = scaled(3.0)
with framework.arg_scope(scope):
    reused = scaled(1.0, factor=5.0)
result = {
    "collections": collections(),
    "all": names(framework.get_variables()), "net": names(framework.get_variables("net")),
    "suffix": names(framework.get_variables(suffix="weights")),
    "model": names(framework.get_model_variables()),
    "model_net": names(framework.get_model_variables("net/head")),
    "trainable": names(framework.get_trainable_variables()),
    "local": names(framework.get_local_variables()),
    "by_suffix": names(framework.get_variables_by_suffix("bias")),
    "by_name": names(framework.get_variables_by_name("weights")),
    "unique": framework.get_unique_variable("net/head/bias").op.name,
    "restore": names(framework.get_variables_to_restore()),
    "restore_include": names(framework.get_variables_to_restore(include=["net"])),
    "restore_exclude": names(framework.get_variables_to_restore(exclude=["net/head", "other"])),
    "arg_scope": [inner, outer, reused],
    "has_arg_scope": [framework.has_arg_scope(scaled),
                      framework.has_arg_scope(tf.contrib.layers.fully_connected)],
    "arg_scoped_arguments": [framework.arg_scoped_arguments(scaled),
                             framework.arg_scoped_arguments(no_defaults)],
}
saver = tf.train.Saver(framework.get_variables("net"))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(tf.local_variables_initializer())
    path = saver.save(sess, os.path.join(os.getcwd(), "model.ckpt"))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(tf.assign(framework.get_unique_variable("net/weights"), [7.0, 8.0]))
    restore = framework.assign_from_checkpoint_fn(path, framework.get_variables("net/weights"))
    restore(sess)
    result["restored"] = floats(sess.run("net/weights:0"))
    lenient = framework.assign_from_checkpoint_fn(path, [extra] + framework.get_variables(
        "net/head"), ignore_missing_vars=True)
    lenient(sess)
    result["ignored_missing"] = floats(sess.run(extra))
    nothing = framework.assign_from_checkpoint_fn(path, [extra], ignore_missing_vars=True)
    result["nothing_to_restore"] = nothing is None
print(json.dumps(result))
'''

RNN = PRELUDE + '''
inputs = tf.constant(RNG.rand(3, 5, 4).astype(np.float32))
state = {}
outputs = {}
with tf.variable_scope("probe", initializer=tf.random_uniform_initializer(-0.4, 0.4, seed=1)):
    cells = [("block", tf.contrib.rnn.LSTMBlockCell(6, forget_bias=0.5, cell_clip=0.8)),
             ("small", tf.contrib.rnn.LSTMBlockCell(3, forget_bias=0.0)),
             ("cudnn_lstm", tf.contrib.cudnn_rnn.CudnnCompatibleLSTMCell(4)),
             ("cudnn_gru", tf.contrib.cudnn_rnn.CudnnCompatibleGRUCell(5))]
    for name, cell in cells:
        with tf.variable_scope(name):
            out, final = tf.nn.dynamic_rnn(cell, inputs, dtype=tf.float32)
        outputs[name] = out
        for index, part in enumerate(final if isinstance(final, tuple) else [final]):
            outputs["%s_state_%d" % (name, index)] = part
    step_cell = tf.contrib.rnn.LSTMBlockCell(2)
    step_out, step_state = step_cell(inputs[:, 0], step_cell.zero_state(3, tf.float32),
                                     scope="one_step")
    outputs["one_step"] = step_out
    outputs["one_step_c"] = step_state.c
result = {"collections": collections(),
          "state_types": [type(s).__name__ if isinstance(s, tuple) else "tensor"
                          for s in (c.zero_state(1, tf.float32) for _, c in cells)],
          "sizes": [[c.state_size if isinstance(c.state_size, int) else list(c.state_size),
                     c.output_size] for _, c in cells]}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    result.update(outputs_and_gradients(sess, outputs, [inputs]))
print(json.dumps(result))
'''

SEQ2SEQ = PRELUDE + '''
logits = tf.constant(RNG.randn(3, 4, 6).astype(np.float32))
targets = tf.constant(RNG.randint(0, 6, (3, 4)).astype(np.int32))
weights = tf.constant(RNG.rand(3, 4).astype(np.float32))
loss = tf.contrib.seq2seq.sequence_loss
outputs = {"default": loss(logits, targets, weights),
           "per_step": loss(logits, targets, weights, average_across_timesteps=False),
           "per_example": loss(logits, targets, weights, average_across_batch=False),
           "none": loss(logits, targets, weights, average_across_timesteps=False,
                        average_across_batch=False),
           "sums": loss(logits, targets, weights, average_across_timesteps=False,
                        average_across_batch=False, sum_over_timesteps=True,
                        sum_over_batch=True)}
legacy = tf.contrib.legacy_seq2seq
step_logits = tf.unstack(logits, axis=1)
step_targets = tf.unstack(targets, axis=1)
step_weights = tf.unstack(weights, axis=1)
outputs["by_example"] = legacy.sequence_loss_by_example(step_logits, step_targets,
                                                        step_weights)
outputs["by_example_sum"] = legacy.sequence_loss_by_example(
    step_logits, step_targets, step_weights, average_across_timesteps=False)
outputs["legacy"] = legacy.sequence_loss(step_logits, step_targets, step_weights)
outputs["legacy_sum"] = legacy.sequence_loss(step_logits, step_targets, step_weights,
                                             average_across_batch=False)
encoder = [tf.constant(RNG.rand(3, 2).astype(np.float32)) for _ in range(3)]
decoder = [tf.constant(RNG.rand(3, 2).astype(np.float32)) for _ in range(2)]
with tf.variable_scope("s2s", initializer=tf.random_uniform_initializer(-0.5, 0.5, seed=2)):
    decoded, final = legacy.basic_rnn_seq2seq(encoder, decoder, tf.nn.rnn_cell.GRUCell(4))
    initial = tf.zeros([3, 5])
    looped, looped_state = legacy.rnn_decoder(
        decoder, initial, tf.nn.rnn_cell.BasicRNNCell(5),
        loop_function=lambda previous, i: previous[:, :2] * 0.5, scope="looped")
for index, tensor in enumerate(decoded + [final] + looped + [looped_state]):
    outputs["seq2seq_%d" % index] = tensor
result = {"collections": collections(),
          "shapes": {k: v.shape.as_list() for k, v in outputs.items()}}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    result.update(outputs_and_gradients(sess, outputs, [logits, weights] + encoder + decoder))
print(json.dumps(result))
'''

PREFETCH = PRELUDE + '''
slim = tf.contrib.slim
values = tf.constant(np.arange(12, dtype=np.float32).reshape(6, 2))
labels = tf.constant(np.arange(6, dtype=np.int32))
row, label = tf.train.slice_input_producer([values, labels], shuffle=False, num_epochs=None)
batch = tf.train.batch([row, label], batch_size=2, num_threads=1)
queue = slim.prefetch_queue.prefetch_queue(batch, capacity=4)
dequeued = queue.dequeue()
result = {"shapes": [t.shape.as_list() for t in dequeued],
          "dtypes": [t.dtype.name for t in dequeued],
          "runners": len(tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)),
          "summaries": [s.op.name for s in tf.get_collection(tf.GraphKeys.SUMMARIES)]}
with tf.Session() as sess:
    sess.run(tf.local_variables_initializer())
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess, coord)
    result["batches"] = [[floats(x) for x in sess.run(dequeued)] for _ in range(4)]
    coord.request_stop()
    coord.join(threads)
print(json.dumps(result))
'''


@pytest.mark.parametrize("probe", [LAYERS, BATCH_NORM, FRAMEWORK, RNN, SEQ2SEQ, PREFETCH],
                         ids=["layers", "batch_norm", "framework", "rnn_and_cudnn_cells",
                              "seq2seq_and_legacy_seq2seq", "slim_prefetch_queue"])
def test_the_replacement_matches_tf1(probe, tmp_path, tf1_python):
    tf1, ours = tf1_reference.run_both(tf1_python, probe, tmp_path)
    tf1_reference.assert_same(tf1, ours, RTOL, ATOL)


def test_every_replaced_contrib_name_has_a_reference_probe():
    """A name added to the registry's replacements without a probe here fails this test."""
    from tf1compat.contrib import registry

    import re

    # The probes here, and the reference tests beside the contrib tests (the same runs against
    # TF 1.15: layer_norm, separable convolutions, HParams, seq2seq, ...), which name the
    # classes they build in strings too ("BahdanauAttention(4, memory)").
    contrib_tests = Path(__file__).resolve().parents[1] / "contrib"
    elsewhere = "\n".join(path.read_text() for pattern in (
        "test_contrib_reference_*.py", "test_seq2seq_*_vs_tf115.py", "test_contrib_*_vs_tf115.py")
        for path in sorted(contrib_tests.glob(pattern)))
    here = "\n".join((LAYERS, BATCH_NORM, FRAMEWORK, RNN, SEQ2SEQ, PREFETCH))
    # Base classes and result tuples: compared through the helpers, decoders and attention
    # mechanisms built on them, whose outputs and states those tests compare field by field.
    through_others = {"seq2seq.Helper", "seq2seq.Decoder", "seq2seq.AttentionMechanism",
                      "seq2seq.BasicDecoderOutput", "seq2seq.AttentionWrapperState",
                      "seq2seq.BeamSearchDecoderOutput", "seq2seq.BeamSearchDecoderState",
                      "seq2seq.FinalBeamSearchDecoderOutput",
                      # compared through AdamW / MomentumW, and through Mean and the accuracies
                      "opt.DecoupledWeightDecayExtension", "eager.metrics.Metric"}

    def tensorflows_own(name: str) -> bool:
        # served as TensorFlow's own object under contrib's name (tfe's aliases of TF core):
        # there is no code of ours to compare
        served = registry.resolve(name)
        if isinstance(served, int):  # tfe's device policies and execution modes
            from tensorflow.python.eager import context

            return served == getattr(context, name.split(".")[-1], None)
        module = getattr(served, "__module__", "") or ""
        return module.startswith(("tensorflow.", "tensorflow_core."))

    def probed(name: str) -> bool:
        last = re.escape(name.split(".")[-1])
        return bool(re.search(r"\." + last + r"\b", here)
                    or re.search(r"(?<![A-Za-z0-9_])" + last + r"\b", elsewhere))

    missing = [f"{namespace}.{name}" for namespace, names in registry.REPLACED.items()
               for name in names
               if f"{namespace}.{name}" not in through_others and not probed(name)
               and not tensorflows_own(f"{namespace}.{name}")]
    assert not missing, f"served contrib names with no TF 1.15 reference probe: {missing}"
