"""Step one of `migrate`: TensorFlow's own tf_upgrade_v2, run on source text.

Its rules ship inside the TensorFlow wheel (`tensorflow.tools.compatibility`):
the renames to `tf.compat.v1.*`, argument reorders and its warnings are
taken as they are, not re-implemented. It prints every change as it goes;
that output is captured and turned into findings.
"""

from __future__ import annotations

import contextlib
import io
import re
from typing import Optional

from tf1compat.migrate.findings import Finding, Kind

_LOG = re.compile(r"^(?:.*?:)?(?P<line>\d+):(?P<col>\d+): (?P<severity>[A-Z]+): (?P<message>.*)$",
                  re.S)
_upgrader = None
# tf_upgrade_v2 itself raises on some calls (its fractional-pool transformer calls `.add` on
# the list of logs when `deterministic=` is not False): the file is then left as it is.
FAILED = "tf_upgrade_v2 failed on this file"


def _get_upgrader():
    global _upgrader
    if _upgrader is None:
        from tf1compat.shared import tf_internals

        tf_internals.require_feature("tf1compat migrate")
        from tensorflow.tools.compatibility import ast_edits, tf_upgrade_v2

        spec = tf_upgrade_v2.TFAPIChangeSpec(import_rename=False, upgrade_compat_v1_import=True)
        _upgrader = ast_edits.ASTCodeUpgrader(spec)
    return _upgrader


def renamed_to(name: str) -> Optional[str]:
    """The name tf_upgrade_v2 rewrites `name` (`tf.image.resize_images`) to, or None."""
    return _get_upgrader()._api_change_spec.symbol_renames.get(name)


def keyword_renames(name: str) -> dict[str, str]:
    """The keywords tf_upgrade_v2 renames in calls of `name` (`tf.sparse_concat`:
    `concat_dim` -> `axis`)."""
    return dict(_get_upgrader()._api_change_spec.function_keyword_renames.get(name, {}))


def alias_keys() -> frozenset[str]:
    """Names tf_upgrade_v2 rewrites by their spelling alone, whatever they are bound to.

    Besides `tf.*`, its tables key some rewrites on conventional aliases:
    `slim.l2_regularizer(s)` becomes `tf.keras.regularizers.l2(0.5 * (s))`,
    `contrib_layers.xavier_initializer()` a Keras initializer, and so on.
    """
    spec = _get_upgrader()._api_change_spec
    keys = set(spec.function_transformers) | set(spec.symbol_renames)
    return frozenset(key for key in keys if not key.startswith(("tf.", "*.")))


def _finding(text: str) -> Finding:
    match = _LOG.match(text.strip())
    if not match:
        return Finding(0, Kind.NOTE, "tf_upgrade_v2", text.strip())
    severity, message = match.group("severity"), match.group("message").strip()
    kind = Kind.RENAMED if severity == "INFO" else Kind.NOTE
    if severity != "INFO":
        message = f"tf_upgrade_v2 {severity.lower()}: {message}"
    return Finding(int(match.group("line")), kind, "tf_upgrade_v2", message)


def upgrade(text: str, filename: str) -> tuple[str, list[Finding]]:
    """Returns tf_upgrade_v2's rewrite of `text` and its log as findings."""
    upgrader = _get_upgrader()
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            processed, new_text, logs, errors = upgrader.update_string_pasta(text, filename)
    except Exception as error:  # noqa: BLE001 - tf_upgrade_v2's own bugs (see FAILED)
        return text, [Finding(1, Kind.NOT_CONVERTED, "tf_upgrade_v2",
                              f"{FAILED} ({type(error).__name__}: {error}); TF1 names are not "
                              "renamed")]
    if not processed:
        reason = (logs[0].splitlines()[0] if logs else "it could not parse the file")
        return text, [Finding(1, Kind.NOTE, "tf_upgrade_v2",
                              f"tf_upgrade_v2 did not run ({reason}); TF1 names are not renamed")]
    findings = [_finding(log) for log in logs]
    seen = {(f.line, f.message) for f in findings}
    for error in errors:
        finding = _finding(error)
        if (finding.line, finding.message) not in seen:
            findings.append(finding)
    return new_text, findings
