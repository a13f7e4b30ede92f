"""`tf.contrib.slim`: slim's namespace, on the replacements of contrib.layers and contrib.framework.

slim re-exported contrib.layers (conv2d, fully_connected, max_pool2d,
flatten, dropout, batch_norm, repeat, regularizers, initializers) and
contrib.framework (arg_scope, variables, assign_from_checkpoint_fn);
`slim.prefetch_queue.prefetch_queue` is served too, and `slim.losses` is
TF1's `tf.losses`. slim's training loop (`slim.learning`) and data providers
are not served: the error says what to use instead.
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
