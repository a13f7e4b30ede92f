"""What one `tf.contrib` name is on TF 2.21: how it is served, and its target imported.

The vocabulary of the contrib table (`tf1compat.contrib.registry`) and of the names served
from their TF 1.15 homes (`tf1compat.contrib.homes`).
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
from typing import Any

from tf1compat.contrib.tables import LEGACY_HOMES as _LEGACY_HOMES


class Served(str, enum.Enum):
    """How a TF1 name is served: the one vocabulary of the contrib table, of `run`'s report
    (`tf1compat.runner.served`) and of TensorFlow's own modules' homes. A member is its word
    everywhere a string is: equal to it, hashed as it (a dict keyed by one finds the other),
    printed and written to JSON as it."""

    NATIVE = "native"            # tf.compat.v1 has it
    MAPPED = "mapped"            # a TF2 / tf.compat.v1 home does the same job
    REPLACED = "replaced"        # a tf1compat replacement
    UNSUPPORTED = "unsupported"  # no home: the note says what to use instead

    __hash__ = str.__hash__
    __str__ = str.__str__
    __format__ = str.__format__


@dataclasses.dataclass(frozen=True)
class Entry:
    """One `tf.contrib` name.

    Attributes:
      name: the name under `tf.contrib.`, e.g. 'layers.flatten'.
      served: how it is served.
      target: mapped: the dotted TF name ('tf.compat.v1.train.get_global_step');
        replaced: the tf1compat name; unsupported: '' (the note says more).
      source: 'tf_upgrade_v2' (TensorFlow's tables) or 'tf1compat'.
      note: what to know (for unsupported: the replacement, if one is known).
    """

    name: str
    served: Served
    target: str
    source: str
    note: str = ""

    def to_dict(self) -> dict[str, str]:
        data = {"served": self.served.value, "target": self.target, "source": self.source}
        if self.note:
            data["note"] = self.note
        return data


def import_dotted(target: str) -> Any:
    """'tf.compat.v1.train.get_global_step' or 'tf1compat.contrib.layers.flatten' -> the object.

    `tf.compat.v1.nn.rnn_cell.*` and `tf.compat.v1.layers.*` come from legacy Keras
    (tf1compat.rnn_cell / tf1compat.layers), which works whatever TF_USE_LEGACY_KERAS says.
    """
    for prefix, module_name in zip(_LEGACY_HOMES, ("tf1compat.rnn_cell", "tf1compat.layers")):
        if target.startswith(prefix):
            return getattr(importlib.import_module(module_name), target[len(prefix):])
    if target.startswith("tf."):
        value: Any = importlib.import_module("tensorflow")
        for part in target.split(".")[1:]:
            value = getattr(value, part)
        return value
    parts = target.split(".")
    for end in range(len(parts), 0, -1):
        try:
            value = importlib.import_module(".".join(parts[:end]))
        except ImportError:
            continue
        for part in parts[end:]:
            value = getattr(value, part)
        return value
    raise ImportError(f"cannot import {target}")
