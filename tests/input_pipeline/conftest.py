"""Fixtures of the CSV input pipeline tests.

`csv_root` is where the shared suite writes its CSV files: a local temporary
directory here. HDFS tests plug in by overriding it with a root whose `url()`
gives `hdfs://` URLs (see `roots.CsvRoot`), and subclassing `suite.PipelineSuite`.
"""

import os
import sys
from pathlib import Path

import pytest

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
_ROOT = str(Path(__file__).resolve().parents[2])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

from .roots import LocalRoot  # noqa: E402
from .sides import SIDES  # noqa: E402


@pytest.fixture
def csv_root(tmp_path):
    """A local directory for test files (see roots.CsvRoot)."""
    yield LocalRoot(tmp_path)


@pytest.fixture(params=sorted(SIDES))
def side(request):
    """Each pipeline implementation in turn (see sides.SIDES)."""
    return SIDES[request.param]
