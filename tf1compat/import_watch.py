"""Kept for existing imports: the helper is `tf1compat.shared.import_watch` (both worlds use it)."""

from tf1compat.shared.import_watch import ImportWatchWarning, when_imported

__all__ = ["ImportWatchWarning", "when_imported"]
