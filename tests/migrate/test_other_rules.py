"""Graph mode, tf.layers, queue chains and no-TF2-path notes, as before/after strings."""

import libcst as cst
from libcst.codemod import CodemodContext, CodemodTest

from tf1compat.migrate.driver import apply_rules
from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.graph_mode import GraphModeRule
from tf1compat.migrate.rules.legacy_layers import LegacyLayersRule


def findings_of(rule_class, code, **kwargs):
    rule = rule_class(CodemodContext(), **kwargs)
    rule.transform_module(cst.parse_module(code))
    return rule.findings


class GraphMode(CodemodTest):
    TRANSFORM = GraphModeRule

    def test_added_after_the_imports_of_a_graph_script(self):
        before = '''"""A TF1 script."""
from __future__ import print_function
import numpy as np
import tensorflow as tf
import tf1compat

x = tf.compat.v1.placeholder(tf.float32)
'''
        after = '''"""A TF1 script."""
from __future__ import print_function
import numpy as np
import tensorflow as tf
import tf1compat
tf.compat.v1.disable_v2_behavior()

x = tf.compat.v1.placeholder(tf.float32)
'''
        self.assertCodemod(before, after)

    def test_after_modern_configure_and_under_an_alias(self):
        before = "import tensorflow as T\nimport modern\nmodern.configure(cpus=2)\nT.compat.v1.Session()\n"
        after = ("import tensorflow as T\nimport modern\nmodern.configure(cpus=2)\n"
                 "T.compat.v1.disable_v2_behavior()\nT.compat.v1.Session()\n")
        self.assertCodemod(before, after)

    def test_not_added_twice_nor_to_tf2_code(self):
        done = "import tensorflow as tf\ntf.compat.v1.disable_eager_execution()\ntf.compat.v1.Session()\n"
        self.assertCodemod(done, done)
        tf2 = "import tensorflow as tf\nprint(tf.constant(1) + 1)\n"
        self.assertCodemod(tf2, tf2)

    def test_after_a_late_import(self):
        """Real scripts read data before `import tensorflow`, or put strings after __future__."""
        before = ('from __future__ import print_function\n'
                  '"""Needs 2 GPUs."""\n'
                  'from tf1compat.tutorials import mnist as input_data\n'
                  'mnist = input_data.read_data_sets("MNIST_data/")\n'
                  'import tensorflow as tf\n'
                  'import datetime\n'
                  'x = tf.compat.v1.placeholder(tf.float32)\n')
        after = before.replace("import datetime\n",
                               "import datetime\ntf.compat.v1.disable_v2_behavior()\n")
        self.assertCodemod(before, after)
        [finding] = findings_of(GraphModeRule, before)
        assert finding.kind is Kind.CHANGED and finding.line == 6  # after `import datetime`

    def test_an_import_sharing_its_line_with_code_is_reported(self):
        code = "import tensorflow as tf; x = 1\ntf.compat.v1.Session()\n"
        self.assertCodemod(code, code)
        [finding] = findings_of(GraphModeRule, code)
        assert finding.kind is Kind.NOT_CONVERTED and "not imported at the top" in finding.message


class Layers(CodemodTest):
    TRANSFORM = LegacyLayersRule

    def test_tf_layers_come_from_tf1compat_layers(self):
        before = ("import tensorflow as tf\n"
                  "h = tf.compat.v1.layers.dense(x, 8)\n"
                  "layer = tf.layers.Conv2D(4, 3)\n")
        after = ("import tensorflow as tf\nimport tf1compat.layers\n\n"
                 "h = tf1compat.layers.dense(x, 8)\n"
                 "layer = tf1compat.layers.Conv2D(4, 3)\n")
        self.assertCodemod(before, after)


QUEUE_SCRIPT = """import tensorflow as tf
q = tf.compat.v1.train.string_input_producer(["a.csv"], num_epochs=2, shuffle=False)
reader = tf.compat.v1.TextLineReader(skip_header_lines=1)
_, line = reader.read(q)
a, b = tf.io.decode_csv(line, [[0], [""]], field_delim=";")
batch = tf.compat.v1.train.shuffle_batch([a, b], batch_size=8, capacity=100, min_after_dequeue=10)
queue = tf.queue.FIFOQueue(3, tf.float32)
"""


def test_a_queue_chain_left_as_is_is_reported_once_with_its_reason():
    migrated, findings = apply_rules(QUEUE_SCRIPT, "tf1compat")
    chain = [f for f in findings if f.rule == "queue-chain"]
    assert len(chain) == 1 and chain[0].kind is Kind.NOT_CONVERTED and chain[0].line == 6
    message = chain[0].message
    assert "lines 2-6" in message and "shuffle_batch mixes the rows" in message
    assert "tf.compat.v1.train" in migrated  # left as is
    # lines of the chain are not reported twice; other compat-only APIs are
    notes = [f for f in findings if f.rule == "no-tf2-path"]
    assert [f.line for f in notes] == []  # tf.queue.FIFOQueue is a TF2 name
    # (test_queue_chain_rule.py has the rewrites and the other refusals)


def test_no_tf2_path_notes_for_what_stays_compat_only():
    code = ("import tensorflow as tf\n"
            "sv = tf.compat.v1.train.Supervisor(logdir='x')\n"
            "est = tf.contrib.learn.TensorFlowEstimator()\n")  # older than TF 1.15
    _, findings = apply_rules(code, "tf1compat")
    notes = {f.line: f.message for f in findings if f.rule == "no-tf2-path"}
    assert "session supervision" in notes[2]
    [contrib] = [f for f in findings if f.rule == "contrib"]
    assert contrib.line == 3 and contrib.kind is Kind.NOT_CONVERTED
    assert "tf.contrib.learn left as is" in contrib.message


def test_rules_together_are_idempotent():
    code = ("import tensorflow as tf\n"
            "config = tf.compat.v1.ConfigProto()\n"
            "config.gpu_options.allow_growth = True\n"
            "y = tf.compat.v1.layers.dense(tf.compat.v1.placeholder(tf.float32, [None, 2]), 1)\n"
            "with tf.compat.v1.Session(config=config) as sess:\n"
            "    pass\n")
    once, findings = apply_rules(code, "tf1compat")
    assert "tf1compat.session(growth=True" in once and "disable_v2_behavior()" in once
    assert "tf1compat.layers.dense" in once
    twice, _ = apply_rules(once, "tf1compat")
    assert twice == once


def test_a_rule_with_libcst_matcher_decorators_is_refused_each_time_it_is_made():
    import libcst.matchers as m
    import pytest

    from tf1compat.migrate.rules.base import Rule

    class Decorated(Rule):
        @m.visit(m.Name())
        def seen(self, node: cst.Name) -> None:
            pass

    for _ in range(2):  # the check is made once a class: the second one is refused too
        with pytest.raises(TypeError, match="Decorated uses LibCST matcher decorators"):
            Decorated(CodemodContext())
