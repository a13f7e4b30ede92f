"""The command line both serving sides run as: `python -m tf1compat.surface.<side> IN OUT`.

`probe` starts each side in its own process (each chooses TensorFlow's set-up before
importing it); IN is a JSON list of names (or names with TF 1.15's entries), OUT gets the side's
{name: entry}.
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
        payload = json.load(handle)
    # A list of names, or {"names": [...], "tf115": {name: TF 1.15's entry}} for a side that
    # goes on to the calls of the names whose signatures differ (serve_migrate).
    if isinstance(payload, dict):
        entries = serve(payload["names"], tf115=payload["tf115"])
    else:
        entries = serve(payload)
    with open(argv[1], "w", encoding="utf-8") as handle:
        json.dump(entries, handle, sort_keys=True)
    return 0
