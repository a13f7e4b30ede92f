"""A contrib name whose TF 2.21 object takes other parameters than TF 1.15's is served with TF
1.15's, by `tf1compat.contrib` itself (registry.with_tf115_parameters): migrated code, which
reads `tf1compat.contrib.X`, gets the very stand-in `run` gives for `tf.contrib.X`.

TF 1.15's contrib.quantization re-exported the generated op wrappers, whose
`*_eager_fallback(x, name=None, ctx=None)` TF 2.21 declares `(x, name, ctx)`; a TF1 call
leaving `name` out binds under TF 1.15's parameters only.
"""

import inspect

import pytest

import tf1compat.contrib as contrib
from tf1compat.runner import tf115_signatures
from tf1compat.surface import compare, reading, reference

NAMES = ["quantization.acos_eager_fallback", "quantization.add_n_eager_fallback"]


@pytest.mark.parametrize("name", NAMES)
def test_migrated_code_gets_tf_1_15_s_parameters(name):
    namespace, _, attribute = name.partition(".")
    served = getattr(getattr(contrib, namespace), attribute)
    theirs = reference.load().names[f"tf.contrib.{name}"]["parameters"]
    ours, _ = reading.signature_of(served)
    assert compare.signature_difference(theirs, ours) is None
    inspect.signature(served).bind("x")  # `name` and `ctx` may be left out, as under TF 1.15
    assert tf115_signatures.adapted(f"contrib.{name}", served) is served  # run's own object


def test_the_stand_in_is_needed_there():
    from tensorflow.python.ops import gen_math_ops  # what TF 2.21 has under the name

    with pytest.raises(TypeError, match="missing"):
        inspect.signature(gen_math_ops.acos_eager_fallback).bind("x")
