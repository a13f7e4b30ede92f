"""Reading a notebook for `tf1compat run`, and refusing one it cannot run, before any kernel starts.

Each refusal is one line naming the file, the cell where there is one (cells are
counted from 1, from the top, markdown cells included, as they appear in
Jupyter) and what is accepted: JSON that is not a notebook, a notebook of
another kernel language, a code cell that is not Python once IPython has read
its `%magics` and `!shell` lines (as the kernel would, so no cell has run when
a later one cannot even be compiled).
"""

from __future__ import annotations

import ast
import json
import os
from typing import Any

from tf1compat.notebook import NotebookError

ACCEPTED = "a Jupyter notebook (nbformat 4 JSON, as Jupyter saves it) of a Python kernel"
CELL_ACCEPTED = "Python code, with IPython's %magics and !shell lines"


def is_notebook_path(path: str) -> bool:
    """Whether `run` treats `path` as a notebook (by its name, as Jupyter does)."""
    return path.lower().endswith(".ipynb")


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else text


def read(path: str) -> Any:
    """The notebook at `path` (an nbformat 4 NotebookNode), checked for `run`.

    Raises:
      NotebookError: not notebook JSON, another kernel language, or a cell that does
        not compile; the message names the file and the cell.
    """
    import nbformat

    name = os.path.basename(path)
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        data = json.loads(text)
    except UnicodeDecodeError as error:
        raise NotebookError(f"{name}: not a notebook: it is not UTF-8 text ({error}); "
                            f"accepted: {ACCEPTED}") from None
    except ValueError as error:
        raise NotebookError(f"{name}: not a notebook: it is not valid JSON ({error}); "
                            f"accepted: {ACCEPTED}") from None
    if not isinstance(data, dict) or "nbformat" not in data:
        what = "an object" if isinstance(data, dict) else f"a JSON {type(data).__name__}"
        raise NotebookError(f"{name}: not a notebook: it is {what} without the 'nbformat' "
                            f"field; accepted: {ACCEPTED}")
    try:
        notebook = nbformat.reads(text, as_version=4)
        nbformat.validate(notebook)
    except Exception as error:  # noqa: BLE001 - nbformat's reader and validator raise many kinds
        raise NotebookError(f"{name}: not a valid notebook: "
                            f"{_first_line(str(error)) or type(error).__name__}; "
                            f"accepted: {ACCEPTED}") from None
    _check_language(name, notebook)
    _check_cells(name, notebook)
    return notebook


def _check_language(name: str, notebook: Any) -> None:
    metadata = notebook.get("metadata", {})
    kernelspec = metadata.get("kernelspec", {}) or {}
    language = kernelspec.get("language") or (metadata.get("language_info") or {}).get("name")
    if language and str(language).lower() != "python":
        kernel = kernelspec.get("display_name") or kernelspec.get("name") or language
        raise NotebookError(f"{name}: a notebook in {language!r} (kernel {kernel!r}), not "
                            f"Python; accepted: {ACCEPTED}")


def _check_cells(name: str, notebook: Any) -> None:
    from IPython.core.inputtransformer2 import TransformerManager

    transformer = TransformerManager()
    for number, cell in enumerate(notebook.cells, 1):
        if cell.cell_type != "code" or not cell.source.strip():
            continue
        try:
            code = transformer.transform_cell(cell.source)
            compile(code, f"cell {number}", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT,
                    dont_inherit=True)
        except SyntaxError as error:
            where = f" on line {error.lineno}" if error.lineno else ""
            text = f": {error.text.strip()!r}" if error.text and error.text.strip() else ""
            raise NotebookError(f"{name}: cell {number} has a syntax error{where}: "
                                f"{error.msg}{text}; accepted: {CELL_ACCEPTED}") from None
