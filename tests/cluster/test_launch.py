"""`tf1compat launch`: tasks, prefixed output, failure and Ctrl-C handling, ports, hostfiles.

These run small Python scripts (no TensorFlow) as tasks, except the one that
checks where a real TensorFlow server listens.
"""

import json
import os
import signal
import socket

import pytest

from isolated import run_cli
from launch_helpers import (alive, finish, kill_group, kill_tasks, read_until, run_to_end, start,
                            task_pids, wait_gone, write_script)


# Each task prints its TF_CONFIG and argv. launch stops the ps tasks once the others end, so
# the others first wait (bounded) until every ps task has printed, or a fast worker could end
# the run before a slow ps task's line.
ECHO = """
    import json, os, sys, time
    config = json.loads(os.environ["TF_CONFIG"])
    task = os.environ["TF1COMPAT_TASK"]
    print(json.dumps({"task": task, "tf_config": config, "argv": sys.argv[1:]}), flush=True)
    here = os.path.dirname(os.path.abspath(__file__))
    if task.startswith("ps:"):
        open(os.path.join(here, task.replace(":", "-") + ".printed"), "w").close()
    else:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not all(
                os.path.exists(os.path.join(here, "ps-%d.printed" % index))
                for index in range(len(config["cluster"].get("ps", [])))):
            time.sleep(0.05)
"""


def test_every_task_gets_its_tf_config_and_its_output_is_prefixed(tmp_path):
    script = write_script(tmp_path, "echo.py", ECHO)
    result = run_cli("launch", "--chief", "--ps", "1", "--workers", "2",
                     "--wait-for", "chief,ps,worker", str(script), "--lr", "0.1", timeout=60)
    assert result.returncode == 0, result.stderr
    seen = {}
    for line in result.stdout.splitlines():
        prefix, _, payload = line.partition("] ")
        document = json.loads(payload)
        assert prefix == f"[{document['task']}"
        seen[document["task"]] = document
    assert sorted(seen) == ["chief:0", "ps:0", "worker:0", "worker:1"]
    cluster = seen["worker:1"]["tf_config"]["cluster"]
    assert seen["worker:1"]["tf_config"]["task"] == {"type": "worker", "index": 1}
    assert all(doc["tf_config"]["cluster"] == cluster for doc in seen.values())
    addresses = [a for job in cluster.values() for a in job]
    assert len(set(addresses)) == 4 and all(a.startswith("127.0.0.1:") for a in addresses)
    assert seen["chief:0"]["argv"] == ["--lr", "0.1"]


def test_tf1_flags_are_passed(tmp_path):
    script = write_script(tmp_path, "echo.py", ECHO)
    result = run_cli("launch", "--ps", "1", "--workers", "1", "--tf1-flags", str(script),
                     timeout=60)
    assert result.returncode == 0, result.stderr
    argv = {json.loads(l.partition("] ")[2])["task"]: json.loads(l.partition("] ")[2])["argv"]
            for l in result.stdout.splitlines()}
    assert argv["worker:0"][:2] == ["--job_name=worker", "--task_index=0"]
    assert any(a.startswith("--ps_hosts=127.0.0.1:") for a in argv["worker:0"])
    assert argv["ps:0"][:2] == ["--job_name=ps", "--task_index=0"]


def test_a_failing_task_stops_the_others_and_is_named(tmp_path):
    script = write_script(tmp_path, "fail.py", """
        import os, time
        if os.environ["TF1COMPAT_TASK"] == "worker:1":
            time.sleep(1.0)
            raise SystemExit(3)
        time.sleep(3600)
    """)
    lines = []
    process = start("--ps", "1", "--workers", "2", "--grace", "2", str(script))
    try:
        # The other tasks sleep an hour: `finish` returning at all means the launcher stopped
        # them (its budget bounds the wait; no timing is asserted)
        status = finish(process, 60, lines)
        pids = task_pids(lines)
        assert status == 3
        errors = [l for l in lines if l.startswith("tf1compat: error")]
        assert errors == ["tf1compat: error: task worker:1 failed: exit code 3 (exit status 3)"]
        assert sorted(pids) == ["ps:0", "worker:0", "worker:1"]
        assert wait_gone(pids.values(), 5) == []
    finally:
        kill_group(process)
        kill_tasks(lines)


def test_a_task_that_raised_is_named_with_its_exception(tmp_path):
    """The traceback's last line, among every task's output, is what the failure says."""
    script = write_script(tmp_path, "raise.py", """
        import os, sys, time
        if os.environ["TF1COMPAT_TASK"] == "worker:0":
            print("ValueError: printed, not raised", file=sys.stderr, flush=True)
            time.sleep(0.5)

            class NameNodeUnreachable(ConnectionError):
                pass
            raise NameNodeUnreachable("cannot connect to 10.0.0.9:8020")
        time.sleep(3600)
    """)
    status, lines = run_to_end(start("--ps", "1", "--workers", "1", "--grace", "2", str(script)),
                               60)
    errors = [line for line in lines if line.startswith("tf1compat: error")]
    assert status == 1 and errors == [
        "tf1compat: error: task worker:0 failed: exit code 1, after NameNodeUnreachable: cannot "
        "connect to 10.0.0.9:8020 (exit status 1)"], "\n".join(lines)


def test_last_errors_keep_each_tasks_last_exception_line_shortened_to_its_class():
    from tf1compat.launch.last_error import LONGEST, LastErrors

    seen = LastErrors()
    for line in ["[worker:1] Traceback (most recent call last):",
                 '[worker:1]   File "train.py", line 3, in <module>',
                 "[worker:1]     raise KeyError(name)",
                 "[worker:1] tensorflow.python.framework.errors_impl.UnavailableError: cannot "
                 "connect", "[worker:1] more of its message",
                 "[ps:0] ValueError: a log line, with no traceback before it",
                 "worker:2 Traceback (most recent call last):",  # not a task's line
                 "[chief:0] Traceback (most recent call last):", "[chief:0] KeyboardInterrupt",
                 "[evaluator:0] Traceback (most recent call last):",
                 "[evaluator:0] OSError: " + "x" * 1000]:
        seen.see_prefixed(line)
    assert seen.after("worker:1") == ", after UnavailableError: cannot connect"
    assert seen.after("ps:0") == seen.after("worker:2") == ""
    assert seen.after("chief:0") == ", after KeyboardInterrupt"
    assert seen.after("evaluator:0").endswith("x...") and \
        len(seen.after("evaluator:0")) == len(", after ") + LONGEST + 3


def test_each_tasks_started_line_comes_before_its_first_output(tmp_path):
    """Tests and users find a task's pid in its `started` line once its output shows: the
    output waits for that line, however soon the task prints."""
    script = write_script(tmp_path, "early.py", "print('first', flush=True)\n")
    status, lines = run_to_end(start("--workers", "4", str(script)), 60)
    assert status == 0, "\n".join(lines)
    for index in range(4):
        started = next(i for i, line in enumerate(lines)
                       if line.startswith(f"tf1compat launch: started worker:{index} pid "))
        assert started < lines.index(f"[worker:{index}] first"), "\n".join(lines)


def test_a_task_killed_by_a_signal_is_reported_with_the_signal(tmp_path):
    script = write_script(tmp_path, "sleep.py", "import time\ntime.sleep(120)\n")
    lines = []
    process = start("--workers", "2", "--grace", "2", str(script))
    try:
        read_until(process, r"started worker:1 pid", 30, lines)
        os.kill(task_pids(lines)["worker:1"], signal.SIGKILL)
        status = finish(process, 30, lines)
        assert status == 128 + signal.SIGKILL
        assert "tf1compat: error: task worker:1 failed: killed by SIGKILL (exit status 137)" \
            in lines
        assert wait_gone(task_pids(lines).values(), 5) == []
    finally:
        kill_group(process)
        kill_tasks(lines)


def test_ctrl_c_leaves_no_process_behind(tmp_path):
    script = write_script(tmp_path, "stubborn.py", """
        import signal, subprocess, sys, time
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
        print("child", child.pid, flush=True)
        if "worker:1" in __import__("os").environ["TF1COMPAT_TASK"]:
            signal.signal(signal.SIGINT, signal.SIG_IGN)   # one task ignores Ctrl-C
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(300)
    """)
    lines = []
    process = start("--workers", "2", "--grace", "2", str(script))
    try:
        read_until(process, r"\[worker:0\] child \d+", 60, lines)
        if not any("[worker:1] child" in line for line in lines):
            read_until(process, r"\[worker:1\] child \d+", 60, lines)
        pids = list(task_pids(lines).values())
        pids += [int(l.split()[-1]) for l in lines if "] child " in l]
        assert len(pids) == 4 and [pid for pid in pids if not alive(pid)] == [], \
            ("a task or its child was gone before Ctrl-C:\n" + "\n".join(lines[-30:]))
        process.send_signal(signal.SIGINT)
        status = finish(process, 30, lines)
        assert status == 130
        assert any("received SIGINT: stopping every task" in line for line in lines)
        assert wait_gone(pids, 10) == [], lines
    finally:
        kill_group(process)
        kill_tasks(lines)


def test_a_port_in_use_is_detected_before_anything_starts(tmp_path):
    script = write_script(tmp_path, "echo.py", ECHO)
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        result = run_cli("launch", "--workers", "2", "--ports", f"{port + 1},{port}",
                         str(script), timeout=60)
    assert result.returncode == 2
    assert f"port already in use: 127.0.0.1:{port} (worker:1)" in result.stderr
    assert "started" not in result.stderr and result.stdout == ""


@pytest.mark.parametrize("args,expected", [
    (["--workers", "0"], "at least one task"),
    (["--workers", "2", "--ports", "2222"], "1 ports for 2 tasks"),
    (["--workers", "2", "--ports", "22x"], "invalid --ports"),
    (["--task", "worker:0"], "--task needs --hostfile"),
])
def test_bad_arguments_are_one_line_errors(args, expected, tmp_path):
    script = write_script(tmp_path, "echo.py", ECHO)
    result = run_cli("launch", *args, str(script), timeout=60)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1 and expected in result.stderr, result.stderr


def test_hostfile_prints_the_command_for_each_machine(tmp_path):
    hostfile = tmp_path / "hosts.txt"
    hostfile.write_text("10.0.0.1:2222 ps\n10.0.0.2:2222 worker\n10.0.0.3:2222 worker\n")
    result = run_cli("launch", "--hostfile", str(hostfile), "train.py", "--epochs", "3",
                     timeout=60)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    commands = [l for l in lines if l.startswith("tf1compat launch")]
    assert commands == [f"tf1compat launch --hostfile {hostfile} --task {task} train.py --epochs 3"
                        for task in ("ps:0", "worker:0", "worker:1")]
    plain = [l for l in lines if l.startswith("#   or: TF_CONFIG=")]
    assert len(plain) == 3 and all(l.endswith("python3 train.py --epochs 3") for l in plain)
    config = json.loads(plain[2].split("'")[1])
    assert config["task"] == {"type": "worker", "index": 1}
    assert config["cluster"]["ps"] == ["10.0.0.1:2222"]
    assert "# worker:1 on 10.0.0.3" in result.stdout
    assert "unauthenticated" in result.stdout


def test_hostfile_task_runs_that_one_task_here(tmp_path):
    script = write_script(tmp_path, "echo.py", ECHO)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    hostfile = tmp_path / "hosts.txt"
    hostfile.write_text(f"127.0.0.1:{port} worker\n127.0.0.2:{port} worker\n")
    result = run_cli("launch", "--hostfile", str(hostfile), "--task", "worker:0", str(script),
                     timeout=60)
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout.partition("] ")[2])
    assert document["task"] == "worker:0"
    assert document["tf_config"]["cluster"]["worker"][1] == f"127.0.0.2:{port}"


LISTEN = """
    import json, os, socket, time
    from tf1compat.launch import bindhost
    port = int(json.loads(os.environ["TF_CONFIG"])["cluster"]["worker"][0].rsplit(":", 1)[1])
    for family, wildcard in ((socket.AF_INET, "0.0.0.0"), (socket.AF_INET6, "::")):
        sock = socket.socket(family)
        sock.bind((wildcard, port if family == socket.AF_INET else 0))
        sock.listen()
        print(json.dumps({"family": int(family), "where": sorted(set(
            bindhost.listening_addresses(sock.getsockname()[1], os.getpid())))}), flush=True)
        sock.close()
"""


def test_servers_listen_only_on_the_task_host_unless_bind_all(tmp_path):
    script = write_script(tmp_path, "listen.py", LISTEN)
    confined = run_cli("launch", "--workers", "1", str(script), timeout=60)
    assert confined.returncode == 0, confined.stderr
    where = [json.loads(l.partition("] ")[2])["where"] for l in confined.stdout.splitlines()]
    assert where == [["127.0.0.1"], ["::ffff:127.0.0.1"]]
    everywhere = run_cli("launch", "--workers", "1", "--bind-all", str(script), timeout=60)
    where = [json.loads(l.partition("] ")[2])["where"] for l in everywhere.stdout.splitlines()]
    assert where == [["0.0.0.0"], ["::"]]


def test_a_tensorflow_server_listens_only_on_loopback(tmp_path):
    script = write_script(tmp_path, "tf_server.py", """
        import json, os
        from tf1compat import cluster
        from tf1compat.launch import bindhost
        me = cluster.from_environment()
        server = cluster.server(me)
        port = int(me.address().rsplit(":", 1)[1])
        print(json.dumps(sorted(set(bindhost.listening_addresses(port, os.getpid())))), flush=True)
    """)
    result = run_cli("launch", "--workers", "1", str(script), timeout=90,
                     env={"TF_CPP_MIN_LOG_LEVEL": "3"})
    assert result.returncode == 0, result.stderr
    lines = [l for l in result.stdout.splitlines() if l.startswith("[worker:0] [")]
    assert json.loads(lines[-1].partition("] ")[2]) in (["::ffff:127.0.0.1"], ["127.0.0.1"])


def test_help_warns_about_authentication():
    result = run_cli("launch", "--help", timeout=60)
    assert result.returncode == 0 and "usage: tf1compat launch" in result.stdout
    assert "no authentication" in result.stdout and "--bind-all" in result.stdout


def test_the_listening_check_counts_only_the_sockets_of_the_process_it_names():
    # Another process may listen on the same port number at another address of the machine
    # (a test's MiniDFS on a node's address): the check of one task must not count it.
    import subprocess
    import sys

    from tf1compat.launch import bindhost

    mine = socket.socket()
    mine.bind(("127.0.0.1", 0))
    mine.listen()
    port = mine.getsockname()[1]
    other = subprocess.Popen(
        [sys.executable, "-c", "import socket, sys\n"
         f"s = socket.socket(); s.bind(('127.0.0.2', {port})); s.listen()\n"
         "print('ready', flush=True); sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout.readline().strip() == "ready"
        assert sorted(bindhost.listening_addresses(port)) == ["127.0.0.1", "127.0.0.2"]
        assert bindhost.listening_addresses(port, os.getpid()) == ["127.0.0.1"]
        assert bindhost.listening_addresses(port, other.pid) == ["127.0.0.2"]
    finally:
        other.stdin.close()
        other.wait(timeout=30)
        mine.close()
