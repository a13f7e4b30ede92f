"""Checks, before the script starts, the private TensorFlow names `tf1compat run` relies on.

A TensorFlow other than the tested one may lack one of them. A required one
missing ends the run with one message naming it, the installed TensorFlow
and the tested versions; an optional one missing turns its feature off with
a warning, and the script runs without it.
"""

from __future__ import annotations

import sys
from typing import TextIO

from tf1compat.shared import tf_internals

# Optional features that only matter when the command line asks for them.
_ASKED_FOR = {tf_internals.OPERATION_SET_DEVICE.feature: "device_map",
              tf_internals.MAPPED_DEVICE_LISTING.feature: "device_map"}


def run_start_internals() -> tuple[tf_internals.TfInternal, ...]:
    return tuple(internal for internal in tf_internals.DECLARED if internal.at_run_start)


def check_at_start(spec, stream: TextIO = sys.stderr) -> frozenset[str]:
    """Checks the run's internals; returns the features turned off (warned about on `stream`).

    Raises:
      MissingInternalError: a required one is missing (its message says which).
    """
    off = set()
    for status in tf_internals.check(run_start_internals()):
        if status.ok:
            continue
        internal = status.internal
        if internal.required:
            raise tf_internals.MissingInternalError(internal, status.absent)
        off.add(internal.feature)
        flag = _ASKED_FOR.get(internal.feature)
        if flag is not None and not getattr(spec, flag):
            continue  # not asked for: nothing is lost, nothing to say
        print(f"tf1compat run: warning: TensorFlow {tf_internals.tensorflow_version()} has no "
              f"{', '.join(status.absent)}; {internal.feature} is off: {internal.without} "
              f"(tested with TensorFlow {', '.join(internal.checked_on)})", file=stream)
    return frozenset(off)


def is_on(off: frozenset[str], internal: tf_internals.TfInternal) -> bool:
    return internal.feature not in off
