"""Imports of installed libraries that are TF1 code (tflearn): reported, since migrating the
script leaves them as they are.

`migrate` rewrites the user's files, never an installed library. A library that cannot load
on TF 2 (`tf1compat.runner.tf1_libraries.tf1_evidence`: it uses `tensorflow.contrib` as it
loads) still fails under the migrated script; `tf1compat run` serves it TF1. Each import of one
is reported where it is, with the evidence. Nothing is imported to tell: the package is found
by its import spec and read as text.
"""

from __future__ import annotations

import importlib.util
import os
from typing import Optional

import libcst as cst
from libcst.helpers import get_full_name_for_node

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule
from tf1compat.runner.tf1_libraries import library_of, tf1_evidence


def installed_tf1_library(top: str) -> Optional[str]:
    """Why the installed package `top` is TF1 code, or None (not installed, or not TF1 code)."""
    if top.startswith("tensorflow") or top in ("tf1compat", "modern"):
        return None
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations or not spec.origin:
        return None
    folder = library_of(spec.origin)
    if folder is None or os.path.realpath(folder) != os.path.realpath(
            os.path.dirname(spec.origin)):
        return None
    return tf1_evidence(folder)


class Tf1LibrariesRule(Rule):
    NAME = "tf1-libraries"
    DESCRIPTION = "imports of installed libraries that are TF1 code -> reported (run serves them)"

    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        self.reported: set[str] = set()

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            self._check(node, get_full_name_for_node(alias.name))

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if not node.relative and node.module is not None:
            self._check(node, get_full_name_for_node(node.module))

    def _check(self, node: cst.CSTNode, name: Optional[str]) -> None:
        top = (name or "").partition(".")[0]
        if not top or top in self.reported:
            return
        evidence = installed_tf1_library(top)
        if evidence is None:
            return
        self.reported.add(top)
        self.add(node, Kind.NOT_CONVERTED,
                 f"{top} is an installed library that is TF1 code ({evidence}): migrate changes "
                 f"your files, not it, so the migrated script still fails where {top} loads; "
                 f"run the script with `tf1compat run` (it serves {top} TF1), or move off {top}")
