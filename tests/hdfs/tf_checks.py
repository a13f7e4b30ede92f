"""TensorFlow-side checks for tests/hdfs, each run in a fresh process by conftest.run_check.

Usage: python tf_checks.py CHECK '{"arg": ...}'  -> prints 'RESULT {json}' as its last line.

Each check reads through TensorFlow (plugin or fallback) and returns facts the test
asserts on: digests and counts of what was read next to the same file read locally,
exception classes and messages, elapsed times.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
import warnings


def _tf():
    import tensorflow as tf

    from tf1compat.hdfs import ensure_registered

    return tf, ensure_registered()


def _digest(rows) -> dict:
    h = hashlib.sha256()
    n = 0
    for r in rows:
        h.update(r if isinstance(r, bytes) else bytes(r))
        h.update(b"\n")
        n += 1
    return {"sha256": h.hexdigest(), "count": n}


def _rows(ds) -> list:
    """All elements of a dataset of lines; batched, since element-wise eager iteration
    costs ~100 us a row and would dominate the test time."""
    rows = []
    for batch in ds.batch(8192).as_numpy_iterator():
        rows.extend(batch.tolist())
    return rows


def _error(fn) -> dict:
    """Runs fn; returns the exception's class and message (or that none was raised)."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the class is the result
        return {"class": type(e).__name__, "message": str(e)}
    return {"class": None, "message": None}


def gfile_roundtrip(uri: str, local: str) -> dict:
    tf, registered = _tf()
    data = open(local, "rb").read()
    with tf.io.gfile.GFile(uri, "wb") as f:
        for i in range(0, len(data), 100_000):  # many appends, as TF writers do
            f.write(data[i:i + 100_000])
    with tf.io.gfile.GFile(uri, "rb") as f:
        back = f.read()
    with tf.io.gfile.GFile(uri, "rb") as f:  # small reads at offsets: the window cache
        f.seek(len(data) // 2)
        middle = f.read(10)
    with tf.io.gfile.GFile(uri, "ab") as f:
        f.write(b"appended\n")
    appended = tf.io.gfile.GFile(uri, "rb").read()
    return {
        "registered": registered,
        "local": hashlib.sha256(data).hexdigest(),
        "read": hashlib.sha256(back).hexdigest(),
        "middle_ok": middle == data[len(data) // 2: len(data) // 2 + 10],
        "appended_ok": appended == data + b"appended\n",
        "size": tf.io.gfile.stat(uri).length,
    }


def read_gfile(uri: str) -> dict:
    tf, _ = _tf()
    with tf.io.gfile.GFile(uri, "rb") as f:
        return {"sha256": hashlib.sha256(f.read()).hexdigest()}


def fs_ops(root: str) -> dict:
    tf, _ = _tf()
    g = tf.io.gfile
    g.makedirs(root + "/a/b")
    for name in ("x1.csv", "x2.csv", "y.txt"):
        with g.GFile(f"{root}/a/{name}", "w") as f:
            f.write(name)
    out = {
        "listdir": sorted(g.listdir(root + "/a")),
        "glob": sorted(g.glob(root + "/a/x?.csv")),
        "glob_dirs": sorted(g.glob(root + "/*/b")),
        "isdir_dir": g.isdir(root + "/a"),
        "isdir_file": g.isdir(root + "/a/y.txt"),
        "exists": g.exists(root + "/a/y.txt"),
        "exists_missing": g.exists(root + "/a/nope"),
        "stat_len": g.stat(root + "/a/x1.csv").length,
        "stat_isdir": g.stat(root + "/a").is_directory,
        "mtime_recent": abs(g.stat(root + "/a/x1.csv").mtime_nsec / 1e9 - time.time()) < 600,
    }
    g.rename(root + "/a/y.txt", root + "/a/z.txt")
    out["after_rename"] = sorted(g.listdir(root + "/a"))
    g.remove(root + "/a/z.txt")
    out["after_remove"] = sorted(g.listdir(root + "/a"))
    # TF's Python wrapper swallows ALREADY_EXISTS from mkdir; a missing parent is an error.
    out["mkdir_existing"] = _error(lambda: g.mkdir(root + "/a"))["class"]
    out["mkdir_no_parent"] = _error(lambda: g.mkdir(root + "/nope/c"))["class"]
    out["open_dir"] = _error(lambda: g.GFile(root + "/a", "rb").read())["class"]
    g.rmtree(root + "/a")
    out["after_rmtree"] = g.exists(root + "/a")
    return out


def missing_path_errors(uri: str) -> dict:
    tf, _ = _tf()
    g = tf.io.gfile
    return {
        "stat": _error(lambda: g.stat(uri)),
        "open": _error(lambda: g.GFile(uri, "rb").read()),
        "listdir": _error(lambda: g.listdir(uri)),
        "remove": _error(lambda: g.remove(uri)),
        "dataset": _error(lambda: list(tf.data.TextLineDataset(uri).as_numpy_iterator())),
    }


def permission_denied(uri: str) -> dict:
    tf, _ = _tf()
    return {"listdir": _error(lambda: tf.io.gfile.listdir(uri))}


def text_line_dataset(uri: str, local: str) -> dict:
    tf, registered = _tf()
    start = time.perf_counter()
    remote = _rows(tf.data.TextLineDataset(uri))
    elapsed = time.perf_counter() - start
    here = _rows(tf.data.TextLineDataset(local))
    return {"registered": registered, "hdfs": _digest(remote), "local": _digest(here), "seconds": elapsed}


def tf1_text_line_reader(uri: str, local: str) -> dict:
    tf, registered = _tf()
    v1 = tf.compat.v1

    def read_all(path):
        with tf.Graph().as_default():
            queue = v1.train.string_input_producer([path], num_epochs=1, shuffle=False)
            _, values = v1.TextLineReader().read_up_to(queue, 1000)
            rows = []
            with v1.Session() as sess:
                sess.run(v1.local_variables_initializer())
                coord = v1.train.Coordinator()
                threads = v1.train.start_queue_runners(sess=sess, coord=coord)
                try:
                    while True:
                        rows.extend(sess.run(values).tolist())
                except tf.errors.OutOfRangeError:
                    pass
                finally:
                    coord.request_stop()
                    coord.join(threads)
            return rows

    return {"registered": registered, "hdfs": _digest(read_all(uri)), "local": _digest(read_all(local))}


def paced_read(uri: str, local: str, pause_after: int) -> dict:
    """Reads `pause_after` rows, prints PAUSED, waits for a line on stdin, reads the rest."""
    tf, registered = _tf()
    rows = []
    for batch in tf.data.TextLineDataset(uri).batch(1000).as_numpy_iterator():
        rows.extend(batch.tolist())
        if len(rows) == pause_after:
            print("PAUSED", flush=True)
            sys.stdin.readline()
            resumed = time.monotonic()
    finished = time.monotonic()
    here = _rows(tf.data.TextLineDataset(local))
    return {"registered": registered, "hdfs": _digest(rows), "local": _digest(here), "seconds_after_resume": finished - resumed}


def deleted_after_listing(root: str, namenode: str, victim_path: str) -> dict:
    """Lists root/*.csv, deletes one listed file behind TF's back, then reads them all."""
    tf, _ = _tf()
    from hdfs_native import Client

    files = sorted(tf.io.gfile.glob(root + "/*.csv"))
    Client(namenode).delete(victim_path)
    return {"listed": files, "read": _error(lambda: list(tf.data.TextLineDataset(files).as_numpy_iterator()))}


def namenode_down(uri: str) -> dict:
    tf, registered = _tf()
    start = time.monotonic()
    err = _error(lambda: tf.io.gfile.stat(uri))
    return {"registered": registered, "error": err, "seconds": time.monotonic() - start}


def fallback_dataset(uri: str, local: str) -> dict:
    """tf1compat.hdfs.text_line_dataset with whatever the environment allows."""
    import tensorflow as tf

    from tf1compat import hdfs

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ds = hdfs.text_line_dataset(uri)
        again = hdfs.ensure_registered()  # must not warn a second time
    rows = _rows(ds)
    here = _rows(tf.data.TextLineDataset(local))
    return {
        "plugin": again,
        "warnings": [str(w.message) for w in caught if w.category.__name__ == "HdfsPluginWarning"],
        "hdfs": _digest(rows),
        "local": _digest(here),
        "status": hdfs.plugin_status(),
    }


def fallback_missing(uri: str) -> dict:
    from tf1compat import hdfs

    return {"read": _error(lambda: list(hdfs.text_line_dataset(uri).as_numpy_iterator()))}


if __name__ == "__main__":
    check, args = sys.argv[1], json.loads(sys.argv[2])
    result = globals()[check](**args)
    print("RESULT " + json.dumps(result), flush=True)
