"""The device strings a script writes as literals ('/gpu:2', '/device:GPU:1', a ClusterSpec
task's '/job:worker/task:0/gpu:1'), read from its source before it runs.

Under --device-map a session's logical CPUs are sized to cover every CPU index the map sends
a request to. A session's CPU devices are made when it is created, so a request the script
makes later (an op added to a running session's graph) has no device to go to: sizing from the
literals too covers the requests a script spells out, wherever in the file they are.
"""

from __future__ import annotations

import io
import re
import tokenize
from typing import Optional

# A device in a device string: '/gpu:2', '/device:GPU:2', 'gpu:2' at the start of a string.
_DEVICE = re.compile(r"(?:^|/)(?:device:)?(gpu|cpu|xla_gpu):(\d+)\b", re.IGNORECASE)


def literal_devices(source: str) -> list[str]:
    """'/gpu:2' for each device written in a string literal of `source`, in order, once
    each; [] for source that does not tokenize."""
    found: dict[str, None] = {}
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return []
    for token in tokens:
        if token.type != tokenize.STRING:
            continue
        for kind, index in _DEVICE.findall(token.string.strip("'\"bBrRuUfF")):
            found[f"/{kind.lower()}:{index}"] = None
    return list(found)


def script_devices(path: Optional[str]) -> list[str]:
    """`literal_devices` of the Python file at `path` ([] for a notebook or an unreadable
    file: their requests are sized as they are met)."""
    if not path or not path.endswith(".py"):
        return []
    try:
        with tokenize.open(path) as handle:
            return literal_devices(handle.read())
    except (OSError, SyntaxError, UnicodeDecodeError):
        return []
