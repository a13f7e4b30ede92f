"""The served MNIST reader (`tensorflow.examples.tutorials.mnist.input_data`) and tutorial model
(`tensorflow.examples.tutorials.mnist.mnist`) against TF 1.15's own: the same probe under the
TF 1.15 reference and under `tf1compat run`, on the same synthetic MNIST files.

Float tolerance: rtol 1e-4, atol 1e-5; shapes, dtypes, labels, counts and printed lines exactly.
"""

import sys
from pathlib import Path

import pytest

import tf1_reference
from tf1_reference.probe_prelude import PRELUDE

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "legacy_scripts"))
import synthetic_data  # noqa: E402

pytestmark = pytest.mark.tf1_reference
RTOL, ATOL = 1e-4, 1e-5

READER = PRELUDE + '''
import sys
from tensorflow.examples.tutorials.mnist import input_data

result = {}
for label, kwargs in [("one_hot", {"one_hot": True, "validation_size": 100, "seed": 5}),
                      ("uint8", {"dtype": tf.uint8, "reshape": False, "validation_size": 0,
                                 "seed": 6}),
                      ("graph_seed", {"validation_size": 50})]:
    with tf.Graph().as_default():
        if label == "graph_seed":
            tf.set_random_seed(11)
        data = input_data.read_data_sets(DATA, **kwargs)
        entry = {}
        for part in ("train", "validation", "test"):
            subset = getattr(data, part)
            entry[part] = {"count": subset.num_examples,
                           "images": [list(subset.images.shape), subset.images.dtype.name,
                                      float(subset.images.astype(np.float64).sum())],
                           "labels": [list(subset.labels.shape), subset.labels.dtype.name,
                                      floats(subset.labels[:5])]}
        batches = []
        for size in (128, 128, 128, 200, 64):
            images, labels = data.train.next_batch(size)
            batches.append([len(images), float(images.astype(np.float64).sum()),
                            floats(labels[:4]), data.train.epochs_completed])
        ordered = data.test.next_batch(7, shuffle=False)
        entry["batches"] = batches
        entry["unshuffled"] = [floats(ordered[1]), float(ordered[0].astype(np.float64).sum())]
        result[label] = entry
fake = input_data.read_data_sets(DATA, fake_data=True, one_hot=True)
images, labels = fake.train.next_batch(3, fake_data=True)
result["fake"] = [np.asarray(images).shape[0], floats(labels)]
print(json.dumps(result))
'''

MODEL = PRELUDE + '''
from tensorflow.examples.tutorials.mnist import mnist

images = tf.constant(RNG.rand(6, mnist.IMAGE_PIXELS).astype(np.float32))
labels = tf.constant(RNG.randint(0, mnist.NUM_CLASSES, 6).astype(np.int32))
logits = mnist.inference(images, 8, 5)
loss = mnist.loss(logits, labels)
train = mnist.training(loss, 0.5)
correct = mnist.evaluation(logits, labels)
result = {"constants": [mnist.NUM_CLASSES, mnist.IMAGE_SIZE, mnist.IMAGE_PIXELS],
          "collections": collections(),
          "losses": [t.op.name for t in tf.get_collection(tf.GraphKeys.LOSSES)],
          "summaries": [s.op.name for s in tf.get_collection(tf.GraphKeys.SUMMARIES)],
          "dtypes": [logits.dtype.name, loss.dtype.name, correct.dtype.name]}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    assign_all(sess)
    result.update(outputs_and_gradients(sess, {"logits": logits, "loss": loss}, [images]))
    result["correct"] = int(sess.run(correct))
    for _ in range(3):
        sess.run(train)
    result["after_training"] = [floats(sess.run(loss)), int(sess.run(correct)),
                                int(sess.run("global_step:0")),
                                tf.train.get_global_step().op.name]
print(json.dumps(result))
'''


@pytest.fixture(scope="module")
def mnist_folder(tmp_path_factory):
    return synthetic_data.write_mnist(tmp_path_factory.mktemp("mnist"))


def test_the_mnist_reader_matches_tf1(tmp_path, tf1_python, mnist_folder):
    # the folder is an argument, so the record's digest covers its files, not its path
    probe = READER.replace("DATA, ", "sys.argv[1], ")
    tf1, ours = tf1_reference.run_both(tf1_python, probe, tmp_path, args=[str(mnist_folder)])
    tf1_reference.assert_same(tf1, ours, RTOL, ATOL)


def test_the_tutorial_model_matches_tf1(tmp_path, tf1_python):
    tf1, ours = tf1_reference.run_both(tf1_python, MODEL, tmp_path)
    tf1_reference.assert_same(tf1, ours, RTOL, ATOL)
