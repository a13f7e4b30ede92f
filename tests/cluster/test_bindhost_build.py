"""`tf1compat.launch.bindhost` builds its shim with a time limit, and says what went wrong."""

import os
import stat

import pytest

from tf1compat.launch import bindhost
from tf1compat.shared.errors import LaunchError

pytestmark = pytest.mark.skipif(not os.uname().sysname == "Linux", reason="LD_PRELOAD is Linux's")


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TF1COMPAT_CACHE", str(tmp_path / "cache"))
    return tmp_path


def test_a_compiler_that_hangs_is_stopped_and_named(fresh_cache, monkeypatch):
    hanging = fresh_cache / "cc"
    hanging.write_text("#!/bin/sh\nexec sleep 60\n")
    hanging.chmod(hanging.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("CC", str(hanging))
    monkeypatch.setattr(bindhost, "COMPILE_TIMEOUT_SECONDS", 0.5)
    with pytest.raises(LaunchError, match=r"cannot build bindhost.c: .*/cc did not finish within "
                                          r"0.5 s; set CC .*--bind-all"):
        bindhost.library()


def test_a_compiler_that_cannot_run_is_named(fresh_cache, monkeypatch):
    monkeypatch.setenv("CC", str(fresh_cache / "no-such-cc"))
    with pytest.raises(LaunchError, match=r"the C compiler '.*no-such-cc' cannot be run "
                                          r"\(No such file or directory\); set CC"):
        bindhost.library()
