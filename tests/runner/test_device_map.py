"""DeviceMap: parsing rules and mapping device strings (pure, no session)."""

import pytest

from tf1compat.runner.device_map import DeviceMap, parse_rule
from tf1compat.shared.errors import OptionError


def test_wildcard_keeps_the_index_and_explicit_rules_win():
    device_map = DeviceMap.parse(["gpu:*=cpu:*", "gpu:3=cpu:0"])
    assert device_map.map("/gpu:1") == "/device:CPU:1"
    assert device_map.map("/job:localhost/replica:0/task:0/device:GPU:3") == \
        "/job:localhost/replica:0/task:0/device:CPU:0"
    assert device_map.map("/cpu:0") == "/cpu:0"
    assert device_map.map("") == ""
    assert str(device_map) == "gpu:3=cpu:0,gpu:*=cpu:*"


def test_pairs_only_touch_their_device():
    device_map = DeviceMap.parse(["gpu:1=cpu:1,gpu:0=cpu:0"])
    assert device_map.map("/device:GPU:1") == "/device:CPU:1"
    assert device_map.map("/gpu:2") == "/gpu:2"
    assert device_map.explicit_targets("CPU") == [1, 0]


@pytest.mark.parametrize("text,hint", [
    ("gpu:0", "accepted"),
    ("gpu:0=cpu:*", "'*' on the right"),
    ("gpu:x=cpu:0", "is not TYPE:INDEX"),
])
def test_bad_rules_say_what_is_accepted(text, hint):
    with pytest.raises(OptionError) as caught:
        parse_rule(text)
    assert "device_map" in str(caught.value) and hint in str(caught.value)


@pytest.mark.parametrize("rules, cpus, provided", [
    (["gpu:*=cpu:*"], 2, [(0, "CPU:0"), (1, "CPU:1")]),
    (["gpu:*=cpu:*"], 1, [(0, "CPU:0")]),
    (["gpu:*=cpu:0"], 3, [(0, "CPU:0"), (1, "CPU:0"), (2, "CPU:0")]),
    (["gpu:1=cpu:0,gpu:0=cpu:1"], 5, [(0, "CPU:1"), (1, "CPU:0")]),
    (["gpu:*=cpu:*", "gpu:3=cpu:0"], 2, [(0, "CPU:0"), (1, "CPU:1"), (3, "CPU:0")]),
    (["cpu:1=cpu:0"], 2, []),
])
def test_the_gpus_a_map_provides_one_per_cpu_for_a_wildcard(rules, cpus, provided):
    assert DeviceMap.parse(rules).provided("GPU", cpus) == provided


def test_a_listing_keeps_the_real_gpus_no_rule_covers_and_replaces_the_others():
    from tensorflow.core.framework.device_attributes_pb2 import DeviceAttributes

    from tf1compat.runner.mapped_devices import MappedGpus

    real = [DeviceAttributes(name=name, device_type=kind, memory_limit=limit,
                             physical_device_desc=desc, incarnation=7)
            for name, kind, limit, desc in [("/device:CPU:0", "CPU", 256, ""),
                                            ("/device:GPU:0", "GPU", 16, "a real GPU"),
                                            ("/device:GPU:1", "GPU", 16, "another")]]
    gpus = MappedGpus(DeviceMap.parse(["gpu:1=cpu:0"]), cpus=lambda: 1)
    listing = gpus.local_devices(real)
    assert [(d.name, d.physical_device_desc) for d in listing] == [
        ("/device:CPU:0", ""), ("/device:GPU:0", "a real GPU"),
        ("/device:GPU:1",
         "device: 1, name: mapped to /device:CPU:0 by tf1compat run --device-map gpu:1=cpu:0")]
    mapped = listing[-1]
    assert (mapped.device_type, mapped.memory_limit) == ("GPU", 256)  # the CPU's
    assert mapped.incarnation not in (0, 7) and \
        gpus.local_devices(real)[-1].incarnation == mapped.incarnation  # one id per process
