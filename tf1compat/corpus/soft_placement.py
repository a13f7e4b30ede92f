"""Runs a program with soft placement on in every session: a GPU program on a CPU machine.

Usage: python soft_placement.py SCRIPT [ARGS...]

The machine has no GPU: a program that pins ops to '/gpu:N' gets them on the CPU, as
`tf1compat run --device-map gpu:*=cpu:*` gives them. The corpus runs such a program so under
TensorFlow 1.15 and, after `migrate`, under TF 2.21 (whose `tf.compat.v1.Session` is the same
class). Python 3.5+ code, importing nothing of tf1compat: it runs under both interpreters.
"""
import os
import runpy
import sys


def force_soft_placement():
    import tensorflow as tf

    session = tf.compat.v1.Session  # tf.Session itself in TF 1.15
    original = session.__init__

    def init(self, target="", graph=None, config=None):
        config = config if config is not None else tf.compat.v1.ConfigProto()
        config.allow_soft_placement = True
        original(self, target, graph, config)

    session.__init__ = init


def main(argv):
    if len(argv) < 2:
        sys.exit("usage: python soft_placement.py SCRIPT [ARGS...]")
    force_soft_placement()
    sys.argv = argv[1:]
    sys.path[0] = os.path.dirname(os.path.abspath(argv[1]))
    runpy.run_path(argv[1], run_name="__main__")


if __name__ == "__main__":
    main(sys.argv)
