"""`tf1compat run` as a user runs it: a TF1 script, unmodified, in its own process."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time


from budgets import budget
from isolated import python_env, run_cli

STRICT_TOWERS = """
import tensorflow as tf
parts = []
for i in range(2):
    with tf.device('/gpu:%d' % i):
        parts.append(tf.matmul(tf.ones([2, 2]), tf.ones([2, 2])))
with tf.Session() as sess:
    print('towers', sess.run(tf.add_n(parts)).sum())
"""


def script(tmp_path, source, name="script.py"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(source))
    return path


def report_of(tmp_path):
    return json.loads((tmp_path / "report.json").read_text())


def test_tf1_names_for_the_script_only_and_its_arguments(tmp_path):
    script(tmp_path, "import tensorflow as tf\nSTEP = tf.app.flags\n", "helper.py")
    path = script(tmp_path, """
        import sys
        import tensorflow as tf
        import helper
        import keras  # a library: it keeps the real tensorflow
        print('graph', not tf.executing_eagerly(), tf.Session.__name__, tf.placeholder.__name__)
        print('helper', helper.STEP is tf.app.flags)
        print('library', sys.modules['tensorflow'] is not tf, hasattr(sys.modules['tensorflow'], 'config'))
        print('argv', sys.argv[1:])
        """)
    result = run_cli("run", str(path), "--steps", "3", "x")
    assert result.returncode == 0, result.stderr
    assert "graph True Session placeholder" in result.stdout
    assert "helper True" in result.stdout
    assert "library True True" in result.stdout
    assert "argv ['--steps', '3', 'x']" in result.stdout


def test_options_merge_script_wins_unless_override(tmp_path):
    path = script(tmp_path, """
        import tensorflow as tf
        sess = tf.Session(config=tf.ConfigProto(device_count={'CPU': 3}))
        print('cpus', len(sess.list_devices()))
        """)
    report = tmp_path / "report.json"
    result = run_cli("run", "--cpus", "2", "--soft-placement", "--report-json", str(report),
                     str(path))
    assert result.returncode == 0, result.stderr
    assert "cpus 3" in result.stdout
    [session] = report_of(tmp_path)["sessions"]
    assert session["options"] == {"soft_placement": True, "cpus": 3}
    assert session["where"] == "script.py:3" and session["kind"] == "Session"
    assert "sessions created: 1" in result.stderr
    assert "1. Session at script.py:3: soft_placement=True, cpus=3" in result.stderr
    result = run_cli("run", "--cpus", "2", "--override", "--report-json", str(report), str(path))
    assert "cpus 2" in result.stdout
    assert report_of(tmp_path)["sessions"][0]["options"] == {"cpus": 2}


def test_device_map_runs_gpu_towers_on_logical_cpus(tmp_path):
    path = script(tmp_path, STRICT_TOWERS)
    report = tmp_path / "report.json"
    result = run_cli("run", "--device-map", "gpu:*=cpu:*", "--report-json", str(report),
                     str(path))
    assert result.returncode == 0, result.stderr
    assert "towers 16.0" in result.stdout
    data = report_of(tmp_path)
    remaps = {(r["from"], r["to"]) for r in data["device_remaps"]}
    assert remaps == {("GPU:0", "CPU:0"), ("GPU:1", "CPU:1")}
    assert data["sessions"][0]["options"] == {"cpus": 2}
    assert "device remaps (gpu:*=cpu:*): GPU:0 -> CPU:0" in result.stderr


def test_without_the_map_the_script_fails_with_its_own_traceback_and_the_report_says_why(
        tmp_path):
    path = script(tmp_path, STRICT_TOWERS)
    report = tmp_path / "report.json"
    result = run_cli("run", "--report-json", str(report), str(path))
    assert result.returncode == 1
    assert f'File "{path}", line 8, in <module>' in result.stderr
    assert "bootstrap.py" not in result.stderr and "runpy" not in result.stderr
    assert "raised InvalidArgumentError (exit code 1)" in result.stderr
    # the script got TF1's own error (it could catch it); the report names the op, the
    # device asked for, the devices there are and run's remedy
    cause = report_of(tmp_path)["cause"]
    assert "asks for device '/device:GPU:0', which does not exist here" in cause
    assert "the devices are ['CPU:0']" in cause and "--device-map 'gpu:*=cpu:*'" in cause
    assert f"  cause: {cause}" in result.stderr


def test_an_error_run_does_not_know_gets_no_cause(tmp_path):
    path = script(tmp_path, "raise ValueError('bad row 7')\n", "raises.py")
    report = tmp_path / "report.json"
    result = run_cli("run", "--report-json", str(report), str(path))
    assert result.returncode == 1
    assert "cause" not in report_of(tmp_path) and "  cause:" not in result.stderr


def test_exit_code_and_exception_pass_through(tmp_path):
    exits = script(tmp_path, "import sys\nprint('before')\nsys.exit(3)\n", "exits.py")
    result = run_cli("run", str(exits))
    assert result.returncode == 3 and "before" in result.stdout
    assert "exits.py exited (exit code 3)" in result.stderr
    raises = script(tmp_path, "def fail():\n    raise ValueError('bad row 7')\nfail()\n",
                    "raises.py")
    result = run_cli("run", str(raises))
    assert result.returncode == 1
    traceback_lines = result.stderr[result.stderr.index("Traceback"):].splitlines()
    assert traceback_lines[1] == f'  File "{raises}", line 3, in <module>'
    assert "ValueError: bad row 7" in result.stderr


def test_missing_script_is_a_one_line_error(tmp_path):
    result = run_cli("run", str(tmp_path / "nope.py"))
    assert result.returncode == 2
    assert result.stderr.strip().splitlines()[-1].startswith("tf1compat: error: script")
    assert "does not exist" in result.stderr and "Traceback" not in result.stderr


def test_tf_layers_without_tf_keras_says_what_to_install(tmp_path):
    blocker = tmp_path / "blocker"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text(textwrap.dedent("""
        import sys
        class _Hide:
            def find_spec(self, name, path=None, target=None):
                if name == 'tf_keras' or name.startswith('tf_keras.'):
                    raise ModuleNotFoundError("No module named 'tf_keras'", name=name)
        sys.meta_path.insert(0, _Hide())
        """))
    path = script(tmp_path, """
        import tensorflow as tf
        y = tf.layers.dense(tf.placeholder(tf.float32, [None, 2]), 1)
        """)
    env = {"PYTHONPATH": os.pathsep.join([str(blocker), python_env()["PYTHONPATH"]])}
    result = run_cli("run", str(path), env=env)
    assert result.returncode == 1
    assert "LegacyKerasMissingError: tf.layers.dense needs legacy Keras. Fix: pip install " \
           "'tf1compat[legacy]'" in result.stderr
    assert "legacy Keras (tf_keras): missing" in result.stderr


def test_ctrl_c_stops_the_child_and_leaves_no_process(tmp_path):
    marker = tmp_path / "ready"
    path = script(tmp_path, f"""
        import subprocess, time
        import tensorflow as tf
        helper = subprocess.Popen(['sleep', '300'])
        open({str(marker)!r}, 'w').write(str(helper.pid))
        time.sleep(300)
        """)
    parent = subprocess.Popen([sys.executable, "-m", "tf1compat.cli.main", "run", str(path)],
                              env=python_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    try:
        deadline = time.monotonic() + budget(120)
        while not marker.exists() or not marker.read_text():
            assert time.monotonic() < deadline and parent.poll() is None
            time.sleep(0.2)
        helper_pid = int(marker.read_text())
        parent.send_signal(signal.SIGINT)
        _, stderr = parent.communicate(timeout=budget(60))
    finally:
        if parent.poll() is None:
            parent.kill()
    assert parent.returncode == -signal.SIGINT  # as python ends on it; a shell reports 130
    assert "KeyboardInterrupt" in stderr and "interrupted (exit code 130)" in stderr
    deadline = time.monotonic() + budget(15, floor=15)
    while _alive(helper_pid):  # the script's own child went with it
        assert time.monotonic() < deadline, f"process {helper_pid} outlived tf1compat run"
        time.sleep(0.2)


def _alive(pid):
    """Running (a killed process waiting to be reaped by init counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


def test_help_of_the_new_verbs():
    for verb in ("run", "migrate"):
        result = run_cli(verb, "--help", timeout=60)
        assert result.returncode == 0, result.stderr
        assert f"usage: tf1compat {verb}" in result.stdout


def test_a_bad_device_map_is_a_one_line_error(tmp_path):
    path = script(tmp_path, "print('never')\n")
    result = run_cli("run", "--device-map", "gpu:0", str(path))
    assert result.returncode == 2 and "never" not in result.stdout
    assert result.stderr.strip().startswith("tf1compat: error: invalid device_map")
