"""modern.towers on logical CPUs: the shared suite, on the TF2 side (tf.function)."""

import pytest

from isolated import run_json

from .sides import SCENARIOS
from .suite import TowersSuite


@pytest.fixture(scope="module")
def facts():
    return run_json(SCENARIOS["tf2"])


class TestModernTowers(TowersSuite):
    def test_missing_device_lists_every_logical_device(self, facts):
        assert "['CPU:0', 'CPU:1', 'CPU:2', 'CPU:3']" in facts["hard_error"]
