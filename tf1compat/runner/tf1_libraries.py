"""Installed libraries that are TF1 code (tflearn, written for TF 1.x): found, and served TF1.

`run` serves TF1 to user code: an installed library gets TF 2.21, as it would without `run`
(Keras, tf_slim and the rest are TF 2 code). A library that cannot even be imported on TF 2
is TF1 code, and gets TF1 as the script does: `Tf1Libraries` decides it the first time one of
the library's modules imports tensorflow, from its source (`tf1_evidence`: a module that
imports `tensorflow.contrib` or reads `tf.contrib` as it loads, outside a `try` or an `if`
that could guard it). `--library-root` keeps such a library on TF 2.21. A TF1 library this
cannot tell fails at a TF1 name, and the error names the `--user-root` flag for its folder.
"""

from __future__ import annotations

import ast
import functools
import os
import re
from typing import Iterable, Optional

from tf1compat.runner.roots import installed_roots

# Import paths that only TF 1.x had: nothing in TF 2.21 answers them.
TF1_ONLY_PATHS = ("tensorflow.contrib", "tensorflow.examples.tutorials")
_MISSING_TF_NAME = re.compile(r"module 'tensorflow(\.[\w.]+)?' has no attribute '\w+'")


def is_tf1_name_error(error: BaseException) -> bool:
    """Whether `error` is TF 2.21 lacking a TF1 module or name."""
    if isinstance(error, ModuleNotFoundError):
        name = error.name or ""
        return any(name == path or name.startswith(path + ".") for path in TF1_ONLY_PATHS)
    return isinstance(error, AttributeError) and bool(_MISSING_TF_NAME.search(str(error)))


def library_of(filename: str) -> Optional[str]:
    """The top-level folder of the installed package holding `filename`, or None."""
    path = os.path.realpath(filename)
    # the deepest root: a venv's site-packages lies inside its lib/pythonX.Y
    for root in sorted(installed_roots(), key=len, reverse=True):
        if path.startswith(root + os.sep):
            top = path[len(root) + 1:].split(os.sep)[0]
            folder = os.path.join(root, top)
            return folder if os.path.isdir(folder) else None
    return None


# Text a module that uses a TF1-only path must hold (cheaper than parsing every module).
_MAY_USE_TF1_ONLY = re.compile(r"\.contrib\b|import\s+contrib\b|examples\.tutorials")
_SKIPPED_FOLDERS = {"tests", "test", "testing", "examples", "__pycache__"}  # never imported


def _tf1_only(dotted: str) -> bool:
    return any(dotted == path or dotted.startswith(path + ".") for path in TF1_ONLY_PATHS)


def _loading_statements(body: list[ast.stmt]) -> Iterable[ast.stmt]:
    """The statements run unconditionally when the module loads: its top level and its
    classes' bodies (not functions, and not a `try`, `if` or `with` that may guard them)."""
    for statement in body:
        yield statement
        if isinstance(statement, ast.ClassDef):
            yield from _loading_statements(statement.body)


def _tf1_use(statement: ast.stmt, tensorflow_names: set[str]) -> Optional[str]:
    """What `statement` takes from TF1 alone as it runs ('tensorflow.contrib.layers'), or None."""
    if isinstance(statement, ast.Import):
        for alias in statement.names:
            if alias.name == "tensorflow":
                tensorflow_names.add(alias.asname or "tensorflow")
            elif _tf1_only(alias.name):
                return alias.name
        return None
    if isinstance(statement, ast.ImportFrom):
        module = statement.module or ""
        if statement.level == 0 and _tf1_only(module):
            return module
        if statement.level == 0 and module == "tensorflow":
            for alias in statement.names:
                if _tf1_only(f"tensorflow.{alias.name}"):
                    return f"tensorflow.{alias.name}"
        return None
    if isinstance(statement, (ast.Assign, ast.AnnAssign, ast.Expr)):
        for node in ast.walk(statement):
            if isinstance(node, ast.Attribute) and node.attr == "contrib" and \
                    isinstance(node.value, ast.Name) and node.value.id in tensorflow_names:
                return f"{node.value.id}.contrib"
    return None


def _module_evidence(path: str) -> Optional[str]:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            text = handle.read()
    except OSError:
        return None
    if not _MAY_USE_TF1_ONLY.search(text):
        return None  # most files: no parse
    try:
        tree = ast.parse(text, path)
    except (SyntaxError, ValueError):
        return None
    tensorflow_names: set[str] = set()
    for statement in _loading_statements(tree.body):
        used = _tf1_use(statement, tensorflow_names)
        if used is not None:
            return f"line {statement.lineno} uses {used} as it loads"
    return None


@functools.lru_cache(maxsize=None)
def tf1_evidence(folder: str) -> Optional[str]:
    """Why the installed package in `folder` is TF1 code ('variables.py line 7 uses
    tensorflow.contrib... as it loads'), or None when nothing in it says so."""
    for directory, folders, files in os.walk(folder):
        folders[:] = sorted(f for f in folders if f not in _SKIPPED_FOLDERS)
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(directory, name)
                found = _module_evidence(path)
                if found is not None:
                    return f"{os.path.relpath(path, os.path.dirname(folder))} {found}"
    return None


class Tf1Libraries:
    """The installed packages of one run found to be TF1 code; they get TF1 as user code does.

    `kept` are folders the user named with --library-root (and tf1compat's own): never taken.
    """

    def __init__(self, kept: Iterable[str]):
        self.kept = [os.path.realpath(path).rstrip(os.sep) + os.sep for path in kept]
        self.taken: dict[str, str] = {}  # folder + os.sep -> the evidence
        self._checked: dict[str, bool] = {}  # importing file -> whether it is taken now

    def take_importer(self, filename: Optional[str]) -> bool:
        """Called when `filename` (a library's module) imports tensorflow: whether this took
        its package as TF1 code just now, to be served TF1 from now on (decided once)."""
        if not filename or filename.startswith("<") or filename in self._checked:
            return False
        taken = len(self.taken)
        self._checked[filename] = self._decide(filename)
        return len(self.taken) > taken

    def _decide(self, filename: str) -> bool:
        folder = library_of(filename)
        if folder is None or os.path.basename(folder).startswith("tensorflow"):
            return False
        key = os.path.realpath(folder) + os.sep
        if key in self.taken:
            return True
        if any(key.startswith(kept) or kept.startswith(key) for kept in self.kept):
            return False
        evidence = tf1_evidence(folder)
        if evidence is None:
            return False
        self.taken[key] = evidence
        return True

    def holds(self, path: str) -> bool:
        return any(path.startswith(folder) for folder in self.taken)

    def roots(self) -> list[dict[str, str]]:
        """The taken folders as the report lists user roots."""
        return [{"path": folder.rstrip(os.sep), "why": f"TF1 library: {evidence}"}
                for folder, evidence in self.taken.items()]
