"""Which Keras 2 modules are served, and where each one's names come from.

`SOURCES` maps a Keras 2 module path to where its names are read, first hit wins: a module
(`tf_keras.api._v1.keras.layers`: tf_keras's TF1 view, `V1`) or `module:function` (called
once for an object whose attributes are read). A path that is not listed is whatever its
parent has under that name (`keras.layers` -> tf_keras's `layers`). Keras 2 split its layers
and utils over submodules (`keras.layers.core`, `keras.utils.np_utils`); tf_keras has them
in one module each, so those submodules read the whole of it.

`HINTS` says what to use instead of a Keras 2 name that is not served.
"""

from __future__ import annotations

from tf1compat.keras2 import V1_KERAS as V1

_OURS = "tf1compat.keras2"
_LAYER_MODULES = ("core", "convolutional", "convolutional_recurrent", "normalization",
                  "recurrent", "cudnn_recurrent", "embeddings", "advanced_activations",
                  "pooling", "wrappers", "noise", "local", "merge")
_UTILS_MODULES = ("np_utils", "generic_utils", "data_utils", "vis_utils", "layer_utils",
                  "conv_utils", "io_utils")
_ENGINE_MODULES = ("topology", "base_layer", "input_layer", "network", "training",
                   "sequential", "saving")
APPLICATIONS = ("densenet", "inception_resnet_v2", "inception_v3", "mobilenet",
                "mobilenet_v2", "nasnet", "resnet50", "vgg16", "vgg19", "xception")
_BACKEND = (f"{_OURS}.backend", f"{V1}.backend")  # ours first: set_session tells the run
_LAYERS = (f"{_OURS}.extras:layers", f"{V1}.layers")
_ENGINE = (f"{V1}.layers", f"{V1}.models", f"{V1}.utils")

SOURCES: dict[str, tuple[str, ...]] = {
    "keras": (f"{_OURS}.models:names", V1, f"{_OURS}.extras:top"),
    "keras.models": (f"{_OURS}.models:names", f"{V1}.models"),
    "keras.backend": _BACKEND,
    "keras.backend.tensorflow_backend": _BACKEND,
    "keras.backend.control_flow_ops": (f"{_OURS}.backend:control_flow_ops",),
    "keras.layers": _LAYERS,
    **{f"keras.layers.{name}": _LAYERS for name in _LAYER_MODULES},
    "keras.layers.merge": (f"{_OURS}.merge",),
    "keras.engine": _ENGINE,
    **{f"keras.engine.{name}": _ENGINE for name in _ENGINE_MODULES},
    "keras.utils": (f"{V1}.utils", f"{_OURS}.multi_gpu", f"{_OURS}.io_utils"),
    **{f"keras.utils.{name}": (f"{V1}.utils",) for name in _UTILS_MODULES},
    "keras.utils.io_utils": (f"{V1}.utils", f"{_OURS}.io_utils"),
    "keras.utils.layer_utils": (f"{V1}.utils", f"{_OURS}.io_utils"),
    "keras.utils.multi_gpu_utils": (f"{_OURS}.multi_gpu",),
    "keras.wrappers": (f"{_OURS}.wrappers",),
    "keras.wrappers.scikit_learn": (f"{_OURS}.wrappers.scikit_learn",),
    "keras.optimizers": (f"{_OURS}.optimizers",),
    "keras.applications.mobilenet": (f"{V1}.applications.mobilenet", f"{_OURS}.extras:mobilenet"),
    # Keras 2.2-2.3 re-exported keras_applications' modules: `keras.applications.vgg16.vgg16`.
    **{f"keras.applications.{name}.{name}": (f"tf_keras.src.applications.{name}",)
       for name in APPLICATIONS},
}

# A Keras 2 module that is also a function: Keras 1's `merge(...)` is `keras.layers.merge`.
CALLABLE = {"keras.layers.merge": f"{_OURS}.merge:merge"}

HINTS = {
    "keras.optimizers.optimizer_from_config": "keras.optimizers.deserialize(config), Keras 2's "
                                              "name for it",
    "keras.layers.Merge": "the Keras 2 merge layers (keras.layers.Concatenate, Add, Multiply, "
                          "Average, Maximum, Dot)",
    "keras.legacy": "Keras 2's converters of Keras 1 arguments; call the layers with Keras 2 "
                    "arguments",
    "keras.relu": "keras.activations.relu",
}
DEFAULT_HINT = ("tf_keras 2.21 (the Keras 2 API tf1compat serves) has no such name; "
                "see tf_keras's API or tf.keras")


def is_module(path: str) -> bool:
    return path in SOURCES


def hint(path: str) -> str:
    for prefix in sorted(HINTS, key=len, reverse=True):
        if path == prefix or path.startswith(prefix + "."):
            return f"use {HINTS[prefix]}"
    return DEFAULT_HINT
