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
