"""The errors of tf1compat.estimator."""

from __future__ import annotations

from tf1compat.shared.errors import Tf1CompatError


class EstimatorError(Tf1CompatError, ValueError):
    """An Estimator, EstimatorSpec or RunConfig that cannot work, with what to change."""
