"""Each side of `compare --script` in its own copy of the folder the user ran it from.

A script reads its inputs by paths relative to the working directory, as under
`python SCRIPT`; so every side starts in a copy of that folder, with the same
relative paths. The copy is cheap: folders are recreated, small files and every
.py file are copied (so a side may rewrite them, and `migrate --write` edits the
copy), larger files are symbolic links to the originals. What a side writes
(new files, replaced or rewritten copies, links replaced by a rename, as
tf.train.Saver and most writers do) stays in its own copy, where the report
lists it. Writing into a large file in place through its link would reach the
original: the original's size and time are checked afterwards and a change is
reported as a leak.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from tf1compat.shared.errors import Tf1CompatError

COPIED_FILE_BYTES = 1 << 20  # larger files are linked (datasets), smaller ones copied
COPIED_TOTAL_BYTES = 64 << 20  # past this, even small files are linked
MAX_ENTRIES = 100_000  # a working directory bigger than this is not a project folder


def _stamp(path: Path, follow: bool = True) -> Optional[tuple[int, int]]:
    try:
        info = path.stat() if follow else path.lstat()
    except OSError:
        return None
    return info.st_size, info.st_mtime_ns


@dataclass
class SideFolder:
    """A side's copy of `source` at `root`: what it holds at the start, to tell later what
    the side wrote."""

    source: Path
    root: Path
    copies: dict[str, Optional[tuple[int, int]]] = field(default_factory=dict)
    links: dict[str, Optional[tuple[int, int]]] = field(default_factory=dict)

    @classmethod
    def create(cls, source: Path, root: Path, skip: Path) -> "SideFolder":
        """Copies `source` (the working directory) to `root`, leaving out `skip` (the
        folder all sides live in, when it is inside `source`).

        Raises:
          Tf1CompatError: the folder holds more than MAX_ENTRIES files and folders.
        """
        folder = cls(source, root)
        root.mkdir(parents=True)
        budget = COPIED_TOTAL_BYTES
        entries = 0
        seen = {os.path.realpath(source)}
        for here, dirs, files in os.walk(source, followlinks=True):
            relative_dir = Path(here).relative_to(source)
            kept = []
            for name in dirs:
                real = os.path.realpath(os.path.join(here, name))
                if real != str(skip) and real not in seen:  # no loops through links
                    seen.add(real)
                    kept.append(name)
                    (root / relative_dir / name).mkdir()
            dirs[:] = kept
            entries += len(kept) + len(files)
            if entries > MAX_ENTRIES:
                raise Tf1CompatError(
                    f"the working directory {source} holds more than {MAX_ENTRIES} files and "
                    "folders (compare --script gives each side its own copy of it); run it "
                    "from the script's project folder")
            for name in files:
                original = Path(here) / name
                size = _stamp(original)
                if size is None or not original.is_file():
                    continue  # a broken link, a socket or fifo: nothing a script reads
                relative = str(relative_dir / name)
                if name.endswith(".py") or (size[0] <= COPIED_FILE_BYTES and size[0] <= budget):
                    shutil.copy2(original, root / relative)
                    budget -= size[0]
                    folder.copies[relative] = _stamp(root / relative)
                else:
                    os.symlink(os.path.abspath(original), root / relative)
                    folder.links[relative] = size
        return folder

    def restamp(self, paths: list[Path]) -> None:
        """Counts `paths` (copies, changed before the script runs: migrated) as the start."""
        for path in paths:
            relative = str(path.relative_to(self.root))
            if relative in self.copies:
                self.copies[relative] = _stamp(path)

    def inside(self, path: Path) -> Optional[Path]:
        """`path`'s counterpart in the copy, or None when it lies outside the source."""
        try:
            return self.root / Path(os.path.abspath(path)).relative_to(self.source)
        except ValueError:
            return None

    def changes(self) -> dict[str, list[str]]:
        """What the side did to its copy: `written` (new or changed files, relative to the
        working directory), `removed`, and `leaked` (originals changed through a link)."""
        written, present, leaked = [], set(), []
        for here, dirs, files in os.walk(self.root):
            for name in files:
                path = Path(here) / name
                relative = str(path.relative_to(self.root))
                present.add(relative)
                if relative in self.links and path.is_symlink():
                    if _stamp(path) != self.links[relative]:
                        leaked.append(relative)
                elif relative in self.links or relative not in self.copies \
                        or _stamp(path) != self.copies[relative]:
                    written.append(relative)
        removed = sorted((set(self.copies) | set(self.links)) - present)
        return {"written": sorted(written), "removed": removed, "leaked": sorted(leaked)}
