"""contrib.crf and contrib.learn.preprocessing are served by one table: every spelling scripts
use resolves under `run` and is rewritten by `migrate`; what stays unserved says so."""

import numpy as np
import pytest
import tensorflow as tf

from tf1compat.contrib import registry
from tf1compat.census.served import verdict

SPELLINGS = {
    "crf.crf_log_likelihood": ["attr:tensorflow:contrib.crf.crf_log_likelihood", "from:tensorflow.contrib.crf:crf_log_likelihood",
                               "from:tensorflow.contrib.crf.python.ops.crf:crf_log_likelihood",
                               "import:tensorflow.contrib.crf.python.ops.crf"],
    "crf.CrfForwardRnnCell": ["attr:tensorflow:contrib.crf.CrfForwardRnnCell", "from:tensorflow.contrib.crf.python.ops:crf"],
    "learn.preprocessing.VocabularyProcessor": [
        "attr:tensorflow:contrib.learn.preprocessing.VocabularyProcessor.restore",
        "from:tensorflow.contrib.learn.preprocessing:VocabularyProcessor",
        "import:tensorflow.contrib.learn.python.learn.preprocessing.text",
        "from:tensorflow.contrib.learn.python.learn.preprocessing.text:VocabularyProcessor"],
    "learn.preprocessing.CategoricalVocabulary": [
        "from:tensorflow.contrib.learn.python.learn.preprocessing.categorical_vocabulary:CategoricalVocabulary",
        "attr:tensorflow:contrib.learn.preprocessing.CategoricalVocabulary"],
}


@pytest.mark.parametrize("name", sorted(SPELLINGS))
def test_run_and_migrate_serve_every_spelling(name):
    said = verdict(f"tf.contrib.{name}", SPELLINGS[name])
    assert (said["run"], said["migrate"]) == ("yes", "yes"), said
    assert registry.lookup(name).served is registry.Served.REPLACED


def test_deep_paths_are_the_served_objects():
    from tf1compat.contrib import crf, vocabulary_processor
    from tf1compat.contrib.registry import deep_attribute

    assert deep_attribute("crf.python.ops.crf.crf_decode") is crf.crf_decode
    text = deep_attribute("learn.python.learn.preprocessing.text")
    assert text is vocabulary_processor
    assert registry.resolve("learn.preprocessing.VocabularyProcessor") is \
        text.VocabularyProcessor


def test_what_is_not_served_names_itself():
    # (learn.preprocessing.CategoricalProcessor is TF 1.15's own now, from its source)
    with pytest.raises(registry.ContribError, match="tensor_forest.RandomForestGraphs"):
        registry.resolve("tensor_forest.RandomForestGraphs")
    with pytest.raises(registry.ContribError, match="crf.no_such_name"):
        registry.resolve("crf.no_such_name")


def test_the_transitions_variable_needs_a_static_tag_count(graph):
    from tf1compat.contrib import crf

    unaries = tf.compat.v1.placeholder(tf.float32, [2, 3, None])
    with pytest.raises(ValueError, match=r"number of tags.*\(2, 3, None\).*transition_params"):
        crf.crf_log_likelihood(unaries, tf.zeros([2, 3], tf.int32), tf.constant([3, 2]))


def test_viterbi_decode_agrees_with_a_brute_force_search():
    import itertools

    from tf1compat.contrib import crf

    rng = np.random.RandomState(0)
    score, transitions = rng.randn(4, 3), rng.randn(3, 3)

    def total(path):
        return sum(score[t, tag] for t, tag in enumerate(path)) + \
            sum(transitions[a, b] for a, b in zip(path, path[1:]))

    best = max(itertools.product(range(3), repeat=4), key=total)
    path, value = crf.viterbi_decode(score, transitions)
    assert tuple(int(tag) for tag in path) == best
    assert value == pytest.approx(total(best))
