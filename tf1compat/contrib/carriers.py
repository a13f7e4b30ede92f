"""The libraries that carry TF 1.15's contrib modules on, module by module.

tf_slim keeps contrib.slim's own code (and the contrib.layers, framework, metrics, losses and
training modules slim was built from); TensorFlow Probability keeps contrib.distributions'.
`tf1compat.contrib.homes` serves a contrib name from its TF 1.15 module's carrier, and a
module file of TF 1.15's own source run here (`tf115_code`) imports a carried module from its
carrier, so that one `arg_scope`, one `Distribution` serve both.
"""

from __future__ import annotations

from typing import Any, Optional

# The contrib modules the tf_slim library carries on (contrib.slim's own code, kept on PyPI):
# TF 1.15's module -> tf_slim's. Contrib's other modules (feature columns, encoders, hparam,
# bucketing, ...) are not in tf_slim.
_C = "tensorflow.contrib."
TF_SLIM_MODULES = {
    **{f"{_C}layers.python.layers.{name}": f"tf_slim.layers.{name}" for name in (
        "layers", "initializers", "normalization", "optimizers", "regularizers",
        "rev_block_lib", "summaries", "utils")},
    **{f"{_C}layers.python.ops.{name}": f"tf_slim.layers.{name}" for name in (
        "bucketization_op", "sparse_ops")},
    **{f"{_C}framework.python.ops.{name}": f"tf_slim.ops.{name}" for name in (
        "arg_scope", "variables")},
    f"{_C}metrics.python.ops.metric_ops": "tf_slim.metrics.metric_ops",
    f"{_C}metrics.python.ops.histogram_ops": "tf_slim.metrics.histogram_ops",
    f"{_C}metrics.python.metrics.classification": "tf_slim.metrics.classification",
    f"{_C}losses.python.losses.loss_ops": "tf_slim.losses.loss_ops",
    f"{_C}losses.python.metric_learning.metric_loss_ops": "tf_slim.losses.metric_learning",
    **{f"{_C}training.python.training.{name}": f"tf_slim.training.{name}" for name in (
        "evaluation", "training")},
    **{f"{_C}slim.python.slim.{name}": f"tf_slim.{name}" for name in (
        "evaluation", "learning", "model_analyzer", "queues", "summaries")},
    **{f"{_C}slim.python.slim.data.{name}": f"tf_slim.data.{name}" for name in (
        "data_decoder", "data_provider", "dataset", "dataset_data_provider", "parallel_reader",
        "prefetch_queue", "tfexample_decoder")},
}
# Contrib modules tf1compat serves itself, whose objects TF 1.15's other contrib modules must
# share with the script (`learn_runner` checks `isinstance(hparams, hparam_lib.HParams)` against
# the HParams a script built from `tf.contrib.training.HParams`).
# And modules whose kernel library TF 2.21's core took in (`sparse_feature_cross_op`'s second
# version is core's SparseCross), served on that kernel.
OWN_MODULES = {f"{_C}training.python.training.hparam": "tf1compat.shared.hparams",
               f"{_C}layers.python.ops.sparse_feature_cross_op":
                   "tf1compat.contrib.sparse_feature_cross"}
# contrib.distributions, which TensorFlow Probability carries on module by module: TF 1.15's
# module (or package prefix) -> TFP's. Its own code (`mvn_diag`, `bijectors.exp`) and the core
# distributions it re-exported (`Normal` was tf.distributions.Normal) alike, so that the
# namespace's objects compose as TF 1.15's did (a TransformedDistribution of a Normal, a
# Mixture of Normals: TFP's and core's classes do not mix). A name TFP dropped or renamed
# (`bijectors.Affine`, `WishartFull`, `NormalWithSoftplusScale`) is not found there and is
# served from TF 1.15's next home (TF 2.21's core, or TF 1.15's own source).
_D = "tensorflow.python.ops.distributions."
_TFP = "tensorflow_probability.python."
TFP_MODULE_PREFIXES = (
    (f"{_C}distributions.python.ops.bijectors.", f"{_TFP}bijectors."),
    (f"{_C}distributions.python.ops.", f"{_TFP}distributions."),
    (f"{_D}bijector_impl", f"{_TFP}bijectors.bijector"),
    (f"{_D}identity_bijector", f"{_TFP}bijectors.identity"),
    (f"{_D}util", f"{_D}util"),  # TF 2.21 keeps these helpers: served from there
    (_D, f"{_TFP}distributions."),
)
# Names that moved to another TFP module with the same arguments. (contrib's moving_stats and
# percentile moved too, with their arguments reordered or renamed: served from there they
# would read a TF1 call's arguments wrongly; TF 1.15's own source serves them instead.)
TFP_MOVED = {
    f"{_C}distributions.python.ops.seed_stream:SeedStream": f"{_TFP}util.seed_stream.SeedStream",
    f"{_C}distributions.python.ops.sample_stats:auto_correlation":
        f"{_TFP}stats.sample_stats.auto_correlation",
    f"{_D}distribution:ReparameterizationType":
        f"{_TFP}internal.reparameterization.ReparameterizationType",
}
# Names those modules had in TF 1.15 that tf_slim dropped (a kernel of contrib's own).
TF_SLIM_LACKS = frozenset({
    f"{_C}framework.python.ops.variables:zero_initializer",
})


# TF 1.15's Keras (`tensorflow.python.keras`), which tf_keras carries on as `tf_keras.src`: the
# one Keras `run` serves for tf.keras. Its Keras-2 optimizers (`lr=`, `decay=`; contrib.keras'
# own, never exported as tf.keras') are `optimizer_v1` there.
_K = "tensorflow.python.keras."
KERAS_MOVED = {f"{_K}optimizers": "tf_keras.src.optimizers.optimizer_v1"}


def keras_home(home: str) -> Optional[str]:
    """'tensorflow.python.keras.optimizers:SGD' -> 'tf_keras.src.optimizers.optimizer_v1.SGD',
    or None where the home is not TF 1.15's Keras."""
    module, _, qualname = home.partition(":")
    if not module.startswith(_K):
        return None
    return f"{KERAS_MOVED.get(module, 'tf_keras.src.' + module[len(_K):])}.{qualname}"


def carried_module(module: str) -> Optional[str]:
    """The carrier's module of TF 1.15's contrib module file ('tensorflow.contrib.layers.
    python.layers.layers' -> 'tf_slim.layers.layers'), or None where no library carries it."""
    if module in TF_SLIM_MODULES or module in OWN_MODULES:
        return TF_SLIM_MODULES.get(module) or OWN_MODULES[module]
    for ours, theirs in TFP_MODULE_PREFIXES[:2]:  # contrib.distributions' own modules
        if module.startswith(ours):
            return theirs + module[len(ours):]
    return None


def tf_slim_home(home: str) -> Optional[str]:
    """'tensorflow.contrib.layers.python.layers.layers:conv2d_transpose' ->
    'tf_slim.layers.layers.conv2d_transpose', or None where tf_slim has no such module."""
    module, _, qualname = home.partition(":")
    theirs = TF_SLIM_MODULES.get(module)
    return None if theirs is None or home in TF_SLIM_LACKS else f"{theirs}.{qualname}"


def probability_home(home: str) -> Optional[str]:
    """'tensorflow.contrib.distributions.python.ops.mvn_diag:MultivariateNormalDiag' ->
    'tensorflow_probability.python.distributions.mvn_diag.MultivariateNormalDiag', or None
    where TensorFlow Probability does not carry the home's module on."""
    if home in TFP_MOVED:
        return TFP_MOVED[home]
    module, _, qualname = home.partition(":")
    for ours, theirs in TFP_MODULE_PREFIXES:
        if module == ours or module.startswith(ours if ours.endswith(".") else ours + "."):
            rest = module[len(ours):]
            target = f"{theirs}{rest}.{qualname}" if ours.endswith(".") \
                else f"{theirs}.{qualname}"
            return target if target.startswith(_TFP) else None
    return None


def import_carried(target: str) -> Any:
    """A carrier library's module or object ('tf_slim.layers.layers.conv2d'), tf_slim made
    fit for TF 2.21 first (`tf_slim_compat.load`) where it is tf_slim's."""
    from tf1compat.contrib.entries import import_dotted

    if target == "tf_slim" or target.startswith("tf_slim."):
        from tf1compat.contrib.tf_slim_compat import load

        load()  # tf_slim, made fit for TF 2.21 before any of it is used
    return import_dotted(target)
