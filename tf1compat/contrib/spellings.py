"""Other spellings of contrib names: a `tf.` name or a TensorFlow module home that TF 1.15 gave
the same object as a contrib name, served as the contrib name is."""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.contrib import homes
from tf1compat.contrib.tables import OTHER_SPELLINGS
from tf1compat.contrib.registry import ContribError, resolve


def other_spelling(spelling: str) -> Any:
    """The contrib replacement TF 1.15 also gave as `spelling` (a `tf.` path such as
    'distribute.cluster_resolver.TPUClusterResolver', or a 'module:name' home), else None."""
    name = OTHER_SPELLINGS.get(spelling)
    return None if name is None else resolve(name)


def served_alias(spelling: str) -> Optional[tuple[str, Any]]:
    """`tf.<path>` that TF 2.21 lacks, served as its contrib name is: TF 1.15 gave the same
    object under both (`tf.config.experimental_list_devices` was `tf.contrib.eager.
    list_devices`). (that contrib name, the object), or None where no served one was it."""
    for name in homes.contrib_names_of(spelling):
        try:
            return name, resolve(name)
        except (ContribError, AttributeError, ImportError):
            continue
    return None
