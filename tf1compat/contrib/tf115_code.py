"""Contrib packages served from TF 1.15's own source, on TF 2.21's core.

The packages of WHOLE_PACKAGES are pure Python on TensorFlow's core ops; nobody carries them
on (`graph_editor`, `labeled_tensor`, `grid_rnn`, ...). Of the other packages, each module file
of contrib's source tree that needs no kernel of its own serves the names defined there
(`rnn.stack_bidirectional_dynamic_rnn` is `contrib/rnn/python/ops/rnn.py`'s). TF 1.15's files
(`tf115_source`) run here unchanged, as modules under `tf1compat.contrib.from_tf115.` (`...from_tf115.contrib.
graph_editor.select` is TF 1.15's `tensorflow/contrib/graph_editor/select.py`), so they
compute what TF 1.15 computed by construction. Each module imports through its own
`__import__` (its `__builtins__`; nothing process-wide changes):

- `tensorflow.contrib.<whole package>...` and `tensorflow.contrib.<package>.python...`: that
  module here, or the library's that carries it on (`carriers`: tf_slim's `layers`, with the
  one `arg_scope` tf1compat serves);
- `tensorflow.python.*` as TF 1.x code read it (`private_views`: a name TF 2.21 moved out of
  a module is served where TF 1.15 had it), another contrib package as tf1compat serves it,
  `import tensorflow` the TF1 API.

`tf1compat.contrib.homes` serves each name of these packages from its TF 1.15 home here.
"""

from __future__ import annotations

import ast
import builtins
import functools
import importlib
import importlib.abc
import importlib.util
import types
from pathlib import Path
from typing import Any, Optional

from tf1compat.contrib import absent_modules, tf115_protos
from tf1compat.contrib.carriers import carried_module
from tf1compat.contrib.paths import MODULE_FILES
from tf1compat.contrib.tf115_source import source_root
from tf1compat.shared import patches
from tf1compat.shared.lazy_tf import tensorflow_v1
from tf1compat.shared.module_view import ModuleView

PACKAGE = "tf1compat.contrib.from_tf115"  # a package of this finder's, no folder
PREFIX = PACKAGE + "."
# The packages served whole: pure Python on core ops, checked to load on TF 2.21 this way,
# and nothing else serves a name of theirs. `tf.contrib.<package>` is TF 1.15's package
# itself (its __init__ run), every name it had included (`labeled_tensor.reduce_sum`, made by
# a factory, has no home of its own to be found by).
WHOLE_PACKAGES = frozenset({
    "bayesflow", "copy_graph", "graph_editor", "grid_rnn", "integrate", "labeled_tensor",
    "solvers", "sparsemax", "specs", "testing",
})
# Whole packages whose public name is one of their subpackages: TF 1.15's contrib/__init__.py
# binds `specs` to `tensorflow.contrib.specs.python` (the package's own __init__ is empty).
PUBLIC_SUBPACKAGES = {"specs": "specs.python"}
_unavailable: dict[str, str] = {}  # package -> why it could not be loaded


def whole_package_module(name: str) -> str:
    """Where TF 1.15's `tf.contrib.<name>` (one of WHOLE_PACKAGES) runs here."""
    return f"{PREFIX}contrib.{PUBLIC_SUBPACKAGES.get(name, name)}"


def served_module(tf115_module: str) -> Optional[str]:
    """Where TF 1.15's contrib module runs here: 'tensorflow.contrib.graph_editor.select' ->
    'tf1compat.contrib.from_tf115.contrib.graph_editor.select'. A whole package's modules,
    and any module of contrib's source tree below a package (`tensorflow.contrib.rnn.python.
    ops.rnn`, `tensorflow.contrib.predictor.predictor_factories`), whose package __init__ is
    not run (it imports the package's kernels too); None otherwise (the top of a package not
    served whole is tf1compat's namespace)."""
    parts = tf115_module.split(".")
    if parts[:2] != ["tensorflow", "contrib"] or len(parts) < 3:
        return None
    if parts[2] not in WHOLE_PACKAGES and len(parts) < 4:
        return None
    return PREFIX + ".".join(parts[1:])


def _tf115_import(name, globals=None, locals=None, fromlist=(), level=0):
    """TF 1.15's file's `import`: its contrib sources here, TensorFlow's modules as TF 1.x code
    read them, other contrib packages as tf1compat serves them."""
    if level != 0 or name.partition(".")[0] != "tensorflow":
        return builtins.__import__(name, globals, locals, fromlist, level)
    ours = served_module(name)
    if ours is not None and fromlist:  # from tensorflow.contrib.graph_editor import util
        carried = {item: carried_module(f"{name}.{item}") for item in fromlist}
        if any(carried.values()):  # from tensorflow.contrib.layers.python.layers import layers
            return _CarriedView(ours, {item: module for item, module in carried.items()
                                       if module})
        package = builtins.__import__(ours, globals, locals, fromlist, 0)
        over_files = [item for item in fromlist
                      if f"{name[len('tensorflow.contrib.'):]}.{item}" in MODULE_FILES]
        if over_files:  # from ...framework.python.framework import experimental: the function
            return _FunctionsOverFiles(package, over_files)
        return package
    if name == "tensorflow.contrib" and fromlist:  # from tensorflow.contrib import rnn
        if all(item in WHOLE_PACKAGES for item in fromlist):
            return builtins.__import__(PREFIX + "contrib", globals, locals, fromlist, 0)
        return importlib.import_module("tf1compat.contrib")
    if name.startswith("tensorflow.contrib.") and fromlist:
        own = _own_module_files(name, fromlist)
        if own is not None:  # from tensorflow.contrib.predictor import core_estimator_predictor
            return own
        # a namespace tf1compat serves
        return importlib.import_module("tf1compat.contrib." + name[len("tensorflow.contrib."):])
    absent = absent_modules.imported(name, fromlist)  # gone from TF 2.21's package
    if absent is not None:
        return absent
    if name.startswith("tensorflow.python.estimator") and fromlist:
        # TF 1.15's tensorflow.python.estimator was tensorflow-estimator under another name
        from tf1compat.estimator.tf115_modules import estimator_module

        return estimator_module(name)
    if name.startswith("tensorflow.python") and fromlist:
        return _PackageView(name, fromlist)
    if name == "tensorflow":
        return tensorflow_v1()
    return builtins.__import__(name, globals, locals, fromlist, level)


def _own_module_files(package: str, fromlist) -> Optional[types.ModuleType]:
    """`from tensorflow.contrib.<package> import <module file>, ...` in the package's own
    files: TF 1.15's module files (a view of the package that imports them), or None where
    an item is not a module file of TF 1.15's package (a name its __init__ re-exports)."""
    folder = source_root().joinpath(*package.split(".")[1:])
    if not fromlist or not all((folder / f"{item}.py").is_file() for item in fromlist):
        return None
    return _CarriedView(PREFIX + package[len("tensorflow."):], {})


class _CarriedView(ModuleView):
    """A package of contrib's source tree some of whose modules a library carries on: those
    are the library's (tf_slim's `layers`, with the one `arg_scope` tf1compat serves), the
    others TF 1.15's files."""

    def __init__(self, ours: str, carried: dict[str, str]) -> None:
        super().__init__(ours)
        self._view_set("_carried", carried)

    def _view_attribute(self, item: str) -> Any:
        if item in self._carried:
            from tf1compat.contrib.carriers import import_carried

            return import_carried(self._carried[item])
        return importlib.import_module(f"{self.__name__}.{item}")


class _FunctionsOverFiles(ModuleView):
    """A package of contrib's source tree whose `__init__` (not run here) re-exported a
    function over the module file of its name (`paths.MODULE_FILES`): those names are the
    functions, as TF 1.15's package gave them."""

    def __init__(self, package: types.ModuleType, names: list[str]) -> None:
        super().__init__(package.__name__, package)
        for name in names:
            self._view_set(name, getattr(getattr(package, name), name))


class _PackageView(ModuleView):
    """`from tensorflow.python.ops import control_flow_ops` as TF 1.x code read it: each
    module imported is its view (a name TF 2.21 moved out is served where TF 1.15 had it), and
    so is a name read from a module (`from ...control_flow_ops import cond`)."""

    def __init__(self, name: str, fromlist) -> None:
        from tf1compat.contrib.private_views import view_of

        from tf1compat.runner.private_paths import moved

        view = view_of(name)
        super().__init__(name, view)
        is_package = hasattr(view._view_target(), "__path__")
        for item in fromlist:
            if moved.moved_to(f"{name}.{item}") is not None:  # training_ops, tracking.base
                self._view_set(item, view_of(f"{name}.{item}"))
            elif is_package and item != "*" and \
                    importlib.util.find_spec(f"{name}.{item}") is not None:
                self._view_set(item, view_of(f"{name}.{item}"))


_BUILTINS = dict(vars(builtins), __import__=_tf115_import)


class _Namespace(importlib.abc.Loader):
    """The two package levels above the source's files (`from_tf115`, `from_tf115.contrib`):
    nothing to run (TF 1.15's contrib/__init__.py would import every contrib package)."""

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing to run."""


class _Tf115File(importlib.abc.Loader):
    """Runs one of TF 1.15's files as it is, importing through `_tf115_import`."""

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        path = module.__spec__.origin
        module.__dict__["__builtins__"] = _BUILTINS
        if path.endswith("_pb2.py"):  # protoc's output of 2019, which today's protobuf refuses
            tf115_protos.exec_generated(module, path, Path(path).read_text(encoding="utf-8"))
            return
        code = compile(Path(path).read_text(encoding="utf-8"), path, "exec")
        exec(code, module.__dict__)  # noqa: S102 - TF 1.15's own file, checked by its digest


class Tf115CodeFinder(importlib.abc.MetaPathFinder):
    """Finds `tf1compat.contrib.from_tf115.contrib.<package>...` in TF 1.15's source."""

    def find_spec(self, fullname: str, path=None, target=None) -> Any:
        if fullname == PACKAGE:
            return _package(fullname, [])
        if not fullname.startswith(PREFIX):
            return None
        parts = fullname[len(PREFIX):].split(".")
        if parts == ["contrib"]:
            return _package(fullname, [str(source_root() / "contrib")])
        if parts[0] != "contrib":
            return None
        base = source_root().joinpath(*parts)
        if parts[1] not in WHOLE_PACKAGES and base.is_dir():
            # its module files alone: a package's __init__ imports the whole package, kernels
            # and all, and a failure there would make its module files load or not by order
            return _package(fullname, [str(base)])
        if (base / "__init__.py").is_file():
            return importlib.util.spec_from_file_location(
                fullname, base / "__init__.py", loader=_Tf115File(),
                submodule_search_locations=[str(base)])
        if base.with_suffix(".py").is_file():
            return importlib.util.spec_from_file_location(fullname, base.with_suffix(".py"),
                                                          loader=_Tf115File())
        return None


def _package(fullname: str, locations: list[str]) -> importlib.machinery.ModuleSpec:
    spec = importlib.util.spec_from_loader(fullname, _Namespace(), is_package=True)
    spec.submodule_search_locations = locations
    return spec


def install() -> None:
    """Puts the finder first on `sys.meta_path` (once: the registry's
    "python.tf115-code-finder")."""
    patches.insert_finder("python.tf115-code-finder", Tf115CodeFinder)


def package(name: str) -> Optional[types.ModuleType]:
    """TF 1.15's package `tf.contrib.<name>` (one of WHOLE_PACKAGES) run here, or None where
    it cannot be (`unavailable` then says why)."""
    install()
    try:
        return importlib.import_module(whole_package_module(name))
    except ImportError as error:  # TF 1.15's source not here, or a name TF 2.21 lacks
        _unavailable[name] = str(error)
        return None


def in_source_tree(raw: str) -> bool:
    """Whether TF 1.15's contrib source has a package or module file at `tensorflow.contrib.
    <raw>` ('learn.python.learn.estimators'); False where the source is not here."""
    base = _source_path(raw)
    return base is not None and ((base / "__init__.py").is_file() or
                                 base.with_suffix(".py").is_file())


def is_module_file(raw: str) -> bool:
    """Whether TF 1.15's contrib source has a module file (not a package) at `raw`."""
    base = _source_path(raw)
    return base is not None and base.with_suffix(".py").is_file()


def _source_path(raw: str) -> Optional[Path]:
    from tf1compat.contrib.tf115_source import SourceUnavailable

    try:
        return source_root().joinpath("contrib", *raw.split("."))
    except SourceUnavailable:
        return None


def unavailable(name: str) -> Optional[str]:
    """Why TF 1.15's package `name` could not be served from its source, or None."""
    return _unavailable.get(name)


@functools.lru_cache(maxsize=None)
def _definitions(module: str) -> dict[str, frozenset[str]]:
    """The names each top-level definition of TF 1.15's module file reads (a name, or an
    attribute's last part); {} where the file is not here."""
    parts = module.split(".")[1:]  # 'contrib', package, ...
    try:
        base = source_root().joinpath(*parts)
        path = base / "__init__.py" if base.is_dir() else base.with_suffix(".py")
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (ImportError, OSError, SyntaxError):
        return {}
    found = {}
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            found[node.name] = frozenset(
                [child.id for child in ast.walk(node) if isinstance(child, ast.Name)] +
                [child.attr for child in ast.walk(node) if isinstance(child, ast.Attribute)])
    return found


def reads_any(module: str, qualname: str, names: set[str]) -> bool:
    """Whether TF 1.15's definition of `qualname` in `module` reads one of `names` (its base
    class, a helper it calls)."""
    read = _definitions(module).get(qualname.split(".")[0], frozenset())
    return bool(read & names)


def load(target: str) -> Any:
    """The object at 'tf1compat.contrib.from_tf115.contrib.graph_editor.select.select_ops'.

    Raises:
      ImportError: TF 1.15's source is not here (`tf115_source.SourceUnavailable`, saying
        why), or the module does not load on TF 2.21 (its kernel library, a name TF 2.21
        dropped; whatever it raised is chained).
      AttributeError: the module lacks the name.
    """
    from tf1compat.contrib.entries import import_dotted

    install()
    try:
        return import_dotted(target)
    except (ImportError, AttributeError):
        raise
    except Exception as error:  # noqa: BLE001 - TF 1.15's module failed as it ran on TF 2.21
        raise ImportError(f"TF 1.15's {target.rpartition('.')[0]} does not run on TF 2.21: "
                          f"{type(error).__name__}: {error}") from error
