"""Under --device-map, a GPU request a session meets after it was created: the CPUs cover the
devices the script spells out, and a request they cannot cover names the flag that does."""

import textwrap

from isolated import run_cli
from tf1compat.runner.bootstrap import DEVICE_FIX, device_fix
from tf1compat.runner.device_map import DeviceMap
from tf1compat.runner.script_devices import literal_devices
from tf1compat.runner.tf_patches import DeviceHook

# The session exists before the request for a third GPU is made.
LATE = """
import tensorflow as tf
with tf.device('/gpu:0'):
    a = tf.constant(1.0)
sess = tf.Session()
print('first', sess.run(a))
with tf.device({device}):
    b = a * 2
print('second', sess.run(b))
"""


def test_the_device_strings_of_a_source_are_read_from_its_string_literals_only():
    source = textwrap.dedent("""
        # '/gpu:9' in a comment is not a request
        towers = ['/gpu:0', "/device:GPU:1"]
        ps = "/job:ps/task:0/cpu:0"
        worker = '/job:worker/task:1/gpu:3'
        gpu_count = 4  # gpu:5
        doc = "gpu:2 first"
        """)
    assert literal_devices(source) == ["/gpu:0", "/gpu:1", "/cpu:0", "/gpu:3", "/gpu:2"]
    assert literal_devices("def broken(:\n    '/gpu:1'") in ([], ["/gpu:1"])  # never raises


def test_the_cpus_needed_cover_the_literals_the_map_sends_to_cpus():
    hook = DeviceHook(DeviceMap.parse(["gpu:*=cpu:*"]), ["/gpu:0", "/gpu:3", "/cpu:0"])
    assert hook.cpus_needed() == 4
    assert DeviceHook(DeviceMap.parse(["gpu:1=cpu:0"]), ["/gpu:3"]).cpus_needed() == 1


def test_the_fix_names_the_flag_that_covers_the_request():
    class Missing(Exception):
        pass

    error = Missing("Cannot assign a device for operation mul: {{node mul}} was explicitly "
                    "assigned to /device:CPU:2 but available devices are [ CPU:0 ].")
    assert device_fix(error) == DEVICE_FIX  # no map: the map is the fix
    assert device_fix(error, ["gpu:*=cpu:*"]).startswith("rerun with --cpus 3 ")
    gpu = Missing(str(error).replace("CPU:2", "GPU:2"))
    assert "--device-map rule that covers /gpu:2" in device_fix(gpu, ["gpu:0=cpu:0"])


def test_a_late_gpu_written_out_runs_and_one_computed_names_the_cpus_it_needs(tmp_path):
    written = tmp_path / "written.py"
    written.write_text(textwrap.dedent(LATE.format(device="'/gpu:2'")))
    result = run_cli("run", "--device-map", "gpu:*=cpu:*", str(written))
    assert result.returncode == 0, result.stderr[-3000:]
    assert "second 2.0" in result.stdout.splitlines()
    assert "Session at written.py:5: cpus=3" in result.stderr

    computed = tmp_path / "computed.py"
    computed.write_text(textwrap.dedent(LATE.format(device="'/gpu:%d' % (len('abc') - 1)")))
    result = run_cli("run", "--device-map", "gpu:*=cpu:*", str(computed))
    assert result.returncode == 1
    cause = next(line for line in result.stderr.splitlines() if line.strip().startswith("cause:"))
    assert "'/device:CPU:2'" in cause and "rerun with --cpus 3 " in cause, cause
    assert "--device-map 'gpu:*=cpu:*'" not in cause  # the flag it already has is no fix

    result = run_cli("run", "--device-map", "gpu:*=cpu:*", "--cpus", "3", str(computed))
    assert result.returncode == 0, result.stderr[-3000:]
    assert "second 2.0" in result.stdout.splitlines()
