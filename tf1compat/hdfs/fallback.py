"""Reading hdfs:// without the TensorFlow plugin, through the hdfs-native Python client.

Used when the plugin was not built or is disabled (TF1COMPAT_HDFS_PLUGIN=0). Lines are
split exactly as TensorFlow's TextLineDataset/TextLineReader split them ("\\n", one
trailing "\\r" removed, no empty line after a final newline), so both paths yield the
same rows. hdfs-native releases the GIL while it reads.
"""

from __future__ import annotations

import fnmatch
import re
from typing import Iterable, Iterator

from tf1compat.shared.errors import HdfsError, HdfsNotFoundError
from tf1compat.hdfs.client import HdfsUri, client_for, translate_error

CHUNK_BYTES = 8 << 20  # large reads: hdfs-native opens block streams per read call


def _stat(uri: HdfsUri, op: str):
    try:
        return client_for(uri).get_file_info(uri.path)
    except Exception as e:  # noqa: BLE001 - mapped to our error classes
        raise translate_error(op, uri, e) from e


def exists(path: str) -> bool:
    """True when `path` (an hdfs:// URI) names a file or directory."""
    try:
        _stat(HdfsUri.parse(path), "stat")
        return True
    except HdfsNotFoundError:
        return False


def read_chunks(path: str, chunk_bytes: int = CHUNK_BYTES) -> Iterator[bytes]:
    """The bytes of the file at `path`, in pieces of `chunk_bytes`.

    Raises:
      HdfsNotFoundError: the file does not exist (or was deleted before it was opened).
      HdfsError: `path` is a directory, or another HDFS failure (message names the URI).
    """
    uri = HdfsUri.parse(path)
    if _stat(uri, "open").isdir:
        raise HdfsError(f"open {uri}: is a directory, expected a file", str(uri))
    try:
        reader = client_for(uri).read(uri.path)
    except Exception as e:  # noqa: BLE001 - mapped to our error classes
        raise translate_error("open", uri, e) from e
    with reader:
        while True:
            try:
                chunk = reader.read(chunk_bytes)
            except Exception as e:  # noqa: BLE001 - mapped to our error classes
                raise translate_error("read", uri, e) from e
            if not chunk:
                return
            yield chunk


def read_range(path: str, start: int, length: int) -> bytes:
    """The bytes [start, start + length) of the file at `path` (fewer at its end), in one call.

    One hdfs-native range read fetches the range's blocks itself, about twice as fast as
    the same bytes through TensorFlow's file API, which reads in 512 KiB pieces.

    Raises:
      HdfsNotFoundError: the file does not exist.
      HdfsError: another HDFS failure (the message names the URI).
    """
    uri = HdfsUri.parse(path)
    try:
        with client_for(uri).read(uri.path) as reader:
            length = max(0, min(length, reader.size - start))
            return reader.read_range(start, length) if length else b""
    except Exception as e:  # noqa: BLE001 - mapped to our error classes
        raise translate_error("read", uri, e) from e


def read_bytes(path: str) -> bytes:
    """The whole file at `path`."""
    return b"".join(read_chunks(path))


def read_lines(path: str) -> Iterator[bytes]:
    """The lines of the file at `path`, as TensorFlow's TextLineDataset yields them."""
    tail = b""
    for chunk in read_chunks(path):
        pieces = (tail + chunk).split(b"\n")
        tail = pieces.pop()
        for line in pieces:
            yield line[:-1] if line.endswith(b"\r") else line
    if tail:
        yield tail[:-1] if tail.endswith(b"\r") else tail


_WILDCARD = re.compile(r"[*?\[]")


def _tf_glob_to_fnmatch(component: str) -> str:
    # TF's glob grammar: '[^...]' negates and '\c' escapes; fnmatch uses '[!...]' and
    # has no escapes, so an escaped character becomes a one-character class.
    out = re.sub(r"\\(.)", lambda m: "[" + m.group(1) + "]", component)
    return out.replace("[^", "[!")


def glob(pattern: str) -> list[str]:
    """Full hdfs:// URIs matching `pattern`, sorted (TensorFlow's glob syntax: *, ?, [..]).

    Wildcards never match '/'. A pattern without wildcards returns itself if it exists.
    """
    uri = HdfsUri.parse(pattern)
    client = client_for(uri)
    components = [c for c in uri.path.split("/") if c]
    prefix: list[str] = []
    while components and not _WILDCARD.search(components[0]):
        prefix.append(components.pop(0))
    candidates = ["/" + "/".join(prefix)]
    for i, comp in enumerate(components):
        matcher = _tf_glob_to_fnmatch(comp)
        last = i == len(components) - 1
        next_candidates = []
        for base in candidates:
            try:
                listing = list(client.list_status(base))
            except FileNotFoundError:
                continue
            except Exception as e:  # noqa: BLE001 - mapped to our error classes
                raise translate_error("list", HdfsUri(uri.scheme, uri.authority, base), e) from e
            for status in listing:
                name = status.path.rstrip("/").rsplit("/", 1)[-1]
                if fnmatch.fnmatchcase(name, matcher) and (last or status.isdir):
                    next_candidates.append(base.rstrip("/") + "/" + name)
        candidates = next_candidates
    if not components:
        return [uri.join(c) for c in candidates if exists(uri.join(c))]
    return sorted(uri.join(c) for c in candidates)


def as_path_list(paths: str | bytes | Iterable[str | bytes]) -> list[str]:
    """One path or many, as a list of str (TextLineDataset takes either)."""
    if isinstance(paths, (str, bytes)):
        paths = [paths]
    return [p.decode() if isinstance(p, bytes) else str(p) for p in paths]


def fallback_text_line_dataset(paths: str | Iterable[str]):
    """A `tf.data.Dataset` of tf.string lines read through hdfs-native (no plugin).

    Files are read in the given order, lines in file order, like TextLineDataset. A file
    deleted after this dataset was built raises HdfsNotFoundError naming it when reached.
    """
    import tensorflow as tf  # lazy

    files = as_path_list(paths)

    def generate():
        for f in files:
            yield from read_lines(f)

    return tf.data.Dataset.from_generator(generate, output_signature=tf.TensorSpec([], tf.string))
