"""Makes one declared TensorFlow internal absent, as a TensorFlow without it would be.

Used in-process (with pytest's monkeypatch) and in child processes (with
`Remover`, which undoes what it did). A module is made absent by a None in
`sys.modules` (its import then fails); a module's attribute by deleting it; a
class's attribute by hiding it from the class (TensorFlow's own objects still
find it); an instance attribute by a class whose code never mentions it.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

from tf1compat.shared.tf_internals import TfInternal


def entries(internal: TfInternal) -> list[tuple[str, bool]]:
    """(name, is_instance_name) for every name of `internal`."""
    return [(name, False) for name in internal.names] + \
        [(name, True) for name in internal.instance_names]


class Remover:
    """Removes names; `undo()` puts everything back. `setattr`/`delattr`/`setitem` as monkeypatch."""

    def __init__(self):
        self._undo: list = []

    def setattr(self, owner: Any, name: str, value: Any) -> None:
        old = owner.__dict__.get(name, _MISSING) if isinstance(owner, (type, types.ModuleType)) \
            else getattr(owner, name, _MISSING)
        self._undo.append(lambda: _put_back(owner, name, old))
        setattr(owner, name, value)

    def delattr(self, owner: Any, name: str) -> None:
        old = owner.__dict__[name]
        self._undo.append(lambda: setattr(owner, name, old))
        delattr(owner, name)

    def setitem(self, mapping: dict, key: str, value: Any) -> None:
        old = mapping.get(key, _MISSING)
        self._undo.append(lambda: _put_back_item(mapping, key, old))
        mapping[key] = value

    def undo(self) -> None:
        while self._undo:
            self._undo.pop()()


_MISSING = object()


def _put_back(owner: Any, name: str, old: Any) -> None:
    if old is _MISSING:
        delattr(owner, name)
    else:
        setattr(owner, name, old)


def _put_back_item(mapping: dict, key: str, old: Any) -> None:
    if old is _MISSING:
        mapping.pop(key, None)
    else:
        mapping[key] = old


def _owner_and_attribute(module: str, path: str) -> tuple[Any, str]:
    value: Any = importlib.import_module(module)
    parts = path.split(".")
    for part in parts[:-1]:
        value = getattr(value, part, None) or importlib.import_module(f"{value.__name__}.{part}")
    return value, parts[-1]


def make_absent(patcher, internal: TfInternal, name: str, instance: bool = False) -> None:
    """Makes `name` of `internal` absent through `patcher` (monkeypatch or Remover)."""
    if not name:  # the module itself
        patcher.setitem(sys.modules, internal.module, None)
        return
    if instance:
        hollow = type("Hollow", (), {"__init__": lambda self, *a, **k: None})
        owner, class_name = _owner_and_attribute(internal.module, name.rpartition(".")[0])
        patcher.setattr(owner, class_name, hollow)
        return
    owner, attribute = _owner_and_attribute(internal.module, name)
    if isinstance(owner, type):  # hidden from the class, still there for TensorFlow's instances
        found = next(klass.__dict__[attribute] for klass in owner.__mro__
                     if attribute in klass.__dict__)
        patcher.setattr(owner, attribute, _HiddenFromClass(found))
        return
    if isinstance(getattr(owner, attribute, None), types.ModuleType):
        patcher.setitem(sys.modules, f"{owner.__name__}.{attribute}", None)
    patcher.delattr(owner, attribute)


class _HiddenFromClass:
    """A class attribute that `Class.name` no longer finds; `instance.name` still does.

    So TensorFlow, which calls it on its own objects, keeps working, as a
    TensorFlow that renamed it would; only the lookup tf1compat makes fails.
    """

    def __init__(self, original: Any):
        self.original = original

    def __get__(self, instance: Any, owner: type) -> Any:
        if instance is None:
            raise AttributeError("hidden for a test")
        getter = getattr(self.original, "__get__", None)
        return self.original if getter is None else getter(instance, owner)
