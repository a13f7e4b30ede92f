"""`tf1compat run` serving what TF 2.21 dropped (tf.contrib, the MNIST reader) and reporting
every TF1 symbol with how it was served."""

import json
import os
import textwrap

from isolated import python_env, run_cli

HIDE = """
import sys
class _Hide:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in {hidden!r}:
            raise ModuleNotFoundError("No module named %r" % name, name=name)
sys.meta_path.insert(0, _Hide())
"""


def write(tmp_path, name, source):
    path = tmp_path / name
    path.write_text(textwrap.dedent(source))
    return path


def hiding(tmp_path, *packages):
    """An environment in which `packages` cannot be imported (a sitecustomize that refuses them)."""
    folder = tmp_path / "hide"
    folder.mkdir()
    (folder / "sitecustomize.py").write_text(HIDE.format(hidden=set(packages)))
    return {"PYTHONPATH": os.pathsep.join([str(folder), python_env()["PYTHONPATH"]])}


def test_contrib_and_the_mnist_reader_are_served_and_reported(tmp_path):
    path = write(tmp_path, "script.py", """
        import sys
        import tensorflow as tf
        import tensorflow.contrib.slim as slim
        from tensorflow.contrib import rnn
        from tensorflow.contrib.layers import flatten
        from tensorflow.examples.tutorials.mnist import input_data
        x = tf.placeholder(tf.float32, [None, 4, 4, 1])
        net = flatten(slim.conv2d(x, 2, [3, 3]))
        print('shape', net.shape.as_list(), type(rnn.LSTMCell(2)).__name__)
        step = tf.contrib.framework.get_or_create_global_step()
        print('libraries unchanged', 'tensorflow.contrib' not in sys.modules,
              not hasattr(sys.modules['tensorflow'], 'contrib'))
        try:
            from tensorflow.contrib.learn import read_batch_examples  # its input_pipeline kernels
        except ImportError as error:
            print('import error:', type(error).__name__, 'tf.contrib.learn' in str(error))
        try:
            input_data.read_data_sets('no-such-dir')
        except FileNotFoundError as error:
            print('mnist:', 'train-images-idx3-ubyte.gz' in str(error), 'no-such-dir' in str(error))
        tf.contrib.cudnn_rnn.CudnnLSTM(1, 4)
        """)
    report = tmp_path / "report.json"
    result = run_cli("run", "--report-json", str(report), str(path))
    assert result.returncode == 1
    assert "shape [None, 32] LSTMCell" in result.stdout
    assert "libraries unchanged True True" in result.stdout
    assert "import error: ServedImportError True" in result.stdout
    assert "mnist: True True" in result.stdout
    assert f'File "{path}", line 22, in <module>' in result.stderr
    assert "ContribError: tf.contrib.cudnn_rnn.CudnnLSTM is not available on TF 2.21" in \
        result.stderr and "CudnnCompatibleLSTMCell" in result.stderr
    from tf1compat.census import counts  # how often TF1 code uses it, in the same message

    assert counts.count("contrib.cudnn_rnn.CudnnLSTM") is not None
    assert f"CudnnCompatibleLSTMCell (served) or tf.keras.layers.LSTM " \
           f"({counts.said('contrib.cudnn_rnn.CudnnLSTM')})" in result.stderr
    data = json.loads(report.read_text())
    symbols = data["symbols"]
    assert symbols["tf.contrib.slim.conv2d"] == {
        "status": "replaced", "target": "tf1compat.contrib.slim.conv2d", "uses": 1}
    assert symbols["tf.contrib.layers.flatten"]["uses"] == 1
    assert symbols["tf.contrib.rnn.LSTMCell"]["status"] == "mapped"
    assert symbols["tf.contrib.framework.get_or_create_global_step"]["target"] == \
        "tf.compat.v1.train.get_or_create_global_step"
    assert symbols["tf.examples.tutorials.mnist.input_data.read_data_sets"]["status"] == \
        "replaced"
    assert symbols["tf.placeholder"] == {"status": "native", "target":
                                         "tf.compat.v1.placeholder", "uses": 1}
    assert symbols["tf.contrib.learn.read_batch_examples"]["status"] == "unsupported"
    assert symbols["tf.contrib.cudnn_rnn.CudnnLSTM"]["status"] == "unsupported"
    assert sum(data["served"].values()) == len(symbols)
    assert data["served"]["unsupported"] == 2
    line = f"TF1 symbols used: {len(symbols)} ({data['served']['native']} native, "
    assert line in result.stderr


def test_summaries_without_tensorboard_and_cells_without_tf_keras(tmp_path):
    summaries = write(tmp_path, "summaries.py", """
        import glob, os
        import tensorflow as tf
        logs = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'logs')
        try:
            import tensorboard
            print('tensorboard importable: True')
        except ImportError:
            print('tensorboard importable: False')
        x = tf.Variable(2.0)
        tf.summary.scalar('x', x)
        tf.summary.histogram('h', tf.ones([3]))
        merged = tf.summary.merge_all()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            writer = tf.summary.FileWriter(logs, sess.graph)
            writer.add_summary(sess.run(merged), 1)
            writer.close()
        path = glob.glob(os.path.join(logs, 'events.out.tfevents.*'))[0]
        print('tags:', sorted(v.tag for e in tf.train.summary_iterator(path) for v in e.summary.value))
        """)
    env = hiding(tmp_path, "tensorboard", "tf_keras")
    result = run_cli("run", str(summaries), env=env)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "tensorboard importable: False" in result.stdout
    assert "tags: ['h', 'x']" in result.stdout
    cells = write(tmp_path, "cells.py", """
        import tensorflow as tf
        cell = tf.contrib.rnn.BasicLSTMCell(4)
        """)
    result = run_cli("run", str(cells), env=env)
    assert result.returncode == 1
    assert "need legacy Keras" in result.stderr and "tf1compat[legacy]" in result.stderr


def test_the_mnist_tutorial_model_is_served_with_the_reader(tmp_path):
    """fully_connected_feed.py's imports: the reader and the tutorial model, both from examples."""
    import sys

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "legacy_scripts"))
    import synthetic_data

    data = synthetic_data.write_mnist(tmp_path / "data", train=200, test=50)
    path = write(tmp_path, "feed.py", f"""
        import tensorflow as tf
        from tensorflow.examples.tutorials.mnist import input_data
        from tensorflow.examples.tutorials.mnist import mnist
        import tensorflow.examples.tutorials.mnist.mnist as same
        from tensorflow.contrib.learn.python.learn.datasets import mnist as learn_mnist
        tf.set_random_seed(3)  # the reader's shuffling and the initial weights: the same each run
        sets = input_data.read_data_sets({str(data)!r}, validation_size=50)
        raw = learn_mnist.read_data_sets({str(data)!r}, dtype=tf.uint8, reshape=False,
                                         validation_size=50)
        print('learn reader', raw.train.images.shape, raw.train.images.dtype)
        images = tf.placeholder(tf.float32, [None, mnist.IMAGE_PIXELS])
        labels = tf.placeholder(tf.int32, [None])
        logits = mnist.inference(images, 16, 8)
        loss = mnist.loss(logits, labels)
        train_op = mnist.training(loss, 0.1)
        correct = same.evaluation(logits, labels)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            feed = {{images: sets.test.images, labels: sets.test.labels}}
            first = sess.run(loss, feed)
            for _ in range(200):  # enough steps for the loss to fall from any start
                x, y = sets.train.next_batch(50)
                sess.run(train_op, {{images: x, labels: y}})
            print('loss fell', sess.run(loss, feed) < first,
                  'correct', 0 <= sess.run(correct, feed) <= 50)
            print('step', sess.run(tf.train.get_global_step()))
        """)
    report = tmp_path / "report.json"
    result = run_cli("run", "--report-json", str(report), str(path))
    assert result.returncode == 0, result.stderr[-3000:]
    assert "loss fell True correct True" in result.stdout
    assert "learn reader (150, 28, 28, 1) uint8" in result.stdout
    assert "step 200" in result.stdout
    symbols = json.loads(report.read_text())["symbols"]
    assert symbols["tf.examples.tutorials.mnist.mnist.inference"] == {
        "status": "replaced", "target": "tf1compat.tutorials.mnist_model.inference", "uses": 1,
        "note": "tensorflow.examples.tutorials.mnist.mnist is not in TF 2.21"}
    assert symbols["tf.contrib.learn.python.learn.datasets.mnist.read_data_sets"]["target"] == \
        "tf1compat.tutorials.mnist.read_data_sets"
    no_path = json.loads(report.read_text())["no_tf2_path"]
    assert not any("mnist" in name for name in no_path), no_path


def test_a_name_a_served_namespace_lacks_fails_at_the_scripts_line(tmp_path):
    # tf.estimator is served (tf1compat.estimator); a name TF 1.15's tf.estimator never had
    # still fails where the script reads it, saying so.
    path = write(tmp_path, "estimator.py", """
        import tensorflow as tf
        x = tf.placeholder(tf.float32)
        model = tf.estimator.NoSuchEstimator(lambda features, labels, mode: None)
        """)
    result = run_cli("run", str(path))
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    error = next(line for line in lines if line.startswith("AttributeError"))
    assert "tf.estimator.NoSuchEstimator" in error and "not in TF 1.15's tf.estimator" in error
    # The last frame shown is the script's line, not tf1compat's attribute lookup.
    frames = [line for line in lines if line.strip().startswith("File ")]
    assert frames[-1].strip() == f'File "{path}", line 4, in <module>'
    assert not any("tf1compat" in frame for frame in frames)


def test_the_compat_v1_import_of_half_migrated_scripts_gets_the_same_tf1_module(tmp_path):
    # `import tensorflow.compat.v1 as tf; tf.disable_v2_behavior()` is how many scripts were
    # half-migrated; their tf.contrib must be served as for `import tensorflow as tf`.
    path = write(tmp_path, "script.py", """
        import sys
        import tensorflow.compat.v1 as tf
        import tensorflow.compat.v1
        import tensorflow.compat.v2 as tf2
        from tensorflow.compat import v1 as also_v1
        from tensorflow.compat.v1 import placeholder
        tf.disable_v2_behavior()
        print('same module', also_v1 is tf, tensorflow.compat.v1 is tf)
        x = placeholder(tf.float32, [None, 2, 3])
        flat = tf.contrib.layers.flatten(x)
        with tf.Session() as sess:
            print('flat', sess.run(flat, {x: [[[1, 2, 3], [4, 5, 6]]]}).tolist())
        print('v2 kept', tf2.__name__.endswith('compat.v2'))
        print('libraries unchanged', not hasattr(sys.modules['tensorflow.compat.v1'], 'contrib'))
        """)
    report = tmp_path / "report.json"
    result = run_cli("run", "--report-json", str(report), str(path))
    assert result.returncode == 0, result.stderr
    assert "same module True True" in result.stdout
    assert "flat [[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]]" in result.stdout
    assert "v2 kept True" in result.stdout
    assert "libraries unchanged True" in result.stdout
    symbols = json.loads(report.read_text())["symbols"]
    assert symbols["tf.contrib.layers.flatten"]["status"] == "replaced"
    assert symbols["tf.placeholder"]["uses"] == 1  # one TF1 module: the same names
