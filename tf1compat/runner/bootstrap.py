"""The child process of `tf1compat run`: `python -m tf1compat.runner.bootstrap SPEC.json`.

Order matters: legacy Keras must be chosen before TensorFlow is imported,
v2 behaviour disabled before the script builds anything, the hooks in place
before the script runs. Then the script runs as `__main__` with its own
`sys.argv`, and its failures show its own traceback (our frames removed).
"""

from __future__ import annotations

import json
import os
import runpy
import signal
import sys
import traceback
from typing import Any, Optional

from tf1compat.runner.stopping import Stopper, end_by


def prepare_environment() -> Optional[str]:
    """Before TensorFlow is imported: routes tf.layers / tf.keras to tf_keras when it is installed; returns its version."""
    from tf1compat.runner.shim import legacy_keras_available

    if not legacy_keras_available():
        return None
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tf_keras")
    except PackageNotFoundError:  # a tf_keras without metadata still works
        return "installed"


def _exit_code(error: SystemExit) -> int:
    code = error.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)  # what Python does with sys.exit("message")
    return 1


def _print_script_traceback(error: BaseException, is_user_file) -> None:
    """The traceback from the script's first frame on, as `python script.py` shows it."""
    tb = error.__traceback__
    while tb is not None and not is_user_file(tb.tb_frame.f_code.co_filename):
        tb = tb.tb_next
    # No frame of the script (a syntax error in it, say): the error alone, as Python shows it.
    report = traceback.TracebackException(type(error), error, tb)
    # The run's own frames at the end (the TF1 module's attribute lookup raising "tf.X is not
    # in TF 2.21") are not the script's: the error shows at the script's line, as TF1 had it.
    runner_dir = os.path.dirname(os.path.abspath(__file__)) + os.sep
    stack = list(report.stack)
    while len(stack) > 1 and stack[-1].filename.startswith(runner_dir):
        stack.pop()
    report.stack = traceback.StackSummary.from_list(stack)
    print("".join(report.format()), end="", file=sys.stderr)


def main(spec_path: str) -> int:
    from tf1compat.runner import RunSpec

    with open(spec_path) as handle:
        spec = RunSpec.from_json(handle.read())
    run = _Run(spec)
    stopper = Stopper(run.write_ended_by)  # before TensorFlow loads: a signal ends it promptly
    stopper.install()
    legacy_keras = run.legacy_keras = prepare_environment()

    import tensorflow as tf

    from tf1compat.runner.device_map import DeviceMap
    from tf1compat.hdfs.on_import import register_if_built
    from tf1compat.shared.options import SessionOptions
    from tf1compat.runner import tf_patches as hooks, internals_check, shim
    from tf1compat.shared import tf_internals

    try:
        off = internals_check.check_at_start(spec)
    except tf_internals.MissingInternalError as error:
        print(f"tf1compat run: cannot start: {error}", file=sys.stderr)
        run.write_not_started(str(error))
        stopper.finish()
        return 1
    script = os.path.abspath(spec.script)
    script_dir = os.path.dirname(script)
    with tf_internals.quiet_deprecations():  # our call, not the script's: no deprecation notice
        tf.compat.v1.disable_v2_behavior()
    # hdfs:// for the script's TF1 readers, when the plugin is built (silent otherwise;
    # importing tf1compat arranged it for `import tensorflow` already: this is the same call).
    register_if_built()
    device_map = DeviceMap.parse(spec.device_map)
    device_hook = hooks.DeviceHook(device_map) \
        if device_map and internals_check.is_on(off, tf_internals.OPERATION_SET_DEVICE) else None
    if device_hook:
        device_hook.install()
    from tf1compat.runner import roots

    run_roots = roots.current(script_dir, spec.user_roots, spec.library_roots)
    import_hook = shim.install(run_roots.user_paths(), legacy_keras=legacy_keras is not None,
                               library_roots=[r.path for r in run_roots.library
                                              if r.why == roots.LIBRARY_ROOT_FLAG])
    from tf1compat.runner import numpy1  # loaded now, not by a signal mid-import (the report)

    if spec.numpy == "1":  # user code's numpy and scipy.misc as NumPy 1 / SciPy 1.1 had them
        numpy1.install()
    session_hook = hooks.SessionHook(SessionOptions(**spec.options), spec.override, device_hook,
                                     hooks.caller_in(import_hook.is_user_file))
    session_hook.install()
    views = None
    if device_map and internals_check.is_on(off, tf_internals.MAPPED_DEVICE_LISTING):
        from tf1compat.runner import device_listing

        views = device_listing.install(device_map, session_hook.resolve, import_hook.is_user_file)
    from tf1compat.runner import keras2

    keras2.install(legacy_keras is not None, session_hook,
                   keras2.gpu_names(views) if views is not None else None)
    if internals_check.is_on(off, tf_internals.NODE_ERROR_MESSAGE):
        hooks.hide_runner_frames()
    run.hooks = (session_hook, device_hook, import_hook)
    run.roots = run_roots
    from tf1compat.runner import report  # noqa: F401 - loaded now, not by a signal mid-import

    package_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sys.path[0] = script_dir  # as `python script.py` has it
    if package_root not in sys.path:
        sys.path.append(package_root)
    sys.argv = [spec.script, *spec.args]
    code = 0
    status = "finished"
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as error:
        code = _exit_code(error)
        status = "exited"
    except KeyboardInterrupt as error:
        _print_script_traceback(error, import_hook.is_user_file)
        code, status = 130, "interrupted"
    except BaseException as error:  # noqa: BLE001 - the script's failure: its traceback, not ours
        _print_script_traceback(error, import_hook.is_user_file)
        code, status = 1, f"raised {type(error).__name__}"
        run.cause = _known_cause(error)
    finally:
        stopper.finish()
        sys.stdout.flush()
        run.write(code, status)
    if status == "interrupted":  # an uncaught KeyboardInterrupt: Python exits by SIGINT
        end_by(signal.SIGINT)
    return code


# What `run` offers for a device the machine lacks; the script's own error is left as TF1 raises
# it (scripts may catch it), and the report says what it means.
DEVICE_FIX = ("rerun with --device-map 'gpu:*=cpu:*' (GPU requests go to the CPUs) or "
              "--soft-placement")


def _known_cause(error: BaseException) -> Optional[str]:
    """What a TensorFlow error means in the script's terms, when it is one run knows."""
    from tf1compat.shared.device_errors import translate

    if translate(error, (), DEVICE_FIX) is None:
        return None  # not a device error: leave the runtime alone (listing devices starts it)
    try:
        import tensorflow as tf

        devices = [device.name for device in tf.config.list_logical_devices()]
    except Exception:  # noqa: BLE001 - the runtime may be what failed; name no devices then
        devices = []
    return str(translate(error, devices, DEVICE_FIX))


class _Run:
    """What the report needs, filled in as the run gets there."""

    def __init__(self, spec):
        self.spec = spec
        self.legacy_keras: Optional[str] = None
        self.hooks = None  # (session_hook, device_hook, import_hook) once installed
        self.roots = None  # the user and library roots, once resolved
        self.cause: Optional[str] = None  # what the script's error means, when run knows

    def write_ended_by(self, signum: int) -> None:
        """The report of a script ended by a signal (called from any thread)."""
        status = "interrupted" if signum == signal.SIGINT else \
            f"killed by {signal.Signals(signum).name}"
        for _ in range(3):  # the script's threads may change what is being read: try again
            try:
                self.write(128 + signum, status)
                return
            except RuntimeError:
                continue

    def write_not_started(self, reason: str) -> None:
        """The report of a run that could not start (the parent then adds nothing)."""
        if self.spec.report_path:
            with open(self.spec.report_path, "w") as handle:
                json.dump({"not_started": reason}, handle)

    def write(self, code: int, status: str) -> None:
        if not self.spec.report_path or self.hooks is None:
            return
        from tf1compat.runner.report import build
        from tf1compat.runner.shim import usage

        session_hook, device_hook, import_hook = self.hooks
        report: dict[str, Any] = build(
            spec=self.spec, exit_code=code, status=status, legacy_keras=self.legacy_keras,
            sessions=list(session_hook.sessions),
            remaps=dict(device_hook.remaps) if device_hook else {},
            usage=usage, is_user_file=import_hook.is_user_file)
        if self.roots is not None:
            report["roots"] = self.roots.to_dict()
        if self.cause is not None:
            report["cause"] = self.cause
        from tf1compat.runner import keras2, numpy1

        report["numpy1"] = numpy1.report()  # None under --numpy current
        if keras2.used or keras2.missing:
            report["keras"] = keras2.report()
        partial = self.spec.report_path + ".partial"
        with open(partial, "w") as handle:
            json.dump(report, handle, indent=2)
        os.replace(partial, self.spec.report_path)  # the parent never reads half a report


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: python -m tf1compat.runner.bootstrap SPEC.json", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
