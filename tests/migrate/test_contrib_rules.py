"""migrate's rules for what TF 2.21 dropped: tf.contrib, tensorflow.examples, TF1 namesakes."""

from tf1compat.migrate.driver import apply_rules, migrate_source
from tf1compat.migrate.findings import Kind


def rewrite(code):
    migrated, findings = apply_rules(code, "tf1compat")
    return migrated, findings


def test_contrib_names_go_to_their_home_or_our_replacement():
    code = ("import tensorflow as tf\n"
            "x = tf.contrib.layers.flatten(tf.zeros([2, 3, 4]))\n"
            "step = tf.contrib.framework.get_or_create_global_step()\n"
            "loss = tf.contrib.seq2seq.sequence_loss(a, b, c)\n"
            "slim = tf.contrib.slim\n"
            "nest = tf.contrib.framework.nest.flatten([1])\n")
    migrated, findings = rewrite(code)
    assert "import tf1compat.contrib.layers\n" in migrated
    assert "import tf1compat.contrib.seq2seq\n" in migrated
    assert "x = tf1compat.contrib.layers.flatten(" in migrated
    assert "step = tf.compat.v1.train.get_or_create_global_step()" in migrated
    assert "loss = tf1compat.contrib.seq2seq.sequence_loss(a, b, c)" in migrated
    assert "slim = tf1compat.contrib.slim\n" in migrated
    assert "nest = tf.nest.flatten([1])" in migrated
    changed = {f.line: f.message for f in findings if f.rule == "contrib"}
    assert set(changed) == {2, 3, 4, 5, 6}
    assert "TensorFlow's upgrade table" in changed[6] and "tf1compat's table" in changed[3]


def test_rnn_cells_reach_legacy_keras_through_the_layers_rule():
    code = ("import tensorflow as tf\n"
            "cell = tf.contrib.rnn.MultiRNNCell([tf.contrib.rnn.BasicLSTMCell(4)])\n"
            "other = tf.compat.v1.nn.rnn_cell.GRUCell(3)\n")
    migrated, findings = rewrite(code)
    assert "cell = tf1compat.rnn_cell.MultiRNNCell([tf1compat.rnn_cell.BasicLSTMCell(4)])" \
        in migrated
    assert "other = tf1compat.rnn_cell.GRUCell(3)" in migrated
    assert "import tf1compat.rnn_cell" in migrated


def test_contrib_imports():
    code = ("import tensorflow as tf\n"
            "import tensorflow.contrib.slim as slim\n"
            "from tensorflow.contrib import rnn, framework as fw\n"
            "from tensorflow.contrib.layers import flatten\n"
            "from tensorflow.contrib.data import CsvDataset\n"
            "from tensorflow.contrib.data import StatsAggregator\n")
    migrated, findings = rewrite(code)
    assert "import tf1compat.contrib.slim as slim\n" in migrated
    assert "from tf1compat.contrib import rnn, framework as fw\n" in migrated
    assert "from tf1compat.contrib.layers import flatten\n" in migrated
    # a namespace served from the table alone imports too (tf1compat.contrib's module finder)
    assert "from tf1compat.contrib.data import CsvDataset\n" in migrated
    assert "from tensorflow.contrib.data import StatsAggregator\n" in migrated  # left, reported
    [left] = [f for f in findings if f.kind is Kind.NOT_CONVERTED]
    assert left.line == 6 and "StatsAggregator" in left.message


def test_unsupported_and_unknown_names_are_left_and_say_what_to_use():
    code = ("import tensorflow as tf\n"
            "y = tf.contrib.cudnn_rnn.CudnnLSTM(1, 4)\n"
            "z = tf.contrib.nosuch.thing(x)\n"
            "r = tf.contrib.seq2seq.ScheduledEmbeddingTrainingHelper(x, f, e, 0.5)\n"
            "s = tf.contrib.data.StatsAggregator()\n")
    migrated, findings = rewrite(code)
    assert "tf.contrib.cudnn_rnn.CudnnLSTM(1, 4)" in migrated and "tf.contrib.nosuch" in migrated
    messages = {f.line: f.message for f in findings if f.kind is Kind.NOT_CONVERTED}
    assert "CudnnCompatibleLSTMCell" in messages[2]
    assert "no replacement is known" in messages[3]
    assert "tfa.seq2seq" in messages[4]
    assert "tf.data.experimental.StatsAggregator, which TF 2.21 does not have" in messages[5]


def test_names_tf_1_15_s_own_source_serves_are_written_as_tf1compat_s():
    code = ("import tensorflow as tf\n"
            "y = tf.contrib.opt.ScipyOptimizerInterface(loss)\n"
            "r = tf.contrib.image.dense_image_warp(x, f)\n")
    migrated, findings = rewrite(code)
    assert "tf1compat.contrib.opt.ScipyOptimizerInterface(loss)" in migrated
    assert "tf1compat.contrib.image.dense_image_warp(x, f)" in migrated
    assert not [f for f in findings if f.kind is Kind.NOT_CONVERTED]


def test_a_contrib_alias_is_kept_from_tf_upgrade_v2s_spelling_rules():
    code = ("import tensorflow as tf\n"
            "slim = tf.contrib.slim\n"
            "reg = slim.l2_regularizer(0.5)\n"
            "net = slim.conv2d(x, 3, [3, 3])\n")
    migrated, findings = migrate_source(code, "x.py", "tf1compat")
    assert "reg = tf1compat.contrib.slim.l2_regularizer(0.5)" in migrated
    assert "net = slim.conv2d(x, 3, [3, 3])" in migrated
    assert "keras" not in migrated


def test_lines_stay_in_place_for_tf_upgrade_v2s_findings():
    code = ("import tensorflow as tf\n"
            "x = tf.contrib.layers.flatten(y)\n"
            "s = tf.Session()\n")
    _, findings = migrate_source(code, "x.py", "tf1compat")
    renamed = [f for f in findings if f.kind is Kind.RENAMED]
    assert renamed and all(f.line == 3 for f in renamed)


def test_the_mnist_reader_import():
    cases = {
        "from tensorflow.examples.tutorials.mnist import input_data\n":
            "from tf1compat.tutorials import mnist as input_data\n",
        "from tensorflow.examples.tutorials.mnist import input_data as data\n":
            "from tf1compat.tutorials import mnist as data\n",
        "import tensorflow.examples.tutorials.mnist.input_data as input_data\n":
            "import tf1compat.tutorials.mnist as input_data\n",
        "from tensorflow.examples.tutorials.mnist.input_data import read_data_sets\n":
            "from tf1compat.tutorials.mnist import read_data_sets\n",
    }
    for before, after in cases.items():
        migrated, findings = rewrite(before)
        assert migrated == after, before
        assert findings[0].kind is Kind.CHANGED
    migrated, findings = rewrite("from tensorflow.examples.tutorials.word2vec import w2v\n")
    assert findings[0].kind is Kind.NOT_CONVERTED


def test_the_mnist_tutorial_model_import():
    cases = {
        "from tensorflow.examples.tutorials.mnist import mnist\n":
            "from tf1compat.tutorials import mnist_model as mnist\n",
        "from tensorflow.examples.tutorials.mnist import input_data, mnist as model\n":
            "from tf1compat.tutorials import mnist as input_data, mnist_model as model\n",
        "import tensorflow.examples.tutorials.mnist.mnist as mnist\n":
            "import tf1compat.tutorials.mnist_model as mnist\n",
        "from tensorflow.examples.tutorials.mnist.mnist import inference\n":
            "from tf1compat.tutorials.mnist_model import inference\n",
    }
    for before, after in cases.items():
        migrated, findings = rewrite(before)
        assert migrated == after, before
        assert findings and all(f.kind is Kind.CHANGED for f in findings), before
    # One name nothing serves keeps the whole import as it is, and says so.
    before = "from tensorflow.examples.tutorials.mnist import mnist, mnist_softmax\n"
    migrated, findings = rewrite(before)
    assert migrated == before
    assert [f.kind for f in findings] == [Kind.NOT_CONVERTED]
    assert "tensorflow.examples.tutorials.mnist.mnist" in findings[0].message


def test_contrib_learns_mnist_reader_goes_to_the_old_reader():
    cases = {
        "from tensorflow.contrib.learn.python.learn.datasets import mnist\n":
            "from tf1compat.tutorials import mnist\n",
        "from tensorflow.contrib.learn.python.learn.datasets import mnist as m\n":
            "from tf1compat.tutorials import mnist as m\n",
        "from tensorflow.contrib.learn.python.learn.datasets.mnist import read_data_sets\n":
            "from tf1compat.tutorials.mnist import read_data_sets\n",
        "import tensorflow.contrib.learn.python.learn.datasets.mnist as mnist\n":
            "import tf1compat.tutorials.mnist as mnist\n",
    }
    for before, after in cases.items():
        migrated, findings = rewrite(before)
        assert migrated == after, before
        assert [f.kind for f in findings] == [Kind.CHANGED], before
    code = ("import tensorflow as tf\n"
            "data = tf.contrib.learn.datasets.mnist.read_data_sets('d')\n"
            "est = tf.contrib.learn.Estimator()\n"
            "batch = tf.contrib.learn.read_batch_examples\n")
    migrated, findings = rewrite(code)
    assert "import tf1compat.tutorials.mnist\n" in migrated
    assert "data = tf1compat.tutorials.mnist.read_data_sets('d')" in migrated
    # contrib.learn's Estimator is TF 1.15's own; its input_pipeline readers need kernels
    assert "est = tf1compat.contrib.learn.Estimator()" in migrated
    assert "batch = tf.contrib.learn.read_batch_examples" in migrated
    assert [f.kind for f in findings if f.rule == "contrib"] == \
        [Kind.CHANGED, Kind.CHANGED, Kind.NOT_CONVERTED]


def test_tf1_only_modules_referenced_as_modules_go_to_compat_v1():
    """`logging = tf.logging` (ptb_word_lm.py): tf_upgrade_v2 renames calls, not the module."""
    import re

    import tensorflow as tf

    code = ("import tensorflow as tf\n"
            "logging = tf.logging\n"
            "gfile, app = tf.gfile, tf.app\n"
            "tf.logging.set_verbosity(tf.logging.INFO)\n"
            "writer = tf.python_io.TFRecordWriter\n"
            "x = tf.placeholder(tf.float32)\n")
    migrated, findings = migrate_source(code, "x.py", "tf1compat")
    assert "logging = tf.compat.v1.logging\n" in migrated
    assert "gfile, app = tf.compat.v1.gfile, tf.compat.v1.app\n" in migrated
    assert "tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.INFO)" in migrated
    assert "compat.v1.compat" not in migrated
    # Every tf.* name left in the file exists in TF 2.21.
    for name in set(re.findall(r"\btf((?:\.\w+)+)", migrated)):
        value = tf
        for part in name.strip(".").split("."):
            value = getattr(value, part)
    said = {f.message.split(" ")[0] for f in findings if f.rule == "v1-namesakes"}
    assert {"tf.logging", "tf.gfile", "tf.app"} <= said


def test_v1_namesakes_go_to_compat_v1():
    code = ("import tensorflow as tf\n"
            "tf.compat.v1.disable_v2_behavior()\n"
            "flags = tf.flags\n"
            "w = tf.Variable(tf.zeros([2]), name='w')\n"
            "tf.summary.scalar('w', w[0])\n"
            "with tf.device(tf.compat.v1.train.replica_device_setter(ps_tasks=1)):\n"
            "    pass\n"
            "with tf.device('/gpu:%d' % 1), tf.device(f'/cpu:{0}'):\n"
            "    pass\n")
    migrated, findings = rewrite(code)
    assert "flags = tf.compat.v1.flags" in migrated
    assert "w = tf.compat.v1.Variable(tf.zeros([2]), name='w')" in migrated
    assert "tf.compat.v1.summary.scalar('w', w[0])" in migrated
    assert "with tf.compat.v1.device(tf.compat.v1.train.replica_device_setter(" in migrated
    assert "with tf.device('/gpu:%d' % 1), tf.device(f'/cpu:{0}'):" in migrated
    assert len([f for f in findings if f.rule == "v1-namesakes"]) == 4


def test_tf_data_datasets_stay_tf1s_v1_classes():
    """TF 1.15's tf.data datasets are DatasetV1: `output_types`, which tf_upgrade_v2 leaves as
    written, must still be there after migrate (TF2's tf.data.Dataset lacks it)."""
    code = ("import tensorflow as tf\n"
            "ds = tf.data.Dataset.from_tensor_slices([1, 2, 3]).batch(2)\n"
            "lines = tf.data.TextLineDataset(['a.txt'])\n"
            "types = (ds.output_types, lines.output_types)\n"
            "value = ds.make_one_shot_iterator().get_next()\n")
    migrated, findings = migrate_source(code, "x.py", "tf1compat")
    assert "ds = tf.compat.v1.data.Dataset.from_tensor_slices([1, 2, 3])" in migrated
    assert "lines = tf.compat.v1.data.TextLineDataset(['a.txt'])" in migrated
    # run here, eagerly: the graph mode migrate turns on would outlast this test
    graph_mode = "tf.compat.v1.disable_v2_behavior()\n"
    assert graph_mode in migrated
    namespace = {}
    exec(compile(migrated.replace(graph_mode, ""), "x.py", "exec"), namespace)  # noqa: S102
    import tensorflow as tf

    assert namespace["types"] == (tf.int32, tf.string)
    assert isinstance(namespace["ds"], tf.data.Dataset)  # a TF2 dataset too
    said = [f.message for f in findings if f.rule == "v1-namesakes"]
    assert len(said) == 1 and said[0].startswith("tf.data.Dataset -> tf.compat.v1.data.Dataset")


def test_tf1_submodules_tf2_dropped_come_from_compat_v1():
    """`tf.saved_model.loader` read as a module (tf_upgrade_v2 renames only what is read from
    it) is tf.compat.v1's, the same module TF 1.15 had; what tf_upgrade_v2 renamed stays."""
    code = ("import tensorflow as tf\n"
            "loader, tags = tf.saved_model.loader, tf.saved_model.tag_constants\n"
            "runners = tf.train.queue_runner\n"
            "load = tf.saved_model.loader.load\n")
    migrated, findings = migrate_source(code, "x.py", "tf1compat")
    assert ("loader, tags = tf.compat.v1.saved_model.loader, "
            "tf.compat.v1.saved_model.tag_constants\n") in migrated
    assert "runners = tf.compat.v1.train.queue_runner\n" in migrated
    assert "load = tf.compat.v1.saved_model.load" in migrated
    assert "compat.v1.compat" not in migrated
    import tensorflow as tf

    namespace = {}
    exec(compile(migrated.replace("tf.compat.v1.disable_v2_behavior()\n", ""), "x.py",
                 "exec"), namespace)  # noqa: S102
    assert namespace["loader"] is tf.compat.v1.saved_model.loader
    assert namespace["tags"].SERVING == "serve"
    assert callable(namespace["runners"].QueueRunner)
    said = [f.message for f in findings if f.rule == "v1-namesakes"]
    assert len(said) == 3, said


def test_tf_contrib_itself_becomes_tf1compat_contrib():
    """`contrib = tf.contrib`, then its names read from the value: run serves tf1compat.contrib
    there, and so does the migrated script."""
    code = "import tensorflow as tf\ncontrib = tf.contrib\nflatten = contrib.layers.flatten\n"
    migrated, findings = migrate_source(code, "x.py", "tf1compat")
    assert "import tf1compat.contrib\n" in migrated and "contrib = tf1compat.contrib\n" in migrated
    namespace = {}
    exec(compile(migrated.replace("tf.compat.v1.disable_v2_behavior()\n", ""), "x.py",
                 "exec"), namespace)  # noqa: S102
    import tf1compat.contrib.layers

    assert namespace["flatten"] is tf1compat.contrib.layers.flatten
    assert any(f.message.startswith("tf.contrib -> tf1compat.contrib") for f in findings)


def test_a_name_read_on_a_bound_contrib_module_is_checked_as_run_reads_it():
    migrated, findings = rewrite(
        "import tensorflow as tf\n"
        "import tensorflow.contrib.tpu.python.tpu as tpu\n"
        "from tensorflow.contrib.slim.nets import vgg\n"
        "from tensorflow import contrib\n"
        "slim = tf.contrib.slim\n"
        "a = tpu.util.check_positive_integer(3, 'n')\n"
        "b = vgg.vgg_16, vgg.vgg_99\n"
        "c = slim.conv2d, slim.no_such_layer\n"
        "d = contrib.cloud.BigtableClient\n")
    left = {f.line: f.message for f in findings if f.kind is Kind.NOT_CONVERTED}
    # each names what the script wrote, the contrib path, and that run stops there too
    assert "tpu.util.check_positive_integer (tf.contrib.tpu.python.tpu.util." \
           "check_positive_integer) is not served" in left[6]
    assert "vgg.vgg_99" in left[7] and "vgg_16" not in left[7]
    assert "slim.no_such_layer" in left[8] and "conv2d" not in left[8]
    assert "contrib.cloud.BigtableClient" in left[9]
    assert all("under `tf1compat run` too" in message for message in left.values())
    assert "import tf1compat.contrib.tpu.python.tpu as tpu\n" in migrated


def test_a_name_also_bound_to_something_else_is_not_judged():
    _, findings = rewrite(
        "import tensorflow as tf\n"
        "slim = tf.contrib.slim\n"
        "def head(slim):\n"
        "    return slim.not_a_contrib_name\n")
    assert not [f for f in findings if f.kind is Kind.NOT_CONVERTED]


def test_names_bound_otherwise_are_not_judged_and_imports_and_targets_are_not_reads():
    migrated, findings = rewrite(
        "import tensorflow as tf\n"
        "from tensorflow.contrib import layers\n"
        "import tensorflow.contrib.slim as slim\n"
        "try:\n"
        "    import tensorflow.contrib.rnn as rnn\n"
        "except ImportError:\n"
        "    rnn = None\n"
        "def build():\n"
        "    from tensorflow.keras import layers\n"
        "    return layers.Dense(10)\n"
        "with open('f') as slim_file:\n"
        "    pass\n"
        "reg = slim.l2_regularizer(0.1)\n"
        "slim.helper = build\n"
        "cell = rnn.GRUCell(4)\n")
    assert not [f for f in findings if f.kind is Kind.NOT_CONVERTED], \
        [f.message for f in findings if f.kind is Kind.NOT_CONVERTED]


def test_a_rebound_contrib_alias_is_still_shielded_from_tf_upgrade_v2():
    migrated, _ = migrate_source(
        "import tensorflow as tf\n"
        "try:\n"
        "    import tensorflow.contrib.slim as slim\n"
        "except ImportError:\n"
        "    slim = None\n"
        "reg = slim.l2_regularizer(0.5)\n", "script.py", "tf1compat")
    assert "reg = tf1compat.contrib.slim.l2_regularizer(0.5)" in migrated
    assert "keras" not in migrated
