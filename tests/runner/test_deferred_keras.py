"""`run` starts TensorFlow without loading Keras; a script that uses Keras gets it whole."""

import sys
import textwrap
import types

import pytest

from isolated import python_env, run_cli, run_python
from tf1compat.shared import deferred_keras, patches

SCRIPT = """
import sys
import tensorflow as tf

def loaded(prefix):
    return sorted({m.split('.')[0] for m in sys.modules if m.split('.')[0] == prefix})

print('before keras:', loaded('keras'), loaded('tf_keras'))
print('marks left:', [n for n in ('keras.src.optimizers', 'tf_keras.src.optimizers')
                      if n in sys.modules and sys.modules[n] is None])
x = tf.placeholder(tf.float32, [None, 3])
y = tf.keras.layers.Dense(2, kernel_initializer='ones')(x)
train = tf.train.AdamOptimizer(0.1).minimize(tf.reduce_sum(y))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print('sum', float(sess.run(tf.reduce_sum(y), {x: [[1.0, 1.0, 1.0]]})))
from tensorflow.keras.optimizers import Adam
print('optimizers:', 'tf_keras.src.optimizers' in sys.modules, Adam.__module__.split('.')[0])
"""


def test_a_run_loads_keras_only_when_the_script_uses_it(tmp_path):
    script = tmp_path / "uses_keras_late.py"
    script.write_text(textwrap.dedent(SCRIPT))
    result = run_cli("run", str(script))
    assert result.returncode == 0, result.stderr[-3000:]
    lines = result.stdout.splitlines()
    assert "before keras: [] []" in lines, result.stdout
    assert "marks left: []" in lines, result.stdout
    assert "sum 6.0" in lines, result.stdout  # ones kernel, ones input: 3 per unit, 2 units
    assert "optimizers: True tf_keras" in lines, result.stdout


def test_the_marks_go_when_the_import_fails_and_nothing_is_marked_once_tensorflow_loaded(
        monkeypatch):
    names = ("tf1compat_test_never_a_module.optimizers",)
    monkeypatch.setattr(deferred_keras, "EAGER_KERAS_MODULES", names)
    monkeypatch.delitem(sys.modules, "tensorflow", raising=False)
    with pytest.raises(RuntimeError, match="half-way"):
        with deferred_keras.while_tensorflow_loads():
            assert sys.modules[names[0]] is None
            with pytest.raises(ModuleNotFoundError):
                __import__(names[0])
            raise RuntimeError("TensorFlow failed half-way")
    assert names[0] not in sys.modules
    assert not patches.is_installed(deferred_keras.PATCH)
    # once tensorflow is loaded, the block marks nothing
    monkeypatch.setitem(sys.modules, "tensorflow", types.ModuleType("tensorflow"))
    with deferred_keras.while_tensorflow_loads():
        assert names[0] not in sys.modules


PUBLIC_MODULES = """
import json, sys
{load}
print(json.dumps(sorted(m for m in sys.modules
                        if m.startswith('tensorflow') and not m.startswith('tensorflow.python'))))
"""


@pytest.mark.parametrize("legacy", ["1", "0"], ids=["tf_keras", "keras3"])
def test_the_public_tensorflow_modules_in_sys_modules_are_those_of_a_plain_import(legacy):
    env = python_env({"TF_USE_LEGACY_KERAS": legacy})
    plain = run_python(PUBLIC_MODULES.format(load="import tensorflow"), env=env)
    deferred = run_python(PUBLIC_MODULES.format(load=(
        "from tf1compat.shared import deferred_keras\n"
        "with deferred_keras.while_tensorflow_loads():\n"
        "    import tensorflow\n"
        "assert 'keras' not in sys.modules and 'tf_keras' not in sys.modules")), env=env)
    assert deferred.stdout.splitlines()[-1] == plain.stdout.splitlines()[-1]
