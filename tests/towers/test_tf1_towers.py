"""tf1compat.towers on logical CPUs: the shared suite, on the TF1 side (sessions)."""

import pytest

from isolated import run_json

from .sides import SCENARIOS
from .suite import TowersSuite


@pytest.fixture(scope="module")
def facts():
    return run_json(SCENARIOS["tf1"])


class TestTf1Towers(TowersSuite):
    def test_one_set_of_variables_for_all_towers(self, facts):
        assert facts["variable_names"] == ["w:0", "b:0"]

    def test_missing_device_lists_exactly_the_session_devices(self, facts):
        assert "['CPU:0', 'CPU:1']" in facts["hard_error"]
