"""`tf1compat launch [OPTIONS] SCRIPT [ARGS]`: every task's script gets the arguments after
SCRIPT unchanged, also those that look like launch's options or abbreviate them."""

import json


from isolated import run_cli
from launch_helpers import write_script


SCRIPT_ARGV = ["--device=cpu", "--dev", "1", "--rep", "3", "--over", "--user-root", "x",
               "--help", "--work", "3", "-m"]
ECHO = """
    import json, os, sys
    print(json.dumps({"task": os.environ["TF1COMPAT_TASK"], "argv": sys.argv[1:]}))
"""


def test_every_task_gets_the_arguments_after_the_script(tmp_path):
    script = write_script(tmp_path, "echo.py", ECHO)
    result = run_cli("launch", "--ps", "1", "--workers", "2", "--wait-for", "ps,worker",
                     str(script), *SCRIPT_ARGV, timeout=90)
    assert result.returncode == 0, result.stderr[-3000:]
    argv = {}
    for line in result.stdout.splitlines():
        document = json.loads(line.partition("] ")[2])
        argv[document["task"]] = document["argv"]
    assert argv == {"ps:0": SCRIPT_ARGV, "worker:0": SCRIPT_ARGV, "worker:1": SCRIPT_ARGV}


def test_launch_options_are_spelled_in_full(tmp_path):
    script = write_script(tmp_path, "echo.py", ECHO)
    result = run_cli("launch", "--work", "2", str(script), timeout=60)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "tf1compat launch: error: unrecognized option '--work' before the script" \
        in result.stderr
