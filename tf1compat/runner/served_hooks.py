"""The hooks that serve TF1 to user code in this process, installed once, and their report.

Shared by the two places user code runs under tf1compat: a script's child
process (`bootstrap`) and a notebook's kernel (`tf1compat.notebook.extension`).
Both first choose legacy Keras (`prepare_environment`, before TensorFlow is
imported), then call `install`: TF1 behaviour, hdfs://, the device map, the
import hook for the user roots, the session hook with the run's options, the
mapped device listings and the op stacks without the runner's frames. What the
hooks saw becomes the run's report with `ServedHooks.report`.
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any, Callable, Optional

from tf1compat.runner import RunSpec, internals_check, roots
from tf1compat.shared import patches


@dataclasses.dataclass
class ServedHooks:
    """What `install` put in place, and what the report needs from it."""

    spec: RunSpec
    legacy_keras: Optional[str]
    session_hook: Any
    device_hook: Any
    import_hook: Any
    roots: roots.Roots

    def report(self, code: int, status: str, cause: Optional[str] = None) -> dict[str, Any]:
        """The run's report as JSON-ready data (see `tf1compat.runner.report`)."""
        from tf1compat.runner.report import build
        from tf1compat.runner.usage import usage

        data: dict[str, Any] = build(
            spec=self.spec, exit_code=code, status=status, legacy_keras=self.legacy_keras,
            sessions=[dict(record) for record in self.session_hook.sessions],
            remaps=dict(self.device_hook.remaps) if self.device_hook else {},
            usage=usage, is_user_file=self.import_hook.is_user_file)
        data["roots"] = self.roots.to_dict()
        data["roots"]["user"] += self.import_hook.tf1_libraries.roots()
        if cause is not None:
            data["cause"] = cause
        from tf1compat.runner import keras2, numpy1

        data["numpy1"] = numpy1.report()  # None under --numpy current
        if keras2.used or keras2.missing:
            data["keras"] = keras2.report()
        return data


def install(spec: RunSpec, code_dir: str, legacy_keras: Optional[str],
            where: Optional[Callable[[Callable[[str], bool]], Callable[[], str]]] = None
            ) -> ServedHooks:
    """Installs the run's hooks in this process (once: they patch TensorFlow, through the
    registry of `tf1compat.shared.patches`; all of them or none).

    Args:
      spec: the run's options, device map and roots.
      code_dir: the folder of the user's code (the script's, or the notebook's).
      legacy_keras: what `prepare_environment` returned.
      where: makes, from the user-file test, the function naming the user code that
        creates a session (default: the innermost user frame as 'file.py:LINE').

    Raises:
      MissingInternalError: a TensorFlow internal the run needs is missing (nothing of the
        run's patches is then left in place).
    """
    with patches.all_or_nothing():  # a failure half-way leaves TensorFlow as it was
        return _install(spec, code_dir, legacy_keras, where)


def _install(spec: RunSpec, code_dir: str, legacy_keras: Optional[str],
             where: Optional[Callable[[Callable[[str], bool]], Callable[[], str]]]
             ) -> ServedHooks:
    from tf1compat.shared import deferred_keras

    with deferred_keras.while_tensorflow_loads():
        import tensorflow as tf

    from tf1compat.hdfs.on_import import register_if_built
    from tf1compat.runner import shim, tf_patches as hooks
    from tf1compat.runner.device_map import DeviceMap
    from tf1compat.runner.script_devices import script_devices
    from tf1compat.shared import tf_internals
    from tf1compat.shared.options import SessionOptions

    off = internals_check.check_at_start(spec)
    with tf_internals.quiet_deprecations():  # our call, not the user's: no deprecation notice
        tf.compat.v1.disable_v2_behavior()
    # hdfs:// for TF1 readers, when the plugin is built (silent otherwise; importing tf1compat
    # arranged it for `import tensorflow` already: this is the same call).
    register_if_built()
    device_map = DeviceMap.parse(spec.device_map)
    device_hook = hooks.DeviceHook(device_map, script_devices(spec.script)) \
        if device_map and internals_check.is_on(off, tf_internals.OPERATION_SET_DEVICE) else None
    if device_hook:
        device_hook.install()
        from tf1compat.runner import nchw_on_cpu

        if internals_check.is_on(off, tf_internals.NCHW_KERNELS) and nchw_on_cpu.needed():
            nchw_on_cpu.install()  # the GPU code paths the device map opens, on the CPU
    run_roots = roots.current(code_dir, spec.user_roots, spec.library_roots)
    import_hook = shim.install(run_roots.user_paths(), legacy_keras=legacy_keras is not None,
                               library_roots=[r.path for r in run_roots.library
                                              if r.why == roots.LIBRARY_ROOT_FLAG])
    from tf1compat.runner import numpy1  # loaded now, not by a signal mid-import (the report)

    if spec.numpy == "1":  # user code's numpy and scipy.misc as NumPy 1 / SciPy 1.1 had them
        numpy1.install()
    session_hook = hooks.SessionHook(SessionOptions(**spec.options), spec.override, device_hook,
                                     (where or hooks.caller_in)(import_hook.is_user_file))
    session_hook.install()
    views = None
    if device_map and internals_check.is_on(off, tf_internals.MAPPED_DEVICE_LISTING):
        from tf1compat.runner import device_listing

        views = device_listing.install(device_map, session_hook.resolve,
                                       import_hook.is_user_file)
    from tf1compat.runner import keras2  # user code's `import keras`: Keras 2 on tf_keras

    keras2.install(legacy_keras is not None, session_hook,
                   keras2.gpu_names(views) if views is not None else None)
    if internals_check.is_on(off, tf_internals.NODE_ERROR_MESSAGE):
        hooks.hide_runner_frames()
    if internals_check.is_on(off, tf_internals.BENCHMARKS_MAIN):
        hooks.tf115_benchmark_flag()
    from tf1compat.runner import report  # noqa: F401 - loaded now, not by a signal mid-import

    return ServedHooks(spec, legacy_keras, session_hook, device_hook, import_hook, run_roots)


def package_root() -> str:
    """The folder holding the tf1compat package (user code can always import it)."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
