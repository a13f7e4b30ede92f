"""Package attributes loaded on first use, so importing a package stays cheap.

Both `tf1compat` and `modern` export names whose modules import TensorFlow;
importing the package must not (TF takes seconds to import, and a package
import must never start TF's runtime).
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, Mapping


def lazy_exports(package: str, namespace: dict[str, Any],
                 exports: Mapping[str, str]) -> tuple[Callable, Callable]:
    """(__getattr__, __dir__) for `package`: name -> the module that defines it."""

    def __getattr__(name: str) -> Any:
        if name in exports:
            value = getattr(importlib.import_module(exports[name]), name)
            namespace[name] = value
            return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(exports))

    return __getattr__, __dir__
