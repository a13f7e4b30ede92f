"""`tf.contrib.layers.utils` (slim.utils): output aliases and collections, as TF 1.x kept them.

A layer given `outputs_collections` tags its output with the scope's name:
the tensor's `aliases` list gets the name (a trailing '/' dropped) and the
tensor joins each collection. `convert_collection_to_dict` reads them back
as {alias: tensor} (a tensor with no alias stands as its op's name when it
is the op's first output, else as the tensor's name), the table slim's nets
return as `end_points`.
"""

from __future__ import annotations

import collections as _collections
from typing import Optional

__all__ = ["collect_named_outputs", "append_tensor_alias", "gather_tensors_aliases",
           "get_tensor_aliases", "convert_collection_to_dict", "get_variable_collections"]


def append_tensor_alias(tensor, alias: str):
    """Appends `alias` (without a trailing '/') to `tensor.aliases`; returns the tensor."""
    if alias[-1] == "/":
        alias = alias[:-1]
    if hasattr(tensor, "aliases"):
        tensor.aliases.append(alias)
    else:
        tensor.aliases = [alias]
    return tensor


def collect_named_outputs(collections, alias: str, outputs):
    """Tags `outputs` with `alias` and adds it to each collection named; returns it.

    Nothing happens when `collections` is empty or None.
    """
    if collections:
        import tensorflow as tf

        append_tensor_alias(outputs, alias)
        tf.compat.v1.add_to_collections(collections, outputs)
    return outputs


def get_tensor_aliases(tensor) -> list[str]:
    """The aliases of `tensor`; with none, its op's name (first output) or its own name."""
    if hasattr(tensor, "aliases"):
        return tensor.aliases
    if tensor.name[-2:] == ":0":
        return [tensor.op.name]
    return [tensor.name]


def gather_tensors_aliases(tensors) -> list[str]:
    """The aliases of every tensor, in order."""
    aliases: list[str] = []
    for tensor in tensors:
        aliases += get_tensor_aliases(tensor)
    return aliases


def convert_collection_to_dict(collection: str, clear_collection: bool = False):
    """An OrderedDict {alias: tensor} of the collection; `clear_collection` empties it after."""
    import tensorflow as tf

    graph = tf.compat.v1.get_default_graph()
    output = _collections.OrderedDict((alias, tensor)
                                      for tensor in graph.get_collection(collection)
                                      for alias in get_tensor_aliases(tensor))
    if clear_collection:
        graph.clear_collection(collection)
    return output


def get_variable_collections(variables_collections, name: str) -> Optional[list]:
    """The collections for variable `name`: a dict's entry for it, or the list itself."""
    if isinstance(variables_collections, dict):
        return variables_collections.get(name)
    return variables_collections
