"""Resolves and checks the private TensorFlow names this project relies on.

The names themselves are declared in `tf1compat.shared.tf_internal_table`
(re-exported here). Code that touches one goes through `resolve` or `patch`,
so the declaration and the use cannot drift apart; `check()` tells which are
present in the installed TensorFlow, and `require` raises one clear error
naming what is missing, the installed version and the tested ones.

Nothing here imports TensorFlow until a name is asked for.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import importlib.metadata
import inspect
import sys
import types
from typing import Any, Callable, Iterable, Optional

from tf1compat.shared.errors import Tf1CompatError
from tf1compat.shared import patches, tf_internal_table
from tf1compat.shared.tf_internal_table import *  # noqa: F401,F403 - the declarations, here too
from tf1compat.shared.tf_internal_table import DECLARED, DEPRECATION_SILENCE, TfInternal

__all__ = tf_internal_table.__all__ + [
    "MissingInternalError", "InternalStatus", "resolve", "patch", "missing", "check", "require",
    "require_feature", "for_feature", "quiet_deprecations", "tensorflow_version",
    "markdown_table"]


class MissingInternalError(Tf1CompatError, RuntimeError):
    """A private TensorFlow name a feature relies on is not in the installed TensorFlow."""

    def __init__(self, internal: TfInternal, absent: Iterable[str]):
        self.internal = internal
        self.absent = tuple(absent)
        tested = ", ".join(internal.checked_on)
        super().__init__(
            f"{internal.feature} needs {', '.join(self.absent)} ({internal.used_for}), which "
            f"TensorFlow {tensorflow_version()} does not have; tf1compat is tested with "
            f"TensorFlow {tested} (pip install 'tensorflow>=2.21,<2.22')")


def tensorflow_version() -> str:
    """The installed TensorFlow's version, without importing it when it is not loaded yet."""
    module = sys.modules.get("tensorflow")
    version = getattr(module, "__version__", None)
    if version:
        return str(version)
    try:
        return importlib.metadata.version("tensorflow")
    except importlib.metadata.PackageNotFoundError:
        return "(not installed)"


def _step(value: Any, part: str) -> Any:
    """`value.part`; a submodule not yet imported is imported."""
    try:
        return getattr(value, part)
    except AttributeError:
        if not isinstance(value, types.ModuleType):
            raise
        try:
            return importlib.import_module(f"{value.__name__}.{part}")
        except ModuleNotFoundError:
            raise AttributeError(f"module {value.__name__!r} has no attribute {part!r}") from None


def _lookup(module: str, path: str) -> Any:
    """The object at `path` inside `module` (ImportError or AttributeError when absent)."""
    value: Any = importlib.import_module(module)
    for part in filter(None, path.split(".")):
        value = _step(value, part)
    return value


def _sets_attribute(cls: type, attribute: str) -> bool:
    """Whether the code of `cls` (and its bases) names `self.<attribute>`."""
    for klass in inspect.getmro(cls):
        for member in vars(klass).values():
            function = inspect.unwrap(getattr(member, "__func__", member))
            code = getattr(function, "__code__", None)
            if code is not None and attribute in code.co_names:
                return True
    return False


def _absent(internal: TfInternal) -> list[str]:
    """The declared locations of `internal` the installed TensorFlow lacks, each with why."""
    absent = []
    for name in internal.names:
        try:
            _lookup(internal.module, name)
        except (ImportError, AttributeError) as error:
            absent.append(_location(internal.module, name, error))
    for entry in internal.instance_names:
        owner, _, attribute = entry.rpartition(".")
        try:
            cls = _lookup(internal.module, owner)
        except (ImportError, AttributeError) as error:
            absent.append(_location(internal.module, entry, error))
            continue
        if not isinstance(cls, type) or not _sets_attribute(cls, attribute):
            absent.append(f"{internal.module}.{entry} (no instance attribute {attribute})")
    return absent


def _location(module: str, name: str, error: BaseException) -> str:
    where = f"{module}.{name}" if name else module
    kind = "no such module" if isinstance(error, ImportError) else "no such attribute"
    return f"{where} ({kind})"


def missing(internal: TfInternal) -> tuple[str, ...]:
    """The locations of `internal` that are absent, e.g. ('x.y.Z (no such attribute)',)."""
    return tuple(_absent(internal))


def resolve(internal: TfInternal, name: Optional[str] = None) -> Any:
    """The object one declared name stands for, imported on first use.

    Args:
      internal: the declaration.
      name: which of its `names`; may be left out when it declares only one.

    Raises:
      MissingInternalError: the installed TensorFlow lacks it.
      ValueError: `name` is not one of the declaration's names.
    """
    if name is None:
        if len(internal.names) != 1:
            raise ValueError(f"resolve({internal.label}) needs name=, one of {internal.names}")
        name = internal.names[0]
    if name not in internal.names:
        raise ValueError(f"{name!r} is not declared in {internal.label}; declared: "
                         f"{internal.names}")
    try:
        return _lookup(internal.module, name)
    except (ImportError, AttributeError) as error:
        raise MissingInternalError(internal, [_location(internal.module, name, error)]) from None


def patch(key: str, wrap: Callable[[Any], Any]) -> Any:
    """Makes the declared patch `key` (`tf1compat.shared.patch_table`): its TensorFlow name
    replaced by `wrap(original)`, once, through the registry (`tf1compat.shared.patches`);
    returns the original.

    Raises:
      MissingInternalError: the installed TensorFlow lacks the name.
    """
    declaration = patches.declared(key)
    module, _, name = declaration.attribute.partition(":")
    internal = declaration.internal
    if internal is None or internal.module != module:
        raise ValueError(f"patch {key!r} is not a declared TensorFlow attribute")
    resolve(internal, name)
    owner_path, _, leaf = name.rpartition(".")
    return patches.replace_attribute(key, _lookup(internal.module, owner_path), leaf, wrap)


@dataclasses.dataclass(frozen=True)
class InternalStatus:
    """Whether one declaration's names are all present in the installed TensorFlow."""

    internal: TfInternal
    absent: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.absent

    def to_dict(self) -> dict[str, Any]:
        return {"names": self.internal.label, "feature": self.internal.feature,
                "required": self.internal.required, "ok": self.ok, "absent": list(self.absent),
                "without": self.internal.without, "checked_on": list(self.internal.checked_on)}


def check(internals: Iterable[TfInternal] = DECLARED) -> list[InternalStatus]:
    """The status of each declaration (imports TensorFlow's modules it names)."""
    return [InternalStatus(internal, missing(internal)) for internal in internals]


def require(internal: TfInternal) -> None:
    """Raises MissingInternalError when any name of `internal` is absent."""
    absent = missing(internal)
    if absent:
        raise MissingInternalError(internal, absent)


def for_feature(feature: str) -> tuple[TfInternal, ...]:
    """The declarations a feature relies on."""
    return tuple(internal for internal in DECLARED if internal.feature == feature)


def require_feature(feature: str) -> None:
    """Raises MissingInternalError for the first declaration of `feature` that is incomplete."""
    declared = for_feature(feature)
    if not declared:
        raise ValueError(f"no TensorFlow internals are declared for feature {feature!r}")
    for internal in declared:
        require(internal)


def quiet_deprecations():
    """TF's `deprecation.silence()` context, or a no-op one when that name is gone."""
    try:
        return resolve(DEPRECATION_SILENCE)()
    except MissingInternalError:
        return contextlib.nullcontext()


def markdown_table(internals: Iterable[TfInternal] = DECLARED) -> str:
    """The table of internals in docs/command-line.md: name, what it is used for, what happens
    without it."""
    rows = ["| TensorFlow internal | used for | without it |", "|---|---|---|"]
    for internal in internals:
        need = "**required**: " if internal.required else ""
        names = ", ".join(f"`{name}`" for name in internal.names + internal.instance_names if name)
        where = f"`{internal.module}`" + (f": {names}" if names else "")
        rows.append(f"| {where} | {internal.used_for} ({internal.feature}) | "
                    f"{need}{internal.without} |")
    return "\n".join(rows)
