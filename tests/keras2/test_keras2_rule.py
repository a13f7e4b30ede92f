"""migrate's Keras 2 rule, as before/after strings (no TensorFlow)."""

import libcst as cst
from libcst.codemod import CodemodContext, CodemodTest

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.keras2 import Keras2Rule


class Keras2Imports(CodemodTest):
    TRANSFORM = Keras2Rule

    def test_keras_2_modules_move_to_tf_keras_and_what_it_dropped_to_tf1compat(self):
        before = '''import keras.backend.tensorflow_backend as KTF
from keras import backend as K
from keras.layers import Dense, LSTM, CuDNNGRU
from keras.layers.merge import concatenate
from keras.layers.core import Lambda
from keras.optimizers import SGD
from keras.utils import multi_gpu_model, to_categorical
from keras.utils.np_utils import to_categorical as one_hot
'''
        after = '''import tf1compat.keras2.backend as KTF
from tf1compat.keras2 import backend as K
from tf_keras.layers import Dense, LSTM, GRU as CuDNNGRU
from tf1compat.keras2.merge import concatenate
from tf_keras.layers import Lambda
from tf_keras.optimizers.legacy import SGD
from tf1compat.keras2.multi_gpu import multi_gpu_model
from tf_keras.utils import to_categorical
from tf_keras.utils import to_categorical as one_hot
'''
        self.assertCodemod(before, after)

    def test_chains_on_the_keras_package_reach_the_same_homes(self):
        before = '''import keras

keras.backend.set_session(session)
model = keras.models.Sequential([keras.layers.Dense(1)])
opt = keras.optimizers.adam(lr=0.1)
'''
        after = '''import tf_keras as keras
import tf1compat.keras2.backend
import tf1compat.keras2.models
import tf1compat.keras2.optimizers

tf1compat.keras2.backend.set_session(session)
model = tf1compat.keras2.models.Sequential([keras.layers.Dense(1)])
opt = tf1compat.keras2.optimizers.adam(lr=0.1)
'''
        self.assertCodemod(before, after)


def test_a_keras_2_module_with_no_home_is_left_and_reported_with_its_line():
    code = "import numpy\nfrom keras.legacy import interfaces\nfrom tensorflow import keras\n"
    rule = Keras2Rule(CodemodContext())
    out = rule.transform_module(cst.parse_module(code)).code
    assert out == code
    [finding] = rule.findings
    assert (finding.line, finding.kind) == (2, Kind.NOT_CONVERTED)
    assert "keras.legacy" in finding.message and "left as is" in finding.message


def test_sessions_given_to_set_session_get_keywords_or_are_reported_for_modern():
    from pathlib import Path

    from tf1compat.migrate.driver import apply_rules

    source = (Path(__file__).parent / "scripts" / "session_fit.py").read_text()
    migrated, _ = apply_rules(source, "tf1compat")
    assert "K.set_session(tf.Session(config=tf1compat.config_proto(log_placement=True, " \
           "soft_placement=True, growth=True, memory_fraction=0.4)))" in migrated
    assert "config=tf1compat.config_proto(memory_fraction=0.2)" in migrated
    # TF2 device options are process-wide: two sessions asking different ones stay, reported.
    migrated, findings = apply_rules(source, "modern")
    left = [f for f in findings if f.rule == "session-options"]
    assert [f.kind for f in left] == [Kind.NOT_CONVERTED] * 2, left
    assert [f.line for f in left] == [9, 27] and "different options" in left[0].message
    assert "modern.configure" not in migrated
