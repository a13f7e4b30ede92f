"""modern.devices: splitting devices, and the errors for what cannot be done."""

import pytest

from isolated import run_json
from modern import Inventory, devices
from tf1compat import DeviceError, OptionError


def test_split_gpu_on_a_machine_without_it_lists_the_gpus():
    with pytest.raises(DeviceError, match=r"asks for GPU 2.*\[0, 1\]"):
        devices.split_gpu(2, [1024], inventory=Inventory.simulated(2))


def test_split_gpu_beyond_card_memory_says_how_much_it_has():
    with pytest.raises(DeviceError, match="12000 MiB in all on GPU 0, which has 8000 MiB"):
        devices.split_gpu(0, [6000, 6000], inventory=Inventory.simulated(1, memory_mib=8000))


def test_split_gpu_without_limits_is_rejected():
    with pytest.raises(OptionError, match="memory limit"):
        devices.split_gpu(0, [], inventory=Inventory.simulated(1))


def test_split_cpu_rejects_zero():
    with pytest.raises(OptionError, match="cpus=0"):
        devices.split_cpu(0, inventory=Inventory.simulated(0))


def test_split_after_start_names_the_line_and_table_lists_devices():
    facts = run_json("""
import json
from modern import devices
from tf1compat import RuntimeAlreadyInitializedError
devices.split_cpu(3)
print(devices.table())
table = devices.table()
try:
    devices.split_cpu(2)
except RuntimeAlreadyInitializedError as error:
    message = str(error)
again = devices.split_cpu(3)
print(json.dumps({"table": table, "error": message,
                  "again": [row.detail for row in again]}))
""")
    assert facts["table"].count("logical") == 3
    assert "/physical_device:CPU:0" in facts["table"]
    assert "cpus=2" in facts["error"] and "already started at <string>:6" in facts["error"]
    assert facts["again"] == ["already in effect"]
