"""`import tensorflow` by the ways that give the import no globals naming the script: code
run by exec in a fresh namespace, __import__ called by hand, importlib.import_module. TF 1.15
gave each of them TF1; so does `tf1compat run`."""

import importlib

namespace = {}
exec("import tensorflow as tf_exec\nhas = hasattr(tf_exec, 'placeholder')", namespace)
print("exec in a fresh namespace", namespace["has"])
source = compile("import tensorflow\nhas = hasattr(tensorflow, 'Session')", __file__, "exec")
exec(source, {"__name__": "__main__"})
print("exec of the script's own code", hasattr(__import__("tensorflow"), "Session"))
print("__import__", hasattr(__import__("tensorflow"), "placeholder"))
tf = importlib.import_module("tensorflow")
print("importlib.import_module", hasattr(tf, "placeholder"))
slim = importlib.import_module("tensorflow.contrib.slim")
print("a contrib module", callable(slim.conv2d), callable(slim.arg_scope))
train = importlib.import_module("tensorflow.compat.v1").train
print("tensorflow.compat.v1", hasattr(train, "AdamOptimizer"), hasattr(train, "Supervisor"))
x = tf.placeholder(tf.float32, [None])
with tf.Session() as sess:
    print("a TF1 graph", sess.run(x * 2, {x: [1.0, 2.5]}).tolist())
