"""Runs a TF1 script under the reference with soft placement on in every session.

Usage: python soft_placement.py --soft-placement SCRIPT [ARGS...]

The reference has no GPU; a script that pins ops to '/gpu:N' gets them on the CPU,
as `tf1compat run --device-map gpu:*=cpu:*` gives them. Python 3.5-3.7 code: it runs
under the TensorFlow 1.15 interpreter.
"""
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
    if len(argv) < 3 or argv[1] != "--soft-placement":
        sys.exit("usage: python soft_placement.py --soft-placement SCRIPT [ARGS...]")
    force_soft_placement()
    sys.argv = argv[2:]
    sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(argv[2])))
    runpy.run_path(argv[2], run_name="__main__")


if __name__ == "__main__":
    main(sys.argv)
