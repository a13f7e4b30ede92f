"""`tf.contrib.slim`: slim's namespace, on the replacements of contrib.layers and contrib.framework.

slim re-exported contrib.layers (conv2d, fully_connected, max_pool2d,
flatten, dropout, batch_norm, repeat, regularizers, initializers) and
contrib.framework (arg_scope, variables, assign_from_checkpoint_fn);
`slim.prefetch_queue.prefetch_queue` is served too. slim's data, training
and evaluation stack (`slim.dataset`, `dataset_data_provider`,
`tfexample_decoder`, `parallel_reader`, `queues`, `learning`, `evaluation`,
`metrics`) and its nets (`slim.nets.vgg`, `resnet_v1`, `inception`, ...) come
from the tf_slim library, contrib.slim's own code (see
`tf1compat.contrib.tf_slim_compat`); tf_slim's layers and tf1compat's share one
arg_scope stack, as TF 1.x's single slim did (`tf_slim_arg_scope`).
"""

from __future__ import annotations

from typing import Any

from tf1compat.contrib import prefetch_queue, registry
from tf1compat.contrib.framework import *  # noqa: F401,F403 - slim's namespace
from tf1compat.contrib.framework import __all__ as _framework_names
from tf1compat.contrib.layers import *  # noqa: F401,F403 - slim's namespace
from tf1compat.contrib.layers import __all__ as _layer_names

__all__ = [*_layer_names, *_framework_names, "prefetch_queue"]


def __getattr__(name: str) -> Any:
    return registry.attribute("slim", name)
