"""A program's files: fetched from a mirror of its repository, checked by git blob id, laid out.

The code is never committed: `fetch` copies each file's blob out of a bare mirror
(`MIRRORS/OWNER+NAME/repo`, as the census reads them) into a local cache, and every later use
checks the cached bytes against the blob id again before laying them out with the program's
edits.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from pathlib import Path

from tf1compat.corpus.manifest import Edit, Program, SourceFile
from tf1compat.process.atomic import write_atomically


class SourceError(RuntimeError):
    """A program's file that cannot be had or does not match what the corpus names."""


def cache_folder() -> Path:
    default = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "tf1compat"
    return Path(os.environ.get("TF1COMPAT_CORPUS_CACHE", default / "corpus-sources"))


def blob_id(content: bytes) -> str:
    """git's id of a blob: sha1 of "blob SIZE\\0" and the content."""
    return hashlib.sha1(b"blob %d\0" % len(content) + content).hexdigest()


def cached(file: SourceFile) -> bytes:
    """The file's bytes from the cache, checked against its blob id."""
    path = cache_folder() / file.blob
    if not path.is_file():
        raise SourceError(f"{file.path} (blob {file.blob[:12]}) is not fetched: run "
                          f"`python -m tf1compat.corpus fetch --mirrors DIR`")
    content = path.read_bytes()
    if blob_id(content) != file.blob:
        raise SourceError(f"{path}: the cached {file.path} is not blob {file.blob}; remove it "
                          f"and fetch again")
    return content


def available(program: Program) -> bool:
    return all((cache_folder() / f.blob).is_file() for f in program.files)


def mirror_git_dir(mirrors: Path, repo: str) -> Path:
    base = mirrors / repo.replace("/", "+") / "repo"
    for candidate in (base / ".git", base):
        if (candidate / "HEAD").is_file():
            return candidate
    raise SourceError(f"no mirror of {repo} under {mirrors} (looked for {base}); make one with "
                      f"`git clone --bare https://github.com/{repo} {base}`")


def fetch(program: Program, mirrors: Path) -> list[str]:
    """Copies the program's blobs from the mirror into the cache; returns the paths fetched."""
    git = mirror_git_dir(mirrors, program.repo)
    fetched = []
    for file in program.files:
        target = cache_folder() / file.blob
        if target.is_file() and blob_id(target.read_bytes()) == file.blob:
            continue
        listed = subprocess.run(["git", f"--git-dir={git}", "rev-parse",
                                 f"{program.commit}:{file.path}"], capture_output=True, text=True)
        if listed.returncode != 0 or listed.stdout.strip() != file.blob:
            found = listed.stdout.strip() or listed.stderr.strip().splitlines()[-1:]
            raise SourceError(f"{program.repo}@{program.commit[:12]}:{file.path} is not blob "
                              f"{file.blob} (found {found})")
        content = subprocess.run(["git", f"--git-dir={git}", "cat-file", "blob", file.blob],
                                 check=True, capture_output=True).stdout
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(target, content)
        fetched.append(file.path)
    return fetched


def notebook_as_script(content: bytes, path: str) -> str:
    """A notebook's code cells in order, as a user running it top to bottom runs them; IPython
    magics and shell lines (`%...`, `!...`) are left out, as plain Python cannot run them."""
    try:
        cells = json.loads(content)["cells"]
    except (ValueError, KeyError) as error:
        raise SourceError(f"{path}: not a notebook ({error})") from None
    parts, futures = [], []
    for index, cell in enumerate(cells):
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        text = "".join(source) if isinstance(source, list) else source
        lines = [line for line in text.splitlines()
                 if not line.lstrip().startswith(("%", "!"))]
        # Jupyter compiles each cell on its own, so `from __future__` may open any cell; one
        # script takes it only at its top
        futures += [line for line in lines if line.startswith("from __future__ import")]
        lines = [line for line in lines if not line.startswith("from __future__ import")]
        parts.append(f"# cell {index}\n" + "\n".join(lines))
    head = "".join(f"{line}\n" for line in dict.fromkeys(futures))
    return head + "\n\n".join(parts) + "\n"


def script_path(program: Program) -> str:
    """Where the program's script lies under {root}: a notebook becomes NAME.py beside it."""
    path = program.script.path
    return path[:-len(".ipynb")] + ".py" if program.notebook else path


def lay_out(program: Program, root: Path, folders: dict[str, str]) -> Path:
    """Writes the program's files under `root` at their repository paths, edited; returns the
    script's path."""
    for file in program.files:
        content = cached(file)
        text = (notebook_as_script(content, file.path)
                if file is program.script and program.notebook
                else content.decode("utf-8", "surrogateescape"))
        text = apply_edits(text, file.path, [e for e in program.edits if e.file == file.path],
                           folders)
        destination = root / (script_path(program) if file is program.script else file.path)
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_text(text, encoding="utf-8", errors="surrogateescape")
    return root / script_path(program)


def apply_edits(text: str, path: str, edits: list[Edit], folders: dict[str, str]) -> str:
    for edit in edits:
        count = text.count(edit.old)
        if count == 0:
            raise SourceError(f"{path}: the edit's old text {edit.old!r} is not in the file")
        text = text.replace(edit.old, fill(edit.new, folders))
    return text


def fill(text: str, folders: dict[str, str]) -> str:
    for key, value in folders.items():
        text = text.replace("{" + key + "}", value)
    return text
