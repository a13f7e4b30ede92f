"""`tf.contrib.tensorboard.plugins.projector`: the embedding projector's config, on TensorBoard's.

TF 1.x wrote `projector_config.pbtxt` into a FileWriter's logdir; TensorBoard
reads that file to show embeddings. TensorBoard's own package
(`tensorboard.plugins.projector`, pip install 'tf1compat[projector]') keeps the same
messages with the same fields (`ProjectorConfig`, `EmbeddingInfo`,
`SpriteMetadata`), so a config built here writes the text TF 1.15 wrote.
The one difference in calling is `visualize_embeddings`' first argument: TF
1.x took the `FileWriter`, TensorBoard takes a logdir (or a writer); this
adapter takes the writer, as TF 1.x did, and names what it got otherwise.

TensorBoard is imported on first use, so this module loads without it and a
script that never touches the projector never needs it.
"""

from __future__ import annotations

import functools
import os
from typing import Any

from tf1compat.contrib.registry import ContribError

__all__ = ["ProjectorConfig", "EmbeddingInfo", "SpriteMetadata", "visualize_embeddings"]
_NAMESPACE = "tensorboard.plugins.projector"
_MESSAGES = ("ProjectorConfig", "EmbeddingInfo", "SpriteMetadata")


@functools.lru_cache(maxsize=None)
def _library(name: str) -> Any:
    """TensorBoard's projector package; a ContribError naming `name` when it is not installed."""
    try:
        from tensorboard.plugins import projector
    except ImportError as error:
        raise ContribError(f"{_NAMESPACE}.{name}",
                           f"it is served by the tensorboard library, which is not installed "
                           f"({error}): pip install 'tf1compat[projector]'") \
            from None
    return projector


def visualize_embeddings(summary_writer: Any, config: Any) -> None:
    """Writes `config` as `projector_config.pbtxt` in the writer's logdir, as TF 1.x did.

    Args:
      summary_writer: the `tf.compat.v1.summary.FileWriter` of the run (TF 1.x's argument);
        its `get_logdir()` is where the file goes.
      config: a `ProjectorConfig`.

    Raises:
      TypeError: `summary_writer` has no `get_logdir` (a path or something else was passed),
        or `config` is not a `ProjectorConfig`.
      ValueError: the writer has no logdir (TF 1.x's error).
    """
    projector = _library("visualize_embeddings")
    if not callable(getattr(summary_writer, "get_logdir", None)):
        raise TypeError(f"visualize_embeddings(summary_writer, config): summary_writer must be "
                        f"a tf.summary.FileWriter (TF 1.x's argument, whose get_logdir() says "
                        f"where projector_config.pbtxt goes); received "
                        f"summary_writer={summary_writer!r}")
    if not isinstance(config, projector.ProjectorConfig):
        raise TypeError(f"visualize_embeddings(summary_writer, config): config must be a "
                        f"projector.ProjectorConfig; received config={config!r} "
                        f"({type(config).__name__})")
    logdir = summary_writer.get_logdir()
    if logdir is None:
        raise ValueError("Summary writer must have a logdir")
    projector.visualize_embeddings(os.fspath(logdir), config)


def __getattr__(name: str) -> Any:
    if name in _MESSAGES:
        return getattr(_library(name), name)
    if name == "projector_config_pb2":  # TF 1.x's generated module, imported by some scripts
        return _library(name).projector_config_pb2
    if name.startswith("__"):
        raise AttributeError(name)
    raise ContribError(f"{_NAMESPACE}.{name}",
                       f"the projector module serves {', '.join(__all__)} only")


def __dir__() -> list[str]:
    return sorted([*globals(), *_MESSAGES])
