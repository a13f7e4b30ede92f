"""Whether something on this machine already listens on host:port.

One semantics for every check the tools make: a port counts as taken when a socket is
bound to it for listening. Connections of an earlier run left in TIME_WAIT do not count,
since TensorFlow's servers bind with SO_REUSEADDR (and ports come back: Slurm job ids
and launch's port bases repeat).
"""

from __future__ import annotations

import errno
import socket
from typing import Optional


def port_listened_on(host: str, port: int) -> Optional[bool]:
    """True when host:port is taken here, False when it is free, None when this machine
    cannot tell: `host` is not one of its addresses (or does not resolve)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror:
        return None
    family, _, _, _, address = infos[0]
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                return True
            return None  # EADDRNOTAVAIL (another machine's address), EACCES, ...
    return False
