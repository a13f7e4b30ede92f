"""Which folders hold the user's code under `tf1compat run`, and which hold libraries.

Every module that is not an installed library gets the TF1 module for
`import tensorflow`: modules under the script's folder, the working directory
and each `PYTHONPATH` entry (the layout of a model repository whose packages are
imported from its root), and any `--user-root`. The standard library and
site-packages stay libraries even when a PYTHONPATH entry or the working
directory lies above them, and `--library-root` marks more folders as libraries
(it wins over the user roots).
"""

from __future__ import annotations

import dataclasses
import os
import site
import sys
import sysconfig
from typing import Iterable

from tf1compat.shared.errors import OptionError

SCRIPT_FOLDER = "script folder"
WORKING_DIRECTORY = "working directory"
PYTHONPATH = "PYTHONPATH"
USER_ROOT_FLAG = "--user-root"
LIBRARY_ROOT_FLAG = "--library-root"


@dataclasses.dataclass(frozen=True)
class Root:
    path: str
    why: str

    def to_dict(self) -> dict[str, str]:
        return {"path": self.path, "why": self.why}


def installed_roots() -> list[str]:
    """The standard library and site-packages folders of this Python."""
    paths = {sysconfig.get_path(key) for key in ("stdlib", "platstdlib", "purelib", "platlib")}
    paths.update(getattr(site, "getsitepackages", lambda: [])())
    user_site = getattr(site, "getusersitepackages", lambda: None)()
    if user_site:
        paths.add(user_site)
    return sorted(os.path.realpath(path) for path in paths if path)


def own_roots() -> set[str]:
    """tf1compat's and modern's folders, each with a trailing separator."""
    package_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return {os.path.realpath(root) + os.sep
            for root in (package_dir, os.path.join(os.path.dirname(package_dir), "modern"))}


def library_roots_of_this_python() -> list[str]:
    """Folders whose modules are libraries (they keep the real tensorflow), each with a trailing
    separator: the standard library, every site-packages (the user's too), the interpreter's
    prefixes, and tf1compat itself, with its TF2 side."""
    roots = set(installed_roots()) | {sys.prefix, sys.base_prefix, sys.exec_prefix}
    found = {os.path.realpath(root) + os.sep for root in roots if root}
    return sorted(found | own_roots())


def _inside(path: str, roots: Iterable[str]) -> bool:
    return any(path == root or path.startswith(root + os.sep) for root in roots)


def check_folders(paths: Iterable[str], flag: str) -> list[str]:
    """The folders as absolute real paths; OptionError naming the flag for one that is not a folder."""
    checked = []
    for path in paths:
        if not os.path.isdir(path):
            what = "is a file" if os.path.exists(path) else "does not exist"
            raise OptionError(flag, path, "an existing folder", hint=f"it {what}")
        checked.append(os.path.realpath(path))
    return checked


@dataclasses.dataclass(frozen=True)
class Roots:
    user: tuple[Root, ...]
    library: tuple[Root, ...]

    def user_paths(self) -> list[str]:
        return [root.path for root in self.user]

    def to_dict(self) -> dict[str, list[dict[str, str]]]:
        return {"user": [root.to_dict() for root in self.user],
                "library": [root.to_dict() for root in self.library]}


def resolve(script_dir: str, cwd: str, pythonpath: str, user_roots: Iterable[str] = (),
            library_roots: Iterable[str] = ()) -> Roots:
    """The user and library roots of one run.

    Args:
      script_dir: the script's folder (always user code).
      cwd: the working directory.
      pythonpath: the PYTHONPATH value ("" entries mean the working directory).
      user_roots, library_roots: the folders of --user-root / --library-root.

    Raises:
      OptionError: a --user-root / --library-root is not a folder, or a
        --library-root holds the script's folder.
    """
    installed = installed_roots()
    explicit_library = check_folders(library_roots, LIBRARY_ROOT_FLAG)
    script_dir = os.path.realpath(script_dir)
    for path in explicit_library:
        if _inside(script_dir, [path]):
            raise OptionError(LIBRARY_ROOT_FLAG, path, "a folder that does not hold the script",
                              hint=f"the script's folder {script_dir} is in it")
    candidates = [Root(script_dir, SCRIPT_FOLDER), Root(os.path.realpath(cwd), WORKING_DIRECTORY)]
    for entry in pythonpath.split(os.pathsep) if pythonpath else ():
        path = os.path.realpath(entry or cwd)
        if os.path.isdir(path):
            candidates.append(Root(path, PYTHONPATH))
    candidates += [Root(path, USER_ROOT_FLAG)
                   for path in check_folders(user_roots, USER_ROOT_FLAG)]
    user: list[Root] = []
    seen = set()
    for root in candidates:
        automatic = root.why in (WORKING_DIRECTORY, PYTHONPATH)
        if root.path in seen or (automatic and _inside(root.path, installed)):
            continue  # a PYTHONPATH entry into site-packages names libraries, not user code
        seen.add(root.path)
        user.append(root)
    library = [Root(path, LIBRARY_ROOT_FLAG) for path in explicit_library]
    library += [Root(path, "installed") for path in installed]
    return Roots(tuple(user), tuple(library))


def current(script_dir: str, user_roots: Iterable[str] = (),
            library_roots: Iterable[str] = ()) -> Roots:
    """`resolve` for this process: its working directory and PYTHONPATH."""
    return resolve(script_dir, os.getcwd(), os.environ.get("PYTHONPATH", ""), user_roots,
                   library_roots)


__all__ = ["Root", "Roots", "current", "installed_roots", "library_roots_of_this_python",
           "own_roots", "resolve"]
