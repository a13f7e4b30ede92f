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
from typing import Optional, Sequence

from tf1compat.runner import is_runner_frame
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
    stack = list(report.stack)
    while len(stack) > 1 and is_runner_frame(stack[-1].filename):
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

    from tf1compat.runner import served_hooks
    from tf1compat.shared import tf_internals

    script = os.path.abspath(spec.script)
    script_dir = os.path.dirname(script)
    try:
        run.hooks = served_hooks.install(spec, script_dir, legacy_keras)
    except tf_internals.MissingInternalError as error:
        print(f"tf1compat run: cannot start: {error}", file=sys.stderr)
        run.write_not_started(str(error))
        stopper.finish()
        return 1
    import_hook = run.hooks.import_hook
    package_root = served_hooks.package_root()
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
        run.cause = known_cause(error, spec.device_map) or \
            tf1_library_cause(error, import_hook.is_user_file)
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


def device_fix(error: BaseException, device_map: Sequence[str] = ()) -> str:
    """The flag that fixes a missing-device error: with a device map given, the request went
    to a CPU the session was not split into (--cpus) or to a device no rule covers."""
    from tf1compat.shared.device_errors import requested_device
    from tf1compat.shared.placement import short_device

    if not device_map:
        return DEVICE_FIX
    kind, _, index = short_device(requested_device(error) or "").partition(":")
    if kind == "CPU" and index.isdigit():
        return (f"rerun with --cpus {int(index) + 1} (--device-map sent the request to "
                f"/cpu:{index}, and a session's CPUs are made when it is created, before this "
                "request was made) or --soft-placement")
    return (f"rerun with a --device-map rule that covers /{kind.lower()}:{index} (such as "
            f"'{kind.lower()}:*=cpu:*') or --soft-placement")


def known_cause(error: BaseException, device_map: Sequence[str] = ()) -> Optional[str]:
    """What a TensorFlow error means in the script's terms, when it is one run knows.

    Args:
      device_map: the run's --device-map rules, whose remedy is another flag.
    """
    from tf1compat.shared.device_errors import translate

    if translate(error, (), DEVICE_FIX) is None:
        return None  # not a device error: leave the runtime alone (listing devices starts it)
    try:
        import tensorflow as tf

        devices = [device.name for device in tf.config.list_logical_devices()]
    except Exception:  # noqa: BLE001 - the runtime may be what failed; name no devices then
        devices = []
    return str(translate(error, devices, device_fix(error, device_map)))


def tf1_library_cause(error: BaseException, is_user_file) -> Optional[str]:
    """The flag that serves TF1 to an installed library that is TF1 code (tflearn) where it
    failed on a TF1 name TF 2.21 lacks: run gives TF1 only to user code."""
    from tf1compat.runner.tf1_libraries import library_of, is_tf1_name_error

    if not is_tf1_name_error(error):
        return None
    own = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep  # the import hook
    files = [frame.filename for frame in traceback.extract_tb(error.__traceback__)
             if not frame.filename.startswith(("<", own))]
    raiser = files[-1] if files else ""
    folder = library_of(raiser) if raiser and not is_user_file(raiser) else None
    if folder is None:
        return None
    return (f"{raiser} is TF1 code in the installed library {os.path.basename(folder)}, which "
            f"run leaves on TF 2.21 as it leaves every library: rerun with --user-root {folder} "
            "to serve it TF1 as your script is served")


class _Run:
    """What the report needs, filled in as the run gets there."""

    def __init__(self, spec):
        self.spec = spec
        self.legacy_keras: Optional[str] = None
        self.hooks = None  # the installed hooks (served_hooks.ServedHooks)
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
        report = self.hooks.report(code, status, self.cause)
        from tf1compat.process.atomic import write_atomically

        # the parent never reads half a report
        write_atomically(self.spec.report_path, json.dumps(report, indent=2))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: python -m tf1compat.runner.bootstrap SPEC.json", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
