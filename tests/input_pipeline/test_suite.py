"""The shared suite on local files, run against every side (the `side` fixture)."""

from .suite import PipelineSuite


class TestLocalFiles(PipelineSuite):
    """Each test runs once per implementation in sides.SIDES."""
