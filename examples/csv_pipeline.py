"""CSV files read by a queue pipeline (TF1) and by tf.data (TF2): the same rows, in the same order.

TF1: `tf1compat.input_pipeline` — `string_input_producer` -> `TextLineReader`
-> `decode_csv` under a `Coordinator`, reading thousands of lines per step.
TF2: `modern.input_pipeline` — the same contract on `tf.data`, parallel reads.
The file is generated (seeded) with a header line and one malformed row,
which both sides skip and count. With `--hdfs hdfs://host:port` the file is
also copied into HDFS and read back through `hdfs://` by both sides.
"""

from __future__ import annotations

import hashlib
import os
import tempfile

import numpy as np

from examples import common

NAME = "csv_pipeline"
TITLE = "CSV pipeline: queues + TextLineReader vs tf.data"
DEFAULTS = [[0], [0.0], [0.0], [""]]
COLUMNS = ["id", "x", "y", "label"]


def _write_csv(settings: common.Settings) -> str:
    rows = 2_000 if settings.size == "small" else 200_000
    rng = np.random.default_rng(7)
    x, y = rng.normal(size=rows).round(4), rng.normal(size=rows).round(4)
    lines = ["id,x,y,label"] + [f"{i},{x[i]},{y[i]},{'pos' if x[i] + y[i] > 0 else 'neg'}"
                                for i in range(rows)]
    lines.insert(rows // 2, "not,a,valid row,at all,really")  # one bad row: wrong column count
    path = os.path.join(tempfile.gettempdir(), f"tf1compat-example-{settings.size}.csv")
    with open(path + ".tmp", "w") as handle:
        handle.write("\n".join(lines) + "\n")
    os.replace(path + ".tmp", path)
    return path


def _copy_to_hdfs(local: str, settings: common.Settings) -> str:
    import tensorflow as tf

    from tf1compat.hdfs import ensure_registered

    if not ensure_registered():
        raise SystemExit("--hdfs needs the hdfs:// plugin (see `tf1compat doctor`)")
    remote = f"{settings.hdfs.rstrip('/')}/tf1compat-examples/{os.path.basename(local)}"
    tf.io.gfile.makedirs(remote.rsplit("/", 1)[0])
    tf.io.gfile.copy(local, remote, overwrite=True)
    return remote


def _summarise(batches, pipeline, where: str) -> dict:
    ids = np.concatenate([b["id"] for b in batches])
    digest = hashlib.sha256()
    for batch in batches:
        for column in COLUMNS:
            values = batch[column]
            digest.update(b"\x00".join(values.tolist()) if values.dtype == object
                          else np.ascontiguousarray(values).tobytes())
    positives = int(sum(int(np.sum(b["label"] == b"pos")) for b in batches))
    values = {"rows": int(len(ids)), "first_ids": ids[:5].tolist(), "sha256": digest.hexdigest(),
              "positives": positives, "bad_rows": pipeline.bad_rows.total}
    return {"summary": f"{where}: {values['rows']} rows, {positives} 'pos', "
                       f"{values['bad_rows']} bad row skipped, sha256 {values['sha256'][:12]}",
            "values": values}


def _read(open_pipeline, settings: common.Settings) -> dict:
    local = _write_csv(settings)
    sources = [("local", local)] + ([("hdfs", _copy_to_hdfs(local, settings))]
                                   if settings.hdfs else [])
    results = {}
    for where, path in sources:
        with open_pipeline(path) as pipeline:
            batches = list(pipeline)
        results[where] = _summarise(batches, pipeline, where)
    if "hdfs" in results:
        results["local"]["values"]["hdfs_sha256"] = results["hdfs"]["values"]["sha256"]
        results["local"]["summary"] += "; hdfs:// identical" if \
            results["hdfs"]["values"]["sha256"] == results["local"]["values"]["sha256"] \
            else "; hdfs:// DIFFERS"
    return results["local"]


OPTIONS = dict(column_names=COLUMNS, header_lines=1, batch_size=512, on_bad_row="skip")


def tf1(settings: common.Settings) -> dict:
    import tf1compat
    from tf1compat.input_pipeline import input_pipeline

    with tf1compat.session() as sess:
        return _read(lambda path: input_pipeline(path, DEFAULTS, session=sess, **OPTIONS),
                     settings)


def tf2(settings: common.Settings) -> dict:
    from modern.input_pipeline import input_pipeline

    return _read(lambda path: input_pipeline(path, DEFAULTS, **OPTIONS), settings)


def agree(tf1_result: dict, tf2_result: dict):
    keys = ["rows", "first_ids", "sha256", "positives", "bad_rows"]
    if "hdfs_sha256" in tf1_result["values"]:
        keys.append("hdfs_sha256")
        if tf1_result["values"]["hdfs_sha256"] != tf1_result["values"]["sha256"]:
            return False, "the hdfs:// rows differ from the local rows"
    return common.exact(tf1_result, tf2_result, keys)


if __name__ == "__main__":
    common.main(__spec__.name)
