"""The names as `tf1compat run` serves them: `python -m tf1compat.surface.serve_run IN OUT`.

IN is a JSON list of names; OUT gets {name: entry}. Each name is spelled as a script
spells it (`spelling.statements`) and run as lines of a user script under `run`
(`tf1compat.runner.user_view`), all in this one process; what it binds is described
by `reading`, an error is the entry of a missing name.
"""

from __future__ import annotations

import sys


def serve(names: list[str]) -> dict[str, dict]:
    from tf1compat.runner.user_view import open_view
    from tf1compat.surface import reading, spelling

    view = open_view()  # before anything imports TensorFlow: it chooses legacy Keras
    entries: dict[str, dict] = {}
    for name in names:
        source = "\n".join([spelling.TF_HEADER, *spelling.statements(name, "value")])
        try:
            entries[name] = reading.describe(view.run(source)["value"])
        except (Exception, SystemExit) as error:  # noqa: BLE001 - any failure: not served
            entries[name] = reading.absent(error)
    return entries


if __name__ == "__main__":
    from tf1compat.surface.side_process import main

    sys.exit(main("serve_run", serve, sys.argv[1:]))
