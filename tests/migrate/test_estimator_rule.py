"""`migrate` keeps Estimator code Estimator code, pointed at tf1compat.estimator, and says so."""

import libcst as cst
from libcst.codemod import CodemodContext, CodemodTest

from tf1compat.migrate.driver import apply_rules
from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.estimator import EstimatorRule


class Estimator(CodemodTest):
    TRANSFORM = EstimatorRule

    def test_every_spelling_of_tf_estimator_points_at_tf1compat(self):
        before = '''import tensorflow as tf
from tensorflow.estimator import export
from tensorflow.compat.v1.estimator.inputs import numpy_input_fn

model = tf.estimator.Estimator(model_fn, config=tf.estimator.RunConfig())
inputs = tf.compat.v1.estimator.inputs.numpy_input_fn({"x": x})
mode = tf.estimator.ModeKeys.TRAIN
namespace = tf.estimator
'''
        after = '''import tensorflow as tf
from tf1compat.estimator import export
from tf1compat.estimator.inputs import numpy_input_fn
import tf1compat.estimator

model = tf1compat.estimator.Estimator(model_fn, config=tf1compat.estimator.RunConfig())
inputs = tf1compat.estimator.inputs.numpy_input_fn({"x": x})
mode = tf1compat.estimator.ModeKeys.TRAIN
namespace = tf1compat.estimator
'''
        self.assertCodemod(before, after)

    def test_the_report_names_each_estimator_name_once_with_its_line(self):
        code = '''import tensorflow as tf
a = tf.estimator.RunConfig()
b = tf.estimator.RunConfig()
c = tf.estimator.inputs.numpy_input_fn(x)
d = tf.keras.layers.Dense(3)
'''
        rule = EstimatorRule(CodemodContext())
        rule.transform_module(cst.parse_module(code))
        assert [(f.line, f.kind) for f in rule.findings] == [(2, Kind.CHANGED), (4, Kind.CHANGED)]
        assert rule.findings[0].message.startswith(
            "tf.estimator.RunConfig -> tf1compat.estimator.RunConfig")
        assert "tf1compat.estimator.inputs.numpy_input_fn" in rule.findings[1].message

    def test_code_without_tensorflow_estimator_is_left_alone(self):
        code = "import tensorflow as tf\nestimator = tf.keras.Model()\nx = estimator.fit\n"
        self.assertCodemod(code, code)


def test_run_config_session_config_gets_tf1compat_keywords_as_sessions_do():
    code = '''import tensorflow as tf
config = tf.estimator.RunConfig(session_config=tf.ConfigProto(
    allow_soft_placement=True, intra_op_parallelism_threads=2))
'''
    migrated, findings = apply_rules(code.replace("tf.ConfigProto", "tf.compat.v1.ConfigProto"),
                                     "tf1compat")
    assert "tf1compat.estimator.RunConfig(session_config=tf1compat.config_proto(" \
           "soft_placement=True, intra_op_threads=2))" in migrated
    assert any("session_config=tf1compat.config_proto" in f.message for f in findings)


def test_for_target_modern_a_run_config_keeps_its_config_proto_and_says_why():
    code = '''import tensorflow as tf
config = tf.estimator.RunConfig(session_config=tf.compat.v1.ConfigProto(log_device_placement=True))
'''
    migrated, findings = apply_rules(code, "modern")
    assert "session_config=tf.compat.v1.ConfigProto(log_device_placement=True)" in migrated
    assert "tf1compat.estimator.RunConfig" in migrated
    assert any(f.kind is Kind.NOT_CONVERTED and "an Estimator is a TF1 program" in f.message
               for f in findings)
