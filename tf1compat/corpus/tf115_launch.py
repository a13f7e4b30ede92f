"""Runs a program under the TensorFlow 1.15 reference with soft placement on in every session.

Usage: python tf115_launch.py SCRIPT [ARGS...]

The reference machine has no GPU: a program that pins ops to '/gpu:N' gets them on the CPU, as
`tf1compat run --device-map gpu:*=cpu:*` gives them. Python 3.5-3.7 code: it runs under the
TensorFlow 1.15 interpreter, which has none of tf1compat.
"""
import os
import runpy
import sys


def force_soft_placement():
    import tensorflow as tf

    original = tf.Session.__init__

    def init(self, target="", graph=None, config=None):
        config = config if config is not None else tf.ConfigProto()
        config.allow_soft_placement = True
        original(self, target, graph, config)

    tf.Session.__init__ = init


def main(argv):
    if len(argv) < 2:
        sys.exit("usage: python tf115_launch.py SCRIPT [ARGS...]")
    force_soft_placement()
    sys.argv = argv[1:]
    sys.path[0] = os.path.dirname(os.path.abspath(argv[1]))
    runpy.run_path(argv[1], run_name="__main__")


if __name__ == "__main__":
    main(sys.argv)
