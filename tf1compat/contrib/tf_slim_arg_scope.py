"""One `arg_scope` for tf1compat's slim layers and the tf_slim library's (slim.nets), as in TF 1.x.

In TF 1.x, `slim.conv2d` and the `conv2d` that `slim.nets.vgg` calls were one
function, under one arg_scope stack. tf1compat serves slim's layers itself and
the nets from tf_slim, so there are two of each; scripts still mix them:

    with slim.arg_scope(resnet_v1.resnet_arg_scope()):   # a scope tf_slim made
        net, _ = resnet_v1.resnet_v1_50(images)           # tf_slim's layers
        logits = slim.conv2d(net, 10, [1, 1])             # tf1compat's layer

and `with slim.arg_scope([slim.conv2d], weights_regularizer=...)` around a net
must reach the net's convolutions. `share` makes the two one: tf_slim's
module keeps its code but reads tf1compat's stack and table of decorated
functions, and each layer both sides have (same name, both arg_scope'd) is
keyed by tf1compat's key, so a scope set for either is seen by both.
"""

from __future__ import annotations

import types

from tf1compat.shared import patches

# tf_slim's arg_scope'd functions with a tf1compat twin: (tf_slim module, tf1compat module).
_TWIN_MODULES = (("tf_slim.layers.layers", "tf1compat.contrib.layers"),
                 ("tf_slim.ops.variables", "tf1compat.contrib.framework"))


def share(tf_slim_arg_scope: types.ModuleType) -> None:
    """Makes tf_slim's arg_scope module use tf1compat's stack, table and keys (once: the
    registry's "tf_slim.shared-arg-scope")."""
    patches.apply("tf_slim.shared-arg-scope", lambda: _share(tf_slim_arg_scope))


def _share(tf_slim_arg_scope: types.ModuleType):
    import importlib

    from tf1compat.contrib import arg_scope as ours

    changes = [(tf_slim_arg_scope, "_DECORATED_OPS", ours._DECORATED),
               (tf_slim_arg_scope, "_ARGSTACK", ours._STACK)]
    ours._DECORATED.update(tf_slim_arg_scope._DECORATED_OPS)
    for theirs_name, ours_name in _TWIN_MODULES:
        theirs, twin_module = importlib.import_module(theirs_name), \
            importlib.import_module(ours_name)
        for name, twin in vars(twin_module).items():
            function = getattr(theirs, name, None)
            if name.startswith("_") or not callable(function) or not callable(twin) or \
                    isinstance(twin, types.ModuleType) or not ours.has_arg_scope(twin) or \
                    not tf_slim_arg_scope.has_arg_scope(function):
                continue
            key = ours._key(twin)
            # tf_slim reads the key from the decorated function (arg_scope([f])) and from the
            # function it wraps (at call time): both now carry tf1compat's.
            for decorated in (function, getattr(function, "__wrapped__", None)):
                if decorated is not None:
                    changes.append((decorated, "_key_op", key))
    return None, patches.set_attributes(changes)
