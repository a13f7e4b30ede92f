"""Runs a TF1 script under its TensorFlow 1 interpreter, saving (or restoring) the variables'
values right after the script first initializes them: the common start of a TF1 run and of
its TF2 migration (`tf1compat compare --migrated-tf2`).

Usage: python tf1_initial_checkpoint.py (--save | --restore) PREFIX SCRIPT [ARGS...]

--save PREFIX: the initial values go to the checkpoint PREFIX (a `tf.train.Saver` of every
global variable), and the script runs on: the same run as without this file, with its
starting point written. --restore PREFIX: the variables the checkpoint names get its values
instead of their initializers' (a given `--init-checkpoint`). "Initializes" is the first
`Session.run` (or `Operation.run`) of `tf.global_variables_initializer()` /
`tf.initialize_all_variables()`.

Python 3.5-3.7 code: it runs under the TensorFlow 1.x interpreter, never imported by
tf1compat (which needs TensorFlow 2).
"""
import os
import runpy
import sys


def watch_initialization(mode, prefix):
    import tensorflow as tf

    initializers = set()
    done = []

    def remember(original):
        def make(*args, **kwargs):
            op = original(*args, **kwargs)
            initializers.add(op)
            return op
        return make

    tf.global_variables_initializer = remember(tf.global_variables_initializer)
    tf.initialize_all_variables = remember(tf.initialize_all_variables)
    tf.initializers.global_variables = tf.global_variables_initializer
    # tf.Session and tf.InteractiveSession share BaseSession's run; both classes get the
    # watch (a MonitoredSession runs a tf.Session, Operation.run its session's run)
    original_run = tf.Session.run

    def fetched(fetches):
        if isinstance(fetches, (list, tuple)):
            return any(fetched(item) for item in fetches)
        return any(fetches is op for op in initializers)

    def run(self, fetches, *args, **kwargs):
        result = original_run(self, fetches, *args, **kwargs)
        if not done and fetched(fetches):
            done.append(True)
            with self.graph.as_default():
                if mode == "--save":
                    saver = tf.train.Saver(tf.global_variables(), max_to_keep=None)
                    saver.save(self, prefix, write_meta_graph=False)
                else:
                    names = set(name for name, _ in tf.train.list_variables(prefix))
                    missing = sorted(v.op.name for v in tf.trainable_variables()
                                     if v.op.name not in names)
                    if missing:
                        sys.exit("TF1 checkpoint %s lacks the script's variables %s; it "
                                 "holds: %s" % (prefix, ", ".join(missing),
                                                ", ".join(sorted(names))))
                    variables = [v for v in tf.global_variables() if v.op.name in names]
                    tf.train.Saver(variables).restore(self, prefix)
        return result

    tf.Session.run = run
    tf.InteractiveSession.run = run


def main(argv):
    if len(argv) < 4 or argv[1] not in ("--save", "--restore"):
        sys.exit("usage: python tf1_initial_checkpoint.py (--save | --restore) PREFIX "
                 "SCRIPT [ARGS...]")
    mode, prefix, script = argv[1], os.path.abspath(argv[2]), argv[3]
    watch_initialization(mode, prefix)
    sys.argv = argv[3:]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main(sys.argv)
