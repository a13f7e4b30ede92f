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


def render(corpus: Corpus, results: dict) -> str:
    header = ["program", "repository", "shape", "tf115", *MEASURED_MODES]
    body = rows(corpus, results)
    widths = [max(len(str(r[i])) for r in [header, *body]) for i in range(len(header))]
    lines = ["  ".join(str(v).ljust(w) for v, w in zip(r, widths)).rstrip()
             for r in [header, *body]]
    summary = totals(corpus, results)
    lines.append("")
    lines.append(f"{len(corpus.programs)} programs from {len(corpus.repositories)} repositories; "
                 f"TF 1.15 runs {summary['tf115']['passed']} of them "
                 f"(measured at {results.get('measured_at', 'never')[:12]})")
    for mode in MEASURED_MODES:
        s = summary[mode]
        share = f"{100 * s['passed'] / s['programs']:.0f}%" if s["programs"] else "n/a"
        classes = ", ".join(f"{k} {v}" for k, v in s["failures"].items())
        lines.append(f"  {mode:8} {s['passed']:3} of {s['programs']:3} pass ({share})"
                     + (f"; failing: {classes}" if classes else ""))
    return "\n".join(lines)
