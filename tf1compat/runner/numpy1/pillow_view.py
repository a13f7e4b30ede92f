"""The `PIL` user code gets under `run --numpy 1`: the resampling names Pillow 10 removed, served.

TF1 programs resized images with `img.resize(size, Image.ANTIALIAS)`: Pillow 10 removed
`Image.ANTIALIAS`, `Image.LINEAR` and `Image.CUBIC`, which were the very filters still named
`Image.LANCZOS`, `Image.BILINEAR` and `Image.BICUBIC` (the same integers since Pillow 2.7),
so reading them back gives the same resize. User code's `from PIL import Image`,
`import PIL.Image` and `from PIL.Image import ANTIALIAS` reach `ImageModule`; every other name,
and every other PIL module, is the installed Pillow's. Where Pillow is not installed, the
import fails as it would without `run`.
"""

from __future__ import annotations

import importlib
import types
from typing import Any, Callable, Sequence

from tf1compat.shared.module_view import TARGET, ModuleView

# Pillow 9's name -> the name of the same filter that Pillow 10 kept.
REMOVED_IN_PILLOW_10 = {"ANTIALIAS": "LANCZOS", "LINEAR": "BILINEAR", "CUBIC": "BICUBIC"}


class ImageModule(ModuleView):
    """`PIL.Image` for user code: the installed module's names, then Pillow 9's removed ones
    (each read of those counted, so nothing is kept; Pillow is imported at the first read)."""

    def __init__(self, used):
        super().__init__("PIL.Image")
        self._view_set("_np1_used", used)

    def _view_target(self) -> types.ModuleType:
        return importlib.import_module("PIL.Image")

    def _view_attribute(self, name: str) -> Any:
        real = self._view_target()
        if name not in REMOVED_IN_PILLOW_10 or hasattr(real, name):
            return TARGET
        self._np1_used[f"PIL.Image.{name}"] += 1
        return getattr(real, REMOVED_IN_PILLOW_10[name])

    def _view_names(self) -> frozenset[str]:
        return frozenset(REMOVED_IN_PILLOW_10)


class PILModule(ModuleView):
    """`PIL` for user code: its `Image` is `ImageModule`, the rest the installed Pillow's."""

    def __init__(self, image: ImageModule):
        super().__init__("PIL")
        self._view_set("Image", image)

    def _view_target(self) -> types.ModuleType:
        return importlib.import_module("PIL")

    def _view_attribute(self, name: str) -> Any:
        if hasattr(self._view_target(), name):
            return TARGET
        return importlib.import_module(f"PIL.{name}")  # `import PIL.ImageDraw` read later


def importer(view: PILModule) -> Callable[[str, Sequence[str], Callable[[], Any]], Any]:
    """The user_modules importer for `PIL`."""

    def answer(name: str, fromlist: Sequence[str], original: Callable[[], Any]) -> Any:
        module = original()  # Pillow's own import, so a missing Pillow fails as it always did
        if name == "PIL.Image" and fromlist:
            return view.Image
        return view if name == "PIL" or not fromlist else module

    return answer
