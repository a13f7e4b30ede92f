"""How `tf1compat run` and `tf1compat migrate` serve a counted contrib name today.

Each spelling the census saw is tried the way the script wrote it:

- `attr:layers.flatten` -> `tf.contrib.layers.flatten` read through `run`'s TF1
  module, and `tf.contrib.layers.flatten` given to `migrate`'s contrib rule;
- `import:slim.nets` -> `import tensorflow.contrib.slim.nets as m`;
- `from:framework.python.ops:arg_scope` -> `from tensorflow.contrib.framework.python.ops
  import arg_scope`.

`run` serves a name when every spelling resolves to an object without an
error; `migrate` serves it when its contrib rule rewrites every spelling (no
"not converted" finding). The table's own word (mapped / replaced /
unsupported / namespace / unknown) is recorded beside them.
"""

from __future__ import annotations

import functools
import os
import tempfile
from typing import Any, Iterable


def table_word(name: str) -> str:
    from tf1compat.contrib import registry

    parts = name.split(".")
    for end in range(len(parts), 0, -1):  # a name inside a module the table maps counts too
        entry = registry.lookup(".".join(parts[:end]))
        if entry is not None:
            return entry.served.value
        if registry.is_namespace(".".join(parts[:end])):
            return "namespace" if end == len(parts) else "unknown"
    return "unknown"


_SCRIPT = os.path.join(tempfile.gettempdir(), "tf1compat-census", "script.py")


@functools.lru_cache(maxsize=None)
def _hook():
    """`run`'s import hook, as `__import__` of a user script (`_SCRIPT`) calls it."""
    import tensorflow as tf

    from tf1compat.runner.shim import ImportHook, TF1Module

    return ImportHook(TF1Module(tf.compat.v1, "", legacy_keras=True),
                      user_roots=[os.path.dirname(_SCRIPT)])


def _walk(module, parts: Iterable[str]):
    for part in parts:
        module = getattr(module, part)
    return module


def _import(name: str, fromlist) -> Any:
    return _hook()(name, {"__name__": "__main__", "__file__": _SCRIPT}, None, fromlist, 0)


def run_serves(spelling: str) -> bool:
    """Whether `run` gives the script an object for this spelling."""
    hook = _hook()
    form, _, rest = spelling.partition(":")
    try:
        if form == "attr":
            _walk(hook.tf1, ["contrib", *rest.split(".")])
        elif form == "import":
            _walk(_import(f"tensorflow.contrib.{rest}", ()), ["contrib", *rest.split(".")])
        else:
            base, _, item = rest.partition(":")
            module = _import(".".join(filter(None, ["tensorflow.contrib", base])), (item,))
            if item != "*":
                getattr(module, item)
    except Exception:  # noqa: BLE001 - any failure is "not served": the census records it
        return False
    return True


def migrate_snippet(spelling: str) -> str:
    form, _, rest = spelling.partition(":")
    if form == "attr":
        return f"import tensorflow as tf\nvalue = tf.contrib.{rest}\n"
    if form == "import":
        return f"import tensorflow.contrib.{rest} as module\n"
    base, _, item = rest.partition(":")
    return f"from {'.'.join(filter(None, ['tensorflow.contrib', base]))} import {item}\n"


def migrate_serves(spelling: str) -> bool:
    """Whether `migrate`'s contrib rule rewrites this spelling (reports nothing left as is)."""
    from tf1compat.migrate.driver import PRE_RULES, _run
    from tf1compat.migrate.findings import Kind

    code = migrate_snippet(spelling)
    migrated, findings, _ = _run(code, "tf1compat", PRE_RULES)
    left = any(f.kind is Kind.NOT_CONVERTED for f in findings)
    return not left and migrated != code and "tensorflow.contrib" not in migrated \
        and "tf.contrib" not in migrated


def verdict(name: str, spellings: Iterable[str]) -> dict[str, str]:
    """{'table': ..., 'run': 'yes'|'no', 'migrate': 'yes'|'no'} for one counted name."""
    spellings = sorted(spellings)
    return {"table": table_word(name),
            "run": "yes" if all(run_serves(s) for s in spellings) else "no",
            "migrate": "yes" if all(migrate_serves(s) for s in spellings) else "no"}
