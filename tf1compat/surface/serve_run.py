"""The names as `tf1compat run` serves them: `python -m tf1compat.surface.serve_run IN OUT`.

IN is a JSON list of names; OUT gets {name: entry}. Each name is spelled as a script
spells it (`spelling.statements`) and run as lines of a user script under `run`
(`tf1compat.runner.user_view`), all in this one process; what it binds is described
by `reading`, an error is the entry of a missing name.
"""

from __future__ import annotations

import json
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


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m tf1compat.surface.serve_run NAMES.json OUT.json",
              file=sys.stderr)
        return 2
    with open(argv[0], encoding="utf-8") as handle:
        names = json.load(handle)
    entries = serve(names)
    with open(argv[1], "w", encoding="utf-8") as handle:
        json.dump(entries, handle, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
