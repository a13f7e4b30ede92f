"""`tf.contrib.training`: `HParams` (tf1compat.shared.hparams, also `modern.HParams`); the rest
from the contrib table."""

from __future__ import annotations

from typing import Any

from tf1compat.contrib import registry
from tf1compat.shared.hparams import HParams

__all__ = ["HParams"]


def __getattr__(name: str) -> Any:
    return registry.attribute("training", name)
