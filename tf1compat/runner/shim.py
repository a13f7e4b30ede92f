"""Makes `import tensorflow as tf` in the script give TF1 (`tf.compat.v1`).

Only user code gets the TF1 module (the script, and modules under the user
roots of `roots`: its folder, the working directory, PYTHONPATH): the hook
looks at who imports. TensorFlow, Keras and every other library keep the real
`tensorflow`, and `sys.modules` is not touched, so nothing inside them changes.

The module the script gets is a thin proxy over `tf.compat.v1` that records
which names the script used and how each was served (see `served`), and
turns the errors of names TF 2.21 no longer has into ones that say why.
Names TF 2.21 dropped but tf1compat stands in for (`tf.contrib.*`,
`tensorflow.examples.tutorials.mnist.input_data`) are served from tf1compat,
as attributes and as imports (`from tensorflow.contrib import slim`); TF 0.x
names (`tf.pack`, `tf.mul`) and argument orders (`tf.concat(0, values)`) are
served by `tf0_calls`.
"""

from __future__ import annotations

import builtins
import importlib
import os
import types
from typing import Any, Callable, Iterable, Optional

from tf1compat.shared import patches
from tf1compat.shared.errors import Tf1CompatError
from tf1compat.layers import LEGACY_KERAS_HINT
from tf1compat.census import counts
from tf1compat.contrib import absent_modules
from tf1compat.runner.namespace_dict import NamespaceDict
from tf1compat.shared.module_view import ModuleView
from tf1compat.runner import (import_callers, private_modules, served, tf115_signatures,
                              tf_servers, user_modules)
from tf1compat.runner.usage import usage
from tf1compat.runner.roots import library_roots_of_this_python, own_roots
from tf1compat.runner.tf1_libraries import Tf1Libraries


class LegacyKerasMissingError(Tf1CompatError, AttributeError):
    """The script uses tf.layers (or TF1 tf.keras), which need tf_keras under Keras 3."""


class ServedImportError(Tf1CompatError, ModuleNotFoundError):
    """An import of `tensorflow.contrib...` / `tensorflow.examples...` that nothing serves."""


class TF1Module(ModuleView):
    """A view of `tf.compat.v1` (or one of its namespaces) that records use.

    Attribute reads go to the servers of `tf_servers` (the real module among them);
    namespaces come back wrapped too, so `tf.train.string_input_producer` is recorded under
    that name. Every read is counted for the report: nothing is kept but the namespace views.
    """

    def __init__(self, target: types.ModuleType, path: str, legacy_keras: bool,
                 root: Optional["TF1Module"] = None):
        super().__init__(getattr(target, "__name__", "tensorflow"), target)
        self._view_set("_tf1_root", root if root is not None else self)
        self._view_set("_tf1_path", path)
        self._view_set("_tf1_legacy_keras", legacy_keras)
        self._view_set("_tf1_children", {})

    @property
    def __dict__(self) -> "NamespaceDict":  # type: ignore[override]
        """What `vars(tf.logging)`, `tf.logging.__dict__[level]` and `from tensorflow import *`
        read: the namespace's names, each served as `tf.X` serves it (TF 1.15's module wrapper
        gave its namespace's names there too)."""
        return NamespaceDict(self)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            return self._view_target_attribute(name)
        request = tf_servers.Request(self, name, f"{self._tf1_path}{name}")
        found = tf_servers.answer(request)  # who answers, in order: tf_servers.SERVERS
        if found is None:
            usage.count(request.path)
            raise self._missing(name, request.path, request.error) from None
        module = isinstance(found.value, types.ModuleType)
        tf_servers.record(request.path, found, module)
        if found.how is not tf_servers.How.FOUND:
            return found.value
        if module:
            child = TF1Module(found.value, request.path + ".", self._tf1_legacy_keras,
                              self._tf1_root)
            self._tf1_children[name] = child
            return child
        # TF 1.15's parameters, where TF 2.21's signature of the name differs from them
        return tf115_signatures.adapted(request.path, found.value)

    def _tf1_import(self, name: str) -> Any:
        """What `from tensorflow.<path>.<name> import ...` imports: the module file, where the
        package re-exports a function of that name over it (contrib's arg_scope)."""
        target = self._view_target_module
        module_file = getattr(type(target), "_contrib_module_file", None)  # DeepModule
        found = module_file(target, name) if module_file is not None else None
        if found is None:
            return getattr(self, name)
        return TF1Module(found, f"{self._tf1_path}{name}.", self._tf1_legacy_keras, self._tf1_root)

    def _tf1_check(self, name: str) -> None:
        """Raises the error reading `name` would raise, without recording a use."""
        try:
            getattr(self._view_target_module, name)
        except (AttributeError, ImportError) as error:
            if tf_servers.served_module(f"{self._tf1_path}{name}") is None:
                raise self._missing(name, f"{self._tf1_path}{name}", error) from None

    def _missing(self, name: str, path: str, error: Exception) -> Exception:
        error = self._missing_error(path, error)
        census = counts.said(path)
        if census and not isinstance(error, Tf1CompatError):  # ours say it themselves
            error.args = (f"{error.args[0]} ({census})",) if error.args else error.args
        return error

    def _missing_error(self, path: str, error: Exception) -> Exception:
        top = path.split(".")[0]
        if path.startswith(served.LEGACY_KERAS) and not self._tf1_legacy_keras:
            usage.unsupported(path, f"needs legacy Keras: {LEGACY_KERAS_HINT}",
                              missing="needs legacy Keras")
            return LegacyKerasMissingError(
                f"tf.{path} needs legacy Keras. Fix: {LEGACY_KERAS_HINT}")
        usage.unsupported(path, str(error))
        if isinstance(error, Tf1CompatError):  # ours already names the name and what to do
            return error.with_traceback(None)
        if top in _REMOVED:
            return AttributeError(f"tf.{path} is not in TF 2.21: {_REMOVED[top]}")
        if top in ("contrib", "examples"):
            return AttributeError(f"tf.{path} is not in TF 2.21 and tf1compat does not serve it "
                                  f"({error})")
        return AttributeError(f"tf.{path} does not exist in TF 2.21's tf.compat.v1 "
                              f"(TensorFlow said: {error})")

    def __repr__(self) -> str:
        return f"<TF1 module tf.{self._tf1_path or ''} (tf.compat.v1 on TF 2.21, tf1compat run)>"


# `tensorflow.compat...` too: its `v1` is the TF1 module itself (see TF1Module); and
# `tensorflow.keras...`: TF 1.15's was its TF1 API's keras (`tf.keras`, legacy Keras's TF1 API
# here), where TF 2.21's module is the TF2 one (no `backend.set_session`, other optimizers).
_SERVED_TOPS = {path.split(".")[0] for path in served.SERVED_MODULES} | {"compat", "keras"}
# The other API namespaces of TF 1.15 are served from the TF1 module too; where the TF1 module
# has no such name, TensorFlow's own module of that path is the answer, as before.
_NAMESPACE_TOPS = served.TF1_NAMESPACES - _SERVED_TOPS

# TF1 namespaces TensorFlow removed outright (tf.compat.v1 lacks them too) -> what to do instead.
_REMOVED: dict[str, str] = {}  # tf.estimator, the last one, is served by tf1compat.estimator


class ImportHook:
    """Wraps `builtins.__import__` so user code importing tensorflow gets TF1."""

    def __init__(self, tf1_module: TF1Module, user_roots: Iterable[str],
                 library_roots: Iterable[str] = ()):
        self.tf1 = tf1_module
        self.user_roots = [os.path.realpath(root) + os.sep for root in user_roots]
        # A user root inside a library root makes that root user code (a script folder in
        # site-packages), but never tf1compat's own packages: `launch` puts a folder of its
        # own (launch/task_site) on each task's PYTHONPATH.
        own = own_roots()
        self.library_roots = [root for root in library_roots_of_this_python()
                              if root in own or not any(user.startswith(root) and user != root
                                                        for user in self.user_roots)]
        self.library_roots += [os.path.realpath(root) + os.sep for root in library_roots]
        self.tf1_libraries = Tf1Libraries(kept=[*library_roots, *own])
        self.original = builtins.__import__
        self._verdicts: dict[str, bool] = {}
        # Code with no file of its own that is the user's too: a notebook's cells
        # (tf1compat.notebook.extension). Their globals have no `__file__`.
        self._user_namespaces: list[dict] = []
        self._is_cell: Optional[Callable[[str], bool]] = None

    def add_cells(self, namespace: dict, is_cell: Callable[[str], bool]) -> None:
        """Makes code run in `namespace` (an IPython shell's user namespace), and code
        compiled from the files `is_cell` accepts (its cells), user code."""
        self._user_namespaces.append(namespace)
        self._is_cell = is_cell

    def _is_user_namespace(self, globals: Optional[dict]) -> bool:
        return any(globals is namespace for namespace in self._user_namespaces)

    def _is_user_code(self, globals: dict) -> bool:
        """Whether the module (or cell) whose globals these are is user code."""
        return self._is_user_namespace(globals) or self.is_user_file(globals.get("__file__"))

    @staticmethod
    def is_hooked(name: str) -> bool:
        """Whether user code importing `name` gets something else than Python's import does."""
        return name.partition(".")[0] == "tensorflow" or \
            user_modules.importer_for(name) is not None

    def is_user_file(self, filename: Optional[str]) -> bool:
        if self._is_cell is not None and filename and self._is_cell(filename):
            return True
        if not filename or filename.startswith("<"):  # '<frozen runpy>', '<string>'
            return False
        if filename not in self._verdicts:
            path = os.path.realpath(filename)
            library = any(path.startswith(root) for root in self.library_roots)
            user = any(path.startswith(root) for root in self.user_roots)
            self._verdicts[filename] = (user and not library) or self.tf1_libraries.holds(path)
        return self._verdicts[filename]

    def __call__(self, name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and (globals is None or "__file__" not in globals) and \
                self.is_hooked(name) and not self._is_user_namespace(globals):
            # `exec(source, {})`, `__import__("tensorflow")`: the importing frame's file
            return self.__call__(name, {**(globals or {}), **import_callers.globals_of_caller(
                1)}, locals, fromlist, level)
        if level == 0 and globals is not None and name.partition(".")[0] == "tensorflow" \
                and self.tf1_libraries.take_importer(globals.get("__file__")):
            self._verdicts.clear()  # a library found to be TF1 code: its files are user code now
        top = name.split(".")[1] if level == 0 and name.startswith("tensorflow.") else None
        if top is not None and globals is not None and self._is_user_code(globals):
            absent = absent_modules.imported(name, fromlist)  # a tool TF 2.21 does not ship
            if absent is not None:
                return absent
        if top is not None and (top in _SERVED_TOPS or top in _NAMESPACE_TOPS
                                or top == "python") and \
                globals is not None and self._is_user_code(globals):
            if top == "python":  # `from tensorflow.python.framework import graph_util`
                return private_modules.tree_of(self.tf1, usage).import_module(
                    name, fromlist, lambda: self.original(name, globals, locals, fromlist, level))
            if top in _SERVED_TOPS:
                return self._served_import(name, fromlist)
            return self._namespace_import(name, globals, locals, fromlist, level)
        if level == 0 and globals is not None:
            importer = user_modules.importer_for(name)
            if importer is not None and self._is_user_code(globals):
                return importer(name, fromlist or (),
                                lambda: self.original(name, globals, locals, fromlist, level))
        module = self.original(name, globals, locals, fromlist, level)
        if level == 0 and name == "tensorflow" and globals is not None \
                and self._is_user_code(globals):
            return self.tf1
        return module

    def _served_import(self, name: str, fromlist) -> Any:
        """`import tensorflow.contrib.slim` and friends, from tf1compat, without sys.modules.

        As Python's own import does, the top package comes back for a plain
        import (the parts are then read as attributes) and the module itself
        for a `from ... import` (whose names are checked here, so a missing
        one raises an error that names it, not "cannot import name").
        """
        module: Any = self.tf1
        parts = name.split(".")[1:]
        try:
            for index, part in enumerate(parts):  # the imported module itself, not an attribute
                module = module._tf1_import(part) if fromlist and index == len(parts) - 1 \
                    else getattr(module, part)
            for item in fromlist or ():
                if item != "*":
                    module._tf1_check(item)
        except AttributeError as error:
            message = str(error) if isinstance(error, Tf1CompatError) else \
                f"No module named {name!r} on TF 2.21: {error}"
            raise ServedImportError(message, name=name) from None
        return module if fromlist else self.tf1

    def _namespace_import(self, name, globals, locals, fromlist, level) -> Any:
        """`from tensorflow.train import AdamOptimizer`: TF1's names, as TF 1.15 gave them; a
        path the TF1 module does not serve is TensorFlow's own module, and where neither has
        it, the error names what the TF1 module lacks."""
        try:
            return self._served_import(name, fromlist)
        except ServedImportError as served_error:
            try:
                return self.original(name, globals, locals, fromlist, level)
            except ImportError:
                raise served_error from None

    def install(self) -> None:
        builtins.__import__ = self

    def uninstall(self) -> None:
        if builtins.__import__ is self:
            builtins.__import__ = self.original


def legacy_keras_available() -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec("tf_keras") is not None
    except (ImportError, ValueError):
        return False


def install(user_roots: Iterable[str], legacy_keras: bool,
            library_roots: Iterable[str] = ()) -> ImportHook:
    """Puts the hook in place; `import tensorflow` in user code now gives TF1. Once per
    process (the registry's "python.import-hook"): a second call returns the first hook."""
    import tensorflow as tf

    tf_servers.tf115_calls()
    tf115_signatures.tf115_parameters()  # read before user code starts (about 20 ms)

    def put_in_place() -> tuple[ImportHook, Callable[[], None]]:
        hook = ImportHook(TF1Module(tf.compat.v1, "", legacy_keras), user_roots, library_roots)
        hook.install()
        return hook, hook.uninstall

    with patches.all_or_nothing():
        hook = patches.apply("python.import-hook", put_in_place)
        patches.replace_attribute("python.import-module", importlib, "import_module",
                                  import_callers.routed_import_module(hook))
    return hook
