"""The part of `tf1compat doctor` about what tf1compat changes in other libraries: every
declared run-time patch (`tf1compat.shared.patch_table`) and every private name of a library
other than TensorFlow it reads (`tf1compat.shared.library_internal_table`), each checked in
the installed library and named when its target is gone."""

from __future__ import annotations

import importlib
import importlib.metadata
import platform
from typing import Any

# The distribution each patch owner is installed as.
_DISTRIBUTIONS = {"tensorflow": "tensorflow", "keras": "keras", "tf_slim": "tf-slim",
                  "tensorflow_estimator": "tensorflow-estimator", "numpy": "numpy"}


def _installed_version(owner: str) -> str:
    if owner == "python":
        return platform.python_version()
    if owner not in _DISTRIBUTIONS:
        return "(another interpreter)"
    try:
        return importlib.metadata.version(_DISTRIBUTIONS[owner])
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def patches_status() -> list[dict[str, Any]]:
    """Each declared patch: whose, checked on which versions, whether it is in effect in this
    process, and what of its target the installed library lacks."""
    from tf1compat.shared import patches, tf_internals
    from tf1compat.shared.patch_table import PATCHES

    rows = []
    for patch in PATCHES:
        absent = [] if patch.elsewhere else list(
            tf_internals.missing(patch.internal) if patch.internal else ())
        target = None if patch.elsewhere else _absent_target(patches, patch)
        if target and not any(entry.startswith(target.split(" ")[0]) for entry in absent):
            absent.append(target)
        rows.append({"key": patch.key, "owner": patch.owner, "target": patch.target,
                     "installed": _installed_version(patch.owner),
                     "checked_on": list(patch.checked_on), "in_effect": patches.is_installed(
                         patch.key), "absent": absent, "feature": patch.feature,
                     "without": patch.without, "installed_by": patch.installed_by,
                     "elsewhere": patch.elsewhere})
    return rows


def _absent_target(patches, patch) -> Any:
    try:
        return patches.absent(patch)
    except Exception as error:  # noqa: BLE001 - a library failing to import is reported
        return f"{patch.attribute} ({type(error).__name__}: {error})"


def library_internals_status() -> list[dict[str, Any]]:
    """Each declared private name of another library, and whether the installed one has it."""
    from tf1compat.shared import tf_internals
    from tf1compat.shared.library_internal_table import DECLARED

    rows = []
    for internal in DECLARED:
        try:
            if internal.prepare:
                module, _, function = internal.prepare.partition(":")
                getattr(importlib.import_module(module), function)()
            absent = list(tf_internals.missing(internal))
        except Exception as error:  # noqa: BLE001 - a library failing to import is reported
            absent = [f"{internal.module} ({type(error).__name__}: {error})"]
        rows.append({"library": internal.library, "names": internal.label,
                     "feature": internal.feature, "checked_on": list(internal.checked_on),
                     "ok": not absent, "absent": absent, "without": internal.without})
    return rows


def print_patches(rows: list[dict[str, Any]]) -> None:
    print("\nRun-time patches of other libraries (made only where their feature is used)")
    for row in rows:
        if row["elsewhere"]:
            state = "elsewhere"
        elif row["absent"]:
            state = "MISSING " + ", ".join(row["absent"])
        else:
            state = "in effect" if row["in_effect"] else "ready"
        print(f"  {state:<9} {row['key']:<30} {row['owner']} {row['installed']} "
              f"(checked on {', '.join(row['checked_on'])}): {row['target']}")
        if row["absent"]:
            print(f"            without it: {row['without']}")


def print_library_internals(rows: list[dict[str, Any]]) -> None:
    print("\nPrivate names of other libraries")
    for row in rows:
        state = "ok" if row["ok"] else "MISSING " + ", ".join(row["absent"])
        print(f"  {state:<8} {row['library']:<20} {row['feature']}: {row['names']}")
        if not row["ok"]:
            print(f"           without it: {row['without']}")
