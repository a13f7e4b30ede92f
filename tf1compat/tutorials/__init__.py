"""Modules TF 1.x shipped under `tensorflow.examples.tutorials`, which TF 2.21 no longer has.

`tf1compat.tutorials.mnist` stands for `tensorflow.examples.tutorials.mnist.input_data`:
`tf1compat run` serves it to `from tensorflow.examples.tutorials.mnist import input_data`,
and `tf1compat migrate` rewrites that import to `from tf1compat.tutorials import mnist as input_data`.
"""
