"""python -m tf1compat.corpus [table | fetch | record | measure | try]: the real-program corpus.

  table (default)   the committed results: one row per program, then the totals
  fetch --mirrors D the programs' files from bare mirrors D/OWNER+NAME/repo, checked by blob id
  record [NAME...]  run under TensorFlow 1.15 and write data/tf115/NAME.json
  measure [NAME...] run under run, migrate and --to tf2, judged against the TF 1.15 records;
                    --write stores the verdicts in data/results.json
  try NAME --mode M one run, its output printed (--keep DIR keeps its folder)
  failures          every failing verdict of the committed results, by mode and class
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tf1compat.corpus import judge, manifest, records, runs, sources, table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tf1compat.corpus",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("verb", nargs="?", default="table",
                        choices=("table", "fetch", "record", "measure", "try", "failures"))
    parser.add_argument("names", nargs="*", help="programs (default: all)")
    parser.add_argument("--mirrors", type=Path, help="fetch: the folder of bare mirrors")
    parser.add_argument("--modes", default="run,migrate,tf2",
                        help="measure: comma-separated among run, migrate, tf2")
    parser.add_argument("--mode", default="run", choices=runs.MODES, help="try: the mode")
    parser.add_argument("--keep", type=Path, help="try: keep the run's folder here")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="programs run at once")
    parser.add_argument("--write", action="store_true", help="measure: update results.json")
    args = parser.parse_args(argv)
    try:
        corpus = manifest.load()
        chosen = corpus.named(args.names)
        return VERBS[args.verb](corpus, chosen, args)
    except (manifest.ManifestError, sources.SourceError, ValueError) as error:
        print(f"tf1compat.corpus: {error}", file=sys.stderr)
        return 2


def show_table(corpus, chosen, args) -> int:
    print(table.render(corpus, records.read_results() or {}))
    return 0


def fetch(corpus, chosen, args) -> int:
    if args.mirrors is None:
        raise ValueError("fetch needs --mirrors DIR (bare mirrors as DIR/OWNER+NAME/repo)")
    failed = 0
    for program in chosen:
        try:
            got = sources.fetch(program, args.mirrors)
            print(f"{program.name}: {len(got)} fetched, {len(program.files) - len(got)} cached")
        except sources.SourceError as error:
            failed += 1
            print(f"{program.name}: {error}", file=sys.stderr)
    return 1 if failed else 0


def record(corpus, chosen, args) -> int:
    def one(program):
        outcome = runs.run(program, "tf115")
        verdict = judge.judge(program, outcome, None)
        records.write_reference(program, outcome)
        return program, outcome, verdict
    bad = 0
    for program, outcome, verdict in _each(chosen, one, args.jobs):
        bad += not verdict.passed
        print(f"{program.name}: tf115 {'pass' if verdict.passed else verdict.failure} "
              f"({outcome.seconds:.0f} s) {verdict.reason}", flush=True)
    return 1 if bad else 0


def measure(corpus, chosen, args) -> int:
    modes = [m for m in args.modes.split(",") if m]
    for mode in modes:
        if mode not in table.MEASURED_MODES:
            raise ValueError(f"--modes: {mode!r}; accepted: {', '.join(table.MEASURED_MODES)}")
    results = records.read_results() or {"programs": {}}
    code = records.code_digest()

    def one(item):
        program, mode = item
        reference = records.reference_outcome(program)
        try:
            outcome = runs.run(program, mode)
        except sources.SourceError as error:  # not fetched here: no verdict, said why
            return program, mode, None, judge.Verdict(False, "not fetched", str(error))
        return program, mode, outcome, judge.judge(program, outcome, reference)

    work = [(p, m) for p in chosen for m in modes]
    for program, mode, outcome, verdict in _each(work, one, args.jobs):
        if outcome is None:
            print(f"{program.name}: {mode} skipped: {verdict.reason}", flush=True)
            continue
        entry = results["programs"].setdefault(program.name, {})
        reference = records.read_reference(program)
        entry["tf115"] = {"passed": bool(reference) and reference["returncode"] == 0,
                          "failure": "" if reference and reference["returncode"] == 0
                          else "no record" if not reference else "exit",
                          "reason": ""}
        entry[mode] = {**verdict.to_dict(), "seconds": round(outcome.seconds, 1),
                       "code_digest": code}
        print(f"{program.name}: {mode} {'pass' if verdict.passed else verdict.failure} "
              f"({outcome.seconds:.0f} s) {verdict.reason}", flush=True)
    results["measured_at"] = records.head_commit()
    if args.write:
        records.write_results(results)
    print(table.render(corpus, results))
    return 0


def try_one(corpus, chosen, args) -> int:
    if len(chosen) != 1:
        raise ValueError("try takes one program name")
    program = chosen[0]
    outcome = runs.run(program, args.mode, keep=args.keep)
    reference = records.reference_outcome(program)
    verdict = judge.judge(program, outcome, reference)
    print(outcome.stdout)
    print(outcome.stderr, file=sys.stderr)
    print(f"== {program.name} {args.mode}: exit {outcome.returncode}, {outcome.seconds:.1f} s, "
          f"{'pass' if verdict.passed else verdict.failure}: {verdict.reason}")
    return 0 if verdict.passed else 1


def _each(items, work, jobs):
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        yield from pool.map(work, items)


def show_failures(corpus, chosen, args) -> int:
    print(table.failures(corpus, records.read_results() or {}))
    return 0


VERBS = {"failures": show_failures, "table": show_table, "fetch": fetch, "record": record, "measure": measure,
         "try": try_one}

if __name__ == "__main__":
    sys.exit(main())
