"""How long a test waits for a child process: a budget, not a fixed number of seconds.

A TensorFlow process takes about 5 s to start on an idle 2-core machine and several times
that while other TensorFlow jobs run beside it, so a fixed 30 s wait fails on a loaded
machine for no fault of the code under test. A wait is written as what it takes at most on
an idle machine; `budget` stretches it by the machine's load (the 1-minute load average
per core, at least 1) and gives it a floor, and `describe` says in a failure message how
long the wait took and why its budget was what it was.
"""

from __future__ import annotations

import os

FLOOR_S = 120.0   # no wait for a process that imports TensorFlow is shorter
CEILING_S = 540.0  # below pytest-timeout's 600 s, so the test's own message is what shows


def load_factor() -> float:
    """The 1-minute load average per core, at least 1."""
    try:
        load = os.getloadavg()[0]
    except OSError:
        return 1.0
    return max(1.0, load / (os.cpu_count() or 1))


def budget(idle_seconds: float, floor: float = FLOOR_S) -> float:
    """Seconds to wait for what takes at most `idle_seconds` on an idle machine."""
    return min(CEILING_S, max(floor, idle_seconds) * load_factor())


def describe(waited: float, idle_seconds: float, floor: float = FLOOR_S) -> str:
    return (f"waited {waited:.1f} s (budget {budget(idle_seconds, floor):.0f} s: "
            f"{idle_seconds:g} s on an idle machine, floor {floor:g} s, "
            f"load {load_factor():.2f} per core)")
