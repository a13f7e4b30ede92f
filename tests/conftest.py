import os
import sys
from pathlib import Path

# TensorFlow's native start-up messages add nothing to test output.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
sys.path.insert(0, str(Path(__file__).resolve().parent))

import pytest  # noqa: E402

import longest_first  # noqa: E402


# Tests whose outcome depends on Grappler's and oneDNN's rewrites or on float round-off, as
# they run in CI a second time with TF_ENABLE_ONEDNN_OPTS=0 (`-m rewrites`): placement, towers,
# layer placement, the example pairs (`compare`), the legacy corpus (test_docs.py marks the
# placement example of docs/placement.md itself).
# (The contrib, seq2seq and layer-norm reference tests that are sensitive to it parametrize
# both settings themselves.)
REWRITE_SENSITIVE = (
    "foundation/test_placement_fusion.py", "foundation/test_placement_data.py",
    "foundation/test_session.py", "foundation/test_configure.py", "towers/", "layers/",
    "compare/", "test_legacy_corpus.py",
)
TESTS = Path(__file__).resolve().parent


def _rewrite_sensitive(path: Path) -> bool:
    relative = path.resolve().relative_to(TESTS).as_posix()
    return any(relative == entry or relative.startswith(entry) for entry in REWRITE_SENSITIVE)


# The helpers that run TensorFlow 1.15 (through tf1_reference/recorded.py): a test module that
# uses one is marked `tf1_reference`, which tf1_reference/regenerate.py selects.
REFERENCE_HELPERS = ("tf1_reference", "tf1_reference.recorded", "contrib.three_ways",
                     "contrib.seq2seq_reference", "estimator.reference", "estimator.clusters",
                     "tf0_cases")


def _uses_the_reference(module) -> bool:
    for value in vars(module).values():
        name = getattr(value, "__name__", None) if isinstance(value, type(pytest)) \
            else getattr(value, "__module__", None)
        if name in REFERENCE_HELPERS:
            return True
    return False


def _uses_a_module_fixture(item) -> bool:
    info = getattr(item, "_fixtureinfo", None)
    if info is None or getattr(item, "module", None) is None:
        return False
    return any(definition.scope == "module"
               for definitions in info.name2fixturedefs.values() for definition in definitions)


def pytest_addoption(parser):
    parser.addoption("--tf1-live", action="store_true",
                     help="run every TensorFlow 1.15 reference run live and hold it against "
                          "its record (TF1COMPAT_TF1_LIVE=1)")


def pytest_xdist_auto_num_workers(config):
    """`-n auto`: one worker more than there are cores on a machine of up to four.

    Most tests wait on a child process (TensorFlow starting, a cluster's tasks meeting, a
    MiniDFS answering), so two workers on two cores leave a core idle for a sixth of the
    run; a third fills it. Larger machines get one worker per core, as xdist gives.
    """
    cores = os.cpu_count() or 1
    return cores + 1 if cores <= 4 else cores


def pytest_configure(config):
    if config.getoption("--tf1-live"):
        os.environ["TF1COMPAT_TF1_LIVE"] = "1"
    # Under --dist loadgroup the longest scopes go to the workers first (longest_first.py).
    longest_first.keep_collection_order(config)


def pytest_collection_modifyitems(config, items):
    for item in items:
        module = getattr(item, "module", None)
        if "tf1_python" in getattr(item, "fixturenames", ()) or (
                module is not None and _uses_the_reference(module)):
            item.add_marker(pytest.mark.tf1_reference)
        # Every test that needs the MiniDFS cluster runs in one xdist worker
        # (with --dist loadgroup), so the suite starts one cluster, not one per worker.
        if "minidfs" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("hdfs"))
        # Likewise the one-node Slurm cluster (tests/slurm/conftest.py).
        elif "slurm_cluster" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("slurm"))
        # And the namespaced multi-node one: one per session, in one worker.
        elif "netns_slurm" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("netns-slurm"))
        # A module-scoped fixture (a TensorFlow scenario, a probe, a parsed tree) runs once
        # per worker that gets a test of its module: the module's tests go to one worker.
        elif item.get_closest_marker("xdist_group") is None and _uses_a_module_fixture(item):
            item.add_marker(pytest.mark.xdist_group(f"module:{item.module.__name__}"))
        # A test that runs TensorFlow 1.15 alone is not changed by TF 2.21's oneDNN setting;
        # a migrated script runs the same served ops as its `run` form, which is marked.
        if _rewrite_sensitive(Path(str(item.fspath))) and not any(
                item.get_closest_marker(name) for name in ("tf1_only", "same_ops_as_run", "no_rewritten_ops")):
            item.add_marker(pytest.mark.rewrites)
    longest_first.reorder(config, items)


@pytest.fixture(scope="session")
def tf1_python():
    """The TensorFlow 1.15 reference interpreter (tests/tf1_reference): skips without one,
    fails under CI."""
    import tf1_reference

    return tf1_reference.require()
