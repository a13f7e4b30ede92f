"""TF 0.x names and argument orders under `tf1compat run`, held against TensorFlow 1.15.

The 0.x script of `tf0_cases` runs under `tf1compat run` on TF 2.21, its 1.x
twin under TensorFlow 1.15; every output must agree (floats within 1e-4,
serialized summaries byte for byte).
"""

import json
import os
import textwrap

from isolated import last_json, run_cli
from tf0_cases import assert_same, run_reference, script


def test_tf0_names_under_run_give_what_tf115_gives_for_their_tf1_names(tmp_path):
    old, new = tmp_path / "tf0_script.py", tmp_path / "tf1_script.py"
    old.write_text(script(0))
    new.write_text(script(1))
    reference = run_reference(new, {"LOGDIR": str(tmp_path / "logs115")})
    report = tmp_path / "report.json"
    result = run_cli("run", "--report-json", str(report), str(old),
                     env={"LOGDIR": str(tmp_path / "logs")})
    assert result.returncode == 0, result.stderr[-4000:]
    assert_same(last_json(result), reference)
    assert any(name.startswith("events.") for name in os.listdir(tmp_path / "logs"))
    symbols = json.loads(report.read_text())["symbols"]
    assert symbols["tf.pack"]["status"] == "mapped"
    assert symbols["tf.pack"]["target"] == "tf.compat.v1.stack"
    assert symbols["tf.train.SummaryWriter"]["target"] == "tf.compat.v1.summary.FileWriter"


def test_a_call_whose_order_the_values_do_not_tell_fails_naming_it(tmp_path):
    path = tmp_path / "script.py"
    path.write_text(textwrap.dedent("""
        import tensorflow as tf
        axis_or_values = tf.placeholder(tf.int32)
        other = tf.placeholder(tf.int32)
        print(tf.concat([other], 0).shape)
        tf.concat(axis_or_values, other)
        """))
    result = run_cli("run", str(path))
    assert result.returncode == 1
    assert "Tf0ArgumentsError" in result.stderr
    assert "tf.concat(" in result.stderr and f"{path}:6" in result.stderr
    assert "tf.concat(values=..., axis=...)" in result.stderr
    assert f'File "{path}", line 6' in result.stderr
    assert "tf1compat/runner" not in result.stderr
