"""contrib.learn.preprocessing against TensorFlow 1.15: the same documents give the same id
matrices, vocabularies and reversed text, under `tf1compat run` and after `migrate`; a
processor TF 1.15 saved restores here and maps documents as it did there."""

import json
import subprocess
import sys
import textwrap

from .three_ways import assert_close, reference, three_ways

PREPROCESSING = r"""
import json
import numpy as np
import tensorflow as tf
from tensorflow.contrib import learn
from tensorflow.contrib.learn.python.learn.preprocessing.text import tokenizer
from tensorflow.contrib.learn.python.learn.preprocessing import categorical_vocabulary

docs = ["The quick brown fox jumps over the lazy dog.", "Don't split well-known words",
        "HTTPServer and JSONParser: CamelCase splitting, USA", "the the the fox",
        u"caf\u00e9 na\u00efve r\u00e9sum\u00e9 fox", "a b c d e f g h i j k l m n"]
out = {"tokens": list(tokenizer(docs))}
plain = learn.preprocessing.VocabularyProcessor(8)
out["plain"] = [row.tolist() for row in plain.fit_transform(docs)]
out["plain_dtype"] = str(next(plain.transform(docs[:1])).dtype)
out["plain_size"] = len(plain.vocabulary_)
out["unseen"] = [row.tolist() for row in plain.transform(["a brand new fox", ""])]
out["reverse"] = list(plain.reverse(out["plain"][:3]))
frequent = tf.contrib.learn.preprocessing.VocabularyProcessor(6, min_frequency=1)
out["frequent"] = [row.tolist() for row in frequent.fit_transform(docs)]
out["frequent_mapping"] = sorted(frequent.vocabulary_._mapping.items())


def words(documents):
    for document in documents:
        yield document.lower().split()


custom = learn.preprocessing.VocabularyProcessor(5, tokenizer_fn=words)
out["custom"] = [row.tolist() for row in custom.fit_transform(docs[:4])]
vocab = learn.preprocessing.CategoricalVocabulary()
for word, count in [("b", 3), ("a", 3), ("c", 1), ("d", 5), ("e", 2)]:
    vocab.add(word, count)
vocab.add("<UNK>")
vocab.trim(1, max_frequency=5)
out["trimmed"] = [sorted(vocab._mapping.items()), [vocab.reverse(i) for i in range(len(vocab))],
                  sorted(vocab._freq.items())]
vocab.freeze()
out["frozen"] = [vocab.get("zzz"), vocab.get("a"), len(vocab)]
given = learn.preprocessing.VocabularyProcessor(4, vocabulary=vocab)
out["given"] = [row.tolist() for row in given.transform(["a b d zzz e"])]
numbers = categorical_vocabulary.CategoricalVocabulary(unknown_token="?", support_reverse=False)
out["numbers"] = [numbers.get(7), numbers.get("7"), numbers.get(7), len(numbers)]
try:
    numbers.reverse(1)
except ValueError as error:
    out["no_reverse"] = str(error)
byte = learn.preprocessing.ByteProcessor(6)
rows = list(byte.fit_transform(["abc", u"\u00e9t\u00e9!!", "toolongtext"]))
out["bytes"] = [row.tolist() for row in rows]
out["bytes_back"] = list(byte.reverse(rows))
print("RESULT " + json.dumps(out, sort_keys=True))
"""


def test_vocabulary_processor_matches_tf_1_15(tmp_path):
    expected, under_run, migrated = three_ways(tmp_path, PREPROCESSING)
    assert len(expected) == 1
    assert expected[0]["plain_dtype"] == "int64"
    assert_close(expected, under_run, 0.0, "run")
    assert_close(expected, migrated, 0.0, "migrate")


SAVE = r"""
import json, sys
import tensorflow as tf
processor = tf.contrib.learn.preprocessing.VocabularyProcessor(5, min_frequency=1)
docs = ["a b c a", "b b d e", "c c a"]
rows = [row.tolist() for row in processor.fit_transform(docs)]
processor.save(sys.argv[1] if len(sys.argv) > 1 else "vocab.pickle")
print("RESULT " + json.dumps({"rows": rows,
                              "new": [r.tolist() for r in processor.transform(["a e c z"])],
                              "reverse": list(processor.reverse([[1, 2, 0], [3, 3, 1]]))}))
"""

RESTORE = r"""
import json, sys
from tf1compat.contrib.learn.preprocessing import VocabularyProcessor
processor = VocabularyProcessor.restore(sys.argv[1])
print("RESULT " + json.dumps({
    "type": type(processor).__module__ + "." + type(processor).__name__,
    "rows": [r.tolist() for r in processor.transform(["a b c a", "b b d e", "c c a"])],
    "new": [r.tolist() for r in processor.transform(["a e c z"])],
    "reverse": list(processor.reverse([[1, 2, 0], [3, 3, 1]]))}))
"""


def test_a_processor_saved_by_tf_1_15_restores_here(tmp_path):
    script = tmp_path / "save.py"
    script.write_text(textwrap.dedent(SAVE))
    saved_by_tf1 = reference(script, outputs=["vocab.pickle"])[0]
    restore = tmp_path / "restore.py"
    restore.write_text(RESTORE)
    here = subprocess.run([sys.executable, str(restore), str(tmp_path / "vocab.pickle")],
                          capture_output=True, text=True, timeout=300)
    assert here.returncode == 0, here.stderr[-3000:]
    restored = [line for line in here.stdout.splitlines() if line.startswith("RESULT ")]
    result = json.loads(restored[0][len("RESULT "):])
    assert result["type"] == "tf1compat.contrib.vocabulary_processor.VocabularyProcessor"
    assert result["rows"] == saved_by_tf1["rows"] and result["new"] == saved_by_tf1["new"]
    assert result["reverse"] == saved_by_tf1["reverse"]


def test_save_and_restore_round_trip_here(tmp_path):
    from tf1compat.contrib.learn.preprocessing import VocabularyProcessor

    processor = VocabularyProcessor(3, min_frequency=0)
    rows = [row.tolist() for row in processor.fit_transform(["x y", "y z z"])]
    processor.save(str(tmp_path / "vp.pickle"))
    again = VocabularyProcessor.restore(str(tmp_path / "vp.pickle"))
    assert [row.tolist() for row in again.transform(["x y", "y z z"])] == rows == \
        [[1, 2, 0], [2, 3, 3]]
    assert again.vocabulary_._freeze is True


def test_restore_names_a_file_that_holds_no_processor(tmp_path):
    import pytest

    from tf1compat.contrib.learn.preprocessing import VocabularyProcessor

    (tmp_path / "junk.txt").write_text("not a pickle")
    with pytest.raises(ValueError, match="junk.txt.*not a saved VocabularyProcessor"):
        VocabularyProcessor.restore(str(tmp_path / "junk.txt"))
