"""The docs page that covers each verb: every `--help` ends with it, so a user goes from the
command to its page (tests/test_docs.py checks that each page exists)."""

from __future__ import annotations

PAGES = {
    "tf1compat": "README.md and docs/",
    "compare": "docs/comparing.md",
    "run": "docs/running.md and docs/notebooks.md",
    "migrate": "docs/migrating.md",
    "launch": "docs/clusters.md",
    "doctor": "docs/command-line.md",
    "explain": "docs/options.md",
    "kernel": "docs/notebooks.md",
}


def epilog(verb: str) -> str:
    """The last line of a verb's --help: where its documentation is, in the source tree."""
    return f"Documentation: {PAGES[verb]} in the tf1compat source."
