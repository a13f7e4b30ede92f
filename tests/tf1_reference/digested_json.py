"""Writes what a TF 1.15 listing script found as JSON, with the SHA-256 of its data.

The data is written canonically (sorted keys, no spaces) for the digest, so a reader
(`tf1compat.contrib.digested`) can tell the file was not edited by hand since it was made.
Runs on TF 1.15's interpreter (Python 3.7), beside the listing scripts.
"""

import hashlib
import json
import sys


def write(key, found, about, indent):
    """Prints {about, tensorflow, python, digest, <key>: found} to stdout."""
    import tensorflow as tf

    canonical = json.dumps(found, sort_keys=True, separators=(",", ":"))
    json.dump({"about": about, "tensorflow": tf.__version__,
               "python": "%d.%d" % sys.version_info[:2],
               "digest": "sha256:" + hashlib.sha256(canonical.encode()).hexdigest(),
               key: found}, sys.stdout, indent=indent, sort_keys=True)
    sys.stdout.write("\n")
