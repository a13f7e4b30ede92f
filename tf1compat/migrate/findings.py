"""What `migrate` found in one file: typed findings with file, line and reason."""

from __future__ import annotations

import dataclasses
import enum
from typing import Any, Optional


class Kind(str, enum.Enum):
    CHANGED = "changed"              # rewritten; the message says what it means now
    NOT_CONVERTED = "not converted"  # left as is on purpose; the message says why
    NOTE = "note"                    # left as is, and worth knowing before moving on
    RENAMED = "renamed"              # a tf_upgrade_v2 rename
    ERROR = "error"                  # the file could not be processed


@dataclasses.dataclass(frozen=True)
class Finding:
    line: int
    kind: Kind
    rule: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.line, "kind": self.kind.value, "rule": self.rule,
                "message": self.message}


@dataclasses.dataclass
class FileResult:
    """One file's migration: its new text (None on error) and its findings."""

    path: str
    original: str
    migrated: Optional[str]
    findings: list[Finding] = dataclasses.field(default_factory=list)
    written: bool = False

    @property
    def error(self) -> Optional[Finding]:
        return next((f for f in self.findings if f.kind is Kind.ERROR), None)

    @property
    def changed(self) -> bool:
        return self.migrated is not None and self.migrated != self.original

    @property
    def status(self) -> str:
        if self.error:
            return "error"
        return "changed" if self.changed else "unchanged"

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "status": self.status, "written": self.written,
                "findings": [f.to_dict() for f in sorted(self.findings, key=_order)]}


def _order(finding: Finding) -> tuple[int, int]:
    return (finding.line, 0 if finding.kind is Kind.RENAMED else 1)
