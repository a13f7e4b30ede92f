"""Where a name of TF 1.15's `tensorflow.python.*` modules lives on TF 2.21.

TF 2.21 keeps most of these modules, but not all of their names: some moved
out (`graph_util.convert_variables_to_constants`), some are another
function under the same name (a v2 one). A name's TF1 home is its public TF1
name (TF 1.15's `tf_export`, under `tf.compat.v1` on TF 2.21); a name TF 1.15
gave no public name stays where TF 2.21 still has it: the same module, or
the private module that defined it. `find` decides it from the listing and
TF 2.21 itself, so nothing here is picked by hand:

- native: TF 2.21's module has the very object TF1 code got;
- mapped: TF 2.21's module lacks it or has another one; the target serves it;
- unsupported: TF 2.21 has it nowhere tf1compat can tell; the note says what to do.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import types
from typing import Any, Callable, Optional

from tf1compat.keras2 import dropped
from tf1compat.contrib.entries import Served
from tf1compat.runner.private_paths import moved, table
from tf1compat.shared.errors import Tf1CompatError

V1 = "tf.compat.v1."
MISSING = object()

# The few names TF 2 renamed in place, the same function under a new name; nothing in
# TF 1.15's listing or TF 2.21 ties the two together, so they are declared here.
# (module, TF 1.15 name) -> TF 2.21 name in the same module.
RENAMED_IN_TF2 = {
    # TF 1.15's C++ IsSequence, exported to Python as nest.is_sequence; TF 2 calls it
    # is_nested (TF 1.15's tf.nest had neither)
    # (declared: tf_internals.NEST_IS_NESTED)
    ("tensorflow.python.util.nest", "is_sequence"): "is_nested",
}


@dataclasses.dataclass(frozen=True)
class Home:
    """Where one TF1 name is served from on TF 2.21.

    Attributes:
      status: Served.NATIVE, MAPPED or UNSUPPORTED.
      target: 'tf.compat.v1.graph_util.convert_variables_to_constants', or a module path
        ('tensorflow.python.ops.control_flow_ops.with_dependencies'); '' when unsupported.
      note: why it is served from there, or (unsupported) what to use instead.
      value: the object itself (None when unsupported, or when not looked up).
    """

    status: Served
    target: str
    note: str = ""
    value: Any = dataclasses.field(default=None, repr=False, compare=False)

    @property
    def public(self) -> Optional[str]:
        """The public TF1 name serving it ('graph_util.convert_variables_to_constants'), if any."""
        return self.target[len(V1):] if self.target.startswith(V1) else None


def kind_of(value: Any) -> str:
    """The listing's kind of a TF 2.21 object: module, class, function or constant."""
    if inspect.ismodule(value):
        return "module"
    if inspect.isclass(value):
        return "class"
    return "function" if callable(value) else "constant"


def import_quietly(module: str) -> Optional[types.ModuleType]:
    """TF 2.21's module `module`, or None when it has none."""
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


def submodule(module: str, name: str) -> Optional[str]:
    """The module `<module>.<name>` stands for in TF1 code, or None when it is not a module.

    TF 1.15's listing decides (`tensorflow.python.compat` was `tensorflow.python.util.compat`);
    for a name it does not have, TF 2.21's module or package does.
    """
    if moved.moved_to(f"{module}.{name}") is not None:  # TF 2 moved it whole (`training_ops`)
        return f"{module}.{name}"
    entry = table.tf1_name(module, name)
    if entry is not None:
        return entry.defined_in if entry.kind == "module" else None
    parent = import_quietly(module)
    real = getattr(parent, name, None)
    if isinstance(real, types.ModuleType):
        return real.__name__
    if real is None and parent is not None and hasattr(parent, "__path__"):
        candidate = f"{module}.{name}"
        if table.is_module(candidate) or import_quietly(candidate) is not None:
            return candidate
    return None


def _moved_home(module: str, name: str) -> Home:
    """`<module>.<name>` of a module TF 2 moved whole: where TF 2.21 holds it now."""
    for target in moved.moved_to(module):
        value = getattr(import_quietly(target), name, MISSING)
        if value is not MISSING:
            return Home(Served.MAPPED, f"{target}.{name}",
                        f"TF 2 moved TF 1.15's {module} to {target}", value)
    return Home(Served.UNSUPPORTED, "", f"TF 2 moved TF 1.15's {module} to "
                f"{', '.join(moved.moved_to(module))}, which hold no {name!r}")


def _v1_order(entry: table.Tf1Name) -> list[str]:
    """Its public names, those ending in its own name first (`gfile.Open` for `Open`)."""
    return sorted(entry.v1_names, key=lambda v1: v1.rpartition(".")[2] != entry.name)


def _same(real: Any, value: Any, kind: str) -> bool:
    if real is value:
        return True
    if kind != "constant":
        return False
    try:
        return type(real) is type(value) and bool(real == value)
    except (TypeError, ValueError):  # an array-like constant: not comparable as one value
        return False


def find(module: str, name: str, walk: Callable[[str], Any]) -> Home:
    """The TF 2.21 home of TF1's `<module>.<name>` (`module` a listed module).

    `walk(v1_name)` returns the object `tf.compat.v1.<v1_name>` stands for, or
    raises AttributeError / ImportError when TF 2.21 has none.

    Raises:
      Tf1CompatError: `walk` raised one (it says what to do, e.g. install legacy Keras).
    """
    keras2 = dropped.served_home(f"{module}:{name}")
    if keras2 is not None:  # TF 1.15's tf.keras had it, tf_keras dropped it: tf1compat serves it
        return Home(Served.MAPPED, dropped.dotted(keras2), dropped.WHY, dropped.load(keras2))
    entry = table.tf1_name(module, name)
    real_module = import_quietly(module)
    real = getattr(real_module, name, MISSING) if real_module is not None else MISSING
    if entry is None and moved.moved_to(module) is not None:
        return _moved_home(module, name)
    if entry is None:
        if real is not MISSING:
            return Home(Served.NATIVE, f"{module}.{name}", "not in TF 1.15's module; TF 2.21's", real)
        return Home(Served.UNSUPPORTED, "", f"neither TF 1.15's {module} nor TF 2.21's has {name!r}")
    for v1 in _v1_order(entry):
        try:
            value = walk(v1)
        except (AttributeError, ImportError) as error:
            if isinstance(error, Tf1CompatError):
                raise
            continue
        if _same(real, value, entry.kind):
            return Home(Served.NATIVE, V1 + v1, "", value)
        why = f"TF 2.21's {module} has no {name}" if real is MISSING else \
            f"TF 2.21's {module}.{name} is another {kind_of(real)}"
        return Home(Served.MAPPED, V1 + v1, f"{why}; TF 1.15's is tf.compat.v1.{v1}", value)
    if real is not MISSING and kind_of(real) == entry.kind:
        return Home(Served.NATIVE, f"{module}.{name}", "TF 1.15 gave it no public name", real)
    renamed = _renamed(module, name)
    if renamed is not None:
        return renamed
    home = entry.defined_in
    if home and home != module:
        value = getattr(import_quietly(home), name, MISSING)
        if value is not MISSING and kind_of(value) == entry.kind:
            return Home(Served.MAPPED, f"{home}.{name}", f"TF 1.15 gave it no public name; TF 2.21 "
                                                    f"has it in {home}, not in {module}", value)
    return Home(Served.UNSUPPORTED, "", instead(entry, real))


def _renamed(module: str, name: str) -> Optional[Home]:
    new_name = RENAMED_IN_TF2.get((module, name))
    if new_name is None:
        return None
    value = getattr(import_quietly(module), new_name, MISSING)
    if value is MISSING:
        return None
    return Home(Served.MAPPED, f"{module}.{new_name}", f"TF 2 renamed {module}.{name} to {new_name}",
                value)


def instead(entry: table.Tf1Name, real: Any = MISSING) -> str:
    """What to do about a TF 1.15 name TF 2.21 does not have."""
    source = (entry.defined_in or entry.module).replace(".", "/") + ".py"
    if real is not MISSING:
        said = (f"TF 2.21's {entry.module}.{entry.name} is a {kind_of(real)}, TF 1.15's was a "
                f"{entry.kind}")
    else:
        where = " or ".join(dict.fromkeys(filter(None, (entry.module, entry.defined_in))))
        said = f"TF 2.21 has no {entry.name} in {where}"
    public = ", ".join(f"tf.{v1}" for v1 in entry.v1_names)
    named = f"its TF1 names ({public}) are not in TF 2.21's tf.compat.v1" if public else \
        "TF 1.15 gave it no public name"
    return (f"{said} and {named}: copy it from TF 1.15's source ({source}) or rewrite the "
            "code with public tf.compat.v1 APIs")
