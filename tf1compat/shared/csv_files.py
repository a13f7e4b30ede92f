"""Input files: globs expanded, paths checked, byte ranges planned.

Both pipelines resolve their `files` argument here, so a missing file, an
empty file, a directory or a glob that matches nothing is reported the same
way on both sides, as `InputFileError` naming the path, before TensorFlow
opens anything. Local paths (and `file://` URLs) are read with Python's own
I/O; other URLs (`hdfs://`, `viewfs://`, `gs://`, ...) through `tf.io.gfile`.

For `hdfs://` and `viewfs://` the `tf1compat.hdfs` module registers
TensorFlow's filesystem plugin (`ensure_registered`); when the plugin is
unavailable, it offers a pure-Python `glob` and `text_line_dataset` that only
the tf.data side can use.
"""

from __future__ import annotations

import dataclasses
import functools
import glob as _glob
import os
from typing import Iterable, Optional

from tf1compat.shared.errors import InputFileError

BOM = b"\xef\xbb\xbf"
HDFS_SCHEMES = ("hdfs", "viewfs")
_WINDOW = 1 << 16


def scheme_of(path: str) -> str:
    """The URL scheme of `path` ('' for a plain local path)."""
    head, sep, _ = path.partition("://")
    return head.lower() if sep and head.isalnum() else ""


def local_path(path: str) -> Optional[str]:
    """The local filesystem path for `path`, or None for a remote URL."""
    scheme = scheme_of(path)
    if scheme == "":
        return path
    if scheme == "file":
        return path[len("file://"):]
    return None


def hdfs_mode(path: str) -> Optional[str]:
    """How an `hdfs://`/`viewfs://` path is read: 'plugin', 'fallback', or None (not HDFS).

    Raises:
      InputFileError: the path is an HDFS URL and `tf1compat.hdfs` cannot be
        imported (not built into this installation, or a dependency missing).
    """
    scheme = scheme_of(path)
    if scheme not in HDFS_SCHEMES:
        return None
    try:
        from tf1compat.hdfs import ensure_registered  # noqa: WPS433 (optional module)
    except ImportError as error:
        raise InputFileError(
            path, f"{scheme}:// paths need the tf1compat.hdfs module, which cannot be imported "
            f"({error})", "install tf1compat with HDFS support, or copy the files to a local path"
        ) from None
    return "plugin" if ensure_registered(scheme=scheme) else "fallback"


def hdfs_fallback():
    """The `tf1compat.hdfs` module (for its pure-Python `glob` and `text_line_dataset`)."""
    import tf1compat.hdfs as hdfs  # noqa: WPS433
    return hdfs


@dataclasses.dataclass(frozen=True)
class InputFile:
    """One resolved input file.

    Attributes:
      path: the path TensorFlow opens: a local path (a `file://` URL loses its
        scheme) or a URL; bad rows and errors name this path.
      size: its size in bytes, or None where it cannot be known (HDFS without
        the plugin).
      bom: whether it starts with a UTF-8 byte order mark.
      index: its position in the resolved list.
      via_fallback: read with `tf1compat.hdfs.text_line_dataset` (HDFS
        without the TensorFlow plugin).
    """

    path: str
    size: Optional[int]
    bom: bool
    index: int
    via_fallback: bool = False


def _has_magic(pattern: str) -> bool:
    return _glob.has_magic(pattern)


@functools.lru_cache(maxsize=None)
def _hdfs_native_installed() -> bool:
    import importlib.util
    return importlib.util.find_spec("hdfs_native") is not None


def _gfile():
    import tensorflow as tf
    return tf.io.gfile


def _expand(pattern: str) -> list[tuple[str, bool]]:
    """Paths for one pattern, each with whether it is read through the HDFS fallback."""
    mode = hdfs_mode(pattern)
    fallback = mode == "fallback"
    if not _has_magic(pattern):
        return [(local_path(pattern) or pattern, fallback)]
    local = local_path(pattern)
    if local is not None and os.path.exists(local):
        return [(local, False)]
    if local is not None:
        matches = sorted(_glob.glob(local))
    elif fallback:
        matches = sorted(hdfs_fallback().glob(pattern))
    else:
        try:
            matches = sorted(_gfile().glob(pattern))
        except Exception as error:  # noqa: BLE001 - TF's own errors for a bad scheme or host
            raise InputFileError(pattern, f"the glob could not be listed: {error}") from None
    if not matches:
        raise InputFileError(pattern, "the glob matched no files")
    return [(m, fallback) for m in matches]


def _check(path: str, fallback: bool) -> tuple[Optional[int], bool]:
    """Size and BOM of one path; raises InputFileError if it is not a readable file."""
    if fallback:
        return None, False
    local = local_path(path)
    if local is not None:
        if not os.path.exists(local):
            raise InputFileError(path, "no such file")
        if os.path.isdir(local):
            raise InputFileError(path, "is a directory, not a file",
                                 "name the files, or a glob such as 'dir/*.csv'")
        size = os.path.getsize(local)
        if size and not os.access(local, os.R_OK):
            raise InputFileError(path, "permission denied")
    else:
        gfile = _gfile()
        try:
            if not gfile.exists(path):
                raise InputFileError(path, "no such file")
            if gfile.isdir(path):
                raise InputFileError(path, "is a directory, not a file",
                                     "name the files, or a glob such as 'dir/*.csv'")
            size = gfile.stat(path).length
        except InputFileError:
            raise
        except Exception as error:  # noqa: BLE001 - any file system's error, with its reason
            raise InputFileError(path, f"cannot be opened: {error}") from None
    if size == 0:
        raise InputFileError(path, "the file is empty (0 bytes)")
    with open_binary(path) as handle:
        bom = handle.read(len(BOM)) == BOM
    return size, bom


def resolve(patterns: Iterable[str], *, allow_fallback: bool) -> list[InputFile]:
    """Expands globs and checks every file, in order (each glob's matches sorted).

    Args:
      patterns: paths, `file://`/`hdfs://`/other URLs, or globs of them.
      allow_fallback: whether HDFS paths may be read without the TensorFlow
        plugin (the tf.data side can; TF1 readers cannot).

    Returns:
      One `InputFile` per file.

    Raises:
      InputFileError: a path is missing, empty or a directory, a glob matches
        nothing, or an HDFS path cannot be read; the error names the path.
    """
    files: list[InputFile] = []
    for pattern in patterns:
        for path, fallback in _expand(pattern):
            if fallback and not allow_fallback:
                raise InputFileError(
                    path, "TF1 readers (TextLineReader) need TensorFlow's HDFS filesystem "
                    "plugin, and tf1compat.hdfs could not register it",
                    "see the warning tf1compat.hdfs gave, or use modern.input_pipeline")
            size, bom = _check(path, fallback)
            files.append(InputFile(path, size, bom, len(files), fallback))
    return files


def open_binary(path: str):
    """A binary file object for a local path or a TensorFlow filesystem URL."""
    local = local_path(path)
    if local is not None:
        return open(local, "rb")
    return _gfile().GFile(path, "rb")


def first_line_number(path: str, offset: int) -> int:
    """The 1-based line number of the line that starts at byte `offset`."""
    count = 0
    with open_binary(path) as handle:
        left = offset
        while left > 0:
            block = handle.read(min(left, 1 << 22))
            if not block:
                break
            count += block.count(b"\n")
            left -= len(block)
    return count + 1


@dataclasses.dataclass(frozen=True)
class Shard:
    """A byte range of one file that starts at a line start and ends after a newline.

    Attributes:
      file: the file's index in the resolved list.
      start: first byte (after the BOM and header lines for the first shard).
      length: number of bytes; the range never ends inside a line, except the
        file's last range when the file has no final newline.
      crlf: whether a line ending seen while planning was CRLF (decoders then
        strip the carriage returns before splitting).
      final_cr: the range ends the file with a carriage return and no newline
        (TextLineReader strips that carriage return from the last line).
    """

    file: int
    start: int
    length: int
    crlf: bool
    final_cr: bool = False


def _next_newline(handle, position: int, limit: int) -> int:
    """Position just after the first newline at or after `position` (limit if none)."""
    if position >= limit:
        return limit  # TensorFlow's GFile cannot seek past the end, unlike Python's files
    handle.seek(position)
    while position < limit:
        block = handle.read(min(_WINDOW, limit - position))
        if not block:
            return limit
        found = block.find(b"\n")
        if found >= 0:
            return position + found + 1
        position += len(block)
    return limit


def _ends_crlf(handle, newline_end: int) -> bool:
    if newline_end < 2:
        return False
    handle.seek(newline_end - 2)
    return handle.read(2) == b"\r\n"


def plan_shards(file: InputFile, header_lines: int, chunk_bytes: int) -> list[Shard]:
    """Splits one file into line-aligned byte ranges of about `chunk_bytes`.

    The first range starts after the BOM and the header lines. Reads only a
    window around each boundary.

    Returns:
      The shards in file order (none for a file that holds only header lines).
    """
    assert file.size is not None
    limit = file.size
    with open_binary(file.path) as handle:
        handle.seek(limit - 1)
        final_cr = handle.read(1) == b"\r"
        position = len(BOM) if file.bom else 0
        for _ in range(header_lines):
            position = _next_newline(handle, position, limit)
        crlf = False
        bounds = []
        start = position
        while start < limit:
            end = _next_newline(handle, start + max(chunk_bytes, 1) - 1, limit)
            crlf = crlf or _ends_crlf(handle, end)
            bounds.append((start, end - start))
            start = end
        if bounds:
            crlf = crlf or _ends_crlf(handle, _next_newline(handle, bounds[0][0], limit))
    return [Shard(file.index, s, n, crlf, final_cr and s + n == limit) for s, n in bounds]


def read_range(path: str, start: int, length: int) -> bytes:
    """The bytes [start, start + length) of a file (fewer at its end).

    HDFS ranges are read by hdfs-native in one call where it is installed (the
    plugin reads the same bytes through TensorFlow's smaller pieces).
    """
    local = local_path(path)
    if local is not None:
        descriptor = os.open(local, os.O_RDONLY)
        try:
            return os.pread(descriptor, length, start)
        finally:
            os.close(descriptor)
    if scheme_of(path) in HDFS_SCHEMES and _hdfs_native_installed():
        from tf1compat.hdfs.fallback import read_range as read_hdfs_range  # noqa: WPS433
        return read_hdfs_range(path, start, length)
    with open_binary(path) as handle:
        handle.seek(start)
        return handle.read(length)
