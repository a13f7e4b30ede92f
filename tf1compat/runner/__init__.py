"""`tf1compat run`: an unmodified TF1 script, run in its own process on TF 2.21.

The parent (`spawn`) only starts the child, forwards SIGINT/SIGTERM/SIGHUP to
its process group, passes its exit code through and prints the report the
child wrote; `tf1compat.process.lifetime` makes sure the child's group dies with
the parent. In the child, `stopping` makes those signals act as under `python`. The child (`bootstrap`) makes `import tensorflow` give the script TF1
(`shim`), merges the command line's session options into every session the
script creates and remaps devices (`hooks`), runs the script as `__main__`,
and writes what happened to a JSON file (`report`). The hooks themselves are
installed by `served_hooks`, which a notebook's kernel uses too (`tf1compat.notebook`).

Nothing here changes another process: the shim lives in the child only.
"""

from __future__ import annotations

import dataclasses
import json
import os
from typing import Any, Optional

# This folder: a frame whose file is in it is the run's own, never the user's (the tracebacks
# and op stacks a run shows leave such frames out).
RUNNER_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def is_runner_frame(filename: str) -> bool:
    """Whether a frame's file is one of the run's own modules."""
    return filename.startswith(RUNNER_DIR)


@dataclasses.dataclass
class RunSpec:
    """What the parent tells the child, as JSON.

    Attributes:
      script: path of the script to run.
      args: the script's own arguments (its sys.argv[1:]).
      options: session option keywords from the command line.
      override: the command line's options win over the script's.
      device_map: device rules, e.g. ['gpu:*=cpu:*'].
      report_path: where the child writes its report (JSON).
      user_roots: folders of user code beyond the script's, the working directory
        and PYTHONPATH (--user-root); see `roots`.
      library_roots: folders whose modules are libraries (--library-root).
      numpy: '1' (user code gets NumPy 1's names and behaviours, `numpy1`) or 'current'.
    """

    script: str
    args: list[str]
    options: dict[str, Any]
    override: bool = False
    device_map: list[str] = dataclasses.field(default_factory=list)
    report_path: Optional[str] = None
    user_roots: list[str] = dataclasses.field(default_factory=list)
    library_roots: list[str] = dataclasses.field(default_factory=list)
    numpy: str = "1"

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self))

    @classmethod
    def from_json(cls, text: str) -> "RunSpec":
        return cls(**json.loads(text))


def json_options(options) -> dict[str, Any]:
    """SessionOptions keywords as plain JSON values (passthrough left out)."""
    from tf1compat.shared.option_table import SPECS_BY_KEYWORD

    return {key: SPECS_BY_KEYWORD[key].show(value) for key, value in options.to_kwargs().items()
            if key != "passthrough"}
