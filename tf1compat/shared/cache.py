"""Where tf1compat keeps what it builds or fetches once per machine (compiled shims, TF 1.15's
source): `$TF1COMPAT_CACHE`, else `$XDG_CACHE_HOME/tf1compat`, else `~/.cache/tf1compat`."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    base = os.environ.get("TF1COMPAT_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "tf1compat")
    return Path(base)
