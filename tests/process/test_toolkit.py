"""The process toolkit (`tf1compat.process`): one port check, atomic files, forwarded lines,
signal handlers given back, process groups stopped, exit codes in words, task reports."""

from __future__ import annotations

import io
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from tf1compat.process import events
from tf1compat.process.atomic import write_atomically
from tf1compat.process.exits import describe_exit, exit_status
from tf1compat.process.groups import stop_processes
from tf1compat.process.handlers import handling
from tf1compat.process.lines import forward_lines
from tf1compat.process.ports import port_listened_on


# -- ports ------------------------------------------------------------------------------------

def test_a_listening_port_is_taken_and_a_closed_one_is_free():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        assert port_listened_on("127.0.0.1", port) is True
    assert port_listened_on("127.0.0.1", port) is False


def test_connections_left_in_time_wait_do_not_make_a_port_taken():
    """TensorFlow's servers bind with SO_REUSEADDR: an earlier run's closed connections on the
    port (TIME_WAIT on the side that closed first) do not stop the next server."""
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]
    client = socket.create_connection(("127.0.0.1", port))
    accepted, _ = server.accept()
    accepted.close()  # the server's side closes first: its end waits in TIME_WAIT
    client.close()
    server.close()
    if _have("ss"):  # the state the check must see past is really there
        states = subprocess.run(["ss", "-tan", f"sport = :{port}"], capture_output=True,
                                text=True).stdout
        assert "TIME-WAIT" in states, states
    assert port_listened_on("127.0.0.1", port) is False


def test_an_address_of_another_machine_cannot_be_checked_here():
    # 192.0.2.0/24 is TEST-NET-1 (RFC 5737): never an address of this machine
    assert port_listened_on("192.0.2.7", 2222) is None
    assert port_listened_on("no-such-host.invalid", 2222) is None


def _have(program: str) -> bool:
    import shutil

    return shutil.which(program) is not None


# -- atomic files ---------------------------------------------------------------------------

def test_an_atomic_write_replaces_the_file_and_keeps_its_permissions(tmp_path):
    path = tmp_path / "report.json"
    path.write_text("old")
    os.chmod(path, 0o640)
    write_atomically(path, "new text\n")
    assert path.read_text() == "new text\n"
    assert path.stat().st_mode & 0o777 == 0o640
    write_atomically(tmp_path / "fresh.bin", b"\x00\x01")
    assert (tmp_path / "fresh.bin").read_bytes() == b"\x00\x01"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh.bin", "report.json"]


def test_a_failed_atomic_write_leaves_the_old_file_and_no_partial_one(tmp_path, monkeypatch):
    path = tmp_path / "results.json"
    path.write_text("old")

    def refuse(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match="No space left"):
        write_atomically(path, "new")
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["results.json"]


# -- forwarded lines -------------------------------------------------------------------------

def test_lines_are_forwarded_whole_with_their_prefix_and_seen_first():
    stream = io.BytesIO(b"first\nsecond \xff\nlast without newline")
    sink, seen = io.StringIO(), []
    forward_lines(stream, sink, "[worker:1] ", threading.Lock(), seen.append)
    assert sink.getvalue() == ("[worker:1] first\n[worker:1] second \ufffd\n"
                               "[worker:1] last without newline\n")
    assert seen == ["first", "second \ufffd", "last without newline"]
    assert stream.closed


def test_the_lock_keeps_a_callers_line_before_the_forwarded_ones():
    read_end, write_end = os.pipe()
    os.write(write_end, b"from the task\n")
    os.close(write_end)
    sink, lock = io.StringIO(), threading.Lock()
    with lock:
        thread = threading.Thread(target=forward_lines,
                                  args=(os.fdopen(read_end, "rb"), sink, "[ps:0] ", lock))
        thread.start()
        time.sleep(0.2)  # the thread has read its line by now and waits for the lock
        sink.write("started ps:0\n")
    thread.join(timeout=5)
    assert sink.getvalue() == "started ps:0\n[ps:0] from the task\n"


# -- signal handlers --------------------------------------------------------------------------

def test_handlers_are_given_back_after_the_block_even_when_it_raises():
    def before(signum, frame):
        pass

    def during(signum, frame):
        pass

    old = signal.signal(signal.SIGUSR1, before)
    try:
        with pytest.raises(RuntimeError):
            with handling((signal.SIGUSR1,), during) as installed:
                assert installed and signal.getsignal(signal.SIGUSR1) is during
                raise RuntimeError("the block failed")
        assert signal.getsignal(signal.SIGUSR1) is before
    finally:
        signal.signal(signal.SIGUSR1, old)


def test_outside_the_main_thread_no_handler_is_touched():
    found = []

    def block():
        with handling((signal.SIGUSR2,), lambda *_: None) as installed:
            found.append((installed, signal.getsignal(signal.SIGUSR2)))

    before = signal.getsignal(signal.SIGUSR2)
    thread = threading.Thread(target=block)
    thread.start()
    thread.join()
    assert found == [(False, before)]


# -- process groups ---------------------------------------------------------------------------

STUBBORN = """
import os, signal, subprocess, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
print(child.pid, flush=True)
time.sleep(600)
"""


def test_a_group_that_ignores_the_polite_signal_is_killed_with_its_children():
    process = subprocess.Popen([sys.executable, "-c", STUBBORN], stdout=subprocess.PIPE,
                               text=True, start_new_session=True)
    grandchild = int(process.stdout.readline())
    started = time.monotonic()
    stop_processes([process], signal.SIGTERM, grace=0.5)
    assert process.returncode == -signal.SIGKILL
    assert time.monotonic() - started >= 0.5  # the grace was given before SIGKILL
    deadline = time.monotonic() + 10
    while _alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(grandchild)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False


# -- exits and reports ------------------------------------------------------------------------

@pytest.mark.parametrize("code, words, status", [
    (0, "exit code 0", 0), (3, "exit code 3", 3), (-9, "killed by SIGKILL", 137),
    (-15, "killed by SIGTERM", 143)])
def test_an_exit_in_words_and_as_a_shells_status(code, words, status):
    assert describe_exit(code) == words
    assert exit_status(code) == status


def test_a_report_comes_back_as_it_went_and_nothing_else_reads_as_one():
    line = events.encode("started", task="worker:1", pid=42, rank=2)
    assert events.decode(line) == {"event": "started", "task": "worker:1", "pid": 42,
                                   "rank": 2}
    assert events.decode(f"[worker:1] {line}") is None  # a task's own output: prefixed
    assert events.decode(events.MARKER + "{not json") is None
    assert events.decode(events.MARKER + '["started"]') is None
    assert events.decode("tf1compat launch: started worker:1 pid 42") is None
