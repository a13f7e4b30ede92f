"""A TF1 script whose calls pass arguments tf_upgrade_v2 drops gives, once migrated and run
under plain Python on TF 2.21, what it gives under TF 1.15 itself."""

import json
import os
import subprocess
import sys

import numpy as np

from tf1_reference import require
from tf1compat.migrate.driver import migrate_source

SCRIPT = """import json
import numpy as np
import tensorflow as tf
graph = tf.Graph()
with graph.as_default():
    image = tf.constant(np.arange(18, dtype=np.float32).reshape(1, 3, 3, 2))
    resized = tf.image.resize_images(image, [5, 4], align_corners=True)
    pair = tf.cond(tf.constant(True), lambda: [tf.constant(1.0)], lambda: [tf.constant(2.0)],
                   strict=True)
with tf.Session(graph=graph) as session:
    values = session.run({"resized": resized, "pair": pair})
print(json.dumps({"resized": values["resized"].tolist(), "pair": list(map(float, values["pair"])),
                  "pair_is_list": isinstance(pair, list)}))
"""


def _run(python, source, tmp_path, name):
    path = tmp_path / name
    path.write_text(source)
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONWARNINGS="ignore")
    done = subprocess.run([str(python), str(path)], capture_output=True, text=True, env=env,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_migrated_strict_cond_and_align_corners_resize_give_tf115s_values(tmp_path):
    reference = require()
    migrated, _ = migrate_source(SCRIPT, "script.py", "tf1compat")
    assert "tf.compat.v1.image.resize_images(" in migrated and "tf.compat.v1.cond(" in migrated
    tf115 = _run(reference, SCRIPT, tmp_path, "tf115.py")
    tf221 = _run(sys.executable, migrated, tmp_path, "migrated.py")
    # bilinear resizing of small whole numbers: float32 round-off only
    np.testing.assert_allclose(tf221["resized"], tf115["resized"], rtol=0, atol=1e-5)
    assert tf221["pair_is_list"] and tf115["pair_is_list"]  # strict=True keeps the list
    assert tf221["pair"] == tf115["pair"] == [1.0]
