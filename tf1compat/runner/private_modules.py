"""`tensorflow.python.*` in user code under `run`: TF 2.21's modules with TF1's names put back.

TF1 scripts import TensorFlow's own modules (`from tensorflow.python.framework
import graph_util`, `from tensorflow.python.platform import gfile`). For
each module TF 1.15's listing has (tf1compat.runner.private_paths), user code gets
a view: the real TF 2.21 module, except that a name TF 1.15's module had and
TF 2.21's lacks, or has as another object (a v2 function under the same
name), comes from its TF1 home (`private_paths.homes`). Every name read is
recorded as the shim records `tf.` names, under `tf.python.<module>.<name>`.
A name nothing serves fails at the script's line, naming it and what to do.
Modules the listing does not have are TF 2.21's own, untouched; nothing
changes for TensorFlow or any library.
"""

from __future__ import annotations

import importlib
import types
from typing import Any, Callable, Optional

from tf1compat.contrib import absent_modules
from tf1compat.contrib.entries import Served
from tf1compat.keras2 import dropped
from tf1compat.estimator.tf115_modules import estimator_module, is_estimator_module
from tf1compat.runner.private_paths import homes, moved, table
from tf1compat.runner import served, tf115_signatures
from tf1compat.shared.module_view import module_dict
from tf1compat.shared.errors import Tf1CompatError
from tf1compat.shared.module_view import ModuleView


class PrivateNameError(Tf1CompatError, AttributeError):
    """A name of a TensorFlow module that TF 2.21 has nowhere tf1compat can tell."""


class PrivateImportError(Tf1CompatError, ImportError):
    """An import of a TensorFlow module, or of a name from one, that nothing serves."""


def _with_census(path: str, message: str) -> str:
    """The message, with how often the census saw the name (`counts.said`)."""
    from tf1compat.census.counts import said

    census = said(path)
    return f"{message} ({census})" if census else message


def _path(module: str, name: str) -> str:
    """'tensorflow.python.ops.rnn', 'dynamic_rnn' -> 'python.ops.rnn.dynamic_rnn' (as `tf.` names)."""
    return f"{module[len('tensorflow.'):]}.{name}"


class PrivateModule(ModuleView):
    """TF1's view of one TensorFlow module: TF 2.21's module, TF 1.15's names (each read
    recorded by the tree for the run's report, so nothing is kept)."""

    def __init__(self, name: str, real: Optional[types.ModuleType], tree: "PrivateTree"):
        super().__init__(name, real)
        self._view_set("_private_tree", tree)

    def _view_attribute(self, name: str) -> Any:
        return self._private_tree.attribute(self.__name__, name)

    def _view_names(self) -> list[str]:
        return table.names(self.__name__)

    def __repr__(self) -> str:
        return (f"<module {self.__name__} (TF 2.21's, with TF 1.15's names: tf1compat run)>")


def _holds_contrib_spelling(module: str) -> bool:
    """Whether TF 1.15's module `module`, or one below it, held a contrib replacement's object
    (TPUClusterResolver): then the module is a view, whose names the tree resolves."""
    from tf1compat.contrib.tables import OTHER_SPELLINGS

    holders = {spelling.partition(":")[0] for spelling in OTHER_SPELLINGS if ":" in spelling}
    return any(holder == module or holder.startswith(module + ".") for holder in holders)


def contrib_module(name: str) -> Optional[types.ModuleType]:
    """tf1compat's module for TF 1.15's module `name` where TF 2.21 has none and tf1compat
    serves it whole (`tensorflow.python.distribute.all_reduce`, contrib's all_reduce), else
    None."""
    from tf1compat.contrib.tables import PRIVATE_MODULE_HOMES

    home = PRIVATE_MODULE_HOMES.get(name)
    return None if home is None else importlib.import_module(home)


class PrivateTree:
    """The views of one run: modules by name, and each name's resolution, found once."""

    def __init__(self, root: Any, usage: Any):
        self.root = root  # the script's TF1 module (shim.TF1Module over tf.compat.v1)
        self.usage = usage  # runner.usage.Usage: what the report says was used and how it was served
        self._modules: dict[str, Optional[types.ModuleType]] = {}
        self._found: dict[tuple[str, str], tuple[Optional[str], Optional[homes.Home]]] = {}

    def module(self, name: str) -> Optional[types.ModuleType]:
        """What user code gets for module `name`: a view when TF 1.15's listing has it, TF 2.21's
        own module when only TF 2.21 has it, None when neither does. TF 1.15's
        `tensorflow.python.estimator` modules are tensorflow-estimator's (`estimator_module`)."""
        if is_estimator_module(name):
            return estimator_module(name)
        if name in absent_modules.MODULES:  # a tool TF 2.21's package does not ship
            return absent_modules.MODULES[name]
        if name in dropped.PRIVATE_MODULES:  # TF 1.15's Keras module tf_keras dropped
            return importlib.import_module(dropped.PRIVATE_MODULES[name])
        if moved.moved_to(name) is not None or moved.is_moved_package(name):
            from tf1compat.contrib.private_views import view_of  # moved whole in TF 2

            return view_of(name)
        served = contrib_module(name)
        if served is not None:
            return served
        if name not in self._modules:
            real = homes.import_quietly(name)
            self._modules[name] = PrivateModule(name, real, self) \
                if table.is_module(name) or _holds_contrib_spelling(name) or \
                dropped.holds_names(name) else real
        return self._modules[name]

    def resolve(self, module: str, name: str) -> tuple[Optional[str], Optional[homes.Home]]:
        """(the submodule `module.name` stands for, None) or (None, its Home); no use recorded."""
        key = (module, name)
        if key not in self._found:
            submodule = homes.submodule(module, name)
            self._found[key] = (submodule, None) if submodule is not None else \
                (None, homes.find(module, name, self._walk))
        return self._found[key]

    def _walk(self, v1_name: str) -> Any:
        """`tf.compat.v1.<v1_name>` itself; what it lacks, as the script's TF1 module serves it
        (tf.estimator from tf1compat, legacy Keras or the error saying what to install)."""
        served = dropped.served_name(v1_name)
        if served is not None:  # TF 1.15's tf.keras name tf_keras dropped or changed
            return dropped.load(served)
        parts = v1_name.split(".")
        value = self.root._view_target_module
        try:
            for part in parts:
                value = getattr(value, part)
            return value
        except (AttributeError, ImportError):
            value = self.root
            for part in parts:
                value = getattr(value, part)
            return value

    def attribute(self, module: str, name: str) -> Any:
        """`<module>.<name>` read by user code, recorded; raises PrivateNameError when unserved."""
        path = _path(module, name)
        submodule, home = self.resolve(module, name)
        if submodule is not None:
            value = self.module(submodule)
            if value is None:
                raise self._unsupported(path, f"{module}.{name}: TF 1.15's module {submodule} is "
                                              "not in TF 2.21; import what it held by its public "
                                              "tf.compat.v1 name")
            self.usage.count(path)
            return value
        from tf1compat.contrib import spellings

        value = spellings.other_spelling(f"{module}:{name}")
        if value is not None:  # TF 1.15's one object, also served under its contrib name
            self.usage.count(path)
            return value
        if home.status is Served.UNSUPPORTED:
            raise self._unsupported(path, f"{module}.{name}: {home.note}")
        self.usage.served_as(path, served.Symbol(home.status, home.target, home.note))
        # TF 1.15's parameters where TF 2.21's differ (array_ops.shape's out_type=int32)
        return tf115_signatures.adapted_as(f"{module}:{name}", home.value)

    def _unsupported(self, path: str, message: str) -> PrivateNameError:
        self.usage.unsupported(path, message)
        return PrivateNameError(_with_census(path, message))

    def check(self, module: str, name: str) -> Optional[str]:
        """Why `from <module> import <name>` fails, or None when it is served (nothing recorded)."""
        submodule, home = self.resolve(module, name)
        if submodule is not None:
            return None if self.module(submodule) is not None else \
                f"TF 1.15's module {submodule} is not in TF 2.21"
        return home.note if home.status is Served.UNSUPPORTED else None

    def import_module(self, name: str, fromlist, real_import: Callable[[], Any]) -> Any:
        """`import <name>` / `from <name> import <fromlist>` in user code.

        The real import runs first (the modules load as TensorFlow has them); then
        a plain import gives the TF1 `tensorflow` (its parts are read as attributes,
        through the views) and a `from` import the module's view.
        """
        if is_estimator_module(name) or contrib_module(name) is not None or \
                moved.moved_to(name) is not None or moved.is_moved_package(name) or \
                name in absent_modules.MODULES or name in dropped.PRIVATE_MODULES:
            module = self.module(name)
            return module if fromlist else self.root
        try:
            real_import()
        except ImportError as error:
            if not table.is_module(name):
                raise PrivateImportError(
                    f"No module named {name!r} in TF 2.21 ({error}), and tf1compat's listing of "
                    f"TF 1.15's modules (tf1compat/runner/private_paths) does not cover it: "
                    f"import what you need from it by its public tf.compat.v1 name",
                    name=name) from None
        if not fromlist:
            return self.root
        module = self.module(name)
        if not isinstance(module, PrivateModule):
            return module  # TF 2.21's own, untouched
        for item in fromlist:
            why = None if item == "*" else self.check(name, item)
            if why is not None:
                path = _path(name, item)
                message = f"cannot import {item} from {name}: {why}"
                self.usage.unsupported(path, message)
                raise PrivateImportError(_with_census(path, message), name=name)
        return module


def tree_of(root: Any, usage: Any) -> PrivateTree:
    """The run's views, kept on its TF1 module (one set per TF1 module)."""
    own = module_dict(root)  # its own dict: `root.__dict__` serves TF1 names (and counts them)
    tree = own.get("_tf1_private")
    if tree is None:
        tree = own["_tf1_private"] = PrivateTree(root, usage)
    return tree
