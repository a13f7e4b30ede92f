"""The waits of the tests (tests/budgets.py): stretched by the load, never below their floor."""

import budgets


def test_a_wait_is_never_shorter_than_its_floor_or_its_idle_figure(monkeypatch):
    monkeypatch.setattr(budgets, "load_factor", lambda: 1.0)
    assert budgets.budget(30) == budgets.FLOOR_S
    assert budgets.budget(200) == 200
    assert budgets.budget(5, floor=5) == 5


def test_a_wait_grows_with_the_load_up_to_the_ceiling(monkeypatch):
    monkeypatch.setattr(budgets, "load_factor", lambda: 3.0)
    assert budgets.budget(30) == 3 * budgets.FLOOR_S
    assert budgets.budget(5, floor=5) == 15
    assert budgets.budget(400) == budgets.CEILING_S
    assert "load 3.00 per core" in budgets.describe(12.5, 30)
    assert "waited 12.5 s (budget 360 s" in budgets.describe(12.5, 30)


def test_the_load_factor_reads_the_machine(monkeypatch):
    monkeypatch.setattr(budgets.os, "getloadavg", lambda: (8.0, 0.0, 0.0))
    monkeypatch.setattr(budgets.os, "cpu_count", lambda: 2)
    assert budgets.load_factor() == 4.0
    monkeypatch.setattr(budgets.os, "getloadavg", lambda: (0.5, 0.0, 0.0))
    assert budgets.load_factor() == 1.0
