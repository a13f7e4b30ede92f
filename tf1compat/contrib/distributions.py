"""`tf.contrib.distributions`, served from TensorFlow Probability.

TF 1.15's contrib.distributions held TensorFlow's core distributions (`Normal`, `Categorical`,
... the very objects of `tf.distributions`) and its own (`MultivariateNormalDiag`, `Mixture`,
`bijectors`, ...). TensorFlow Probability carries both kinds on, module by module, and serves
the whole namespace here (`tf1compat.contrib.homes`), so that its objects compose as they did:
TFP's distributions and TF 2.21's core ones (`tf.compat.v1.distributions`) do not mix. Without
TFP the core names are served from TF 2.21's core, and contrib's own are unsupported.

Ours: `kl_divergence`, and the two reparameterization constants. TF 1.15's `kl_divergence`
was core's, and contrib's distributions registered their divergences with it, so one function
answered for both; here TFP's registry and core's are two, and `kl_divergence` asks TFP's, then
core's (a `tf.distributions.Normal` reaches it as well).
"""

from __future__ import annotations

from typing import Any

from tf1compat.contrib import registry
from tf1compat.contrib.tables import DISTRIBUTIONS_CONSTANTS
from tf1compat.shared.lazy_tf import tensorflow_v1


def _probability_kl():
    try:
        from tensorflow_probability.python.distributions import kullback_leibler
    except ImportError:
        return None
    return kullback_leibler.kl_divergence


def kl_divergence(distribution_a, distribution_b, allow_nan_stats=True, name=None):
    """KL(distribution_a || distribution_b), as TF 1.15's `tf.contrib.distributions.kl_divergence`:
    from the divergence registered for the pair's classes (a `RegisterKL` of the script's own
    included), TensorFlow Probability's registry first, then core's. NotImplementedError, as
    TF 1.15's, where neither has one."""
    probability = _probability_kl()
    if probability is not None:
        try:
            return probability(distribution_a, distribution_b, allow_nan_stats=allow_nan_stats,
                               name=name)
        except NotImplementedError:
            pass  # a pair of core's classes, or one TFP has no divergence for: core's answers
    return tensorflow_v1().distributions.kl_divergence(
        distribution_a, distribution_b, allow_nan_stats=allow_nan_stats, name=name)


def _reparameterization(name: str) -> Any:
    try:
        from tensorflow_probability.python.internal import reparameterization
    except ImportError:
        return getattr(tensorflow_v1().distributions, name)
    return getattr(reparameterization, name)


def __getattr__(name: str) -> Any:
    if name in DISTRIBUTIONS_CONSTANTS:
        return _reparameterization(name)
    return registry.attribute("distributions", name)
