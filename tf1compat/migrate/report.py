"""The per-file report of `migrate`, as text (like tf_upgrade_v2's, plus what changed in meaning) or JSON."""

from __future__ import annotations

import difflib
import json
from typing import Sequence

from tf1compat.migrate.findings import FileResult, Kind

_SHOWN = (Kind.ERROR, Kind.CHANGED, Kind.NOT_CONVERTED, Kind.NOTE)


def format_text(results: Sequence[FileResult], *, wrote: bool) -> str:
    lines = []
    for result in results:
        action = "written" if result.written else (
            "would change (use --write)" if result.changed and not wrote else result.status)
        lines.append(f"{result.path}: {action}")
        renamed = [f for f in result.findings if f.kind is Kind.RENAMED]
        if renamed:
            lines.append(f"  tf_upgrade_v2: {len(renamed)} rename(s) to tf.compat.v1 / TF2 names")
        for finding in sorted(result.findings, key=lambda f: (_SHOWN.index(f.kind)
                                                               if f.kind in _SHOWN else 9, f.line)):
            if finding.kind is Kind.RENAMED:
                continue
            lines.append(f"  {result.path}:{finding.line}: {finding.kind.value}: {finding.message}")
    counts = {status: sum(r.status == status for r in results)
              for status in ("changed", "unchanged", "error")}
    not_converted = sum(f.kind is Kind.NOT_CONVERTED for r in results for f in r.findings)
    lines.append(f"{len(results)} file(s): {counts['changed']} changed, {counts['unchanged']} "
                 f"unchanged, {counts['error']} with errors; {not_converted} thing(s) left as "
                 "is and reported" + ("" if wrote else "; nothing written (use --write)"))
    return "\n".join(lines)


def format_json(results: Sequence[FileResult]) -> str:
    return json.dumps({"files": [result.to_dict() for result in results]}, indent=2)


def unified_diff(result: FileResult) -> str:
    if not result.changed:
        return ""
    return "".join(difflib.unified_diff(
        result.original.splitlines(keepends=True), result.migrated.splitlines(keepends=True),
        fromfile=f"a/{result.path}", tofile=f"b/{result.path}"))
