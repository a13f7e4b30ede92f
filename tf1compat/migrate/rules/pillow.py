"""Pillow's resampling names removed in Pillow 10 -> the names of the same filters it kept.

`Image.ANTIALIAS`, `Image.LINEAR` and `Image.CUBIC` were `Image.LANCZOS`, `Image.BILINEAR` and
`Image.BICUBIC` (the same integers since Pillow 2.7): the table is `run`'s
(`tf1compat.runner.numpy1.pillow_view.REMOVED_IN_PILLOW_10`). Read through whatever name the
file binds `PIL.Image` to (`from PIL import Image`, `import PIL.Image as I`, `PIL.Image.X`),
and `from PIL.Image import ANTIALIAS` becomes `from PIL.Image import LANCZOS as ANTIALIAS`.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst
from libcst.helpers import get_full_name_for_node

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule
from tf1compat.runner.numpy1.pillow_view import REMOVED_IN_PILLOW_10


class PillowRule(Rule):
    NAME = "pillow"
    DESCRIPTION = "Pillow 9's removed filter names (Image.ANTIALIAS) -> the ones Pillow 10 kept"
    TRIGGERS = ("PIL",)

    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        self.image_names: set[str] = set()  # names bound to PIL.Image
        self.pil_names: set[str] = set()    # names bound to PIL
        node.visit(_Bindings(self))

    def _removed(self, node: cst.Attribute) -> Optional[str]:
        name = get_full_name_for_node(node)
        if not name or node.attr.value not in REMOVED_IN_PILLOW_10:
            return None
        head = name.rpartition(".")[0]
        if head in self.image_names or (head.endswith(".Image") and
                                        head[:-len(".Image")] in self.pil_names):
            return node.attr.value
        return None

    def leave_Attribute(self, original_node: cst.Attribute,
                        updated_node: cst.Attribute) -> cst.BaseExpression:
        removed = self._removed(original_node)
        if removed is None:
            return updated_node
        kept = REMOVED_IN_PILLOW_10[removed]
        self.add(original_node, Kind.CHANGED,
                 f"Image.{removed} -> Image.{kept} (Pillow 10 removed the old name of this filter)")
        return updated_node.with_changes(attr=cst.Name(kept))

    def leave_ImportFrom(self, original_node: cst.ImportFrom,
                         updated_node: cst.ImportFrom) -> cst.ImportFrom:
        if original_node.relative or isinstance(original_node.names, cst.ImportStar) or \
                get_full_name_for_node(original_node.module) != "PIL.Image":
            return updated_node
        names = []
        for alias in updated_node.names:
            name = get_full_name_for_node(alias.name)
            if name in REMOVED_IN_PILLOW_10:
                self.add(original_node, Kind.CHANGED, f"from PIL.Image import {name} -> "
                         f"{REMOVED_IN_PILLOW_10[name]} (Pillow 10 removed the old name)")
                alias = alias.with_changes(
                    name=cst.Name(REMOVED_IN_PILLOW_10[name]),
                    asname=alias.asname or cst.AsName(name=cst.Name(name)))
            names.append(alias)
        return updated_node.with_changes(names=names)


class _Bindings(cst.CSTVisitor):
    """Fills the rule's names for PIL and PIL.Image."""

    def __init__(self, rule: PillowRule):
        self.rule = rule

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            name = get_full_name_for_node(alias.name)
            if name == "PIL.Image" and alias.asname:
                self.rule.image_names.add(alias.asname.name.value)
            elif name in ("PIL", "PIL.Image"):
                self.rule.pil_names.add(alias.asname.name.value if alias.asname else "PIL")

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if node.relative or isinstance(node.names, cst.ImportStar) or \
                get_full_name_for_node(node.module) != "PIL":
            return
        for alias in node.names:
            if get_full_name_for_node(alias.name) == "Image":
                self.rule.image_names.add(alias.asname.name.value if alias.asname else "Image")
