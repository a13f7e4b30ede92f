"""The corpus table and its totals, from the committed results."""

from __future__ import annotations

from collections import Counter

from tf1compat.corpus.manifest import Corpus

MEASURED_MODES = ("run", "migrate", "tf2")


def cell(result: dict | None) -> str:
    if result is None:
        return "-"
    return "pass" if result["passed"] else result["failure"]


def rows(corpus: Corpus, results: dict) -> list[list[str]]:
    measured = results.get("programs", {})
    table = []
    for program in corpus.programs:
        entry = measured.get(program.name, {})
        table.append([program.name, program.repo, program.shape, cell(entry.get("tf115")),
                      *(cell(entry.get(mode)) for mode in MEASURED_MODES)])
    return table


def totals(corpus: Corpus, results: dict) -> dict[str, dict]:
    """Per mode: programs measured, passed, and the failures by class. Only programs that TF
    1.15 itself runs count: its own rate is the ceiling."""
    measured = results.get("programs", {})
    counted = [p for p in corpus.programs
               if measured.get(p.name, {}).get("tf115", {}).get("passed")]
    summary = {"tf115": {"programs": len(corpus.programs), "passed": len(counted)}}
    for mode in MEASURED_MODES:
        done = [measured[p.name][mode] for p in counted if mode in measured[p.name]]
        summary[mode] = {"programs": len(done), "passed": sum(r["passed"] for r in done),
                         "failures": dict(Counter(r["failure"] for r in done if not r["passed"])
                                          .most_common())}
    return summary


def totals_lines(corpus: Corpus, results: dict) -> list[str]:
    """The totals as printed under the table (README and docs/corpus.md show these lines)."""
    summary = totals(corpus, results)
    lines = [f"{len(corpus.programs)} programs from {len(corpus.repositories)} repositories; "
             f"TF 1.15 runs {summary['tf115']['passed']} of them"]
    for mode in MEASURED_MODES:
        s = summary[mode]
        share = f"{100 * s['passed'] / s['programs']:.0f}%" if s["programs"] else "n/a"
        classes = ", ".join(f"{k} {v}" for k, v in s["failures"].items())
        lines.append(f"  {mode:8} {s['passed']:3} of {s['programs']:3} pass ({share})"
                     + (f"; failing: {classes}" if classes else ""))
    return lines


def failures(corpus: Corpus, results: dict) -> str:
    """Every failing verdict, by mode and class, with its one-line reason."""
    measured = results.get("programs", {})
    lines = []
    for mode in MEASURED_MODES:
        failed = [(r["failure"], p.name, r["reason"]) for p in corpus.programs
                  if (r := measured.get(p.name, {}).get(mode)) and not r["passed"]
                  and measured[p.name].get("tf115", {}).get("passed")]
        lines.append(f"{mode}: {len(failed)} failing")
        lines += [f"  [{kind}] {name}: {reason}" for kind, name, reason in sorted(failed)]
    return "\n".join(lines)


def render(corpus: Corpus, results: dict) -> str:
    header = ["program", "repository", "shape", "tf115", *MEASURED_MODES]
    body = rows(corpus, results)
    widths = [max(len(str(r[i])) for r in [header, *body]) for i in range(len(header))]
    lines = ["  ".join(str(v).ljust(w) for v, w in zip(r, widths)).rstrip()
             for r in [header, *body]]
    lines.append("")
    lines += totals_lines(corpus, results)
    lines.append(f"(measured at {results.get('measured_at', 'never')[:12]})")
    return "\n".join(lines)
