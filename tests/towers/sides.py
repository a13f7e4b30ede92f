"""The two sides the towers-and-placement suite runs against, as scenario scripts.

Each side runs one script in a fresh process (a TF2 CPU split is fixed per
process; the TF1 side gets the same isolation), written with that side's own
API, and prints the same facts as JSON. `suite.TowersSuite` asserts on them.
The two scripts build the same computations: towers of `a @ b` with `add_n`
on CPU:0, a 2-tower linear-regression step against a 1-device run, a MatMul +
BiasAdd + Relu on CPU:1 that Grappler fuses, and a request for a missing GPU
with soft placement off and on.
"""

from __future__ import annotations

COMMON = """
import json
import numpy as np
A = np.arange(12, dtype=np.float32).reshape(3, 4) / 7.0
B = np.arange(20, dtype=np.float32).reshape(4, 5) / 3.0
W0, B0 = [[0.5], [-0.25], [0.1]], [0.2]
rng = np.random.default_rng(0)
X = rng.normal(size=(64, 3)).astype(np.float32)
Y = X @ np.array([[1.0], [2.0], [-1.0]], np.float32) + 0.5
COUNTS = (2, 3, 4)
facts = {"devices": {}, "sums": {}, "values_ok": {}}

def fused_facts(where):
    op = where.locate("mm")
    absorber = [o for o in where.ops if o.name == op.ran_as]
    return {"device": op.short_device, "how": op.how, "note": op.note,
            "absorber_type": absorber[0].op_type if absorber else None,
            "absorber_device": absorber[0].short_device if absorber else None}
"""

TF1 = COMMON + """
import tensorflow as tf
import tf1compat
from tf1compat import DeviceError, placement, towers

for count in COUNTS:
    with tf1compat.session(cpus=count) as sess:
        a = tf.compat.v1.placeholder(tf.float32, A.shape)
        b = tf.compat.v1.placeholder(tf.float32, B.shape)
        total = towers.matmul_towers(a, b, [f"/cpu:{i}" for i in range(count)])
        value, where = placement.run(sess, total, {a: A, b: B})
    facts["devices"][count] = [where.device_of(f"tower_{i}/product") for i in range(count)]
    facts["sums"][count] = where.device_of("sum")
    facts["values_ok"][count] = bool(np.allclose(value, count * (A @ B), rtol=1e-6))

with tf1compat.session(cpus=4) as sess:
    spread = sess.run(towers.matmul_towers(tf.constant(A), tf.constant(B),
                                           [f"/cpu:{i}" for i in range(4)]))
with tf1compat.session() as sess:
    single = sess.run(towers.matmul_towers(tf.constant(A), tf.constant(B), ["/cpu:0"] * 4))
facts["equal_single"] = bool(np.array_equal(spread, single))

def linear_loss(inputs):
    x, y = inputs
    w = tf.compat.v1.get_variable("w", initializer=tf.constant(W0))
    b = tf.compat.v1.get_variable("b", initializer=tf.constant(B0))
    return tf.reduce_mean(tf.square(tf.matmul(x, w, name="predict") + b - y))

def train(devices, steps=20):
    with tf1compat.session(cpus=len(devices)) as sess:
        x = tf.compat.v1.placeholder(tf.float32, [64, 3])
        y = tf.compat.v1.placeholder(tf.float32, [64, 1])
        shards = list(zip(towers.split_batch(x, len(devices)), towers.split_batch(y, len(devices))))
        optimizer = tf.compat.v1.train.GradientDescentOptimizer(0.1)
        train_op, mean_loss, _ = towers.tower_train_step(linear_loss, optimizer, shards, devices)
        sess.run(tf.compat.v1.global_variables_initializer())
        losses = [float(sess.run([train_op, mean_loss], {x: X, y: Y})[1]) for _ in range(steps)]
        _, where = placement.run(sess, train_op, {x: X, y: Y})
        variables = tf.compat.v1.global_variables()
        values = [v.tolist() for v in sess.run(variables)]
        names = [v.name for v in variables]
    return losses, values, names, where

losses, weights, names, where = train(["/cpu:0", "/cpu:1"])
single_losses, single_weights, _, _ = train(["/cpu:0"])
facts["variable_names"] = names
facts["predict_devices"] = [where.device_of(f"tower_{i}/predict") for i in range(2)]
facts["variable_devices"] = sorted({where.device_of(name) for name in ("w", "b")})

with tf1compat.session(cpus=2) as sess:
    x = tf.compat.v1.placeholder(tf.float32, [4, 3])
    bias = tf.compat.v1.placeholder(tf.float32, [2])
    with tf.device("/cpu:1"):
        w = tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2))
        hidden = tf.nn.relu(tf.nn.bias_add(tf.matmul(x, w, name="mm"), bias), name="relu")
    total = tf.reduce_sum(hidden, name="total")
    fused_value, where = placement.run(sess, total, {x: np.ones((4, 3)), bias: [1.0, -1.0]})
facts["fused"] = dict(fused_facts(where), value=float(fused_value))

with tf1compat.session(cpus=2) as sess:
    total = towers.matmul_towers(tf.constant(A), tf.constant(B), ["/cpu:0", "/gpu:1"])
    try:
        sess.run(total)
    except DeviceError as error:
        facts["hard_error"] = str(error)
with tf1compat.session(cpus=2, soft_placement=True) as sess:
    a = tf.compat.v1.placeholder(tf.float32, A.shape)
    b = tf.compat.v1.placeholder(tf.float32, B.shape)
    value, where = placement.run(sess, towers.matmul_towers(a, b, ["/cpu:1", "/gpu:1"]),
                                 {a: A, b: B})
facts["soft_value_ok"] = bool(np.allclose(value, 2 * (A @ B), rtol=1e-6))
facts["soft_device"] = where.device_of("tower_1/product")
"""

TF2 = COMMON + """
import modern
from modern import devices, placement, towers
from tf1compat import DeviceError

devices.split_cpu(4)
import tensorflow as tf
import keras

for count in COUNTS:
    names = [f"/cpu:{i}" for i in range(count)]
    value, where = placement.run(lambda a, b: towers.matmul_towers(a, b, names), A, B)
    facts["devices"][count] = [where.device_of(f"tower_{i}/product") for i in range(count)]
    facts["sums"][count] = where.device_of("sum")
    facts["values_ok"][count] = bool(np.allclose(value.numpy(), count * (A @ B), rtol=1e-6))
single = towers.matmul_towers(A, B, ["/cpu:0"] * 4).numpy()
spread = towers.matmul_towers(A, B, [f"/cpu:{i}" for i in range(4)]).numpy()
facts["equal_single"] = bool(np.array_equal(single, spread))

def train(names, steps=20):
    with tf.device("/cpu:0"):
        w = tf.Variable(W0, name="w")
        b = tf.Variable(B0, name="b")
    def loss_fn(inputs):
        xs, ys = inputs
        return tf.reduce_mean(tf.square(tf.matmul(xs, w, name="predict") + b - ys))
    trainer = towers.TowerTrainer(loss_fn, [w, b], keras.optimizers.SGD(0.1), names)
    shards = tuple(zip(towers.split_batch(X, len(names)), towers.split_batch(Y, len(names))))
    losses = [float(trainer.step(shards)) for _ in range(steps)]
    _, where = placement.run(trainer._train_step, shards)
    return losses, [w.numpy().tolist(), b.numpy().tolist()], [w.name, b.name], where, [w.device, b.device]

losses, weights, names, where, variable_devices = train(["/cpu:0", "/cpu:1"])
single_losses, single_weights, _, _, _ = train(["/cpu:0"])
facts["variable_names"] = names
facts["predict_devices"] = [where.device_of(f"tower_{i}/predict") for i in range(2)]
facts["variable_devices"] = sorted({placement.short_device(device) for device in variable_devices})

@tf.function
def fused_step(x, bias):
    with tf.device("/cpu:1"):
        w = tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2))
        hidden = tf.nn.relu(tf.nn.bias_add(tf.matmul(x, w, name="mm"), bias), name="relu")
    return tf.reduce_sum(hidden, name="total")
fused_value, where = placement.run(fused_step, tf.ones((4, 3)), tf.constant([1.0, -1.0]))
facts["fused"] = dict(fused_facts(where), value=float(fused_value))

modern.configure(soft_placement=False)  # TF2's default is on
try:
    towers.matmul_towers(A, B, ["/cpu:0", "/gpu:1"])
except DeviceError as error:
    facts["hard_error"] = str(error)
modern.configure(soft_placement=True)
value, where = placement.run(lambda a, b: towers.matmul_towers(a, b, ["/cpu:1", "/gpu:1"]), A, B)
facts["soft_value_ok"] = bool(np.allclose(value.numpy(), 2 * (A @ B), rtol=1e-6))
facts["soft_device"] = where.device_of("tower_1/product")
"""

TRAINING_FACTS = """
facts["losses"] = [losses[0], losses[-1]]
facts["same_losses"] = bool(np.allclose(losses, single_losses, rtol=1e-5))
facts["same_weights"] = bool(all(np.allclose(a, b, rtol=1e-5, atol=1e-6)
                                 for a, b in zip(weights, single_weights)))
print(json.dumps(facts))
"""

SCENARIOS = {"tf1": TF1 + TRAINING_FACTS, "tf2": TF2 + TRAINING_FACTS}
