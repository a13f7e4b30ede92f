"""`tf.contrib.distributions` under `run` and after `migrate` gives TF 1.15's numbers.

The namespace is served from TensorFlow Probability, the core distributions it re-exported
(`Normal`, `Categorical`) as well as contrib's own (`MultivariateNormalDiag`, `Mixture`,
`bijectors`), so that they compose as in TF 1.15: a TransformedDistribution of a Normal, a
Mixture of Normals, a divergence between two contrib distributions.
"""

import inspect

import pytest

from contrib.three_ways import assert_close, three_ways
from tf1compat.contrib import registry

pytestmark = pytest.mark.tf1_reference

PROGRAM = """
import json
import numpy as np
import tensorflow as tf
import tensorflow.contrib.distributions as tfd
from tensorflow.contrib.distributions.python.ops import bijectors as tfb
ds = tf.contrib.distributions

loc = tf.constant([0.5, -1.0])
scale = tf.constant([1.5, 0.7])
mvn = ds.MultivariateNormalDiag(loc=loc, scale_diag=scale)
tril = tfd.MultivariateNormalTriL(loc=loc, scale_tril=[[1.0, 0.0], [0.3, 0.8]])
other = ds.MultivariateNormalDiag(loc=[0.0, 0.0], scale_diag=[1.0, 1.0])
core = ds.Normal(loc=0.0, scale=2.0)                          # core's, as tf.distributions'
relaxed = ds.RelaxedOneHotCategorical(temperature=0.5, logits=[0.1, 0.5, 0.4])
onehot = ds.OneHotCategorical(logits=[0.1, 0.5, 0.4])
lognormal = ds.TransformedDistribution(distribution=ds.Normal(0.0, 1.0), bijector=tfb.Exp())
mixture = ds.Mixture(cat=ds.Categorical(probs=[0.3, 0.7]),
                     components=[ds.Normal(-1.0, 1.0), ds.Normal(2.0, 0.5)])
logistic = ds.Logistic(loc=1.0, scale=2.0)
poisson = ds.Poisson(rate=3.0)
chain = tfb.Chain([tfb.Exp(), tfb.Softplus()])
x = tf.constant([0.2, 0.3])
values = {
    "mvn": [mvn.log_prob(x), mvn.entropy(), mvn.mean(), mvn.stddev()],
    "tril": [tril.log_prob(x), tril.covariance()],
    "kl_contrib": ds.kl_divergence(mvn, other),
    "kl_method": mvn.kl_divergence(other),
    "kl_core": ds.kl_divergence(core, ds.Normal(1.0, 1.0)),
    "core": [core.log_prob(0.3), core.cdf(0.3)],
    "relaxed": relaxed.log_prob([0.2, 0.5, 0.3]),
    "onehot": [onehot.log_prob([0.0, 1.0, 0.0]), onehot.entropy()],
    "lognormal": [lognormal.log_prob(1.7), lognormal.prob(0.5)],
    "mixture": [mixture.log_prob(0.4), mixture.mean()],
    "logistic": [logistic.log_prob(0.0), logistic.cdf(0.0), logistic.entropy()],
    "poisson": [poisson.log_prob(2.0), poisson.variance()],
    "chain": [chain.forward(0.3), chain.inverse(2.0), chain.forward_log_det_jacobian(0.3, event_ndims=0)],
    "shapes": [tf.constant(mvn.batch_shape.as_list() + mvn.event_shape.as_list() + [len(relaxed.sample(4, seed=1).shape)])],
}
with tf.Session() as sess:
    result = sess.run(values)
    samples = sess.run(mvn.sample(1000, seed=3))

def plain(value):
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return np.asarray(value).tolist()

print("RESULT " + json.dumps({key: plain(value) for key, value in sorted(result.items())}))
print("RESULT " + json.dumps([list(samples.shape), bool(abs(samples.mean(0) - [0.5, -1.0]).max() < 0.25)]))
print("RESULT " + json.dumps([type(mvn).__name__, isinstance(ds.bijectors.Exp(), tfb.Exp)]))
print("RESULT " + json.dumps([mvn.reparameterization_type == ds.FULLY_REPARAMETERIZED,
                              poisson.reparameterization_type == tfd.NOT_REPARAMETERIZED]))
"""


def test_distributions_and_bijectors_give_tf_1_15s_numbers_three_ways(tmp_path):
    pytest.importorskip("tensorflow_probability",
                        reason="TensorFlow Probability (extra `probability`) is not installed")
    expected, under_run, migrated = three_ways(tmp_path, PROGRAM)
    assert expected[2] == ["MultivariateNormalDiag", True]
    assert_close(expected, under_run, 1e-5, "run")
    assert_close(expected, migrated, 1e-5, "migrate")


@pytest.mark.parametrize("name, target", [
    ("distributions.MultivariateNormalDiag",
     "tensorflow_probability.python.distributions.mvn_diag.MultivariateNormalDiag"),
    ("distributions.Normal", "tensorflow_probability.python.distributions.normal.Normal"),
    ("distributions.bijectors.Exp", "tensorflow_probability.python.bijectors.exp.Exp"),
    ("distributions.ReparameterizationType",
     "tensorflow_probability.python.internal.reparameterization.ReparameterizationType"),
])
def test_the_namespace_is_tensorflow_probability_s(name, target):
    pytest.importorskip("tensorflow_probability",
                        reason="TensorFlow Probability (extra `probability`) is not installed")
    entry = registry.lookup(name)
    assert (entry.served, entry.source, entry.target) == \
        (registry.Served.MAPPED, "tensorflow-probability", target)
    assert registry.resolve(name) is registry.import_dotted(target)


def test_helpers_tf_2_21_keeps_and_names_tfp_renamed():
    # TF 1.15's helpers in core's distributions.util: TF 2.21 still has that module
    assert registry.lookup("distributions.softplus_inverse").target == \
        "tensorflow.python.ops.distributions.util:softplus_inverse"
    # TFP moved it with its arguments renamed (keep_dims -> keepdims): not TFP's, TF 1.15's own
    entry = registry.lookup("distributions.percentile")
    assert entry.source == "tf115-source"
    assert "keep_dims" in inspect.signature(registry.resolve("distributions.percentile")).parameters
