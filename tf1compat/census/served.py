"""How `tf1compat run` and `tf1compat migrate` serve a `tf.contrib` name the census counts.

Each spelling the census saw (see `tf1compat.census.names`) is tried the way the script
wrote it:

- `attr:tensorflow:contrib.layers.flatten` -> `import tensorflow as tf` under `run`'s import
  hook, then `tf.contrib.layers.flatten`; given to `migrate` as that two-line script;
- `attr:tensorflow.contrib.slim:conv2d` -> `import tensorflow.contrib.slim as module`, then
  `module.conv2d`;
- `import:tensorflow.contrib.slim.nets` -> `import tensorflow.contrib.slim.nets as module`;
- `from:tensorflow.contrib.framework.python.ops:arg_scope` -> `from ... import arg_scope`.

`run` serves a name when every spelling resolves to an object without an error; `migrate`
serves it when its name rules rewrite every spelling, leave no `tf.contrib` and report
nothing "not converted". The contrib table's own word (mapped / replaced / unsupported /
namespace / unknown) is recorded beside them.
"""

from __future__ import annotations

import functools
import os
import tempfile
from typing import Any, Iterable

from tf1compat.census.names import CONTRIB, contrib_path

_TF_ALIASED = ("tensorflow", "tensorflow.compat.v1")  # modules a script binds as `tf`


def table_word(name: str) -> str:
    from tf1compat.contrib import registry

    parts = contrib_path(name).split(".")
    for end in range(len(parts), 0, -1):  # a name inside a module the table maps counts too
        entry = registry.lookup(".".join(parts[:end]))
        if entry is not None:
            return str(entry.served)
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


def _walk(value, parts: Iterable[str]):
    for part in parts:
        value = getattr(value, part)
    return value


def _import(module: str, fromlist=()) -> Any:
    return _hook()(module, {"__name__": "__main__", "__file__": _SCRIPT}, None, fromlist, 0)


def _parts(spelling: str) -> tuple[str, str, str]:
    """('attr' | 'from' | 'import', module, chain or item) of one census spelling."""
    form, _, rest = spelling.partition(":")
    module, _, chain = rest.partition(":")
    return form, module, chain


def run_serves(spelling: str) -> bool:
    """Whether `run` gives the script an object for this spelling."""
    form, module, chain = _parts(spelling)
    try:
        if form == "from":
            imported = _import(module, (chain,))
            if chain != "*":
                getattr(imported, chain)
        else:
            _walk(_import(module), module.split(".")[1:] + (chain.split(".") if chain else []))
    except Exception:  # noqa: BLE001 - any failure is "not served": the census records it
        return False
    return True


def migrate_snippet(spelling: str) -> str:
    """The smallest script that writes this spelling."""
    form, module, chain = _parts(spelling)
    if form == "from":
        return f"from {module} import {chain}\n"
    alias = "tf" if module in _TF_ALIASED else "module"
    if form == "import":
        return f"import {module} as {alias}\n"
    return f"import {module} as {alias}\nvalue = {'.'.join(filter(None, [alias, chain]))}\n"


def migrate_serves(spelling: str) -> bool:
    """Whether `migrate`'s name rules rewrite this spelling (and report nothing left as is)."""
    from tf1compat.migrate.driver import rewrite_names
    from tf1compat.migrate.findings import Kind

    code = migrate_snippet(spelling)
    migrated, findings = rewrite_names(code, "tf1compat")
    left = any(finding.kind is Kind.NOT_CONVERTED for finding in findings)
    return not left and migrated != code and CONTRIB not in migrated \
        and "tf.contrib" not in migrated


def verdict(name: str, spellings: Iterable[str]) -> dict[str, str]:
    """{'table': ..., 'run': 'yes'|'no', 'migrate': 'yes'|'no'} for one counted contrib name."""
    spellings = sorted(spellings)
    return {"table": table_word(name),
            "run": "yes" if all(run_serves(s) for s in spellings) else "no",
            "migrate": "yes" if all(migrate_serves(s) for s in spellings) else "no"}
