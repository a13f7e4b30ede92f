"""The names after `tf1compat migrate`: `python -m tf1compat.surface.serve_migrate IN OUT`.

IN is a JSON list of names; OUT gets {name: entry}. One script spells every name
as scripts do (`value_7 = tf.train.Saver`, `from tensorflow.contrib import slim as
value_8`); `migrate_source` rewrites it as `tf1compat migrate` would; the migrated
statements then run under plain Python on TF 2.21 (this process: no legacy Keras
unless the environment chose it, no import hook), the added imports first, then
each name's own statements on their own, so one failure stops only its name.
An entry also keeps the migrated statement and any finding migrate made on its line.
"""

from __future__ import annotations

import ast
import re
import sys
from typing import Any, Optional

_VARIABLE = re.compile(r"^value_(\d+)$")
SCRIPT_NAME = "surface_probe.py"


def script(names: list[str]) -> tuple[str, dict[int, int]]:
    """The script spelling every name, and each script line's name index."""
    from tf1compat.surface import spelling

    lines = [spelling.TF_HEADER]
    line_names: dict[int, int] = {}
    for index, name in enumerate(names):
        for statement in spelling.statements(name, f"value_{index}"):
            lines.append(statement)
            line_names[len(lines)] = index
    return "\n".join(lines) + "\n", line_names


def _bound_index(statement: ast.stmt) -> int | None:
    """The name index of the `value_N` a top-level statement binds, if it binds one."""
    if isinstance(statement, ast.Assign):
        targets = [target.id for target in statement.targets if isinstance(target, ast.Name)]
    elif isinstance(statement, (ast.Import, ast.ImportFrom)):
        targets = [alias.asname or alias.name for alias in statement.names]
    else:
        return None
    for target in targets:
        match = _VARIABLE.match(target)
        if match:
            return int(match.group(1))
    return None


def _execute(statements: list[ast.stmt], namespace: dict[str, Any]) -> None:
    code = compile(ast.Module(body=statements, type_ignores=[]), SCRIPT_NAME, "exec")
    exec(code, namespace)  # noqa: S102 - the migrated probe script


def serve(names: list[str], tf115: Optional[dict[str, dict]] = None) -> dict[str, dict]:
    """Each name's entry after migrate; with TF 1.15's entries, the functions and classes
    whose signatures differ by name get "calls" too (`calls`)."""
    from tf1compat.migrate.driver import migrate_source
    from tf1compat.surface import reading

    source, line_names = script(names)
    migrated, findings = migrate_source(source, SCRIPT_NAME, "tf1compat")
    notes: dict[int, list[str]] = {}
    for finding in findings:  # tf_upgrade_v2's renames are what the migrated line shows
        if finding.line in line_names and finding.kind.value != "renamed":
            notes.setdefault(line_names[finding.line], []).append(
                f"{finding.kind.value}: {finding.message}"[:300])
    tree = ast.parse(migrated)
    groups: dict[int, list[ast.stmt]] = {}
    namespace: dict[str, Any] = {"__name__": "__main__", "__file__": SCRIPT_NAME}
    header_errors = []
    for statement in tree.body:
        index = _bound_index(statement)
        if index is not None:
            groups.setdefault(index, []).append(statement)
            continue
        try:  # the imports and set-up migrate added, in order
            _execute([statement], namespace)
        except (Exception, SystemExit) as error:  # noqa: BLE001 - recorded with each name
            header_errors.append(f"{ast.unparse(statement)[:100]}: {reading.absent(error)}")
    entries: dict[str, dict] = {}
    for index, name in enumerate(names):
        statements = groups.get(index)
        if statements is None:
            entry = {"kind": "absent", "error": "migrate left no statement binding it"}
        else:
            try:
                _execute(statements, namespace)
                entry = reading.describe(namespace.pop(f"value_{index}"))
            except (Exception, SystemExit) as error:  # noqa: BLE001 - any failure: not served
                entry = reading.absent(error)
            entry["migrated"] = "; ".join(ast.unparse(s) for s in statements)[:300]
        if index in notes:
            entry["findings"] = notes[index]
        if header_errors and entry["kind"] == "absent":
            entry["setup_errors"] = header_errors
        entries[name] = entry
    if tf115 is not None:
        _add_calls(entries, tf115, namespace)
    return entries


def _needs_calls(name: str, tf115: dict, entry: dict) -> bool:
    from tf1compat.surface import calls, compare

    if not (calls.callable_name(name) and tf115.get("parameters")):
        return False
    return compare.compare(tf115, entry).status == compare.SIGNATURE


def _refused(tf115: dict) -> set[int]:
    """The numbers of the forms TF 1.15 itself refuses (the dump's "refused_forms"): no TF1
    script calls it so, so migrate is not held to them."""
    return {int(number) for number in tf115.get("refused_forms", {})}


def _add_calls(entries: dict[str, dict], tf115: dict[str, dict],
               namespace: dict[str, Any]) -> None:
    """Writes, migrates and binds the TF1 calls of each name whose signature differs by
    name; its entry gets {"forms": N, "problems": [...]}."""
    from tf1compat.migrate.driver import migrate_source
    from tf1compat.surface import calls, spelling

    chosen = [name for name in sorted(entries) if _needs_calls(name, tf115[name], entries[name])]
    if not chosen:
        return
    lines = [spelling.TF_HEADER]
    for index, name in enumerate(chosen):
        lines.extend(calls.statements(index, name, tf115[name]["parameters"],
                                      _refused(tf115[name])))
    migrated, _ = migrate_source("\n".join(lines) + "\n", SCRIPT_NAME, "tf1compat")
    results = {name: {"forms": 0, "problems": []} for name in chosen}
    namespace = dict(namespace)
    for statement in ast.parse(migrated).body:
        found = calls.bound_call(statement)
        if found is None:  # an import or set-up migrate added: the calls' names need it
            try:
                _execute([statement], namespace)
            except (Exception, SystemExit):  # noqa: BLE001 - a call it breaks says why
                pass
            continue
        index, form, call = found
        name = chosen[index]
        parameters = tf115[name]["parameters"]
        passed = calls.passed_in(calls.forms(parameters)[form])
        results[name]["forms"] += 1
        problem = calls.problem(call, passed, parameters, namespace)
        if problem is not None:
            results[name]["problems"].append(problem)
    for name, result in results.items():
        expected = len(calls.written(name, tf115[name]["parameters"], _refused(tf115[name])))
        if result["forms"] < expected:
            result["problems"].append(f"migrate left {result['forms']} of {expected} calls")
        entries[name]["calls"] = result


if __name__ == "__main__":
    from tf1compat.surface.side_process import main

    sys.exit(main("serve_migrate", serve, sys.argv[1:]))
