"""Files written whole or not at all: a reader sees the old file or the new one, never a
part, and a failure while writing leaves the old file as it was."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Union


def write_atomically(path: Union[str, os.PathLike], data: Union[str, bytes]) -> None:
    """Writes `data` (text as UTF-8) to `path` through a temporary file beside it, renamed
    over `path` once complete and flushed to disk. A file replaced keeps its permissions."""
    path = Path(path)
    # Named by process and thread, so concurrent writers never share one; opened as a
    # plain file, so the result has the permissions any new file gets here.
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.partial")
    try:
        with open(temporary, "wb") as stream:
            stream.write(data.encode("utf-8") if isinstance(data, str) else data)
            stream.flush()
            os.fsync(stream.fileno())
        if path.exists():
            os.chmod(temporary, path.stat().st_mode & 0o7777)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        raise
