"""contrib.training.HParams and contrib.learn.ModeKeys against TensorFlow 1.15."""

from .three_ways import assert_close, three_ways

HPARAMS = r"""
import json
import tensorflow as tf

def attempt(fn):
    try:
        value = fn()
        return ["ok", value if isinstance(value, (int, float, str, list, bool)) or value is None
                else str(value)]
    except Exception as error:
        return [type(error).__name__, str(error)]

hp = tf.contrib.training.HParams(learning_rate=0.1, layers=[64, 32], name="model",
                                 use_bn=True, steps=100)
out = {"str": str(hp), "repr": repr(hp), "values": hp.values(), "json": hp.to_json(sort_keys=True)}
hp.parse("learning_rate=0.25,layers=[8, 4 2],use_bn=false,steps=7, name=other")
out["parsed"] = hp.values()
hp.parse("use_bn=1")
out["bool_from_int"] = hp.use_bn
hp.parse_json('{"learning_rate": 3, "steps": 9}')
out["from_json"] = [hp.learning_rate, type(hp.learning_rate).__name__, hp.steps]
hp.override_from_dict({"layers": [1, 2, 3]})
out["override"] = hp.layers
out["get"] = [hp.get("steps"), hp.get("missing", 5), "steps" in hp, "missing" in hp]
hp.add_hparam("dropout", 0.5)
hp.del_hparam("name")
out["after_add_del"] = sorted(hp.values())
errors = {
    "unknown": attempt(lambda: hp.parse("nosuch=1")),
    "malformed": attempt(lambda: hp.parse("steps")),
    "twice": attempt(lambda: hp.parse("steps=1,steps=2")),
    "bad_int": attempt(lambda: hp.parse("steps=1.5")),
    "bad_bool": attempt(lambda: hp.parse("use_bn=maybe")),
    "float_to_int": attempt(lambda: hp.set_hparam("steps", 2.5)),
    "int_to_str": attempt(lambda: hp.override_from_dict({"dropout": "x"})),
    "list_to_scalar": attempt(lambda: hp.set_hparam("steps", [1])),
    "scalar_to_list": attempt(lambda: hp.set_hparam("layers", 1)),
    "reserved": attempt(lambda: hp.add_hparam("parse", 1)),
    "empty_list": attempt(lambda: hp.add_hparam("empty", [])),
    "get_bad_default": attempt(lambda: hp.get("steps", "x")),
    "set_unknown": attempt(lambda: hp.set_hparam("nosuch", 1)),
    "list_to_index": attempt(lambda: hp.parse("layers[0]=[1]")),
}
out["errors"] = errors
modes = tf.contrib.learn.ModeKeys
out["modes"] = [modes.TRAIN, modes.EVAL, modes.INFER, attempt(lambda: modes.validate("predict"))]
print("RESULT " + json.dumps(out, sort_keys=True))
"""


def test_hparams_and_mode_keys_behave_as_in_tf_1_15(tmp_path):
    expected, under_run, migrated = three_ways(tmp_path, HPARAMS)
    assert len(expected) == 1
    assert_close(expected, under_run, 0.0, "run")
    assert_close(expected, migrated, 0.0, "migrate")
