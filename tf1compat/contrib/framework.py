"""`tf.contrib.framework`'s variable helpers and `arg_scope`, on `tf.compat.v1` (graph mode).

Contracts of TF 1.x:

- `get_variables(scope=None, suffix=None, collection=GLOBAL_VARIABLES)`: the
  variables of the collection whose names match `scope` (a regular
  expression matched from the start, or a VariableScope) followed by
  anything and `suffix` (':' is added when missing); `get_model_variables`,
  `get_trainable_variables`, `get_local_variables` read their collection.
- `get_variables_to_restore(include=None, exclude=None)`: global variables
  under the `include` scopes (all when None) minus those under `exclude`.
- `variable` / `model_variable`: `tf.compat.v1.get_variable` with the given
  collections (`model_variable` adds GLOBAL_VARIABLES and MODEL_VARIABLES),
  under `device` when given, with TF 1.15's parameters (`synchronization`,
  `aggregation`; `model_variable`'s dtype float32); both honour `arg_scope`.
- `assign_from_checkpoint_fn(model_path, var_list)`: a function of a session
  that restores `var_list` from the checkpoint.

The global step helpers are mapped to `tf.compat.v1.train` (see the registry).
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Optional

import tensorflow as tf

from tf1compat.contrib import registry
from tf1compat.contrib.arg_scope import (add_arg_scope, arg_scope, arg_scoped_arguments,
                                         has_arg_scope)

__all__ = ["get_variables", "get_model_variables", "get_trainable_variables",
           "get_local_variables", "get_variables_to_restore", "get_variables_by_name",
           "get_variables_by_suffix", "get_unique_variable", "variable", "model_variable",
           "local_variable", "add_model_variable", "arg_scope", "add_arg_scope", "has_arg_scope",
           "arg_scoped_arguments", "assign_from_checkpoint_fn"]


def _v1():
    import tensorflow as tf

    return tf.compat.v1


def get_variables(scope=None, suffix: Optional[str] = None, collection: str = "variables"):
    """Variables of `collection` (default "variables", GLOBAL_VARIABLES) filtered by scope and
    suffix."""
    v1 = _v1()
    if collection is None:  # read as the default
        collection = v1.GraphKeys.GLOBAL_VARIABLES
    if isinstance(scope, v1.VariableScope):
        scope = scope.name
    if suffix is not None:
        if ":" not in suffix:
            suffix += ":"
        scope = (scope or "") + ".*" + suffix
    return v1.get_collection(collection, scope)


def get_model_variables(scope=None, suffix=None):
    return get_variables(scope, suffix, _v1().GraphKeys.MODEL_VARIABLES)


def get_trainable_variables(scope=None, suffix=None):
    return get_variables(scope, suffix, _v1().GraphKeys.TRAINABLE_VARIABLES)


def get_local_variables(scope=None, suffix=None):
    return get_variables(scope, suffix, _v1().GraphKeys.LOCAL_VARIABLES)


def get_variables_by_suffix(suffix: str, scope=None):
    return get_variables(scope=scope, suffix=suffix)


def get_variables_by_name(given_name: str, scope=None):
    """Variables named `given_name` (the last part of the name), under `scope`."""
    return get_variables(scope=scope, suffix=f"/{given_name}:|^{given_name}:")


def get_unique_variable(var_op_name: str):
    """The one variable whose op is named `var_op_name` (ValueError if none or not unique)."""
    candidates = get_variables(scope=var_op_name)
    if not candidates:
        raise ValueError(f"Couldn't find variable {var_op_name}")
    for candidate in candidates:
        if candidate.op.name == var_op_name:
            return candidate
    raise ValueError(f"Variable {var_op_name} does not uniquely identify a variable")


def _scopes(value, what: str) -> list:
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"{what} is provided but is not a list or a tuple; received "
                        f"{what}={value!r}")
    return list(value)


def get_variables_to_restore(include=None, exclude=None):
    """Global variables under `include` (all when None), without those under `exclude`."""
    if include is None:
        wanted = get_variables()
    else:
        wanted = [var for scope in _scopes(include, "include") for var in get_variables(scope)]
    unwanted = set()
    if exclude is not None:
        for scope in _scopes(exclude, "exclude"):
            unwanted.update(get_variables(scope))
    return [var for var in wanted if var not in unwanted]


@add_arg_scope
def variable(name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=True,
             collections=None, caching_device=None, device=None, partitioner=None,
             custom_getter=None, use_resource=None,
             synchronization=tf.VariableSynchronization.AUTO,
             aggregation=tf.compat.v1.VariableAggregation.NONE, **kwargs):
    """`tf.compat.v1.get_variable` in `collections` (default GLOBAL_VARIABLES), on `device`."""
    v1 = _v1()
    collections = list(dict.fromkeys(
        collections if collections is not None else [v1.GraphKeys.GLOBAL_VARIABLES]))
    getter: Callable = v1.get_variable
    if custom_getter is not None:
        getter = functools.partial(custom_getter, reuse=v1.get_variable_scope().reuse)
    with v1.device(device or ""):
        return getter(name, shape=shape, dtype=dtype, initializer=initializer,
                      regularizer=regularizer, trainable=trainable, collections=collections,
                      caching_device=caching_device, partitioner=partitioner,
                      use_resource=use_resource, synchronization=synchronization,
                      aggregation=aggregation, **kwargs)


@add_arg_scope
def model_variable(name, shape=None, dtype=tf.float32, initializer=None, regularizer=None,
                   trainable=True, collections=None, caching_device=None, device=None,
                   partitioner=None, custom_getter=None, use_resource=None,
                   synchronization=tf.VariableSynchronization.AUTO,
                   aggregation=tf.compat.v1.VariableAggregation.NONE, **kwargs):
    """A `variable` that is also in MODEL_VARIABLES (dtype defaults to float32)."""
    v1 = _v1()
    collections = list(collections or []) + [v1.GraphKeys.GLOBAL_VARIABLES,
                                             v1.GraphKeys.MODEL_VARIABLES]
    return variable(name, shape=shape, dtype=dtype or v1.float32, initializer=initializer,
                    regularizer=regularizer, trainable=trainable, collections=collections,
                    caching_device=caching_device, device=device, partitioner=partitioner,
                    custom_getter=custom_getter, use_resource=use_resource,
                    synchronization=synchronization, aggregation=aggregation, **kwargs)


def local_variable(initial_value, validate_shape=True, name=None, use_resource=None):
    """A variable in LOCAL_VARIABLES only (not trainable, not saved by default)."""
    v1 = _v1()
    return v1.Variable(initial_value, trainable=False,
                       collections=[v1.GraphKeys.LOCAL_VARIABLES],
                       validate_shape=validate_shape, use_resource=use_resource, name=name)


def add_model_variable(var) -> None:
    v1 = _v1()
    if var not in v1.get_collection(v1.GraphKeys.MODEL_VARIABLES):
        v1.add_to_collection(v1.GraphKeys.MODEL_VARIABLES, var)


def assign_from_checkpoint_fn(model_path: str, var_list, ignore_missing_vars: bool = False,
                              reshape_variables: bool = False) -> Optional[Callable[[Any], None]]:
    """A function `fn(session)` restoring `var_list` (a list or a {name: variable} dict).

    With `ignore_missing_vars`, variables the checkpoint lacks are left out (a
    warning each); None is returned when nothing is left to restore.
    """
    v1 = _v1()
    if not var_list:
        raise ValueError("var_list cannot be empty")
    if ignore_missing_vars:
        reader = v1.train.NewCheckpointReader(model_path)
        if isinstance(var_list, dict):
            items = var_list.items()
        else:
            items = ((var.op.name, var) for var in var_list)
        kept = {}
        for name, var in items:
            if reader.has_tensor(name):
                kept[name] = var
            else:
                v1.logging.warning("Variable %s missing in checkpoint %s", name, model_path)
        var_list = kept
    if not var_list:
        v1.logging.warning("No Variables to restore")
        return None
    saver = v1.train.Saver(var_list, reshape=reshape_variables)

    def callback(session) -> None:
        saver.restore(session, model_path)

    return callback


def __getattr__(name: str) -> Any:
    return registry.attribute("framework", name)
