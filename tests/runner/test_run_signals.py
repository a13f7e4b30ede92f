"""`tf1compat run` stops as `python SCRIPT` does, and never leaves its script behind.

Each test starts `tf1compat run` in its own session, reads the pids the script
prints, signals `run`, and checks by pid that nothing it started is left.
"""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from budgets import budget
from isolated import REPO_ROOT, python_env
from launch_helpers import alive, read_until, wait_gone


# A TF1 parameter-server task: its main thread blocks in TensorFlow for ever.
PS_TASK = """
    import os, socket, subprocess, sys
    import tensorflow as tf
    helper = subprocess.Popen(["sleep", "300"])        # something the script started
    probe = socket.socket(); probe.bind(("127.0.0.1", 0)); port = probe.getsockname()[1]
    probe.close()
    server = tf.train.Server(tf.train.ClusterSpec({"ps": ["127.0.0.1:%d" % port]}),
                             job_name="ps", task_index=0)
    print("serving", os.getpid(), helper.pid, flush=True)
    server.join()
"""

LOOP = """
    import os, sys, time
    try:  # announced inside the try: a SIGINT right after the line still lands in it
        print("looping", os.getpid(), flush=True)
        while True:
            sum(range(1000))
    except KeyboardInterrupt:
        print("KeyboardInterrupt handled", flush=True)
        raise
"""

OWN_SIGTERM_HANDLER = """
    import os, signal, sys, time
    def cleanup(signum, frame):
        print("cleaning up after", signal.Signals(signum).name, flush=True)
        sys.exit(5)
    signal.signal(signal.SIGTERM, cleanup)
    print("looping", os.getpid(), flush=True)
    while True:
        time.sleep(0.05)
"""

GONE_WITHIN = 2.0  # seconds: the bound, checked by polling the pids


def shell_status(returncode):
    """The exit status a shell reports: the code, or 128 + the signal that ended it."""
    return 128 - returncode if returncode < 0 else returncode


def _start(command, tmp_path, source):
    path = tmp_path / "script.py"
    path.write_text(textwrap.dedent(source))
    return subprocess.Popen([*command, str(path)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=str(REPO_ROOT),
                            env=python_env(), start_new_session=True,
                            preexec_fn=_default_sigint)


def _default_sigint():
    # As a user's shell starts it: a test runner's worker may ignore SIGINT, and a Python
    # started with SIGINT ignored keeps ignoring it (no KeyboardInterrupt at all).
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_run(tmp_path, source):
    return _start([sys.executable, "-m", "tf1compat.cli.main", "run"], tmp_path, source)


def start_python(tmp_path, source):
    return _start([sys.executable], tmp_path, source)


def pids_printed(process, word, lines):
    match = read_until(process, rf"^{word}((?: \d+)+)$", 150, lines)
    return [int(pid) for pid in match.group(1).split()]


def clean_up(process, pids):
    """Last resort, only if a test failed: nothing of ours may survive it."""
    for pid in pids:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
    process.communicate(timeout=budget(30))


@pytest.mark.parametrize("sig, status", [(signal.SIGTERM, 143), (signal.SIGHUP, 129)],
                         ids=["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_end_a_ps_task_blocked_in_join_at_once(tmp_path, sig, status):
    process, lines = start_run(tmp_path, PS_TASK), []
    pids = []
    try:
        pids = pids_printed(process, "serving", lines)
        assert all(alive(pid) for pid in pids)
        process.send_signal(sig)
        assert wait_gone(pids, GONE_WITHIN) == [], f"the script outlived {sig.name} to run"
        _, stderr = process.communicate(timeout=budget(60))
    finally:
        clean_up(process, pids)
    assert shell_status(process.returncode) == status
    # The report still printed, the way a shell names the status.
    assert f"script.py killed by {sig.name} (exit code {status})" in stderr


def test_sigkill_to_run_takes_the_script_and_its_children_along(tmp_path):
    process, lines = start_run(tmp_path, PS_TASK), []
    pids = []
    try:
        pids = pids_printed(process, "serving", lines)
        assert all(alive(pid) for pid in pids)
        process.send_signal(signal.SIGKILL)
        assert wait_gone(pids, GONE_WITHIN) == [], "the script outlived run's SIGKILL"
    finally:
        clean_up(process, pids)
    assert process.returncode == -signal.SIGKILL


def test_sigint_to_a_blocked_ps_task_ends_it_after_the_grace(tmp_path):
    from tf1compat.runner.stopping import INTERRUPT_GRACE

    process, lines = start_run(tmp_path, PS_TASK), []
    pids = []
    try:
        pids = pids_printed(process, "serving", lines)
        process.send_signal(signal.SIGINT)  # KeyboardInterrupt can never reach join()
        assert wait_gone(pids, INTERRUPT_GRACE + 30) == []
        _, stderr = process.communicate(timeout=budget(60))
    finally:
        clean_up(process, pids)
    assert shell_status(process.returncode) == 130
    assert "script.py interrupted (exit code 130)" in stderr


def test_a_second_sigint_ends_a_blocked_ps_task_at_once(tmp_path):
    process, lines = start_run(tmp_path, PS_TASK), []
    pids = []
    try:
        pids = pids_printed(process, "serving", lines)
        process.send_signal(signal.SIGINT)
        time.sleep(0.5)  # two signals sent at once may merge into one on the way
        process.send_signal(signal.SIGINT)
        assert wait_gone(pids, GONE_WITHIN) == []
        process.communicate(timeout=budget(60))
    finally:
        clean_up(process, pids)
    assert shell_status(process.returncode) == 130


@pytest.mark.parametrize("start", [start_python, start_run], ids=["python", "run"])
def test_sigint_raises_keyboard_interrupt_in_a_python_loop(tmp_path, start):
    process, lines = start(tmp_path, LOOP), []
    pids = []
    try:
        pids = pids_printed(process, "looping", lines)
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=budget(60))
    finally:
        clean_up(process, pids)
    assert "KeyboardInterrupt handled" in stdout  # the script's own handler ran
    assert "Traceback" in stderr and "\nKeyboardInterrupt" in stderr  # and it was uncaught
    assert process.returncode == -signal.SIGINT  # as Python exits on KeyboardInterrupt
    assert wait_gone(pids, GONE_WITHIN) == []


@pytest.mark.parametrize("start", [start_python, start_run], ids=["python", "run"])
def test_the_scripts_own_sigterm_handler_runs(tmp_path, start):
    process, lines = start(tmp_path, OWN_SIGTERM_HANDLER), []
    pids = []
    try:
        pids = pids_printed(process, "looping", lines)
        process.send_signal(signal.SIGTERM)
        stdout, _ = process.communicate(timeout=budget(60))
    finally:
        clean_up(process, pids)
    assert "cleaning up after SIGTERM" in stdout
    assert process.returncode == 5
    assert wait_gone(pids, GONE_WITHIN) == []
