"""The runner's hooks into TensorFlow, for the child process only.

- `SessionHook` wraps `BaseSession.__init__` (so `tf.Session`,
  `tf.InteractiveSession` and sessions made inside TF, such as
  MonitoredTrainingSession's, all pass through it): the command line's
  options are merged into the script's ConfigProto -- the script's own
  values win unless `--override` -- and every session is recorded.
- `DeviceHook` wraps `Operation._set_device_from_string`, the one place where
  TF1 graph ops receive their device (from `tf.device` strings, device
  functions and colocation alike), and applies the `DeviceMap`.
"""

from __future__ import annotations

import collections
import sys
import threading
from typing import Any, Callable, Iterable, Optional

from tf1compat.runner import is_runner_frame
from tf1compat.runner.device_map import DeviceMap
from tf1compat.shared import tf_internals
from tf1compat.shared.options import SessionOptions
from tf1compat.shared.placement import short_device
from tf1compat.shared.test_flags import rename_benchmark_flag


class DeviceHook:
    """Remaps device requests of graph ops and counts what it remapped."""

    def __init__(self, device_map: DeviceMap, literal_devices: Iterable[str] = ()):
        """`literal_devices`: the device strings the script's source spells out; the CPUs
        their targets need are counted from the start (script_devices.py says why)."""
        self.device_map = device_map
        self.remaps: collections.Counter[tuple[str, str]] = collections.Counter()
        self.highest: dict[str, int] = {}
        self._lock = threading.Lock()
        for index in device_map.explicit_targets("CPU"):
            self._note_target(f"CPU:{index}")
        for device in literal_devices:
            mapped = device_map.map(device)
            if mapped != device:
                self._note_target(short_device(mapped))
        self._cache: dict[str, str] = {}

    def _note_target(self, short: str) -> None:
        kind, _, index = short.partition(":")
        if index.isdigit():
            self.highest[kind] = max(self.highest.get(kind, -1), int(index))

    def map(self, device: str) -> str:
        mapped = self._cache.get(device)
        if mapped is None:
            mapped = self.device_map.map(device)
            self._cache[device] = mapped
        if mapped != device:
            key = (short_device(device), short_device(mapped))
            with self._lock:
                self.remaps[key] += 1
                self._note_target(key[1])
        return mapped

    def cpus_needed(self) -> int:
        """How many logical CPUs the remapped requests so far need (0: none)."""
        return self.highest.get("CPU", -1) + 1

    def install(self) -> None:
        hook = self

        def wrap(original):
            def _set_device_from_string(op, device_str):
                return original(op, hook.map(device_str))
            return _set_device_from_string

        tf_internals.patch("tf.operation-device", wrap)


class SessionHook:
    """Merges command-line options into every session and records each one."""

    def __init__(self, cli_options: SessionOptions, override: bool,
                 device_hook: Optional[DeviceHook], where: Callable[[], str]):
        self.cli_options = cli_options
        self.override = override
        self.device_hook = device_hook
        self.where = where
        self.sessions: list[dict[str, Any]] = []
        # Called as tagger(session, record) for each new session (Keras notes its own).
        self.taggers: list[Callable[[Any, dict[str, Any]], None]] = []
        self._lock = threading.Lock()

    def resolve(self, config) -> tuple[Any, dict[str, Any]]:
        """The ConfigProto to give the session, and the record of how it was made."""
        from tf1compat.runner import json_options

        from tf1compat.shared.errors import OptionError

        try:
            script = SessionOptions() if config is None else \
                SessionOptions.from_config_proto(config, unmapped="keep")
        except OptionError as error:
            if self.cli_options == SessionOptions() and not self.device_hook:
                return config, {"script": {}, "command_line": {}, "options": {},
                                "keywords": "(the script's ConfigProto, unchanged)",
                                "notes": [f"not read as options: {error}"]}
            raise
        if self.override:
            final = self.cli_options.merged(script)
        else:
            final = script.merged(self.cli_options)
        notes = []
        needed = self.device_hook.cpus_needed() if self.device_hook else 0
        if needed > (final.cpus or 1):
            notes.append(f"cpus={needed} for --device-map (was "
                         f"{final.cpus if final.cpus is not None else 'unset'})")
            final = final.replace(cpus=needed)
        if script.passthrough and final.passthrough:
            notes.append("fields without a keyword kept as the script set them")
        record = {
            "script": json_options(script),
            "command_line": json_options(self.cli_options),
            "options": json_options(final),
            "keywords": final.keyword_text(),
            "notes": notes,
        }
        if config is None and final == SessionOptions():
            return None, record  # nothing to change: TensorFlow's own default config
        return final.to_config_proto(), record

    def install(self) -> None:
        from tf1compat.compat_session import process_gpu_options

        hook = self

        def wrap(original):
            def __init__(session, target="", graph=None, config=None):
                proto, record = hook.resolve(config)
                record["kind"] = type(session).__name__
                record["where"] = hook.where()
                if proto is not None:
                    process_gpu_options.check(SessionOptions.from_config_proto(
                        proto, unmapped="keep"))
                for tagger in hook.taggers:
                    tagger(session, record)
                with hook._lock:
                    hook.sessions.append(record)
                return original(session, target, graph, config=proto)

            __init__.__wrapped__ = original
            return __init__

        tf_internals.patch("tf.session-init", wrap)


def caller_in(is_user_file: Callable[[str], bool]) -> Callable[[], str]:
    """A function returning 'file.py:LINE' of the innermost user-code frame."""

    def where() -> str:
        frame = sys._getframe(1)
        while frame is not None:
            filename = frame.f_code.co_filename
            if is_user_file(filename):
                return f"{filename}:{frame.f_lineno}"
            frame = frame.f_back
        return "?"

    return where


def hide_runner_frames() -> None:
    """Leaves the runner's own frames (and runpy's) out of the op stacks TF prints.

    TF1 errors such as "Cannot assign a device" show where the op was built,
    from the outermost frame in: under `tf1compat run` that would start in
    this package and runpy. With them left out, the stack is the one
    `python script.py` shows.
    """
    import os
    import re

    frame_line = re.compile(r'^\s*File "(?P<file>[^"]+)", line \d+')

    def ours(filename: str) -> bool:
        return is_runner_frame(filename) or "runpy" in os.path.basename(filename)

    def wrap(original):
        def _build_node_error_message(op):
            kept, skipping = [], False
            for line in original(op).split("\n"):
                match = frame_line.match(line)
                if match:
                    skipping = ours(match.group("file"))
                elif not line.startswith("    "):
                    skipping = False  # past the frames ("Node: ...")
                if not skipping:
                    kept.append(line)
            return "\n".join(kept)
        return _build_node_error_message

    tf_internals.patch("tf.node-error-message", wrap)


# TF 1.15's benchmarks_main took `--benchmarks=REGEX`; TF 2's takes `--benchmark_filter=REGEX`
# and leaves the old spelling to the flag parser, which refuses it.
def tf115_benchmark_flag() -> None:
    """`tf.test.main()` and friends choose benchmarks by TF 1.15's `--benchmarks=REGEX`."""

    def wrap(original):
        def benchmarks_main(true_main, argv=None):
            rename_benchmark_flag(sys.argv if argv is None else argv)
            return original(true_main, argv=argv)
        return benchmarks_main

    tf_internals.patch("tf.benchmarks-main", wrap)
