"""Keeps TensorFlow's native start-up chatter out of report commands.

TensorFlow's C++ code writes to file descriptor 2 before any logging setting
applies (absl's "All log messages before absl::InitializeLog()", CUDA driver
probes). Report verbs such as `doctor` capture that descriptor while they
import TensorFlow and read devices, and show the capture only on failure.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from typing import Callable, Iterator


@contextlib.contextmanager
def native_stderr_captured(
        replay: Callable[[BaseException], bool] = lambda error: True) -> Iterator[None]:
    """Redirects fd 2 to a temporary file for the block.

    Args:
      replay: called with the exception when the block fails; when it returns
        True the captured output is written to stderr (it may explain the failure).
    """
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile(mode="w+b") as capture:
        os.dup2(capture.fileno(), 2)
        try:
            yield
        except BaseException as error:
            if replay(error):
                os.dup2(saved, 2)
                capture.seek(0)
                sys.stderr.write(capture.read().decode("utf-8", "replace"))
            raise
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
