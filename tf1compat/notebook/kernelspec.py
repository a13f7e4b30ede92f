"""The "Python 3 (TF1 via tf1compat)" kernel: ipykernel with `%load_ext tf1compat` done at start.

The kernel spec is ipykernel's own launcher with the extension added by its
`--ext` option, for this Python (the one tf1compat is installed in), so every
notebook opened with it has TF1 served from its first cell. Installing, listing
and removing go through jupyter_client's KernelSpecManager, into the same
places `jupyter kernelspec` uses (`--user`, `--prefix`, or the system's).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from typing import Optional

from tf1compat.notebook import NotebookError

DEFAULT_NAME = "tf1compat"
DISPLAY_NAME = "Python 3 (TF1 via tf1compat)"
_MARK = "tf1compat"  # kernel.json metadata: which specs are ours (list and remove only touch those)


def kernel_json(python: Optional[str] = None) -> dict:
    """The kernel.json of the TF1 kernel, starting `python` (default: this one)."""
    return {
        "argv": [python or sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}",
                 "--ext=tf1compat"],
        "display_name": DISPLAY_NAME,
        "language": "python",
        "metadata": {_MARK: {"python": python or sys.executable}},
    }


def write(folder: str, name: str = DEFAULT_NAME) -> str:
    """Writes the kernel spec as `folder/name/kernel.json`; returns its folder."""
    spec_dir = os.path.join(folder, name)
    os.makedirs(spec_dir, exist_ok=True)
    with open(os.path.join(spec_dir, "kernel.json"), "w") as handle:
        json.dump(kernel_json(), handle, indent=1)
    return spec_dir


def _manager():
    from jupyter_client.kernelspec import KernelSpecManager

    return KernelSpecManager()


def install(name: str = DEFAULT_NAME, user: bool = False, prefix: Optional[str] = None) -> str:
    """Installs the kernel spec; returns the folder it went to.

    Raises:
      NotebookError: the name is not a valid kernel name, or the place is not writable.
    """
    if not name or not all(c.isascii() and (c.isalnum() or c in "._-") for c in name):
        raise NotebookError(f"invalid --name {name!r}; accepted: a kernel name of letters, "
                            "digits, '.', '_' and '-'")
    with tempfile.TemporaryDirectory(prefix="tf1compat-kernel-") as folder:
        try:
            return _manager().install_kernel_spec(write(folder), kernel_name=name, user=user,
                                                  prefix=prefix)
        except OSError as error:
            where = f"--prefix {prefix}" if prefix else ("--user" if user else "the system")
            raise NotebookError(f"cannot install kernel {name!r} into {where}: {error} "
                                "(try --user, or --prefix sys.prefix for a virtual "
                                "environment)") from None


def ours() -> dict[str, str]:
    """The installed TF1 kernels: name -> folder."""
    found = {}
    for name, entry in _manager().get_all_specs().items():
        if _MARK in (entry.get("spec", {}).get("metadata") or {}):
            found[name] = entry["resource_dir"]
    return found


def remove(name: str) -> str:
    """Removes an installed TF1 kernel; returns the folder removed.

    Raises:
      NotebookError: no TF1 kernel of that name is installed (another kernel is
        never removed).
    """
    installed = ours()
    if name not in installed:
        listed = ", ".join(sorted(installed)) or "none"
        raise NotebookError(f"no tf1compat kernel named {name!r} is installed (installed: "
                            f"{listed}); `tf1compat kernel list` shows them")
    return _manager().remove_kernel_spec(name)
