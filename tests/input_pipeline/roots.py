"""Where test CSV files live: the interface HDFS (or any filesystem) plugs into."""

from __future__ import annotations

from pathlib import Path
from typing import Union


class CsvRoot:
    """A directory that tests write CSV files to and read them from.

    Subclasses implement `write`, `mkdir` and `url`; `url(name)` is what the
    pipelines receive (a local path, or e.g. an `hdfs://` URL).
    """

    def write(self, name: str, data: Union[bytes, str]) -> str:
        raise NotImplementedError

    def mkdir(self, name: str) -> str:
        raise NotImplementedError

    def url(self, name: str) -> str:
        raise NotImplementedError


class LocalRoot(CsvRoot):
    """A local temporary directory."""

    def __init__(self, base: Path):
        self.base = Path(base)

    def write(self, name: str, data: Union[bytes, str]) -> str:
        path = self.base / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        return self.url(name)

    def mkdir(self, name: str) -> str:
        (self.base / name).mkdir(parents=True, exist_ok=True)
        return self.url(name)

    def url(self, name: str) -> str:
        return str(self.base / name)
