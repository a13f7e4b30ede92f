"""TF1 notebooks: `tf1compat run NOTEBOOK.ipynb`, `%load_ext tf1compat` and a TF1 kernel spec.

A notebook runs in a real Jupyter kernel (ipykernel), driven by nbclient, with
TF1 served to its cells by the same hooks as a script under `run`
(`tf1compat.runner.served_hooks`): the IPython extension (`extension`) installs
them in the kernel and makes the cells user code. `reading` checks a notebook
before any kernel starts, `execute` runs it and writes the executed copy,
`kernelspec` installs the "Python 3 (TF1 via tf1compat)" kernel.
"""

from __future__ import annotations

import importlib

from tf1compat.shared.errors import Tf1CompatError

NOTEBOOK_HINT = "pip install 'tf1compat[notebook]' (nbclient, nbformat, ipykernel, IPython)"
_NEEDED = ("nbformat", "nbclient", "ipykernel", "jupyter_client", "IPython")


class NotebookError(Tf1CompatError):
    """A notebook tf1compat cannot run as given (its message names the file and cell)."""


def require(what: str) -> None:
    """Raises one line with the install hint when a notebook package is missing.

    Args:
      what: what needs them, for the message ("tf1compat run NOTEBOOK.ipynb").
    """
    for name in _NEEDED:
        try:
            importlib.import_module(name)
        except ImportError as error:
            raise NotebookError(f"{what} needs {name}, which is not installed ({error}): "
                                f"{NOTEBOOK_HINT}") from None
