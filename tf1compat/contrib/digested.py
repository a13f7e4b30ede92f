"""Reads a committed TF 1.15 listing (tests/tf1_reference/digested_json.py wrote it) and checks
its digest, so data edited by hand, or half regenerated, is refused naming how to remake it."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def load(path: str, key: str, regenerate: str) -> Any:
    """The file's `key` data. Raises ValueError when its digest does not match it."""
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    canonical = json.dumps(data[key], sort_keys=True, separators=(",", ":"))
    if "sha256:" + hashlib.sha256(canonical.encode()).hexdigest() != data["digest"]:
        raise ValueError(f"{path}: its digest does not match its data; regenerate it: "
                         f"{regenerate}")
    return data[key]
