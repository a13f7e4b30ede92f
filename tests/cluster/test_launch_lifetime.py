"""A task of `tf1compat launch` dies with launch, even by SIGKILL (no code of launch runs then).

The task is a plain Python script, not `tf1compat run` (whose own reaper would
also stop it): only the parent-death signal launch arms for each task kills it.
"""

import os
import signal


from launch_helpers import alive, kill_group, kill_tasks, read_until, start, task_pids, \
    wait_gone, write_script


GONE_WITHIN = 2.0  # seconds, checked by polling the pid


def test_sigkill_to_launch_takes_a_plain_task_along(tmp_path):
    script = write_script(tmp_path, "sleeper.py", """
        import time
        print("sleeping", flush=True)
        time.sleep(300)
    """)
    lines = []
    process = start("--workers", "1", "--bind-all", str(script))
    try:
        read_until(process, r"\[worker:0\] sleeping", 60, lines)
        pid = task_pids(lines)["worker:0"]
        assert alive(pid)
        process.send_signal(signal.SIGKILL)
        assert wait_gone([pid], GONE_WITHIN) == [], "the task outlived launch's SIGKILL"
    finally:
        kill_group(process)
        kill_tasks(lines)
        for pid in task_pids(lines).values():  # only if the check failed
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
