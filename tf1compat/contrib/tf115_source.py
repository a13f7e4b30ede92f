"""Where TF 1.15's own Python source of `tf.contrib` is on this machine, fetched once if not.

Some contrib packages are pure Python on TensorFlow's core ops (`graph_editor`,
`labeled_tensor`, `grid_rnn`, ...): they are served from TF 1.15's own files
(`tf1compat.contrib.tf115_code`). Those files are never part of tf1compat: they are read from
the official TensorFlow 1.15 wheel, which pip downloads once, checked by its SHA-256; only
`tensorflow_core/contrib/**/*.py` (941 files, 8 MB) is kept, under tf1compat's cache.

`TF1COMPAT_TF115_SOURCE` names a folder to read instead: an installed TF 1.15's
`tensorflow_core` (which holds `contrib/`). `TF1COMPAT_OFFLINE=1` forbids the download.
"""

from __future__ import annotations

import functools
import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Optional

from tf1compat.shared.cache import cache_dir

ENV_SOURCE = "TF1COMPAT_TF115_SOURCE"
ENV_OFFLINE = "TF1COMPAT_OFFLINE"
WHEEL = "tensorflow_cpu-1.15.0-cp37-cp37m-manylinux2010_x86_64.whl"
WHEEL_SHA256 = "2996f18a570790e04689c0c0f1b401c06890861c1b13bc01a6e88e291fd206ea"
# The wheel is for CPython 3.7 on Linux: pip is told so, whatever runs it (only its .py files
# are read, and they are the same on every platform).
PIP_DOWNLOAD = ["download", "tensorflow-cpu==1.15.0", "--no-deps", "--only-binary=:all:",
                "--python-version", "3.7", "--implementation", "cp", "--abi", "cp37m",
                "--platform", "manylinux2010_x86_64", "--quiet"]
DOWNLOAD_TIMEOUT_SECONDS = 900
KEPT = "tensorflow_core/contrib/"


class SourceUnavailable(ImportError):
    """TF 1.15's source is not here and cannot be fetched; the message says why and what to do."""


def cached_root() -> Path:
    """The folder the fetched source is kept in (it holds `contrib/`)."""
    return cache_dir() / "tf115-source" / "tensorflow_core"


def _holds_contrib(folder: Path) -> bool:
    return (folder / "contrib" / "__init__.py").is_file()


@functools.lru_cache(maxsize=1)
def source_root() -> Path:
    """The folder holding TF 1.15's `contrib/` source: $TF1COMPAT_TF115_SOURCE, else the cache
    (filled from the wheel on first use).

    Raises:
      SourceUnavailable: the named folder holds no TF 1.15 source, or the download is
        forbidden or failed.
    """
    named = os.environ.get(ENV_SOURCE)
    if named:
        if not _holds_contrib(Path(named)):
            raise SourceUnavailable(
                f"{ENV_SOURCE}={named!r} holds no contrib/__init__.py: name the "
                "tensorflow_core folder of a TensorFlow 1.15 installation, or unset it to let "
                "tf1compat fetch TF 1.15's source once")
        return Path(named)
    root = cached_root()
    if not _holds_contrib(root):
        fetch(root)
    return root


def fetch(root: Path, wheel: Optional[Path] = None) -> None:
    """Keeps the contrib source of TF 1.15's wheel under `root` (downloading the wheel with pip
    unless `wheel` is given)."""
    if wheel is None and os.environ.get(ENV_OFFLINE) == "1":
        raise SourceUnavailable(
            f"TF 1.15's contrib source is not in {root} and {ENV_OFFLINE}=1 forbids fetching it: "
            f"set {ENV_SOURCE} to an installed TensorFlow 1.15's tensorflow_core folder")
    root.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=root.parent) as scratch:
        if wheel is None:
            print("tf1compat: fetching TensorFlow 1.15's contrib source once (the "
                  "tensorflow-cpu 1.15.0 wheel, 111 MB)", file=sys.stderr, flush=True)
            wheel = _download(Path(scratch))
        _check_digest(wheel)
        unpacked = Path(scratch) / "tensorflow_core"
        with zipfile.ZipFile(wheel) as archive:
            for member in archive.infolist():
                if member.filename.startswith(KEPT) and member.filename.endswith(".py"):
                    archive.extract(member, scratch)
        if not _holds_contrib(unpacked):
            raise SourceUnavailable(f"{wheel.name} holds no {KEPT}__init__.py")
        if root.exists():  # another process fetched it meanwhile: theirs stands
            return
        os.replace(unpacked, root)


def _download(into: Path) -> Path:
    command = [sys.executable, "-m", "pip", *PIP_DOWNLOAD, "--dest", str(into)]
    try:
        result = subprocess.run(command, capture_output=True, text=True,
                                timeout=DOWNLOAD_TIMEOUT_SECONDS)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise SourceUnavailable(f"could not fetch TF 1.15's source with pip: {error}") from None
    found = into / WHEEL
    if result.returncode != 0 or not found.is_file():
        said = (result.stderr or result.stdout).strip().splitlines()[-1:] or ["no output"]
        raise SourceUnavailable(
            f"could not fetch TF 1.15's source: `pip {' '.join(PIP_DOWNLOAD[:2])}` failed "
            f"({said[0]}); set {ENV_SOURCE} to an installed TensorFlow 1.15's tensorflow_core "
            "folder")
    return found


def _check_digest(wheel: Path) -> None:
    digest = hashlib.sha256()
    with open(wheel, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    if digest.hexdigest() != WHEEL_SHA256:
        raise SourceUnavailable(f"{wheel.name} has SHA-256 {digest.hexdigest()}, not the "
                                f"official wheel's {WHEEL_SHA256}: not used")

