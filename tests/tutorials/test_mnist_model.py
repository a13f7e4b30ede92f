"""The old MNIST tutorial model (`tensorflow.examples.tutorials.mnist.mnist`) against its contract."""

import numpy as np
import tensorflow as tf

from tf1compat.tutorials import mnist_model

v1 = tf.compat.v1


def test_variables_shapes_loss_training_and_evaluation():
    graph = tf.Graph()
    with graph.as_default():
        v1.set_random_seed(0)
        images = v1.placeholder(tf.float32, [None, mnist_model.IMAGE_PIXELS])
        labels = v1.placeholder(tf.int32, [None])
        logits = mnist_model.inference(images, 8, 4)
        loss = mnist_model.loss(logits, labels)
        train_op = mnist_model.training(loss, 0.5)
        correct = mnist_model.evaluation(logits, labels)
        variables = {v.op.name: v for v in v1.global_variables()}
        names = {name: v.shape.as_list() for name, v in variables.items()}
        trainable = {v.op.name for v in v1.trainable_variables()}
        summaries = v1.get_collection(v1.GraphKeys.SUMMARIES)
    # The old names (old checkpoints restore) and shapes; global_step is not trained.
    assert names == {"hidden1/weights": [784, 8], "hidden1/biases": [8],
                     "hidden2/weights": [8, 4], "hidden2/biases": [4],
                     "softmax_linear/weights": [4, 10], "softmax_linear/biases": [10],
                     "global_step": []}
    assert trainable == set(names) - {"global_step"}
    assert [s.op.name for s in summaries] == ["loss"]
    assert logits.shape.as_list() == [None, 10] and correct.dtype == tf.int32

    rng = np.random.RandomState(0)
    x = rng.rand(16, 784).astype(np.float32)
    y = np.arange(16) % 10
    with v1.Session(graph=graph) as sess:
        sess.run(v1.global_variables_initializer())
        # Weights are truncated normal with stddev 1/sqrt(fan-in); biases start at zero.
        w1, b1 = sess.run([variables["hidden1/weights"], variables["hidden1/biases"]])
        assert abs(w1.std() - 0.88 / 28) < 0.003 and np.abs(w1).max() <= 2 / 28 + 1e-6
        assert not b1.any()
        out, before, hits = sess.run([logits, loss, correct], {images: x, labels: y})
        shifted = out - out.max(1, keepdims=True)
        expected = np.mean(np.log(np.exp(shifted).sum(1)) - shifted[np.arange(16), y])
        assert np.isclose(before, expected, rtol=1e-5)
        assert hits == int((out.argmax(1) == y).sum())
        for _ in range(30):
            sess.run(train_op, {images: x, labels: y})
        after = sess.run(loss, {images: x, labels: y})
        assert after < before and sess.run(variables["global_step"]) == 30
