"""`scipy.misc`'s image helpers (removed in SciPy 1.2-1.3) -> Pillow where exactly equal, else reported.

Only one call has a Pillow spelling with the same result for every image:
`imread(path, mode=M)` with a literal mode other than '1' and 'P' (SciPy 1.1 converted the
image to M and took its array) becomes `numpy.array(PIL.Image.open(path).convert(M))`.
Everything else is reported with what to write: `imread` without a mode turned palette images
into RGB and 1-bit ones into 8-bit first; `imsave`, `imresize` and `toimage` rescaled the data
to 0..255 from its min and max (bytescale), which `PIL.Image.fromarray` and imageio do not.
`tf1compat run` serves them all as SciPy 1.1 had them.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst
from libcst.codemod.visitors import AddImportsVisitor
from libcst.helpers import get_full_name_for_node

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule
from tf1compat.migrate.rules.numpy1 import numpy_aliases

_MODES = ("L", "LA", "RGB", "RGBA", "CMYK", "YCbCr", "I", "F")
_INSTEAD = {
    "imread": "numpy.array(PIL.Image.open(path).convert('RGB')) (convert to the mode you need: "
              "imread turned palette images into RGB)",
    "imsave": "PIL.Image.fromarray(arr).save(path) after scaling the data to uint8 0..255 "
              "yourself (imsave rescaled from the data's min and max)",
    "imresize": "numpy.array(PIL.Image.fromarray(arr).resize((width, height), "
                "PIL.Image.BILINEAR)) on uint8 data (imresize rescaled to 0..255 first, and took "
                "(height, width), a percentage or a fraction)",
    "toimage": "PIL.Image.fromarray(arr) on uint8 data (toimage rescaled to 0..255 first)",
    "bytescale": "((x - x.min()) * 255.0 / (x.max() - x.min()) + 0.5).astype(numpy.uint8)",
    "fromimage": "numpy.array(image) (fromimage turned palette images into RGB)",
    "imrotate": "PIL.Image.fromarray(arr).rotate(angle) or scipy.ndimage.rotate",
    "imfilter": "PIL.ImageFilter",
    "imshow": "matplotlib.pyplot.imshow",
    "logsumexp": "scipy.special.logsumexp", "comb": "scipy.special.comb",
    "factorial": "scipy.special.factorial",
}


class ScipyMiscRule(Rule):
    NAME = "scipy-misc"
    DESCRIPTION = "scipy.misc's removed image helpers -> Pillow where exactly equal, else reported"
    TRIGGERS = ("scipy",)

    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        self.numpy = sorted(numpy_aliases(node))
        self.bound: dict[str, str] = {}  # local name -> 'scipy.misc' or 'scipy.misc.<helper>'
        self.scipy: set[str] = set()     # names bound to scipy itself
        node.visit(_Bindings(self))

    def _helper(self, node: cst.CSTNode) -> Optional[str]:
        """The scipy.misc helper a call's function names, if it is one."""
        name = get_full_name_for_node(node) if isinstance(node, (cst.Name, cst.Attribute)) \
            else None
        if not name:
            return None
        head, _, rest = name.partition(".")
        if head in self.scipy and rest.startswith("misc."):
            helper = rest[len("misc."):]
        elif self.bound.get(head) == "scipy.misc" and rest:
            helper = rest
        elif self.bound.get(head, "").startswith("scipy.misc.") and not rest:
            helper = self.bound[head][len("scipy.misc."):]
        else:
            return None
        return helper if helper in _INSTEAD else None

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        helper = self._helper(original_node.func)
        if helper is None:
            return updated_node
        mode = self._literal_mode(original_node) if helper == "imread" else None
        if mode is not None and self.numpy:
            path = original_node.args[0].value
            AddImportsVisitor.add_needed_import(self.context, "PIL.Image")
            self.add(original_node, Kind.CHANGED,
                     f"scipy.misc.imread(path, mode={mode!r}) -> {self.numpy[0]}.array("
                     f"PIL.Image.open(path).convert({mode!r})) (the same array)")
            return cst.parse_expression(
                f"{self.numpy[0]}.array(PIL.Image.open(__PATH__).convert({mode!r}))"
            ).visit(_Put(path))
        self.add(original_node, Kind.NOT_CONVERTED,
                 f"scipy.misc.{helper} is not in SciPy >= 1.3 and no Pillow call gives the same "
                 f"result: use {_INSTEAD[helper]} (tf1compat run serves it as SciPy 1.1 had it)")
        return updated_node

    @staticmethod
    def _literal_mode(call: cst.Call) -> Optional[str]:
        """M for `imread(path, mode='M')` with nothing else passed."""
        args = call.args
        if len(args) != 2 or args[0].keyword is not None or args[0].star or \
                args[1].keyword is None or args[1].keyword.value != "mode" or \
                not isinstance(args[1].value, cst.SimpleString):
            return None
        mode = args[1].value.evaluated_value
        return mode if mode in _MODES else None


class _Bindings(cst.CSTVisitor):
    """Fills the rule's names for scipy, scipy.misc and helpers imported from it."""

    def __init__(self, rule: ScipyMiscRule):
        self.rule = rule

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            name = get_full_name_for_node(alias.name)
            if name == "scipy.misc" and alias.asname:
                self.rule.bound[alias.asname.name.value] = "scipy.misc"
            elif name in ("scipy", "scipy.misc"):
                self.rule.scipy.add(alias.asname.name.value if alias.asname else "scipy")

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        module = get_full_name_for_node(node.module) if node.module else None
        if node.relative or isinstance(node.names, cst.ImportStar) or \
                module not in ("scipy", "scipy.misc"):
            return
        for alias in node.names:
            name = get_full_name_for_node(alias.name)
            bound = alias.asname.name.value if alias.asname else name
            if module == "scipy" and name == "misc":
                self.rule.bound[bound] = "scipy.misc"
            elif module == "scipy.misc":
                self.rule.bound[bound] = f"scipy.misc.{name}"


class _Put(cst.CSTTransformer):
    def __init__(self, value: cst.BaseExpression):
        self.value = value

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name):
        return self.value if original_node.value == "__PATH__" else updated_node
