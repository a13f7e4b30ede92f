"""A flag-style TF1 between-graph script run as a cluster on this machine, one process per task,
as TF1 users started it (run by the TF 1.15 reference's interpreter, Python 3.7):

    python tf1_cluster.py --ps N --workers M SCRIPT [SCRIPT ARGS]

Every task gets `--job_name --task_index --ps_hosts --worker_hosts` (127.0.0.1, free ports).
Once every worker has ended, each worker's stdout is printed line by line as `[worker:i] LINE`,
in task order (so the output does not depend on which worker was faster), its stderr passed
on; then the ps tasks are stopped. The exit status is the first failing worker's, else 0.
"""
import socket
import subprocess
import sys

TIMEOUT_S = 300


def free_ports(count):
    held = []
    for _ in range(count):
        holder = socket.socket()
        holder.bind(("127.0.0.1", 0))
        held.append(holder)
    ports = [holder.getsockname()[1] for holder in held]
    for holder in held:
        holder.close()
    return ports


def main(argv):
    if len(argv) < 5 or argv[0] != "--ps" or argv[2] != "--workers":
        sys.exit("usage: tf1_cluster.py --ps N --workers M SCRIPT [ARGS]")
    ps_count, worker_count, script, script_args = int(argv[1]), int(argv[3]), argv[4], argv[5:]
    ports = ["127.0.0.1:%d" % port for port in free_ports(ps_count + worker_count)]
    hosts = {"ps": ports[:ps_count], "worker": ports[ps_count:]}
    tasks = {}
    for job in ("ps", "worker"):
        for index in range(len(hosts[job])):
            tasks[(job, index)] = subprocess.Popen(
                [sys.executable, script, "--job_name", job, "--task_index", str(index),
                 "--ps_hosts", ",".join(hosts["ps"]), "--worker_hosts", ",".join(hosts["worker"])]
                + script_args, universal_newlines=True,
                stdout=subprocess.PIPE if job == "worker" else subprocess.DEVNULL)
    status = 0
    try:
        for index in range(worker_count):
            worker = tasks[("worker", index)]
            output, _ = worker.communicate(timeout=TIMEOUT_S)
            for line in output.splitlines():
                print("[worker:%d] %s" % (index, line))
            status = status or worker.returncode
    finally:
        for task in tasks.values():
            if task.poll() is None:
                task.kill()
                task.wait()
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
