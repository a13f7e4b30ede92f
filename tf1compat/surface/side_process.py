"""The command line both serving sides run as: `python -m tf1compat.surface.<side> IN OUT`.

`probe` starts each side in its own process (each chooses TensorFlow's set-up before
importing it); IN is a JSON list of names, OUT gets the side's {name: entry}.
"""

from __future__ import annotations

import json
import sys
from typing import Callable


def main(side: str, serve: Callable[[list[str]], dict[str, dict]], argv: list[str]) -> int:
    if len(argv) != 2:
        print(f"usage: python -m tf1compat.surface.{side} NAMES.json OUT.json",
              file=sys.stderr)
        return 2
    with open(argv[0], encoding="utf-8") as handle:
        names = json.load(handle)
    entries = serve(names)
    with open(argv[1], "w", encoding="utf-8") as handle:
        json.dump(entries, handle, sort_keys=True)
    return 0
