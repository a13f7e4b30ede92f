"""`tf1compat.contrib.X...` as importable modules, deep `python.*` paths included.

TF 1.x scripts import `tensorflow.contrib.framework.python.ops.arg_scope`,
`tensorflow.contrib.layers.python.layers` or `tensorflow.contrib.metrics`.
`tf1compat run` reads such a path part by part as attributes; `tf1compat
migrate` writes the same path under `tf1compat.contrib.`, which this finder
makes importable. Both end in `registry.deep_attribute`, so a path resolves
to the same served name as its public spelling (`tf.contrib.framework.arg_scope`)
or fails with the same error.

The finder serves each module the registry gives for a path (a namespace, a
`DeepModule` folder of contrib's tree, or a served module); our own contrib
modules (`tf1compat.contrib.layers`) load as packages with no files under
them, so the import system asks this finder for the rest.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
from typing import Optional

from tf1compat.contrib import registry
from tf1compat.contrib.registry import PREFIX
from tf1compat.shared import patches


class ContribFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds `tf1compat.contrib.<namespace>[.<more>]`: our files as packages, the rest served."""

    def find_spec(self, fullname: str, path, target=None) -> Optional[importlib.machinery.ModuleSpec]:
        if not fullname.startswith(PREFIX):
            return None
        name = fullname[len(PREFIX):]
        if "." not in name:
            if name in registry.MODULES:
                spec = importlib.machinery.PathFinder.find_spec(fullname, path)
                if spec is not None:
                    spec.submodule_search_locations = []
                return spec
            if not registry.is_namespace(name):
                return None  # registry, arg_scope, ...: plain modules
            return importlib.util.spec_from_loader(fullname, self, is_package=True)
        parent, _, last = fullname.rpartition(".")
        if parent not in sys.modules or not registry.is_namespace(name.split(".")[0]):
            return None  # tf1compat.contrib.registry.X and the like: plain modules
        value = registry.import_step(sys.modules[parent], last)  # ContribError: not served
        if not isinstance(value, types.ModuleType):
            return None  # a function or class: `from ... import` reads it as an attribute
        return importlib.util.spec_from_loader(fullname, self, is_package=True)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        name = spec.name[len(PREFIX):]
        if "." not in name:
            return registry.namespace_module(name)
        parent, _, last = spec.name.rpartition(".")
        return registry.import_step(sys.modules[parent], last)

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing to run: the module object is the served one."""


def install() -> None:
    """Puts the finder first on `sys.meta_path` (once: the registry's "python.contrib-finder")."""
    patches.insert_finder("python.contrib-finder", ContribFinder)
