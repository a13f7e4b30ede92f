"""hdfs-native (Python) clients for the pure-Python fallback, and its error mapping.

The same rules as the Rust plugin: one client per (scheme, authority, user), a bounded
probe of the NameNode port before the first call (hdfs-native itself retries a refused
port for minutes), and errors that name the full hdfs:// URI.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from dataclasses import dataclass

from tf1compat.shared.errors import (
    HdfsConnectionError,
    HdfsError,
    HdfsNotFoundError,
    HdfsPermissionError,
)

CONNECT_TIMEOUT_ENV = "TF1COMPAT_HDFS_CONNECT_TIMEOUT_S"
FAILOVER_ATTEMPTS_ENV = "TF1COMPAT_HDFS_FAILOVER_ATTEMPTS"

_clients: dict[tuple[str, str, str], object] = {}
_clients_lock = threading.Lock()


@dataclass(frozen=True)
class HdfsUri:
    """`scheme://authority/path` split apart; `path` is absolute, without the cluster."""

    scheme: str
    authority: str
    path: str

    @classmethod
    def parse(cls, uri: str) -> "HdfsUri":
        if "://" not in uri:
            raise HdfsError(
                f"not an HDFS URI: received {uri!r}; expected hdfs://host:port/path "
                "(e.g. hdfs://namenode:8020/data/train.csv)",
                uri,
            )
        scheme, rest = uri.split("://", 1)
        if scheme not in ("hdfs", "viewfs"):
            raise HdfsError(f"not an HDFS URI: received {uri!r}; accepted schemes: hdfs://, viewfs://", uri)
        authority, _, path = rest.partition("/")
        parts = [p for p in path.split("/") if p not in ("", ".")]
        return cls(scheme, authority, "/" + "/".join(parts))

    @property
    def cluster(self) -> str:
        return f"{self.scheme}://{self.authority}"

    def join(self, path: str) -> str:
        """The full URI of another `path` on the same cluster."""
        return f"{self.cluster}{path}"

    def __str__(self) -> str:
        return self.join(self.path)

    def host_port(self) -> tuple[str, int] | None:
        host, sep, port = self.authority.rpartition(":")
        if not sep or not port.isdigit():
            return None
        return host.strip("[]"), int(port)


def connect_timeout() -> float:
    try:
        value = float(os.environ.get(CONNECT_TIMEOUT_ENV, "10"))
    except ValueError:
        value = 10.0
    return value if value > 0 else 10.0


def _probe(uri: HdfsUri) -> None:
    """Fails within the connect timeout when nothing answers on the NameNode port."""
    hp = uri.host_port()
    if hp is None:
        return  # a nameservice: hdfs-native resolves it from HADOOP_CONF_DIR
    limit = connect_timeout()
    start = time.monotonic()
    try:
        socket.create_connection(hp, timeout=limit).close()
    except OSError as e:
        raise HdfsConnectionError(
            f"cannot connect to the HDFS NameNode at {hp[0]}:{hp[1]} (for {uri}): {e}, after "
            f"{time.monotonic() - start:.1f}s (limit {limit:.0f}s, set {CONNECT_TIMEOUT_ENV}); "
            "check that the NameNode is running and that the host and port in the URL are right",
            f"{hp[0]}:{hp[1]}",
        ) from e


def client_for(uri: HdfsUri):
    """The cached `hdfs_native.Client` for the cluster `uri` is on."""
    try:
        from hdfs_native import Client
    except ImportError as e:
        raise HdfsError(
            "reading hdfs:// without the TensorFlow plugin needs the hdfs-native package: "
            "pip install 'hdfs-native>=0.14,<0.15' (a dependency of tf1compat)",
            str(uri),
        ) from e
    user = os.environ.get("HADOOP_USER_NAME", "")
    key = (uri.scheme, uri.authority, user)
    with _clients_lock:
        if key in _clients:
            return _clients[key]
    _probe(uri)
    config = {
        "dfs.client.failover.max.attempts": os.environ.get(FAILOVER_ATTEMPTS_ENV, "2"),
        "dfs.client.failover.sleep.base.millis": "100",
        "dfs.client.failover.sleep.max.millis": "1000",
    }
    client = Client(uri.cluster if uri.authority else None, config=config)
    with _clients_lock:
        return _clients.setdefault(key, client)


def translate_error(op: str, uri: HdfsUri, exc: BaseException) -> HdfsError:
    """An hdfs-native exception from `op` on `uri` as one of our HdfsError classes."""
    if isinstance(exc, HdfsError):
        return exc
    text = str(exc)
    first = text.strip().splitlines()[0] if text.strip() else type(exc).__name__
    if isinstance(exc, FileNotFoundError) or "FileNotFoundException" in text:
        return HdfsNotFoundError(f"{uri}: no such file or directory on HDFS (while trying to {op} it)", str(uri))
    if "AccessControlException" in text or isinstance(exc, PermissionError):
        user = os.environ.get("HADOOP_USER_NAME", "<login user>")
        return HdfsPermissionError(
            f"{op} {uri}: permission denied for HDFS user {user!r} ({first[:300]}); "
            "set HADOOP_USER_NAME to act as another user or change the path's permissions",
            str(uri),
        )
    if isinstance(exc, OSError):
        where = uri.authority or "fs.defaultFS"
        return HdfsConnectionError(
            f"{op} {uri}: I/O error talking to HDFS at {where}: {first}; check that the "
            "NameNode and DataNodes are running and reachable from this machine",
            str(uri),
        )
    return HdfsError(f"{op} {uri}: HDFS error: {first[:500]}", str(uri))
