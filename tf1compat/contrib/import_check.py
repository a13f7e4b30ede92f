"""Why an import of `tensorflow.contrib.<path>` fails under tf1compat, or that it does not.

`tf1compat run` and `tf1compat migrate` both ask `import_error`, so they agree
on every import. It reads the path from the `tf1compat.contrib` package as
`run` does, so nothing the package imports may import this module.
"""

from __future__ import annotations

import types
from typing import Any, Optional

import tf1compat.contrib as contrib


def import_error(path: str, names: tuple[str, ...] = ()) -> Optional[str]:
    """Why `from tensorflow.contrib.<path> import <names>` fails under tf1compat, or None.

    With no names: why `import tensorflow.contrib.<path>` fails.
    """
    from tf1compat.contrib.registry import import_step

    value: Any = contrib
    try:
        for part in filter(None, path.split(".")):
            value = import_step(value, part)
        if not isinstance(value, types.ModuleType):
            return f"tensorflow.contrib.{path} is not a module"
        for name in names:
            if name != "*":
                getattr(value, name)
    except (AttributeError, ImportError) as error:
        return str(error)
    return None


def read_error(path: str, chain: tuple[str, ...]) -> Optional[tuple[str, str]]:
    """(the path that fails, why) when a script, having imported `tensorflow.contrib.<path>`,
    reads `chain` on it (`slim.nets.vgg.vgg_16`), or None when each attribute is there.

    Attributes are read as TF 1.15 scripts read them (a package's attribute, not the module
    file an import of the same path loads); the walk stops at a dunder."""
    from tf1compat.contrib.registry import import_step

    value: Any = contrib
    for part in filter(None, path.split(".")):
        value = import_step(value, part)
    for part in chain:
        if part.startswith("__"):
            return None
        try:
            value = getattr(value, part)
        except (AttributeError, ImportError) as error:
            return ".".join(filter(None, [path, part])), str(error)
        path = ".".join(filter(None, [path, part]))
    return None
