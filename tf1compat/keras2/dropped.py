"""TF 1.15's `tf.keras` names that tf_keras dropped or changed, and what serves each.

TF 1.15's `tf.keras` was Keras 2 (2.2.4-tf), and tf_keras's TF1 view keeps that API, less
what TF 2.x removed from it: `Sequential.predict_classes` and `predict_proba`,
`utils.multi_gpu_model`, `utils.HDF5Matrix`, `utils.convert_all_kernels_in_model`,
`wrappers.scikit_learn`, and two learning-rate schedules it still defines but no longer
exports (one with a parameter added before TF 1.15's `name`). Each is served where
tf1compat's Keras 2 serves the same Keras 2 name, so that `tf.keras.X`, `tf.contrib.keras.X`
and standalone Keras 2's `keras.X` are one object under `run`, and `migrate` writes that
object's home instead of a tf_keras name that does not exist. Data only: the runner,
contrib's homes and migrate read it.
"""

from __future__ import annotations

from typing import Optional

WHY = ("TF 1.15's tf.keras had it and tf_keras dropped or changed it; tf1compat's Keras 2 "
       "serves it as TF 1.15 did")
_K = "tensorflow.python.keras."
_OURS = "tf1compat.keras2."
_SCHEDULES = "tf_keras.src.optimizers.schedules.learning_rate_schedule:"

# TF 1.15's home of each name (module:qualname) -> where tf1compat serves it (module:name).
BY_HOME = {
    f"{_K}engine.sequential:Sequential": f"{_OURS}models:Sequential",
    f"{_K}utils.multi_gpu_utils:multi_gpu_model": f"{_OURS}multi_gpu:multi_gpu_model",
    f"{_K}utils.io_utils:HDF5Matrix": f"{_OURS}io_utils:HDF5Matrix",
    f"{_K}utils.layer_utils:convert_all_kernels_in_model":
        f"{_OURS}io_utils:convert_all_kernels_in_model",
    f"{_K}wrappers.scikit_learn:KerasClassifier": f"{_OURS}wrappers.scikit_learn:KerasClassifier",
    f"{_K}wrappers.scikit_learn:KerasRegressor": f"{_OURS}wrappers.scikit_learn:KerasRegressor",
    f"{_K}optimizer_v2.learning_rate_schedule:LinearCosineDecay":
        f"{_SCHEDULES}LinearCosineDecay",
    f"{_K}optimizer_v2.learning_rate_schedule:NoisyLinearCosineDecay":  # TF 1.15's order
        f"{_OURS}schedules:NoisyLinearCosineDecay",
}
# TF 1.15's public names of those objects under `tf.keras` (TF 1.15's listing, the same
# object under each), as paths after `tensorflow.`, -> their home.
_PUBLIC_HOMES = {
    "Sequential": f"{_K}engine.sequential:Sequential",
    "models.Sequential": f"{_K}engine.sequential:Sequential",
    "utils.multi_gpu_model": f"{_K}utils.multi_gpu_utils:multi_gpu_model",
    "utils.HDF5Matrix": f"{_K}utils.io_utils:HDF5Matrix",
    "utils.convert_all_kernels_in_model": f"{_K}utils.layer_utils:convert_all_kernels_in_model",
    "wrappers.scikit_learn.KerasClassifier": f"{_K}wrappers.scikit_learn:KerasClassifier",
    "wrappers.scikit_learn.KerasRegressor": f"{_K}wrappers.scikit_learn:KerasRegressor",
    "experimental.LinearCosineDecay": f"{_K}optimizer_v2.learning_rate_schedule:"
                                      "LinearCosineDecay",
    "experimental.NoisyLinearCosineDecay": f"{_K}optimizer_v2.learning_rate_schedule:"
                                           "NoisyLinearCosineDecay",
}
# TF 1.15's `tf.keras` namespaces tf_keras dropped -> the module serving each.
MODULES = {"wrappers": f"{_OURS}wrappers",
           "wrappers.scikit_learn": f"{_OURS}wrappers.scikit_learn"}
# TF 1.15's `tensorflow.python.keras` modules of those names that TF 2.21's package lacks
# (`from tensorflow.python.keras.wrappers.scikit_learn import KerasClassifier`) -> the module
# serving each.
PRIVATE_MODULES = {f"{_K}wrappers": f"{_OURS}wrappers",
                   f"{_K}wrappers.scikit_learn": f"{_OURS}wrappers.scikit_learn"}
# Where TF1 code reached TF 1.15's tf.keras (paths after `tensorflow.`); `compat.v2.keras`
# is tf_keras's TF2 API, which has the same names.
KERAS_PACKAGES = ("keras", "compat.v1.keras", "compat.v2.keras")


def _inside_keras(path: str) -> Optional[str]:
    """'compat.v1.keras.utils.HDF5Matrix' -> 'utils.HDF5Matrix'; None outside tf.keras."""
    for package in KERAS_PACKAGES:
        if path.startswith(package + "."):
            return path[len(package) + 1:]
    return None


def served_name(path: str) -> Optional[str]:
    """Where tf1compat serves `tensorflow.<path>` ('module:name', or a module), when it is a
    TF 1.15 tf.keras name tf_keras dropped or changed; None otherwise."""
    inside = _inside_keras(path)
    if inside is None:
        return None
    if inside in MODULES:
        return MODULES[inside]
    home = _PUBLIC_HOMES.get(inside)
    return None if home is None else BY_HOME[home]


def holds_names(module: str) -> bool:
    """Whether TF 1.15's module `module` defined one of the names served here."""
    return any(home.partition(":")[0] == module for home in BY_HOME)


def served_home(home: str) -> Optional[str]:
    """Where tf1compat serves the object whose TF 1.15 home is `home`, or None."""
    return BY_HOME.get(home)


def module_of(target: str) -> str:
    """The module to import for a `served_*` answer ('tf1compat.keras2.models:Sequential' ->
    'tf1compat.keras2.models'; a module is its own)."""
    return target.partition(":")[0]


def dotted(target: str) -> str:
    """'tf1compat.keras2.models:Sequential' -> 'tf1compat.keras2.models.Sequential'."""
    return target.replace(":", ".")


def load(target: str):
    """The object (or module) a `served_*` answer names."""
    import importlib

    module, _, name = target.partition(":")
    value = importlib.import_module(module)
    return getattr(value, name) if name else value
