"""Layers placed on different devices: a two-layer network split over two devices.

TF1: each layer's variables and ops built under `tf.device(...)`, which in a
graph places both. TF2 with Keras 3: `with tf.device(...)` around `model.add`
no longer does (layers build lazily and run later), so the layers are wrapped
with `modern.layer_placement.on_device`. Same weights, same input: the
outputs and the devices of each layer's weights and MatMul must agree.
"""

from __future__ import annotations

import re

import numpy as np

from examples import common

NAME = "layer_placement"
TITLE = "layers on different devices"

DEVICES = {"hidden": "/cpu:0", "output": "/cpu:1"}


def _weights():
    rng = np.random.default_rng(3)
    return {"hidden": (rng.normal(size=(8, 16)).astype(np.float32), np.zeros(16, np.float32)),
            "output": (rng.normal(size=(16, 4)).astype(np.float32), np.zeros(4, np.float32))}


INPUT = np.random.default_rng(4).normal(size=(5, 8)).astype(np.float32)


def _layer_devices(where) -> dict:
    found = {}
    for layer in DEVICES:
        scope = re.compile(rf"(^|/){layer}(_\d+)?/")
        # The MatMuls as written: Grappler and oneDNN fuse them with the bias add and
        # relu, and written_ops() reports each on the device of the node that ran it.
        found[layer] = sorted({op.short_device for op in where.written_ops()
                               if scope.search(op.name) and op.op_type == "MatMul"})
    return found


def _result(output, where, weight_devices) -> dict:
    values = {"output": np.round(np.asarray(output), 5).tolist(),
              "matmul_devices": _layer_devices(where), "weight_devices": weight_devices}
    return {"summary": f"output checksum {float(np.sum(output)):.4f}; MatMul on "
                       f"{values['matmul_devices']}; weights on {weight_devices}",
            "values": values}


def tf1(settings: common.Settings) -> dict:
    import tensorflow as tf

    import tf1compat
    from tf1compat import placement
    from tf1compat.placement import short_device

    weights = _weights()
    with tf1compat.session(cpus=2) as sess:
        x = tf.compat.v1.placeholder(tf.float32, INPUT.shape)
        activations = x
        for layer, device in DEVICES.items():
            with tf.device(device), tf.compat.v1.variable_scope(layer):
                kernel = tf.compat.v1.get_variable("kernel", initializer=weights[layer][0])
                bias = tf.compat.v1.get_variable("bias", initializer=weights[layer][1])
                activations = tf.matmul(activations, kernel) + bias
                if layer == "hidden":
                    activations = tf.nn.relu(activations)
        sess.run(tf.compat.v1.global_variables_initializer())
        output, where = placement.run(sess, activations, {x: INPUT})
        weight_devices = {layer: short_device(
            tf.compat.v1.get_default_graph().get_tensor_by_name(f"{layer}/kernel:0").device)
            for layer in DEVICES}
    return _result(output, where, weight_devices)


def tf2(settings: common.Settings) -> dict:
    from modern import devices, placement
    from modern.layer_placement import on_device

    devices.split_cpu(2)
    import keras

    weights = _weights()
    model = keras.Sequential([keras.Input((8,))])
    model.add(on_device(keras.layers.Dense(16, activation="relu", name="hidden"),
                        DEVICES["hidden"]))
    model.add(on_device(keras.layers.Dense(4, name="output"), DEVICES["output"]))
    for layer in model.layers:
        layer.set_weights(list(weights[layer.name]))
    output, where = placement.run(model, INPUT)
    weight_devices = {layer.name: placement.short_device(layer.kernel.value.device)
                      for layer in model.layers}
    return _result(output.numpy(), where, weight_devices)


def agree(tf1_result: dict, tf2_result: dict):
    placed, detail = common.exact(tf1_result, tf2_result, ["matmul_devices", "weight_devices"])
    if not placed:
        return placed, detail
    close, numbers = common.close(tf1_result, tf2_result, {"output": 1e-4})
    return close, f"{detail}; {numbers}"


if __name__ == "__main__":
    common.main(__spec__.name)
