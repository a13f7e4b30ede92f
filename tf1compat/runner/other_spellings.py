"""`tf.X` names that TF 1.15 gave the same object as a contrib name, served as the contrib
name is (`tf1compat.contrib.spellings`): one object, whichever spelling a script reads."""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.runner import served

_other_spellings: dict[str, str] = {}


def of_contrib_name(path: str) -> Any:
    """The contrib replacement TF 1.15 also gave as `tf.<path>` (TPUClusterResolver), or None.
    On every `tf.X` read: one dict lookup, the registry only for a spelling it holds."""
    if not _other_spellings:
        from tf1compat.contrib.tables import OTHER_SPELLINGS

        _other_spellings.update(OTHER_SPELLINGS)
    if path not in _other_spellings:
        return None
    from tf1compat.contrib import spellings

    return spellings.other_spelling(path)


def contrib_alias(path: str) -> Optional[tuple[Any, served.Symbol]]:
    """`tf.<path>`, which TF 2.21 lacks, as the contrib name TF 1.15 gave the same object
    serves it (`tf.config.experimental_list_devices`: `tf.contrib.eager.list_devices`), and
    how the report shows it; None where there is none. Asked only for a name TF 2.21 lacks."""
    from tf1compat.contrib import spellings

    found = spellings.served_alias(f"tf.{path}")
    if found is None:
        return None
    return found[1], served.Symbol(served.Served.REPLACED, f"tf1compat.contrib.{found[0]}",
                                   f"TF 1.15's tf.contrib.{found[0]}")
