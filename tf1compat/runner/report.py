"""The report of `tf1compat run`: built in the child as data, printed by the parent.

It says what a user needs before migrating: the sessions the script created
and the options each one got (and from where), the device requests that
were remapped, every TF1 symbol the script touched with how it was served
(native tf.compat.v1, mapped to a TF2 home, replaced by tf1compat, or
unsupported) and how often, and the TF1 APIs it used that have no TF2 path yet.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Mapping, Optional

from tf1compat.runner.api_notes import note_for
from tf1compat.runner.served import STATUSES, Served

LEGACY_KERAS_MISSING = ("missing: tf.layers / TF1 tf.keras / standalone Keras 2 need it "
                        "(pip install 'tf1compat[legacy]')")


def _short_where(where: str, script_dir: str) -> str:
    path, _, line = where.rpartition(":")
    if path.startswith(script_dir + os.sep):
        path = os.path.relpath(path, script_dir)
    return f"{path}:{line}" if path else where


def build(*, spec, exit_code: int, status: str, legacy_keras: Optional[str],
          sessions: list[dict[str, Any]], remaps: Mapping[tuple[str, str], int], usage,
          is_user_file: Callable[[str], bool]) -> dict[str, Any]:
    """The report as JSON-ready data."""
    script_dir = os.path.dirname(os.path.abspath(spec.script))
    for record in sessions:
        record["where"] = _short_where(record.get("where", "?"), script_dir)
    no_path = {}
    for name in usage.names():
        note = note_for(name)
        if note is not None:
            no_path[f"tf.{name}"] = note
    for name, symbol in sorted(usage.symbols.items()):
        if symbol.status is Served.REPLACED and name.startswith("contrib.") and \
                not symbol.target.startswith("tf1compat.tutorials.") and \
                not name.startswith("contrib.eager."):  # NumPy readers; eager code is TF2's
            no_path.setdefault(f"tf.{name}", "replaced by tf1compat (graph-mode code); "
                                             "no TF2 path yet")
    for name, why in usage.missing.items():
        no_path.setdefault(f"tf.{name}", why if why.startswith("tf.") else
                           f"not in TF 2.21: {why}")
    symbols = {f"tf.{name}": symbol.to_dict() for name, symbol in sorted(usage.symbols.items())}
    served = {status: sum(s["status"] == status for s in symbols.values()) for status in STATUSES}
    return {
        "script": spec.script,
        "args": spec.args,
        "exit_code": exit_code,
        "status": status,
        "legacy_keras": legacy_keras or LEGACY_KERAS_MISSING,
        "device_map": list(spec.device_map),
        "override": spec.override,
        "sessions": sessions,
        "device_remaps": [{"from": source, "to": target, "ops": count}
                          for (source, target), count in sorted(remaps.items())],
        "no_tf2_path": no_path,
        "tf_names_used": usage.names(),
        "symbols": symbols,
        "served": served,
    }


def format_report(report: Mapping[str, Any]) -> str:
    """A few lines for people, printed to stderr when the script ends."""
    name = os.path.basename(report["script"])
    lines = [f"tf1compat run: {name} {report['status']} (exit code {report['exit_code']})"]
    if report.get("cause"):
        lines.append(f"  cause: {report['cause']}")
    sessions = report["sessions"]
    lines.extend(_root_lines(report))
    lines.append(f"  sessions created: {len(sessions)}")
    for index, record in enumerate(sessions, 1):
        lines.append(f"    {index}. {record['kind']} at {record['where']}: "
                     f"{record['keywords'] or '(no options)'}")
        if record.get("keras"):
            lines.append(f"       Keras: {record['keras']}")
        sources = []
        if record.get("script"):
            sources.append("script: " + _kw(record["script"]))
        if record.get("command_line"):
            winner = "wins" if report["override"] else "fills what the script left unset"
            sources.append(f"command line ({winner}): " + _kw(record["command_line"]))
        sources += record.get("notes", [])
        if sources:
            lines.append("       " + "; ".join(sources))
    if report["device_map"]:
        remaps = report["device_remaps"]
        shown = ", ".join(f"{r['from']} -> {r['to']} ({r['ops']} ops)" for r in remaps)
        lines.append(f"  device remaps ({','.join(report['device_map'])}): {shown or 'none applied'}")
    lines.extend(_symbol_lines(report))
    keras = report.get("keras")
    if keras:
        lines.append(f"  Keras 2 names used: {len(keras['names_used'])} (Keras 2 on tf_keras)")
        for name, hint in keras["not_served"].items():
            lines.append(f"    not served: {name}: {hint}")
    no_path = report["no_tf2_path"]
    if no_path:
        lines.append("  TF1 APIs used with no TF2 path yet:")
        by_reason: dict[str, list[str]] = {}
        for api, reason in no_path.items():
            by_reason.setdefault(reason, []).append(api)
        for reason, apis in by_reason.items():
            lines.append(f"    {', '.join(apis)}: {reason}")
    else:
        lines.append("  TF1 APIs used with no TF2 path yet: none")
    lines.extend(_numpy_lines(report))
    if report["legacy_keras"] == LEGACY_KERAS_MISSING:
        lines.append(f"  legacy Keras (tf_keras): {LEGACY_KERAS_MISSING}")
    return "\n".join(lines)


def _symbol_lines(report: Mapping[str, Any]) -> list[str]:
    """'TF1 symbols: 30 (25 native, 2 mapped, 3 replaced, 0 unsupported)' and the non-native ones."""
    symbols = report.get("symbols", {})
    counts = ", ".join(f"{report['served'][status]} {status}" for status in STATUSES)
    lines = [f"  TF1 symbols used: {len(symbols)} ({counts})"]
    for status in STATUSES[1:]:
        names = [f"{name} -> {data['target']}" if data["target"] else name
                 for name, data in symbols.items() if data["status"] == status]
        if names:
            lines.append(f"    {status}: " + ", ".join(names))
    return lines


def _kw(options: Mapping[str, Any]) -> str:
    return ", ".join(f"{key}={value!r}" for key, value in options.items())


def _root_lines(report: Mapping[str, Any]) -> list[str]:
    """Where the user code was looked for (it gets TF1), and what was kept as libraries."""
    roots = report.get("roots")
    if not roots:
        return []
    lines = ["  user code (gets TF1): " + ", ".join(f"{r['path']} ({r['why']})"
                                                  for r in roots["user"])]
    excluded = [r["path"] for r in roots["library"] if r["why"] != "installed"]
    if excluded:
        lines.append("  libraries by --library-root (keep TF2): " + ", ".join(excluded))
    return lines


def _numpy_lines(report: Mapping[str, Any]) -> list[str]:
    """What the script took from NumPy 1 (--numpy 1): names, ragged arrays, printing."""
    served = report.get("numpy1")
    if not served:
        return []
    names = served["names"]
    shown = ", ".join(f"{name if name.startswith(('scipy.', 'PIL.')) else 'np.' + name} x{count}"
                      for name, count in names.items())
    lines = [f"  NumPy 1 for the script (--numpy 1, on NumPy {served['numpy']}): "
             f"{len(names)} removed names used{': ' + shown if shown else ''}"]
    script_dir = os.path.dirname(os.path.abspath(report["script"]))
    ragged = served["ragged"]
    if ragged:
        lines.append(f"    ragged arrays made object arrays: {sum(ragged.values())} at "
                     + ", ".join(_short_where(where, script_dir) for where in ragged))
    threads = "" if served.get("threads_print_alike") else "; the main thread only"
    lines.append(f"    scalars print as NumPy 1 printed them (np.set_printoptions(legacy="
                 f"{served['print_legacy']!r}), process-wide{threads})")
    if "size_one_scalars" in served:
        why_not = served["size_one_scalars"]
        lines.append("    size-1 arrays convert to Python scalars as in NumPy 1 (float(), int(), "
                     "'%f'), process-wide" if why_not is None else
                     f"    size-1 arrays convert as NumPy {served['numpy']} converts them ({why_not})")
    return lines
