"""Tasks that `tf1compat launch` starts through `tf1compat run`: stopped at once, none left.

A TF1 ps + worker pair, each task `tf1compat run` of one unmodified script
(TF1's --job_name/--task_index/--ps_hosts/--worker_hosts flags).
"""

import os
import re
import signal


from launch_helpers import alive, finish, kill_group, kill_tasks, read_until, start, \
    task_pids, wait_gone, write_script


PAIR = """
    import os
    import tensorflow as tf

    flags = tf.app.flags
    flags.DEFINE_string("job_name", "", "ps or worker")
    flags.DEFINE_integer("task_index", 0, "index of the task in its job")
    flags.DEFINE_string("ps_hosts", "", "host:port,...")
    flags.DEFINE_string("worker_hosts", "", "host:port,...")
    FLAGS = flags.FLAGS

    def main(_):
        cluster = tf.train.ClusterSpec({"ps": FLAGS.ps_hosts.split(","),
                                        "worker": FLAGS.worker_hosts.split(",")})
        server = tf.train.Server(cluster, job_name=FLAGS.job_name, task_index=FLAGS.task_index)
        print("script", os.getpid(), flush=True)
        if FLAGS.job_name == "ps" or os.environ.get("WORKER_BLOCKS"):
            server.join()
        with tf.device(tf.train.replica_device_setter(cluster=cluster)):
            step = tf.Variable(0, name="step")
            advance = tf.assign_add(step, 1)
        with tf.Session(server.target) as session:
            session.run(tf.global_variables_initializer())
            print("step", [session.run(advance) for _ in range(3)][-1], flush=True)

    tf.app.run(main)
"""

GONE_WITHIN = 2.0  # seconds, checked by polling the pids


def _start_pair(tmp_path, *extra, env=None):
    script = write_script(tmp_path, "pair.py", PAIR)
    # A grace far beyond the check's own bound: a ps that ignored SIGTERM would show.
    return start("--ps", "1", "--workers", "1", "--tf1-flags", "--grace", "120", *extra,
                 "-m", "tf1compat.cli.main", "run", "--no-report", str(script), env=env)


def _script_pids(lines):
    return [int(m.group(1)) for m in (re.search(r"\] script (\d+)$", l) for l in lines) if m]


def test_the_ps_task_under_run_stops_at_once_when_the_worker_is_done(tmp_path):
    process, lines = _start_pair(tmp_path), []
    try:
        status = finish(process, 100, lines)  # ps stopped by SIGTERM, not by the 120 s grace
        assert status == 0, "\n".join(lines[-40:])
        assert "[worker:0] step 3" in lines
        pids = list(task_pids(lines).values()) + _script_pids(lines)
        assert len(pids) == 4
        assert wait_gone(pids, GONE_WITHIN) == []
    finally:
        kill_group(process)
        kill_tasks(lines)


def test_sigkill_to_launch_takes_every_run_and_its_script_along(tmp_path):
    process, lines = _start_pair(tmp_path, env={"WORKER_BLOCKS": "1"}), []
    pids = []
    try:
        read_until(process, r"\] script \d+$", 150, lines)
        if len(_script_pids(lines)) < 2:
            read_until(process, r"\] script \d+$", 150, lines)
        pids = list(task_pids(lines).values()) + _script_pids(lines)
        assert len(pids) == 4 and all(alive(pid) for pid in pids)
        process.send_signal(signal.SIGKILL)
        assert wait_gone(pids, GONE_WITHIN) == [], "a task outlived launch's SIGKILL"
    finally:
        kill_group(process)
        kill_tasks(lines)
        for pid in pids:  # only if the check failed: nothing may survive the test
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_a_tf1_flag_script_given_as_it_is_runs_served_as_tf1(tmp_path):
    """The README's line: `launch --ps 1 --workers 1 --tf1-flags train.py`, no `-m ... run`."""
    script = write_script(tmp_path, "pair.py", PAIR)
    process, lines = start("--ps", "1", "--workers", "1", "--tf1-flags",
                           "--run-args=--no-report", str(script)), []
    try:
        status = finish(process, 100, lines)
        assert status == 0, "\n".join(lines[-40:])
        assert "[worker:0] step 3" in lines
    finally:
        kill_group(process)
        kill_tasks(lines)


def test_python_keeps_a_tf1_flag_script_on_plain_python_where_tf_app_is_gone(tmp_path):
    script = write_script(tmp_path, "pair.py", PAIR)
    process, lines = start("--ps", "1", "--workers", "1", "--tf1-flags", "--python",
                           str(script)), []
    try:
        status = finish(process, 100, lines)
        assert status != 0
        assert any("has no attribute 'app'" in line for line in lines), "\n".join(lines[-20:])
    finally:
        kill_group(process)
        kill_tasks(lines)
