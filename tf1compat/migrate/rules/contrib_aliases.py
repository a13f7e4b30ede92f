"""Names a script binds to `tf.contrib` modules, and the attributes it reads on them.

`import tensorflow.contrib.tpu.python.tpu as tpu` is served (the module is), and the contrib
rule rewrites it; but `tpu.util.check_positive_integer`, read later, is not, and fails at run
time under `tf1compat run` as after `migrate`. The contrib rule asks `unserved_attribute` of
each chain on such a name, which walks it as `run` would, so migrate reports what run would
stop on instead of passing it over in silence.
"""

from __future__ import annotations

import functools
from typing import Optional

import libcst as cst
import libcst.matchers as m

CONTRIB = "tensorflow.contrib"


def dotted(node: cst.CSTNode) -> Optional[str]:
    """'a.b.c' for a chain of names and attributes only (no calls or subscripts), else None."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted(node.value)
        return None if base is None else f"{base}.{node.attr.value}"
    return None


def bound_modules(module: cst.Module, tf_alias: Optional[str]) -> dict[str, str]:
    """{bound name: path under tf.contrib} of every name the file binds to a contrib path:
    `import tensorflow.contrib.slim as slim`, `from tensorflow.contrib import rnn`,
    `from tensorflow import contrib`,
    `from tensorflow.contrib.x.python.ops import helper`, `slim = tf.contrib.slim`.
    The path may name a module or not: `unserved_attribute` tells. A name also bound to
    something else is here too: `rebound` tells which those are."""
    bound: dict[str, str] = {}
    prefix = f"{tf_alias}.contrib." if tf_alias else None
    for assign in m.findall(module, m.Assign(targets=[m.AssignTarget(target=m.Name())])):
        value = dotted(assign.value)
        if prefix and value and value.startswith(prefix):
            bound[assign.targets[0].target.value] = value[len(prefix):]
    for imp in m.findall(module, m.Import()):
        for alias in imp.names:
            name = dotted(alias.name) or ""
            if (name == CONTRIB or name.startswith(CONTRIB + ".")) and alias.asname:
                bound[alias.asname.name.value] = name[len(CONTRIB) + 1:]
    for imp in m.findall(module, m.ImportFrom()):
        name = dotted(imp.module) if imp.module and not imp.relative else None
        if not name or isinstance(imp.names, cst.ImportStar):
            continue
        for alias in imp.names:
            here = alias.asname.name.value if alias.asname else alias.name.value
            full = f"{name}.{alias.name.value}"
            if full == CONTRIB or full.startswith(CONTRIB + "."):  # `from tensorflow import contrib`
                bound[here] = full[len(CONTRIB) + 1:]
    return bound


def _names_in(node: Optional[cst.CSTNode]) -> set[str]:
    return {name.value for name in m.findall(node, m.Name())} if node is not None else set()


def rebound(module: cst.Module, tf_alias: Optional[str]) -> set[str]:
    """Names the file also binds to something other than a contrib path (an assignment of
    another value, a loop, a `with`/`except` target, a parameter, a function or class, another
    import, a `global`): what they hold at a given line is not known without running it."""
    prefix = f"{tf_alias}.contrib." if tf_alias else None
    names: set[str] = set()
    for assign in m.findall(module, m.Assign()):
        value = dotted(assign.value)
        if not (prefix and value and value.startswith(prefix)):
            for target in assign.targets:
                names |= _names_in(target.target)
    for node in m.findall(module, m.AnnAssign() | m.AugAssign() | m.For() | m.CompFor() |
                          m.NamedExpr()):
        names |= _names_in(node.target)
    for node in m.findall(module, m.WithItem() | m.ExceptHandler() | m.ExceptStarHandler()):
        target = node.asname if isinstance(node, cst.WithItem) else node.name
        names |= _names_in(target.name) if target is not None else set()
    for node in m.findall(module, m.FunctionDef() | m.ClassDef() | m.Param()):
        names.add(node.name.value)
    for node in m.findall(module, m.Global() | m.Nonlocal()):
        names |= {item.name.value for item in node.names}
    for imp in m.findall(module, m.Import() | m.ImportFrom()):
        if isinstance(imp.names, cst.ImportStar):
            continue
        source = dotted(imp.module) if isinstance(imp, cst.ImportFrom) and imp.module else ""
        for alias in imp.names:
            full = ".".join(filter(None, [source, dotted(alias.name) or ""]))
            if not (full == CONTRIB or full.startswith(CONTRIB + ".")):
                names.add(alias.asname.name.value if alias.asname
                          else (dotted(alias.name) or "").split(".")[0])
    return names


def unserved_attribute(path: str, chain: list[str]) -> Optional[tuple[str, str]]:
    """(the contrib path that fails, why) when reading `chain` on the contrib module at `path`
    fails under tf1compat, else None; None too where `path` is not a served module at all
    (the import itself is reported where it is written)."""
    return _unserved(path, tuple(chain))


@functools.lru_cache(maxsize=4096)  # a script reads `slim.conv2d` hundreds of times
def _unserved(path: str, chain: tuple[str, ...]) -> Optional[tuple[str, str]]:
    from tf1compat.contrib.import_check import import_error, read_error

    if import_error(path) is not None:  # not a served module: its import is reported
        return None
    return read_error(path, chain)
