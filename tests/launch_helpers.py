"""Starting `tf1compat launch` from tests, and making sure nothing it started survives."""

from __future__ import annotations

import codecs
import os
import re
import select
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from budgets import budget, describe
from isolated import REPO_ROOT, python_env

STARTED = re.compile(r"started (\S+) pid (\d+) at (\S+)")


def write_script(directory: Path, name: str, source: str) -> Path:
    path = directory / name
    path.write_text(textwrap.dedent(source))
    return path


def start(*args: str, env: dict | None = None) -> subprocess.Popen:
    """`tf1compat launch ARGS` in its own process group, output merged, as text."""
    return subprocess.Popen([sys.executable, "-m", "tf1compat.cli.main", "launch", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            cwd=str(REPO_ROOT), env=python_env(env), start_new_session=True)


def alive(pid: int) -> bool:
    """True while `pid` exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def wait_gone(pids, timeout: float = 20.0) -> list[int]:
    """Waits for every pid to end; returns those still alive after `timeout` (an idle
    machine's figure, stretched by the load: budgets.py)."""
    deadline = time.monotonic() + budget(timeout, floor=timeout)
    while time.monotonic() < deadline:
        left = [pid for pid in pids if alive(pid)]
        if not left:
            return []
        time.sleep(0.1)
    return [pid for pid in pids if alive(pid)]


class _Unread:
    """What was read from a process's output past the line a test waited for: whole lines,
    and the start of the next one. Read from the pipe itself, never through the text stream's
    buffer, which `select` cannot see (two lines that arrive together would leave the second
    one waiting there until the process writes again)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.partial = ""
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def take(self, chunk: bytes) -> None:
        pieces = (self.partial + self.decoder.decode(chunk, final=not chunk)).split("\n")
        self.partial = pieces.pop()
        self.lines += pieces


_unread: dict[int, _Unread] = {}  # per process (its pid)


def read_until(process: subprocess.Popen, pattern: str, timeout: float, lines: list) -> re.Match:
    """Reads output lines into `lines` until one matches `pattern`; fails at EOF or when
    the budget for `timeout` (seconds on an idle machine: budgets.py) runs out."""
    compiled = re.compile(pattern)
    unread = _unread.setdefault(process.pid, _Unread())
    descriptor = process.stdout.fileno()
    started = time.monotonic()
    deadline = started + budget(timeout)
    at_end = False
    while True:
        while unread.lines:
            line = unread.lines.pop(0)
            lines.append(line)
            match = compiled.search(line)
            if match:
                return match
        if at_end or time.monotonic() >= deadline:
            break
        if select.select([descriptor], [], [], 0.2)[0]:
            chunk = os.read(descriptor, 65536)
            unread.take(chunk)
            if not chunk:  # the end: its last line, unterminated, is a line too
                at_end = True
                if unread.partial:
                    unread.lines.append(unread.partial)
                    unread.partial = ""
    raise AssertionError(f"no line matching {pattern!r}: "
                         f"{describe(time.monotonic() - started, timeout)}; output:\n"
                         + "\n".join(lines[-60:]))


def _read_before(process: subprocess.Popen, rest: str) -> str:
    """The output read past the last awaited line, then `rest` (what came after it)."""
    unread = _unread.pop(process.pid, None)
    if unread is None:
        return rest
    return "".join(line + "\n" for line in unread.lines) + unread.partial + rest


def task_pids(lines) -> dict[str, int]:
    found = {}
    for line in lines:
        match = STARTED.search(line)
        if match:
            found[match.group(1)] = int(match.group(2))
    return found


def finish(process: subprocess.Popen, timeout: float, lines: list) -> int:
    """Collects the rest of the output and the exit status (kills the group when the budget
    for `timeout`, seconds on an idle machine, runs out)."""
    started = time.monotonic()
    try:
        rest, _ = process.communicate(timeout=budget(timeout))
    except subprocess.TimeoutExpired:
        kill_group(process)
        rest, _ = process.communicate()
        lines.extend(_read_before(process, rest).splitlines())
        raise AssertionError(f"launch ran past its time: "
                             f"{describe(time.monotonic() - started, timeout)}; output:\n"
                             + "\n".join(lines[-60:]))
    lines.extend(_read_before(process, rest).splitlines())
    return process.returncode


def run_to_end(process: subprocess.Popen, timeout: float) -> tuple[int, list[str]]:
    """`finish`, then whatever of the run is left killed: (exit status, output lines)."""
    lines: list[str] = []
    try:
        status = finish(process, timeout, lines)
    finally:
        kill_group(process)
        kill_tasks(lines)
    return status, lines


def kill_group(process: subprocess.Popen) -> None:
    """Last resort in a finally: the launcher's group and every task it reported."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            pass
    if process.poll() is None:
        process.wait(timeout=10)


def _still_the_task(pid: int, name: str, address: str) -> bool:
    """Whether `pid` is still the task `name` started at `address`: its environment names
    both. Task pids are read from lines long after the task may have ended, and under load
    (pid_max 32768) another test's process may hold the number by then."""
    try:
        environ = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return False
    return f"TF1COMPAT_TASK={name}\0".encode() in environ and address.encode() in environ \
        and alive(pid)


def kill_tasks(lines) -> None:
    """Kills the process group of each task the lines say was started, if that task is still
    running (never a group whose number another process took since)."""
    started = {m.group(1): (int(m.group(2)), m.group(3)) for m in map(STARTED.search, lines)
               if m}
    for name, (pid, address) in started.items():
        if not _still_the_task(pid, name, address):
            continue
        try:
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
