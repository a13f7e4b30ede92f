"""What TF 1.15's `tensorflow.python.*` modules held, read from the committed listing.

`tf115_modules.json` is written under TensorFlow 1.15 by
`tests/tf1_reference/tf115_private_modules.py`
(its `regenerate` field is the command); its `digest` covers the listing, and
data that does not match it is refused. No TensorFlow import here.

>>> graph_util = 'tensorflow.python.framework.graph_util'
>>> tf1_name(graph_util, 'convert_variables_to_constants').v1_names
('graph_util.convert_variables_to_constants',)
>>> is_module(graph_util), tf1_name(graph_util, 'no_such_name') is None
(True, True)
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
from typing import Any, Optional

from tf1compat.shared.errors import Tf1CompatError

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf115_modules.json")
KINDS = ("module", "class", "function", "constant")


class ListingError(Tf1CompatError, ValueError):
    """The committed TF 1.15 listing is damaged or was edited by hand."""


@dataclasses.dataclass(frozen=True)
class Tf1Name:
    """One public attribute of a TF 1.15 module.

    Attributes:
      module: the module, e.g. 'tensorflow.python.framework.graph_util'.
      name: the attribute, e.g. 'convert_variables_to_constants'.
      kind: one of KINDS.
      defined_in: the module that defines it (a module entry: the module itself),
        '' when that is `module`.
      v1_names: its public TF1 names (`tf_export`), TensorFlow's canonical one first.
    """

    module: str
    name: str
    kind: str
    defined_in: str
    v1_names: tuple[str, ...]

    @property
    def path(self) -> str:
        return f"{self.module}.{self.name}"


def digest(modules: dict[str, Any]) -> str:
    """The listing's digest, as the listing script computes it."""
    text = json.dumps(modules, sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


@functools.lru_cache(maxsize=None)
def document(path: str = DATA) -> dict[str, Any]:
    """The listing file, checked against its digest.

    Raises:
      ListingError: the file is missing, not JSON, or its digest does not match.
    """
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError) as error:
        raise ListingError(f"cannot read TF 1.15's module listing {path}: {error}") from None
    modules = data.get("modules")
    if not isinstance(modules, dict) or digest(modules) != data.get("digest"):
        raise ListingError(
            f"TF 1.15's module listing {path} does not match its digest "
            f"(recorded {data.get('digest')!r}, computed "
            f"{digest(modules) if isinstance(modules, dict) else 'none: no modules'!r}); "
            f"regenerate it: {data.get('regenerate', 'see tf115_listing.py')}")
    return data


def modules() -> dict[str, Any]:
    return document()["modules"]


def is_module(module: str) -> bool:
    """Whether the listing has `module` ('tensorflow.python.ops.rnn_cell')."""
    return module in modules()


def is_package(module: str) -> bool:
    return bool(modules().get(module, {}).get("package"))


def names(module: str) -> list[str]:
    """The public attributes TF 1.15's `module` had (empty when it is not listed)."""
    return sorted(modules().get(module, {}).get("names", {}))


def tf1_name(module: str, name: str) -> Optional[Tf1Name]:
    """The listing's entry for `module.name`, or None when TF 1.15's module had no such name."""
    entry = modules().get(module, {}).get("names", {}).get(name)
    if entry is None:
        return None
    kind, defined_in, v1_names = entry
    return Tf1Name(module, name, kind, defined_in, tuple(v1_names))


def listed_prefix(dotted: str) -> Optional[str]:
    """The longest listed module `dotted` starts with ('tensorflow.python.ops.rnn.dynamic_rnn'
    -> 'tensorflow.python.ops.rnn'), or None."""
    parts = dotted.split(".")
    for end in range(len(parts), 1, -1):
        candidate = ".".join(parts[:end])
        if candidate in modules():
            return candidate
    return None
