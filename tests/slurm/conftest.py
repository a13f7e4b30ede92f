"""The session's real one-node Slurm cluster (tests/slurm/slurm_cluster.py).

Skipped, with the reason, where Slurm's or munge's programs are missing or this is not
root (slurmd starts each task as the job's user); under CI (TF1COMPAT_REQUIRE_SLURM=1,
set by .ci/run, which installs them) those are failures instead. Every test that uses
the fixture runs in one xdist worker (tests/conftest.py groups them as "slurm").
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from slurm_cluster import Cluster, missing_programs  # noqa: E402

from budgets import budget  # noqa: E402

START_IDLE_S = 15  # slurmctld + slurmd to an idle node: about 2 s on an idle machine


def _unavailable() -> str | None:
    missing = missing_programs()
    if missing:
        return (f"Slurm is not installed ({', '.join(missing)} missing): apt-get install "
                "slurm-wlm munge")
    if os.geteuid() != 0:
        return "the test Slurm runs slurmd as root (it starts tasks as the job's user)"
    return None


@pytest.fixture(scope="session")
def slurm_cluster():
    """A started one-node cluster; `.client_env()` is what a client needs to use it."""
    reason = _unavailable()
    if reason:
        if os.environ.get("TF1COMPAT_REQUIRE_SLURM") == "1":
            pytest.fail(f"TF1COMPAT_REQUIRE_SLURM=1 but {reason}")
        pytest.skip(reason)
    base = Path(tempfile.mkdtemp(prefix="tf1compat-slurm-"))
    cluster = Cluster(base)
    try:
        cluster.start(budget(START_IDLE_S, floor=START_IDLE_S))
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(autouse=True)
def _no_job_outlives_its_test(request):
    """A test that fails before its job ends (its salloc killed) would leave the job running,
    and the next test's empty-queue check would fail on it: each test's jobs end with it."""
    yield
    for name in ("slurm_cluster", "netns_slurm"):
        if name in request.fixturenames:
            request.getfixturevalue(name).cancel_jobs()


def _netns_unavailable() -> str | None:
    reason = _unavailable()
    if reason:
        return reason
    missing = [name for name in ("ip", "nsenter", "unshare") if shutil.which(name) is None]
    if missing:
        return f"{', '.join(missing)} missing: apt-get install iproute2 util-linux"
    return None


@pytest.fixture(scope="session")
def netns_slurm():
    """A started 3-node cluster, each node a network namespace of its own
    (tests/slurm/netns_cluster.py); removed, namespaces and links too, at the end."""
    from netns_cluster import NetnsCluster

    reason = _netns_unavailable()
    if reason:
        if os.environ.get("TF1COMPAT_REQUIRE_SLURM") == "1":
            pytest.fail(f"TF1COMPAT_REQUIRE_SLURM=1 but {reason}")
        pytest.skip(reason)
    base = Path(tempfile.mkdtemp(prefix="tf1compat-netns-slurm-"))
    cluster = NetnsCluster(base, 3)
    try:
        cluster.start(budget(2 * START_IDLE_S, floor=2 * START_IDLE_S))
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="session")
def netns_minidfs(netns_slurm):
    """A MiniDFS bound to the namespaced cluster's bridge address, the one address every node
    (and the host) reaches: shared storage for jobs across nodes. The hdfs:// plugin must be
    built (pip install -e . builds it)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hdfs"))
    from hdfs_helpers import jar_unavailable, running_minidfs

    from tf1compat.hdfs.plugin import plugin_path

    try:
        reason = jar_unavailable()
    except RuntimeError as error:
        pytest.fail(str(error))
    path = plugin_path()
    if reason is None and not (path and os.path.exists(path)):
        reason = "the hdfs:// plugin is not built: pip install -e . builds it (needs Rust)"
    if reason:
        if os.environ.get("TF1COMPAT_REQUIRE_SLURM") == "1":
            pytest.fail(f"TF1COMPAT_REQUIRE_SLURM=1 but {reason}")
        pytest.skip(reason)
    with running_minidfs(netns_slurm.controller_address) as cluster:
        yield cluster
