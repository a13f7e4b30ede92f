"""`tf1compat.contrib.X...` as importable modules, deep `python.*` paths included.

TF 1.x scripts import `tensorflow.contrib.framework.python.ops.arg_scope`,
`tensorflow.contrib.layers.python.layers` or `tensorflow.contrib.metrics`.
`tf1compat run` reads such a path part by part as attributes; `tf1compat
migrate` writes the same path under `tf1compat.contrib.`, which this finder
makes importable. Both end in `deep_attribute`, so a path resolves to the
same served name as its public spelling (`tf.contrib.framework.arg_scope`)
or fails with the same error.

- a folder of contrib's tree (`framework.python`, `framework.python.ops`) or
  an unknown module file (`layers.python.layers.initializers`) is a
  `DeepModule`, whose attributes resolve by their public name;
- a path naming a public name (`layers.python.layers.layers.conv2d`) is that
  name, served from the contrib table;
- our own contrib modules (`tf1compat.contrib.layers`) load as packages with
  no files under them, so the import system asks this finder for the rest.
"""

from __future__ import annotations

import functools
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
from typing import Any, Optional

from tf1compat.contrib.paths import MODULE_FILES, at_module_file, public_name

PREFIX = "tf1compat.contrib."


class DeepModule(types.ModuleType):
    """A folder or module file of TF 1.x's contrib tree (`framework.python.ops`)."""

    def __init__(self, raw: str):
        super().__init__(PREFIX + raw, f"tensorflow.contrib.{raw}, served by tf1compat: its "
                                       "names resolve as their public tf.contrib names")
        self.__dict__["_contrib_raw"] = raw
        self.__path__ = []  # deeper imports come back to the finder

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return deep_attribute(f"{self._contrib_raw}.{name}")

    def __repr__(self) -> str:
        return f"<tf.contrib module {self._contrib_raw} (tf1compat)>"


@functools.lru_cache(maxsize=None)
def deep_module(raw: str) -> DeepModule:
    return DeepModule(raw)


def deep_attribute(raw: str) -> Any:
    """What `tensorflow.contrib.<raw>` (a path with `.python.` in it) stands for.

    Raises:
      ContribError: the public name it stands for is not served (the message names it,
        the path as written, and what to use instead when known).
    """
    from tf1compat.contrib import registry

    above = raw.rpartition(".")[0]
    public, parent = public_name(raw), public_name(above)
    if raw in MODULE_FILES or (public == parent and above not in MODULE_FILES):
        return deep_module(raw)
    if registry.lookup(public) is not None:
        return registry.resolve(public)
    if registry.is_namespace(public):
        return registry.namespace_module(public)
    if at_module_file(raw):
        return deep_module(raw)
    raise registry.ContribError(public, f"(written tensorflow.contrib.{raw}) "
                                        + registry.hint(public))


class ContribFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds `tf1compat.contrib.<namespace>[.<more>]`: our files as packages, the rest served."""

    def find_spec(self, fullname: str, path, target=None) -> Optional[importlib.machinery.ModuleSpec]:
        if not fullname.startswith(PREFIX):
            return None
        from tf1compat.contrib import registry

        name = fullname[len(PREFIX):]
        if "." not in name:
            if name in registry.MODULES:
                spec = importlib.machinery.PathFinder.find_spec(fullname, path)
                if spec is not None:
                    spec.submodule_search_locations = []
                return spec
            if not registry.is_namespace(name):
                return None  # registry, arg_scope, census, ...: plain modules
            return importlib.util.spec_from_loader(fullname, self, is_package=True)
        parent, _, last = fullname.rpartition(".")
        if parent not in sys.modules or not registry.is_namespace(name.split(".")[0]):
            return None  # tf1compat.contrib.census.scan and the like: plain modules
        value = getattr(sys.modules[parent], last)  # ContribError names what is not served
        if not isinstance(value, types.ModuleType):
            return None  # a function or class: `from ... import` reads it as an attribute
        return importlib.util.spec_from_loader(fullname, self, is_package=True)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        from tf1compat.contrib import registry

        name = spec.name[len(PREFIX):]
        if "." not in name:
            return registry.namespace_module(name)
        parent, _, last = spec.name.rpartition(".")
        return getattr(sys.modules[parent], last)

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing to run: the module object is the served one."""


def install() -> None:
    """Puts the finder first on `sys.meta_path` (once)."""
    if not any(isinstance(finder, ContribFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, ContribFinder())


def import_error(path: str, names: tuple[str, ...] = ()) -> Optional[str]:
    """Why `from tensorflow.contrib.<path> import <names>` fails under tf1compat, or None.

    With no names: why `import tensorflow.contrib.<path>` fails. `run` and
    `migrate` both ask this, so they agree on every import.
    """
    import tf1compat.contrib as module

    value: Any = module
    try:
        for part in filter(None, path.split(".")):
            value = getattr(value, part)
        if not isinstance(value, types.ModuleType):
            return f"tensorflow.contrib.{path} is not a module"
        for name in names:
            if name != "*":
                getattr(value, name)
    except (AttributeError, ImportError) as error:
        return str(error)
    return None
