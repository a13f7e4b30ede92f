"""`tf.contrib.tensorboard.plugins.projector` (TensorBoard's messages, TF 1.x's
visualize_embeddings) against TensorFlow 1.15: the same config written from a FileWriter gives a
`projector_config.pbtxt` that parses to the same proto, under `run` and after `migrate`."""

import importlib.util
import sys

import pytest

from tf1compat.census.served import migrate_serves, run_serves

from .three_ways import three_ways

pytestmark = pytest.mark.skipif(importlib.util.find_spec("tensorboard") is None,
                                reason="tensorboard is not installed (pip install tensorboard)")

PROJECTOR_EXPORT = r"""
import json
import os
import tempfile
import tensorflow as tf
from tensorflow.contrib.tensorboard.plugins import projector
import tensorflow.contrib.tensorboard.plugins.projector as projector_module

logdir = tempfile.mkdtemp()
config = projector.ProjectorConfig()
config.model_checkpoint_path = os.path.join(logdir, "model.ckpt-3")
words = config.embeddings.add()
words.tensor_name = "embedding/words:0"
words.metadata_path = "metadata.tsv"
words.tensor_shape.extend([10, 4])
words.sprite.image_path = "sprite.png"
words.sprite.single_image_dim.extend([8, 8])
chars = tf.contrib.tensorboard.plugins.projector.EmbeddingInfo(tensor_name="chars",
                                                               bookmarks_path="marks.txt")
config.embeddings.extend([chars])
writer = tf.summary.FileWriter(logdir)
projector_module.visualize_embeddings(writer, config)
writer.close()
with open(os.path.join(logdir, "projector_config.pbtxt")) as f:
    text = f.read()
print("RESULT " + json.dumps({"pbtxt": text.replace(logdir, "<logdir>"),
                              "files": sorted(name for name in os.listdir(logdir)
                                              if not name.startswith("events."))}))
"""


def _parsed(text: str):
    from google.protobuf import text_format
    from tensorboard.plugins import projector

    return text_format.Parse(text, projector.ProjectorConfig())


def test_projector_config_written_from_a_writer_parses_as_tf_1_15s(tmp_path):
    expected, under_run, migrated = three_ways(tmp_path, PROJECTOR_EXPORT)
    reference = _parsed(expected[0]["pbtxt"])
    assert reference.embeddings[0].sprite.single_image_dim == [8, 8]
    assert expected[0]["files"] == ["projector_config.pbtxt"]
    for way, results in (("run", under_run), ("migrate", migrated)):
        assert _parsed(results[0]["pbtxt"]) == reference, way
        assert results[0]["files"] == expected[0]["files"], way


@pytest.mark.parametrize("spelling", [
    "import:tensorflow.contrib.tensorboard.plugins.projector", "from:tensorflow.contrib.tensorboard.plugins:projector",
    "attr:tensorflow:contrib.tensorboard.plugins.projector.ProjectorConfig",
    "from:tensorflow.contrib.tensorboard.plugins.projector:visualize_embeddings",
    "attr:tensorflow:contrib.tensorboard.plugins.projector.EmbeddingInfo",
])
def test_run_and_migrate_both_serve_the_projector(spelling):
    assert run_serves(spelling) and migrate_serves(spelling), spelling


def test_bad_arguments_are_named(tmp_path):
    from tf1compat.contrib import projector

    with pytest.raises(TypeError, match=r"summary_writer must be a tf.summary.FileWriter.*"
                                        r"received summary_writer='/some/dir'"):
        projector.visualize_embeddings("/some/dir", projector.ProjectorConfig())

    class Writer:
        def get_logdir(self):
            return str(tmp_path)

    with pytest.raises(TypeError, match=r"config must be a projector.ProjectorConfig.*dict"):
        projector.visualize_embeddings(Writer(), {"embeddings": []})
    with pytest.raises(AttributeError, match="tensorboard.plugins.projector.NoSuchThing"):
        projector.NoSuchThing  # noqa: B018


def test_without_tensorboard_the_error_says_what_to_install(monkeypatch):
    from tf1compat.contrib import projector
    from tf1compat.contrib.registry import ContribError

    monkeypatch.setitem(sys.modules, "tensorboard", None)
    monkeypatch.setitem(sys.modules, "tensorboard.plugins", None)
    with pytest.raises(ContribError,
                       match=r"projector.ProjectorConfig.*pip install 'tf1compat\[projector\]'"):
        projector._library.__wrapped__("ProjectorConfig")
