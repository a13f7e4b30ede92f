"""Runs a Keras 2 script under TF 1.15 with its GPUs on the CPUs, as `--device-map 'gpu:*=cpu:*'`
does under `tf1compat run`: `python tf115_gpus_on_cpus.py SCRIPT [ARGS]`.

Keras 2.3's multi_gpu_model asks the backend for GPUs and builds each tower under
`tf.device('/gpu:i')`; here the backend lists two GPUs and `tf.device` sends `/gpu:i` to
`/cpu:i`, so TF 1.15 computes what the towers compute."""
import re
import runpy
import sys

import tensorflow as tf

_device = tf.device


def device(name):
    if isinstance(name, str):
        name = re.sub(r"(?i)gpu:(\d+)", r"cpu:\1", name)
    return _device(name)


tf.device = device
import keras.backend.tensorflow_backend as KTF  # noqa: E402

KTF._get_available_gpus = lambda: ["/gpu:0", "/gpu:1"]
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
