"""TensorFlow 1.15's side of the surface probe, written as data. Runs UNDER TensorFlow 1.15.

Usage (the reference interpreter, Python 3.7): python dump.py OUT.json [NAMES.txt]
(`python -m tf1compat.surface.regenerate` runs it and writes the committed data).

What it walks, with `reading.describe` for each name:
- `tf`, the v1 API as `import tensorflow as tf` gives it: the modules TensorFlow
  generates for it (its `_api.v1` package, with Keras's `api._v1` and the estimator's),
  every member not starting with `_`. Modules outside those trees (`tf.flags` is
  absl's flags, `tf.test.mock` is `unittest.mock`) are recorded, not walked.
  `tf.compat.v1` is recorded and not walked: it repeats the root (the names in which
  they differ are written under "compat_v1_differs"); `tf.compat.v2` neither: it is
  the v2 API, which TF1 code does not reach;
- `tf.contrib`, loaded once: each of its packages, then their submodules (a member
  module whose name is under the module's own). Leaked imports are left out: member
  modules that are not submodules, and functions, classes and objects defined
  outside TensorFlow (`os`, `six`, `np`, `absolute_import`). A module reached twice
  (`tf.contrib.keras.activations` is `tf.contrib.keras.api.keras.activations`) is
  walked once, under its shorter name (the walk goes breadth first);
- each name of NAMES.txt (one a line, in `spelling`'s forms), resolved as a script
  would spell it.
A name that raises under TensorFlow 1.15 gets kind "absent" and the error.

Then the call forms the probe writes for `migrate` (`call_forms`) that TF 1.15 itself
refuses: see `refused_forms`.
"""

from __future__ import absolute_import, division, print_function

import collections
import json
import os
import re
import sys
import time
import types
import warnings

import call_forms
import reading
import spelling

# TensorFlow generates the v1 API as packages named `<package>._api.v1`, and Keras and
# the estimator theirs as `<package>.<...>.api._v1`.
API_MARKERS = ("._api.v1.", ".api._v1.")
NOT_WALKED = {"tf.compat.v1": "repeats the root", "tf.compat.v2": "the v2 API",
              "tf.contrib": "walked on its own"}
TENSORFLOW_PACKAGES = ("tensorflow", "tensorflow_core", "tensorflow_estimator")


def _canonical(module_name):
    """`tensorflow_core.x` is `tensorflow.x` (TF 1.15's virtual pip package forwards)."""
    if module_name.startswith("tensorflow_core"):
        return "tensorflow" + module_name[len("tensorflow_core"):]
    return module_name


def _module_name(module):
    return _canonical(getattr(module, "__name__", "") or "")


def _in_api(module):
    name = _module_name(module) + "."
    return name.split(".")[0] in TENSORFLOW_PACKAGES and \
        any(marker in name for marker in API_MARKERS)


def _from_tensorflow(value):
    """Whether a contrib member is TensorFlow's own, not a leaked import of another library."""
    if isinstance(value, types.ModuleType):
        module = getattr(value, "__name__", "")
    elif isinstance(value, type) or callable(value):
        module = getattr(value, "__module__", None) or ""
    elif reading.kind_of(value) == "constant":
        return True
    else:
        module = type(value).__module__ or ""
    return module.split(".")[0] in TENSORFLOW_PACKAGES


def _members(module):
    for name in sorted(dir(module)):
        if not name.startswith("_"):
            yield name


def walk(root, root_path, descend, keep, out):
    """Breadth-first over `root`'s public members: `out[path] = entry`.

    `descend(parent, member)` says whether a member module is walked, `keep(parent,
    member)` whether a member is a name at all.
    """
    queue = collections.deque([(root, root_path)])
    walked = {id(root)}
    while queue:
        module, path = queue.popleft()
        for name in _members(module):
            member_path = "%s.%s" % (path, name)
            try:
                value = getattr(module, name)
            except Exception as error:  # noqa: BLE001 - TF 1.15 itself fails on it: recorded
                out[member_path] = reading.absent(error)
                continue
            if not keep(module, value):
                continue
            out[member_path] = reading.describe(value)
            if isinstance(value, types.ModuleType) and member_path not in NOT_WALKED \
                    and id(value) not in walked and descend(module, value):
                walked.add(id(value))
                queue.append((value, member_path))


def _is_submodule(parent, value):
    return _module_name(value).startswith(_module_name(parent) + ".")


def walk_v1(tf, out):
    walk(tf, "tf", lambda parent, value: _in_api(value), lambda parent, value: True, out)


def walk_contrib(tf, out):
    contrib = tf.contrib
    out["tf.contrib"] = reading.describe(contrib)

    def descend(parent, value):
        if parent is contrib:  # a contrib package may live elsewhere (the estimator's)
            return _module_name(value).split(".")[0] in TENSORFLOW_PACKAGES
        return _is_submodule(parent, value)

    def keep(parent, value):
        if isinstance(value, types.ModuleType):
            return descend(parent, value)
        return _from_tensorflow(value)

    walk(contrib, "tf.contrib", descend, keep, out)


def compat_v1_differs(tf):
    """The names in which `tf.compat.v1` and the root differ (the reason not to walk both)."""
    root, v1 = set(_members(tf)), set(_members(tf.compat.v1))
    return {"root_only": sorted(root - v1), "compat_v1_only": sorted(v1 - root)}


def read_names(path):
    with open(path) as handle:
        return [line.strip() for line in handle if line.strip() and not line.startswith("#")]


def resolve_names(tf, names, out):
    for name in names:
        if name in out:
            continue
        try:
            value = spelling.resolve(name, tf)
        except Exception as error:  # noqa: BLE001 - a census name TF 1.15 lacks: recorded
            out[name] = reading.absent(error)
            continue
        out[name] = reading.describe(value)


class ProbeArgument(object):
    """An argument of a call form. Where TF 1.15 uses one it names it in the error it raises
    (a tensor it cannot convert, a dtype it cannot read), so an error that does not name one
    was raised before any argument was used: the form left out what the function needs."""

    def __init__(self, parameter):
        self.parameter = parameter

    def __repr__(self):
        return "ProbeArgument(%s)" % self.parameter

    __str__ = __repr__


def _argument(parameter):
    # a name is a string wherever TF 1.15 reads one (a scope's name is matched as text)
    return "probe_name" if parameter == "name" else ProbeArgument(parameter)


class _Late(Exception):
    pass


# What TF 1.15 says when a call left out what it needs (a None it cannot use, a missing
# argument, two spellings of one argument); an argument it took but cannot use (a
# ProbeArgument where it wants a dict) is not the form's fault and is not a refusal.
LEFT_OUT = re.compile(r"None values|not None|NoneType|missing|must be provided|must be specified|"
                      r"[Mm]ust (?:provide|specify)|[Pp]lease (?:provide|specify)|"
                      r"[Cc]annot specify both|[Pp]rovide only one")


# Calling these runs the program or its tests, or starts servers and sessions: not called.
NOT_CALLED = ("tf.app.", "tf.test.", "tf.train.MonitoredTrainingSession",
              "tf.contrib.learn.", "tf.estimator.", "tf.contrib.tpu.", "tf.contrib.distribute.")


def _refusal(tf, function, parameters, form):
    """Why TF 1.15 refuses `function` called in `form` with ProbeArgument values, or None."""
    import signal

    args = [_argument(parameters[i][0]) for i in form[0]]
    kwargs = dict((parameters[i][0], _argument(parameters[i][0])) for i in form[1])

    def late(signum, frame):
        raise _Late()

    previous = signal.signal(signal.SIGALRM, late)
    signal.alarm(5)
    try:
        with tf.Graph().as_default(), tf.compat.v1.Session().as_default():
            function(*args, **kwargs)
    except (ValueError, TypeError) as error:
        text = "%s: %s" % (type(error).__name__, error)
        return text[:200] if "ProbeArgument" not in text and LEFT_OUT.search(text) else None
    except BaseException:  # noqa: BLE001 - it reached further than its arguments: taken
        return None
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    return None


def refused_forms(tf, out):
    """Adds "refused_forms" ({form number: TF 1.15's error}) to each `tf.` function whose
    every parameter has a default (where a form may pass none of what it works on: `count_
    nonzero(axis=...)`) and TF 1.15 refuses some forms but takes others. A function that
    refuses every form here (it needs a session or a file) says nothing of the forms."""
    for name in sorted(out):
        entry = out[name]
        if not name.startswith("tf.") or entry["kind"] != "function" or \
                name.startswith(NOT_CALLED) or not call_forms.may_be_refused(
                    entry.get("parameters")):
            continue
        found = call_forms.forms(entry["parameters"])
        if len(found) < 2:
            continue
        try:
            function = spelling.resolve(name, tf)
        except Exception:  # noqa: BLE001 - recorded as absent already
            continue
        refused = {}
        for number, form in enumerate(found):
            why = _refusal(tf, function, entry["parameters"], form)
            if why is not None:
                refused[str(number)] = why
        if refused and len(refused) < len(found):
            entry["refused_forms"] = refused


def main(argv):
    if len(argv) not in (2, 3):
        print("usage: python dump.py OUT.json [NAMES.txt]", file=sys.stderr)
        return 2
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    warnings.simplefilter("ignore")
    start = time.time()
    import tensorflow as tf

    tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.ERROR)
    out = {}
    timings = {}
    walk_v1(tf, out)
    timings["v1"] = time.time() - start
    walk_contrib(tf, out)
    timings["contrib"] = time.time() - start - timings["v1"]
    names = read_names(argv[2]) if len(argv) == 3 else []
    resolve_names(tf, names, out)
    timings["names"] = time.time() - start - timings["v1"] - timings["contrib"]
    refused_forms(tf, out)
    timings["forms"] = time.time() - start - sum(timings.values())
    result = {"tensorflow": tf.__version__, "python": sys.version.split()[0],
              "compat_v1_differs": compat_v1_differs(tf), "not_walked": NOT_WALKED,
              "seconds": {key: round(value, 1) for key, value in timings.items()},
              "names": out}
    with open(argv[1], "w") as handle:
        json.dump(result, handle, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
