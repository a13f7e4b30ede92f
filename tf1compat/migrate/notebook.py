"""`.ipynb` notebooks: their code cells migrated as one program, then put back in their cells.

Cells run in order and share names (a config built in one cell, the session
in the next), so they are joined with a marker comment between cells,
migrated together, and split again. IPython lines (`%magic`, `!shell`) are
hidden in comments while the Python tools read the code.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable

_CELL = "# tf1compat-migrate-cell: {}"
_CELL_RE = re.compile(r"^# tf1compat-migrate-cell: (\d+)$")
_MAGIC = "# tf1compat-migrate-magic: "


def _cell_text(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def join_cells(notebook: dict[str, Any]) -> tuple[str, list[int]]:
    """The code cells as one program, and the index of each code cell in the notebook."""
    indices = [i for i, cell in enumerate(notebook.get("cells", []))
               if cell.get("cell_type") == "code"]
    parts = []
    for number, index in enumerate(indices):
        lines = []
        for line in _cell_text(notebook["cells"][index]).split("\n"):
            stripped = line.lstrip()
            if stripped.startswith(("%", "!")):
                line = _MAGIC + line
            lines.append(line)
        parts.append(_CELL.format(number) + "\n" + "\n".join(lines).rstrip("\n") + "\n")
    return "".join(parts), indices


def split_cells(program: str, count: int) -> list[str]:
    """The program back as `count` cell sources (magics restored)."""
    cells: list[list[str]] = [[] for _ in range(count)]
    current = 0
    for line in program.split("\n"):
        match = _CELL_RE.match(line)
        if match:
            current = int(match.group(1))
            continue
        if line.lstrip().startswith(_MAGIC):
            line = line.split(_MAGIC, 1)[1]
        cells[min(current, count - 1)].append(line)
    return ["\n".join(lines).strip("\n") for lines in cells]


def migrate_notebook(text: str, migrate_program: Callable[[str], str]) -> str:
    """The notebook JSON with its code cells migrated by `migrate_program`."""
    notebook = json.loads(text)
    program, indices = join_cells(notebook)
    if not indices:
        return text
    migrated = migrate_program(program)
    if migrated == program:
        return text
    for index, source in zip(indices, split_cells(migrated, len(indices))):
        cell = notebook["cells"][index]
        if _cell_text(cell).strip("\n") != source:
            lines = source.split("\n")
            cell["source"] = [line + "\n" for line in lines[:-1]] + [lines[-1]]
    return json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"
