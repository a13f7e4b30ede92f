"""Standalone Keras 2 for user code under `run`: `import keras` gets Keras 2 built on tf_keras.

TF 2.21's `keras` is Keras 3; a TF1-era script's `import keras.backend.tensorflow_backend
as KTF` or `from keras.layers import merge` fails at its first line there. User code (the
import hook asks only for user files, `user_modules`) gets `Keras2Module` views instead:
`keras`, `keras.layers`, ... read their names from tf_keras's TF1 view and from
`tf1compat.keras2` (what tf_keras dropped), as `tf1compat.keras2.surface` lists. Libraries
keep the real Keras 3, and `sys.modules` is not touched.

Sessions: Keras's sessions are TF1 sessions like any other, so the run's session hook
already checks, merges and records them; `install` adds to their records which one was
given to `set_session` and which one Keras made for itself, for the report.

A name the served Keras 2 lacks raises at the script's line, naming it and what to use.
"""

from __future__ import annotations

import collections
import importlib
import os
import sys
import types
import weakref
from typing import Any, Optional

from tf1compat.keras2 import surface
from tf1compat.shared.errors import Tf1CompatError
from tf1compat.shared.module_view import ModuleView


class Keras2NameError(Tf1CompatError, AttributeError):
    """A Keras 2 name that the served Keras 2 does not have."""


class Keras2ImportError(Tf1CompatError, ImportError):
    """An import of a Keras 2 module or name that is not served (or of keras without tf_keras)."""


KERAS2_HINT = ("pip install 'tf1compat[legacy]' (TF 2.21's own keras is Keras 3, which has no "
               "Keras 2 API)")
used: collections.Counter[str] = collections.Counter()
missing: dict[str, str] = {}


def _resolve(spec: str) -> Any:
    """'package.module' -> the module; 'package.module:name' -> that attribute of it."""
    module, _, attribute = spec.partition(":")
    value = importlib.import_module(module)
    return getattr(value, attribute) if attribute else value


def _source(spec: str) -> Any:
    """A source of names: a module, an object, or what a function of `surface` builds."""
    value = _resolve(spec)
    return value if isinstance(value, types.ModuleType) or not callable(value) else value()


class Keras2Module(ModuleView):
    """One Keras 2 module as user code sees it: names read from its sources, on first use
    (each read counted for the run's report, so nothing is kept but its submodules' views)."""

    def __init__(self, path: str, sources: Optional[tuple] = None):
        super().__init__(path, doc=f"Keras 2 {path} (tf_keras, served by tf1compat run)")
        self._view_set("_k2_path", path)
        self._view_set("_k2_sources", sources)  # objects; None: read from the surface table
        self._view_set("_k2_children", {})

    def _k2_objects(self) -> tuple:
        if self._k2_sources is None:
            self._view_set("_k2_sources", tuple(_source(spec)
                                                for spec in surface.SOURCES[self._k2_path]))
        return self._k2_sources

    def __getattr__(self, name: str) -> Any:
        if name == "__all__":  # `from keras.layers import *`
            return [n for n in dir(self) if not n.startswith("_")]
        if name == "__version__":  # Keras 2's, read from its sources as any name is
            return self._view_attribute(name)
        return super().__getattr__(name)

    def _view_attribute(self, name: str) -> Any:
        path = f"{self._k2_path}.{name}"
        children = self._k2_children
        if name in children:
            return children[name]
        if surface.is_module(path):
            children[name] = Keras2Module(path)
            used[path] += 1
            return children[name]
        for source in self._k2_objects():
            try:
                value = getattr(source, name)
            except AttributeError:
                continue
            used[path] += 1
            if isinstance(value, types.ModuleType):
                children[name] = Keras2Module(path, (value,))
                return children[name]
            return value
        missing[path] = surface.hint(path)
        raise Keras2NameError(f"{path} is not in Keras 2 as tf1compat run serves it (tf_keras "
                              f"{_tf_keras_version()}): {surface.hint(path)}")

    def __call__(self, *args, **kwargs):
        target = surface.CALLABLE.get(self._k2_path)
        if target is None:
            raise TypeError(f"'module' object is not callable ({self._k2_path})")
        return _resolve(target)(*args, **kwargs)

    def _view_names(self) -> set[str]:
        names = set()
        for source in self._k2_objects():
            names |= set(dir(source))
        prefix = self._k2_path + "."
        names |= {path[len(prefix):] for path in surface.SOURCES
                  if path.startswith(prefix) and "." not in path[len(prefix):]}
        return names

    def __repr__(self) -> str:
        return f"<Keras 2 module {self._k2_path!r} (tf_keras, tf1compat run)>"


def _tf_keras_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tf_keras")
    except PackageNotFoundError:
        return "installed"


_top: Optional[Keras2Module] = None


def top() -> Keras2Module:
    global _top
    if _top is None:
        _top = Keras2Module("keras")
    return _top


def importer(name: str, fromlist, original) -> Any:
    """What `import keras...` / `from keras... import ...` in user code returns."""
    module: Any = top()
    try:
        for part in name.split(".")[1:]:
            module = getattr(module, part)
    except Keras2NameError as error:
        raise Keras2ImportError(f"No module named {name!r}: {error}", name=name) from None
    for item in fromlist:
        if item != "*":
            try:
                getattr(module, item)
            except Keras2NameError as error:
                raise Keras2ImportError(f"cannot import name {item!r} from {name!r}: {error}",
                                        name=name) from None
    return module if fromlist else top()


def missing_importer(name: str, fromlist, original) -> Any:
    raise Keras2ImportError(f"import {name}: tf1compat run serves Keras 2 from legacy Keras "
                            f"(tf_keras), which is not installed: {KERAS2_HINT}", name=name)


def install(legacy_keras: bool, session_hook, gpu_names=None) -> None:
    """Serves `keras` to user code; notes Keras's sessions in the session hook's records.

    Args:
      legacy_keras: whether tf_keras is installed (without it, `import keras` fails saying so).
      session_hook: the run's `SessionHook`.
      gpu_names: a function listing the GPUs the run provides (`--device-map`), or None.
    """
    from tf1compat.keras2 import backend
    from tf1compat.runner import user_modules

    if not legacy_keras:
        user_modules.register("keras", missing_importer)
        return
    user_modules.register("keras", importer)
    records: "weakref.WeakKeyDictionary[Any, dict]" = weakref.WeakKeyDictionary()

    def note(session, record) -> None:
        try:
            records[session] = record
        except TypeError:  # not weak-referenceable: nothing to note later
            pass
        if _made_by_keras(sys._getframe(1)):
            record["keras"] = "Keras's own session (none was set: keras.backend.get_session)"

    def given(session) -> None:
        record = records.get(session)
        if record is not None:
            path, _, line = session_hook.where().rpartition(":")
            record["keras"] = (f"given to keras.backend.set_session at "
                               f"{os.path.basename(path)}:{line}")

    session_hook.taggers.append(note)
    backend.session_listeners.append(given)
    if gpu_names is not None:
        backend.gpu_listing = gpu_names


def _made_by_keras(frame) -> bool:
    """Whether tf_keras's backend is making this session (its default, none having been set)."""
    while frame is not None:
        code = frame.f_code
        if code.co_name in ("get_session", "_get_session") and \
                code.co_filename.replace("\\", "/").endswith("tf_keras/src/backend.py"):
            return True
        frame = frame.f_back
    return False


def report() -> dict[str, Any]:
    """The Keras 2 names the script used, and those not served (with what to use)."""
    return {"names_used": dict(sorted(used.items())), "not_served": dict(sorted(missing.items()))}


def gpu_names(views):
    """The GPUs `--device-map` provides to Keras's session, named as that session lists them.

    Keras 2.3 listed its session's devices: a session with `device_count={'CPU': 2}` under
    `gpu:*=cpu:*` has two GPUs, running on its two CPUs.
    """
    def names() -> list[str]:
        from tf1compat.keras2 import backend

        config = getattr(backend.get_session(), "_config", None)
        cpus = config.device_count["CPU"] if config is not None and \
            "CPU" in config.device_count else None
        return [f"/job:localhost/replica:0/task:0/device:GPU:{index}"
                for index, _ in views.gpus.provided(cpus)]
    return names
