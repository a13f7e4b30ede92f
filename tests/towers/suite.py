"""Towers and placement: the behaviour both sides must have, asserted once.

`TowersSuite` needs a `facts` fixture: what one side's scenario (sides.py)
printed. Subclass it per side (test_tf1_towers.py, test_modern_towers.py),
as tests/input_pipeline/suite.py does for the CSV pipelines.
"""

from __future__ import annotations

import pytest

COUNTS = ("2", "3", "4")


class TowersSuite:
    """Shared assertions on the facts of a side's scenario."""

    def test_matmul_towers_place_each_tower_and_sum_on_cpu0(self, facts):
        for count in COUNTS:
            assert facts["devices"][count] == [f"CPU:{i}" for i in range(int(count))]
            assert facts["sums"][count] == "CPU:0"
            assert facts["values_ok"][count]

    def test_matmul_towers_equal_a_single_device_run(self, facts):
        assert facts["equal_single"]

    def test_tower_training_shares_variables_and_matches_one_device(self, facts):
        first, last = facts["losses"]
        assert last < first / 10
        assert facts["same_losses"] and facts["same_weights"]
        assert [name.split(":")[0] for name in facts["variable_names"]] == ["w", "b"]
        assert facts["predict_devices"] == ["CPU:0", "CPU:1"]
        assert facts["variable_devices"] == ["CPU:0"]

    def test_a_fused_op_is_reported_on_the_device_of_its_fused_node(self, facts):
        fused = facts["fused"]
        # x @ w = [6, 9] per row of ones, + [1, -1], relu, summed over 4 rows.
        assert fused["value"] == pytest.approx(60.0, rel=1e-6)
        assert fused["how"] == "fused" and "Fused" in fused["absorber_type"]
        assert fused["note"].startswith("fused into 'relu' (")
        assert fused["device"] == fused["absorber_device"] == "CPU:1"

    def test_missing_device_without_soft_placement_lists_devices(self, facts):
        assert "GPU:1" in facts["hard_error"]
        assert "'CPU:0', 'CPU:1'" in facts["hard_error"]

    def test_missing_device_with_soft_placement_falls_back_and_says_where(self, facts):
        assert facts["soft_value_ok"]
        assert facts["soft_device"].startswith("CPU:")
