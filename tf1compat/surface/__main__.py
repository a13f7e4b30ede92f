"""`python -m tf1compat.surface [--sample N] [--name NAME ...] [--uses CSV ...] [--json]`.

Holds every TF 1.15 name of the committed data (tf1compat/surface/data/tf115.json)
against what `tf1compat run` serves and what `tf1compat migrate` makes of it,
prints a table per module, the shares, the headline number (census uses served
with TF 1.15's kind and signature under both) and the most used names not served.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from tf1compat.shared.errors import Tf1CompatError
from tf1compat.surface import reference, report, weights
from tf1compat.surface.probe import SIDES, run_probe


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"--sample {text!r}: expected a whole number of "
                                         "names, 1 or more")
    return value


def parser() -> argparse.ArgumentParser:
    result = argparse.ArgumentParser(prog="python -m tf1compat.surface",
                                     description=__doc__.split("\n\n")[1])
    result.add_argument("--sample", type=_positive, metavar="N",
                        help="probe N names chosen by their digest (the same on every "
                             "machine) instead of all")
    result.add_argument("--name", action="append", default=[], metavar="NAME",
                        help="probe this name too (repeatable; with --sample, beside it)")
    result.add_argument("--uses", action="append", metavar="CSV",
                        help="a census uses.csv weighting the headline (repeatable; default: "
                             f"{', '.join(weights.default_sources()) or 'none found'})")
    result.add_argument("--data", default=reference.DATA,
                        help="TF 1.15's side (default: the committed data)")
    result.add_argument("--json", action="store_true",
                        help="print everything as JSON, each name's verdicts included")
    return result


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        census = list(weights.merged(args.uses or weights.default_sources()).values())
        data = reference.load(args.data)
        start = time.monotonic()
        size = 0 if args.name and args.sample is None else args.sample
        found = run_probe(data, size, args.name)
    except (Tf1CompatError, OSError) as error:
        print(f"tf1compat.surface: {error}", file=sys.stderr)
        return 1
    absent = [name for name, entry in data.names.items() if entry["kind"] == "absent"]
    result = report.summary(found, census, absent)
    result["seconds"] = round(time.monotonic() - start, 1)
    if args.json:
        result["verdicts"] = {
            outcome.name: {side: [outcome.verdicts[side].status, outcome.verdicts[side].detail]
                           for side in SIDES} for outcome in found}
        json.dump(result, sys.stdout, indent=1, sort_keys=True)
        print()
    else:
        print(report.text(result))
        print(f"\n{len(found)} names probed in {result['seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
