"""Modules that user code gets in place of the installed ones under `run`, by top-level name.

`import tensorflow` in user code gets TF1 (the shim's own rule). Other libraries of the TF1
era changed under their users too (standalone Keras 2 became Keras 3, NumPy 1 names left
NumPy 2): a server registers, for a top-level module name, an importer that answers user
code's imports of it and of its submodules. Libraries keep the installed module: the import
hook asks an importer only when the importing file is user code, and nothing here touches
`sys.modules`.

An importer is called as `importer(name, fromlist, original)`, with `original()` doing the
import as Python would, and returns what `__import__` returns: the top module for a plain
`import a.b`, the module itself for `from a.b import c`.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

Importer = Callable[[str, Sequence[str], Callable[[], Any]], Any]

_importers: dict[str, Importer] = {}


def register(top: str, importer: Importer) -> None:
    """User code's imports of `top` and `top.*` are answered by `importer` from now on."""
    if "." in top or not top.isidentifier():
        raise ValueError(f"register: top={top!r} is not a top-level module name "
                         "(expected an identifier such as 'keras')")
    _importers[top] = importer


def unregister(top: str) -> None:
    _importers.pop(top, None)


def importer_for(name: str) -> Optional[Importer]:
    """The importer registered for the top-level package of `name`, if any."""
    if not _importers:
        return None
    return _importers.get(name.partition(".")[0])


def registered() -> list[str]:
    return sorted(_importers)
