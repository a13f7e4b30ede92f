import os
import sys
from pathlib import Path

# TensorFlow's native start-up messages add nothing to test output.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
sys.path.insert(0, str(Path(__file__).resolve().parent))

import pytest  # noqa: E402


def pytest_collection_modifyitems(config, items):
    # Every test that needs the MiniDFS cluster runs in one xdist worker
    # (with --dist loadgroup), so the suite starts one cluster, not one per worker.
    for item in items:
        if "minidfs" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("hdfs"))


@pytest.fixture(scope="session")
def tf1_python():
    """The TensorFlow 1.15 reference interpreter (tests/tf1_reference): skips without one,
    fails under CI."""
    import tf1_reference

    return tf1_reference.require()
