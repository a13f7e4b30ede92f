"""Where the census reads Python files: a repository's git directory at a commit, or a folder."""

from __future__ import annotations

import os
import subprocess
from typing import Iterator

_SKIPPED_DIRS = {".git", "__pycache__", "site-packages", "node_modules"}


def git_dir(mirrors: str, repo: str) -> str:
    """The git directory of `owner/name` under `mirrors` (`<owner>+<name>/repo[/.git]`)."""
    base = os.path.join(mirrors, repo.replace("/", "+"), "repo")
    for candidate in (os.path.join(base, ".git"), base):
        if os.path.isfile(os.path.join(candidate, "HEAD")):
            return candidate
    raise FileNotFoundError(f"no git directory for {repo} under {mirrors} (looked for {base})")


def git_python_files(git: str, commit: str) -> Iterator[tuple[str, str]]:
    """(path, text) of every .py file in `commit` of the git directory `git`."""
    listing = subprocess.run(["git", f"--git-dir={git}", "ls-tree", "-r", "-z", commit],
                             check=True, capture_output=True).stdout.decode("utf-8", "replace")
    blobs = []
    for entry in filter(None, listing.split("\0")):
        meta, _, path = entry.partition("\t")
        mode, kind, sha = meta.split()
        if kind == "blob" and path.endswith(".py") and mode != "120000":
            blobs.append((path, sha))
    if not blobs:
        return
    batch = subprocess.run(["git", f"--git-dir={git}", "cat-file", "--batch"], check=True,
                           input="".join(f"{sha}\n" for _, sha in blobs).encode(),
                           capture_output=True).stdout
    offset = 0
    for path, _ in blobs:
        header_end = batch.index(b"\n", offset)
        header = batch[offset:header_end].split()
        if header[-1] == b"missing":  # a file over the snapshot's size limit
            offset = header_end + 1
            continue
        size = int(header[2])
        text = batch[header_end + 1:header_end + 1 + size].decode("utf-8", "replace")
        offset = header_end + 1 + size + 1
        yield path, text


def folder_python_files(root: str) -> Iterator[tuple[str, str]]:
    """(path, text) of every .py file under a folder."""
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIPPED_DIRS)
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8", errors="replace") as handle:
                    yield os.path.relpath(path, root), handle.read()
