"""`tf.contrib.training`: `HParams` (tf1compat.contrib.hparams); the rest from the contrib table."""

from __future__ import annotations

from typing import Any

from tf1compat.contrib import registry
from tf1compat.contrib.hparams import HParams

__all__ = ["HParams"]


def __getattr__(name: str) -> Any:
    return registry.attribute("training", name)
