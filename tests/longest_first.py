"""Longest work first: the suite's scopes handed to pytest-xdist in order of their measured time.

With `--dist loadgroup` a scope is an xdist_group (run on one worker) or a single test, and
xdist hands scopes to workers in a fixed order (by default, the scopes with the most tests
first). A long single test that comes late then runs alone at the end while the other workers
idle. Ordering scopes by their time (longest first, the usual rule for packing jobs on
machines) keeps every worker busy until the last minutes.

The times are `tests/durations.json` (seconds per test id, measured on 2 cores, only tests
of a second or more; a test missing from it counts as a short one). They are refreshed from
a JUnit report of a whole run:

    python3 -m pytest -n auto --dist loadgroup --junitxml=report.xml
    python3 tests/longest_first.py report.xml      # rewrites tests/durations.json

Stale times only make the order less good, never a test's outcome.
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

DURATIONS = Path(__file__).resolve().parent / "durations.json"
ROOT = DURATIONS.parent.parent
SHORT = 0.5  # seconds assumed for a test without a recorded time
RECORDED_FROM = 1.0  # tests shorter than this are not recorded


def load_durations(path: Path = DURATIONS) -> dict[str, float]:
    try:
        return json.loads(path.read_text())["seconds"]
    except (OSError, ValueError, KeyError):
        return {}


def scope_of(item) -> str:
    marker = item.get_closest_marker("xdist_group")
    if marker is None:
        return item.nodeid
    return str(marker.args[0] if marker.args else marker.kwargs.get("name", "default"))


def longest_first(items: list, durations: dict[str, float]) -> list:
    """`items` with each scope's tests together, scopes by their total time, longest first;
    ties and the tests inside a scope keep the collection's order."""
    scopes: dict[str, list] = {}
    for item in items:
        scopes.setdefault(scope_of(item), []).append(item)
    total = {scope: sum(durations.get(item.nodeid, SHORT) for item in members)
             for scope, members in scopes.items()}
    ordered = sorted(scopes, key=lambda scope: -total[scope])
    return [item for scope in ordered for item in scopes[scope]]


def by_group(config) -> bool:
    """--dist loadgroup: on the controller xdist's `dist`, on a worker its `loadgroup`."""
    return getattr(config.option, "dist", "no") == "loadgroup" or bool(
        getattr(config.option, "loadgroup", False))


def keep_collection_order(config) -> None:
    """On the controller: xdist hands out scopes in the collection's order (its own
    reordering counts tests, not their time)."""
    if by_group(config):
        config.option.loadscopereorder = False


def reorder(config, items: list, durations: dict[str, float] | None = None) -> None:
    """On each worker, after the xdist_group markers are set: the collection, longest first."""
    if by_group(config):
        items[:] = longest_first(items, load_durations() if durations is None else durations)


def durations_from_junit(report: Path) -> dict[str, float]:
    """{test id: seconds} of a JUnit report pytest wrote (classname + name back to the id)."""
    seconds: dict[str, float] = {}
    for case in ElementTree.parse(report).getroot().iter("testcase"):
        time = float(case.get("time") or 0)
        if time < RECORDED_FROM:
            continue
        name = case.get("name", "").split("@")[0]
        seconds["::".join(_id_parts(case.get("classname", "")) + [name])] = round(time, 1)
    return dict(sorted(seconds.items()))


def _id_parts(classname: str) -> list[str]:
    """'tests.cluster.test_launch.TestX' -> ['tests/cluster/test_launch.py', 'TestX']: the
    longest dotted prefix that is a file of the checkout, then its classes."""
    parts = classname.split(".")
    for cut in range(len(parts), 0, -1):
        module = Path(*parts[:cut]).with_suffix(".py")
        if (ROOT / module).exists():
            return [module.as_posix(), *parts[cut:]]
    return [classname.replace(".", "/") + ".py"]


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__)
        return 2
    seconds = durations_from_junit(Path(argv[0]))
    DURATIONS.write_text(json.dumps({
        "about": "seconds per test id on 2 cores, for tests/longest_first.py (tests of "
                 f"{RECORDED_FROM:g} s or more); refreshed by python3 tests/longest_first.py "
                 "REPORT.xml",
        "seconds": seconds}, indent=1) + "\n")
    print(f"{DURATIONS}: {len(seconds)} tests, {sum(seconds.values()):.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
