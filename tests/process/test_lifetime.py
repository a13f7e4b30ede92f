"""Children die with their parent (`tf1compat.process.lifetime.die_with_parent`), started safely.

The parent-death signal is set by an exec wrapper after exec, never by Python
code between fork and exec (`preexec_fn`), which can deadlock the child of a
process that has threads (`run` and `launch` forward output from threads).
"""

import ast
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from isolated import REPO_ROOT, python_env
from launch_helpers import alive, wait_gone

pytestmark = [pytest.mark.skipif(not sys.platform.startswith("linux"),
                                 reason="PR_SET_PDEATHSIG is Linux's")]

GONE_WITHIN = 2.0  # seconds on an idle machine (wait_gone stretches it by the load)


def test_no_child_process_is_started_with_a_preexec_fn():
    found = []
    for package in ("tf1compat", "modern"):
        for path in sorted((REPO_ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Call) and \
                        any(keyword.arg == "preexec_fn" for keyword in node.keywords):
                    found.append(f"{path.relative_to(REPO_ROOT)}:{node.lineno}")
    assert not found, "preexec_fn runs Python between fork and exec: " + ", ".join(found)


def _signal_masks(command):
    result = subprocess.run(command, capture_output=True, text=True, timeout=60, check=True)
    return [line for line in result.stdout.splitlines()
            if line.startswith(("SigIgn:", "SigBlk:"))]


def test_the_command_gets_its_arguments_and_the_signal_dispositions_it_would_get_without():
    from tf1compat.process.lifetime import die_with_parent

    # Python's start-up ignores SIGPIPE and handles SIGINT; exec would pass an ignored
    # signal on, so the wrapper must give the command what subprocess set up for it.
    direct = ["cat", "/proc/self/status"]
    assert _signal_masks(die_with_parent(direct)) == _signal_masks(direct)
    command = die_with_parent([sys.executable, "-c", "import sys; print(sys.argv[1:])",
                               "a b", "c"])
    assert command[:3] == [sys.executable, "-I", "-S"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stdout) == (0, "['a b', 'c']\n"), result.stderr


def test_the_exit_status_and_a_missing_program_are_as_without_the_wrapper():
    from tf1compat.process.lifetime import die_with_parent

    command = die_with_parent([sys.executable, "-c", "raise SystemExit(7)"])
    assert subprocess.run(command, timeout=60).returncode == 7
    with pytest.raises(FileNotFoundError, match="no-such-program-here"):
        die_with_parent(["no-such-program-here"])


def test_the_child_kills_itself_when_the_parent_is_gone_before_it_is_armed(tmp_path):
    from tf1compat.process.lifetime import die_with_parent

    marker = tmp_path / "ran"
    command = die_with_parent([sys.executable, "-c", f"open({str(marker)!r}, 'w')"])
    pid_position = command.index(str(os.getpid()))
    command[pid_position] = str(os.getppid())  # as if our parent had started it and died
    result = subprocess.run(command, timeout=60)
    assert result.returncode == -signal.SIGKILL
    assert not marker.exists(), "the command ran although its parent was gone"


def test_a_child_dies_when_its_parent_is_killed_while_threads_run(tmp_path):
    parent = tmp_path / "parent.py"
    parent.write_text(textwrap.dedent("""
        import subprocess, sys, threading, time
        from tf1compat.process.lifetime import die_with_parent

        busy = threading.Thread(target=lambda: [time.sleep(0.001) for _ in range(10 ** 6)],
                                daemon=True)
        busy.start()  # as run's and launch's output-forwarding threads
        child = subprocess.Popen(die_with_parent(
            [sys.executable, "-c", "import time; time.sleep(300)"]))
        print(child.pid, flush=True)
        time.sleep(300)
    """))
    process = subprocess.Popen([sys.executable, str(parent)], stdout=subprocess.PIPE, text=True,
                               cwd=str(REPO_ROOT), env=python_env(), start_new_session=True)
    child = None
    try:
        child = int(process.stdout.readline())
        time.sleep(0.5)  # the wrapper has exec'd the command and armed the signal
        assert alive(child)
        process.kill()
        process.wait(timeout=30)
        assert not wait_gone([child], GONE_WITHIN), "the child outlived its parent's SIGKILL"
    finally:
        if process.poll() is None:
            process.kill()
        if child is not None and alive(child):
            os.kill(child, signal.SIGKILL)


def test_own_group_makes_the_child_lead_its_own_process_group():
    from tf1compat.process.lifetime import die_with_parent

    probe = ("import os; print(os.getpgid(0) == os.getpid(), "
             "os.getpgid(0) != os.getpgid(os.getppid()))")
    result = subprocess.run(die_with_parent([sys.executable, "-c", probe], own_group=True),
                            capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "True True", result.stderr
