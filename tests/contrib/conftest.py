import pytest
import tensorflow as tf


@pytest.fixture
def graph():
    """A fresh TF1 graph and a session on it (graph mode, whatever the process runs)."""
    with tf.Graph().as_default() as g:
        with tf.compat.v1.Session(graph=g) as sess:
            yield sess
