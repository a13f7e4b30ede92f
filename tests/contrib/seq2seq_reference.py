"""Runs one seq2seq model script in TensorFlow 1.15 and in tf1compat, for side-by-side checks.

A case is the body of a function `build(tf1, s2s, cells, Dense)` that builds a
graph and returns {name: tensor}; the runner sets every trainable variable to
values derived from its shape (the same in both worlds), evaluates the tensors
and the gradients of their float sum with respect to every trainable variable,
and prints {"values", "grads", "variables"} as JSON. Under TF 1.15 the names
come from tf.contrib.seq2seq, tf.nn.rnn_cell and tf.layers; under tf1compat
from tf1compat.contrib.seq2seq, tf1compat.rnn_cell and tf1compat.layers.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def tf1_python() -> str:
    """The TF 1.15 reference interpreter (tests/tf1_reference): skips without one, fails in CI."""
    import tf1_reference

    return str(tf1_reference.require())

_PRELUDE_TF1 = """
import tensorflow as tf
tf1, s2s, cells, Dense = tf, tf.contrib.seq2seq, tf.nn.rnn_cell, tf.layers.Dense
"""
_PRELUDE_TF1COMPAT = """
import tensorflow as tf
import tf1compat.contrib.seq2seq as s2s
import tf1compat.rnn_cell as cells
import tf1compat.layers
tf1, Dense = tf.compat.v1, tf1compat.layers.Dense
tf1.disable_eager_execution()
"""
_MAIN = """
import json
import numpy as np


def seeded(shape):
    n = int(np.prod(shape)) if shape else 1
    return (0.5 * np.sin(0.7 * np.arange(n) + 0.3 * len(shape))).reshape(shape)


def main():
    graph = tf1.Graph()
    with graph.as_default():
        tensors = build(tf1, s2s, cells, Dense)
        variables = tf1.trainable_variables()
        floats = [t for t in tensors.values() if t.dtype.is_floating]
        total = tf1.add_n([tf1.reduce_sum(t) for t in floats]) if floats else None
        grads = tf1.gradients(total, variables) if total is not None and variables else []
        # Sparse gradients (embeddings) compared as the dense values they stand for.
        grads = [None if g is None else tf1.convert_to_tensor(g) for g in grads]
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            for v in variables:
                v.load(seeded(v.shape.as_list()).astype(v.dtype.base_dtype.as_numpy_dtype), sess)
            values = sess.run(tensors)
            grad_values = sess.run([g for g in grads if g is not None])
    names = [v.op.name for v in variables]
    kept = [n for n, g in zip(names, grads) if g is not None]
    print(json.dumps({
        "values": {k: np.asarray(v).tolist() for k, v in values.items()},
        "grads": {n: np.asarray(g).tolist()
                  for n, g in zip(kept, grad_values)},
        "variables": {n: v.shape.as_list() for n, v in zip(names, variables)},
    }))


main()
"""


def script(case: str, world: str) -> str:
    prelude = _PRELUDE_TF1 if world == "tf1" else _PRELUDE_TF1COMPAT
    return "\n".join([prelude, textwrap.dedent(case), _MAIN])


def run_case(case: str, world: str, extra_env: dict | None = None) -> dict:
    """The JSON the case prints in `world` ('tf1': TensorFlow 1.15; 'tf1compat': this repo)."""
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", **(extra_env or {}))
    if world == "tf1":
        # A plain environment: this process's TensorFlow 2 settings would leak into 1.15.
        env = {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", "/tmp"),
               "TF_CPP_MIN_LOG_LEVEL": "2", **(extra_env or {})}
        python = tf1_python()
    else:
        env["PYTHONPATH"] = str(REPO_ROOT)
        python = sys.executable
    if world == "tf1":
        from tf1_reference import recorded

        result = recorded.run(python, ["-c", script(case, world)], cwd="/tmp", env=env,
                              timeout=300, outputs=(), probe_env=list(extra_env or {}))
    else:
        result = subprocess.run([python, "-c", script(case, world)], capture_output=True,
                                text=True, timeout=300, env=env, cwd="/tmp")
    if result.returncode != 0:
        raise AssertionError(f"{world} run failed ({result.returncode}):\n{result.stderr[-6000:]}")
    lines = [line for line in result.stdout.splitlines() if line.startswith("{")]
    return json.loads(lines[-1])
