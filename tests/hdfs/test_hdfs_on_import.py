"""hdfs:// works as soon as TensorFlow is imported after `import tf1compat` / `import modern`.

Each check runs in a fresh Python: whether TensorFlow knows the scheme, and whether
its runtime has started, are facts of one process.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest
from hdfs_helpers import free_port

# A port nothing listens on: the plugin answers "cannot connect", TensorFlow without it
# "File system scheme 'hdfs' not implemented".
_PROBE = """
def probe(tf, uri):
    try:
        tf.io.gfile.exists(uri)
        return "answered"
    except Exception as error:
        return type(error).__name__
"""


def _run(env, source: str) -> dict:
    code = _PROBE + textwrap.dedent(source)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=240, env=dict(env, TF_CPP_MIN_LOG_LEVEL="2"))
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    assert proc.returncode == 0 and lines, f"exit {proc.returncode}:\n{proc.stderr[-4000:]}"
    return json.loads(lines[-1])


@pytest.fixture
def closed_uri():
    return f"hdfs://127.0.0.1:{free_port()}/x"


def test_without_tf1compat_tensorflow_does_not_know_hdfs(plugin_env, closed_uri):
    got = _run(plugin_env, f"""
        import json, tensorflow as tf
        print(json.dumps({{"error": probe(tf, {closed_uri!r})}}))
    """)
    assert got["error"] == "UnimplementedError"


@pytest.mark.parametrize("package", ["tf1compat", "modern"])
def test_import_then_tensorflow_knows_hdfs_and_no_runtime_started(plugin_env, closed_uri,
                                                                  package):
    got = _run(plugin_env, f"""
        import json, sys
        import {package}
        tf_at_import = "tensorflow" in sys.modules
        import tensorflow as tf
        from tensorflow.python.eager import context
        started = context.context()._context_handle is not None
        from tf1compat.hdfs import plugin_status
        loaded = plugin_status()["loaded"]
        error = probe(tf, {closed_uri!r})
        print(json.dumps({{"tf_at_import": tf_at_import, "started": started,
                          "loaded": loaded, "error": error}}))
    """)
    assert got == {"tf_at_import": False, "started": False, "loaded": True,
                   "error": "UnavailableError"}


def test_tensorflow_imported_first_then_tf1compat(plugin_env, closed_uri):
    got = _run(plugin_env, f"""
        import json
        import tensorflow as tf
        before = probe(tf, {closed_uri!r})
        import tf1compat
        print(json.dumps({{"before": before, "after": probe(tf, {closed_uri!r})}}))
    """)
    assert got == {"before": "UnimplementedError", "after": "UnavailableError"}


def test_device_options_can_still_be_set_after_registration(plugin_env):
    got = _run(plugin_env, """
        import json
        import modern
        import tensorflow as tf
        from tf1compat.hdfs import plugin_status
        loaded = plugin_status()["loaded"]
        report = modern.configure(cpus=2)
        cpus = len(tf.config.list_logical_devices("CPU"))
        print(json.dumps({"loaded": loaded, "cpus": cpus, "report": str(report)}))
    """)
    assert got["loaded"] is True
    assert got["cpus"] == 2, got["report"]


def test_disabled_plugin_stays_quiet_at_import(plugin_env, closed_uri):
    env = dict(plugin_env, TF1COMPAT_HDFS_PLUGIN="0")
    got = _run(env, f"""
        import json, warnings
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            import tf1compat
            import tensorflow as tf
        print(json.dumps({{"warnings": [str(w.message) for w in caught
                                       if "hdfs" in str(w.message)],
                          "error": probe(tf, {closed_uri!r})}}))
    """)
    assert got == {"warnings": [], "error": "UnimplementedError"}


@pytest.mark.hdfs
def test_plain_tensorflow_code_reads_minidfs_after_import_tf1compat(plugin_env, hdfs_dir,
                                                                    minidfs):
    from hdfs_native import Client

    path = hdfs_dir.split(minidfs.url, 1)[1] + "/rows.csv"
    with Client(minidfs.url).create(path) as handle:
        handle.write(b"1,2\n3,4\n5,6\n")
    got = _run(plugin_env, f"""
        import json
        import tf1compat
        import tensorflow as tf
        uri = {minidfs.url + path!r}
        text = tf.io.gfile.GFile(uri).read()
        lines = [line.decode() for line in tf.data.TextLineDataset(uri).as_numpy_iterator()]
        print(json.dumps({{"text": text, "lines": lines,
                          "listed": tf.io.gfile.listdir({hdfs_dir!r})}}))
    """)
    assert got == {"text": "1,2\n3,4\n5,6\n", "lines": ["1,2", "3,4", "5,6"],
                   "listed": ["rows.csv"]}


@pytest.mark.parametrize("package", ["tf1compat.hdfs", "modern"])
def test_ensure_registered_before_tensorflow_is_imported_registers_and_returns(
        plugin_env, closed_uri, package):
    """Called first, ensure_registered imports TensorFlow itself; that import runs the
    after-import registration, which must not wait on the call that triggered it."""
    got = _run(plugin_env, f"""
        import json, sys
        import {package}
        from tf1compat.hdfs import ensure_registered
        assert "tensorflow" not in sys.modules
        registered = ensure_registered()
        import tensorflow as tf
        print(json.dumps({{"registered": registered, "error": probe(tf, {closed_uri!r})}}))
    """)
    assert got == {"registered": True, "error": "UnavailableError"}
