"""TensorFlow 1.15 modules outside contrib that TF 2.21's package no longer ships, as TF 1.15's
contrib files import them.

contrib.learn's `Estimator` imports `meta_graph_transform`, which imports the Graph Transform
Tool's Python wrapper (`tensorflow.tools.graph_transforms`) at load time and calls it only when
an export asks for graph transforms; contrib.tfprof's `model_analyzer` re-exports the profiler's
`ProfileContext` beside its option constants and functions. TF 2.21's package has neither: the
module here lets the importing file load, and a call says what is missing and what to do
instead.
"""

from __future__ import annotations

import types
from typing import Optional

from tf1compat.shared.errors import Tf1CompatError


class AbsentTool(Tf1CompatError, NotImplementedError):
    """A TF 1.15 tool TF 2.21's package does not ship."""


def _transform_graph(input_graph_def, inputs, outputs, transforms):
    raise AbsentTool(
        f"TransformGraph(transforms={transforms!r}): TF 1.15's Graph Transform Tool "
        "(tensorflow.tools.graph_transforms) is not part of TF 2.21's package; export "
        "without graph transforms, or run them with TF 1.15's transform_graph binary")


class ProfileContext:
    """TF 1.15's `tensorflow.python.profiler.profile_context.ProfileContext`, absent in TF 2.21."""

    def __init__(self, *args, **kwargs):
        raise AbsentTool(
            "ProfileContext: TF 1.15's profiling context (tensorflow.python.profiler."
            "profile_context) is not part of TF 2.21; profile a step with "
            "tf.compat.v1.profiler.profile(graph, run_meta=...) or tf.profiler.experimental")


profile_context = types.ModuleType(
    "tensorflow.python.profiler.profile_context", "TF 1.15's ProfileContext, absent in TF 2.21")
profile_context.ProfileContext = ProfileContext

graph_transforms = types.ModuleType(
    "tensorflow.tools.graph_transforms", "TF 1.15's Graph Transform Tool, absent in TF 2.21")
graph_transforms.TransformGraph = _transform_graph

# TF 1.15's module -> its stand-in here
MODULES = {"tensorflow.tools.graph_transforms": graph_transforms,
           "tensorflow.python.profiler.profile_context": profile_context}


def imported(name: str, fromlist) -> Optional[types.ModuleType]:
    """What `from <name> import <fromlist>` gets where `name` (or each item under it) is one of
    these modules (`from tensorflow.tools import graph_transforms` included); None otherwise."""
    if not fromlist:
        return None
    if name in MODULES:
        return MODULES[name]
    if all(f"{name}.{item}" in MODULES for item in fromlist):
        return types.SimpleNamespace(**{item: MODULES[f"{name}.{item}"] for item in fromlist})
    return None
