"""`migrate`'s driver: our rules for what TF 2.21 dropped, tf_upgrade_v2, then the rest of ours.

`tf.contrib` and `tensorflow.examples` go first (PRE_RULES): tf_upgrade_v2
would otherwise turn some contrib calls into Keras 3 ones; they keep every
line in place, and the imports they need are added with the later rules.

A file that does not parse is reported and the batch goes on; nothing is
written unless asked, and then atomically (a temporary file in the same
folder, renamed over the original), so a crash never leaves half a file.
"""

from __future__ import annotations

import ast
import dataclasses
import os
import re
from typing import Iterable, Optional

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor, ImportItem

from tf1compat.shared.errors import Tf1CompatError
from tf1compat.migrate import notebook
from tf1compat.migrate.findings import FileResult, Finding, Kind
from tf1compat.migrate.rules.api_notes import ApiNotesRule
from tf1compat.migrate.rules.contrib import NEEDED_IMPORTS, ContribRule
from tf1compat.migrate.rules.estimator import EstimatorRule
from tf1compat.migrate.rules.gone_names import GoneNamesRule
from tf1compat.migrate.rules.graph_mode import GraphModeRule
from tf1compat.migrate.rules.keras2 import Keras2Rule
from tf1compat.migrate.rules.legacy_layers import LegacyLayersRule
from tf1compat.migrate.rules.namespace_imports import NamespaceImportsRule
from tf1compat.migrate.rules.numpy1 import NumPy1Rule
from tf1compat.migrate.rules.numpy1_printing import NumPy1PrintingRule
from tf1compat.migrate.rules.numpy1_scalars import NumPy1ScalarsRule
from tf1compat.migrate.rules.private_imports import PrivateImportsRule
from tf1compat.migrate.rules.private_paths import PrivatePathsRule
from tf1compat.migrate.rules.queue_chain import QueueChainRule
from tf1compat.migrate.rules.contrib_spellings import ContribSpellingsRule
from tf1compat.migrate.rules.pillow import PillowRule
from tf1compat.migrate.rules.scipy_misc import ScipyMiscRule
from tf1compat.migrate.rules.test_main import TestMainRule
from tf1compat.migrate.rules.tf1_libraries import Tf1LibrariesRule
from tf1compat.migrate.rules.session_options import SessionOptionsRule
from tf1compat.migrate.rules.tf0_names import Tf0NamesRule
from tf1compat.migrate.rules.tf115_positions import Tf115PositionsRule
from tf1compat.migrate.rules.tf_keras import TfKerasRule
from tf1compat.migrate.rules.v1_fallback import V1FallbackRule
from tf1compat.migrate.rules.v1_differences import V1DifferencesRule
from tf1compat.migrate.rules.tutorials import TutorialsRule
from tf1compat.migrate.rules.v1_namesakes import V1NamesakesRule
from tf1compat.migrate.upgrade_v2 import upgrade

# Before tf_upgrade_v2, on the script as written (lines kept in place); imports of TF1's API
# namespaces first become the `tf.X` names every later rule reads; TF 0.x names
# first become the 1.x names tf_upgrade_v2 knows; TF1's tf.keras becomes tf_keras's TF1 API
# before tf_upgrade_v2 renames its names for Keras 3.
PRE_RULES = (NamespaceImportsRule, Tf0NamesRule, Tf115PositionsRule, V1DifferencesRule, V1FallbackRule,
             GoneNamesRule, ContribRule, TutorialsRule, TfKerasRule)
# After it. Order matters: the session rule adds imports that graph mode must follow; names
# from TensorFlow's own modules become public ones first (the later rules read those), and
# the imports that left unused go last (the other rules' lines are the script's).
RULES = (PrivatePathsRule, ContribSpellingsRule, Keras2Rule, SessionOptionsRule, EstimatorRule, LegacyLayersRule,
         V1NamesakesRule, NumPy1ScalarsRule, QueueChainRule, ApiNotesRule, TestMainRule, GraphModeRule, NumPy1PrintingRule,
         NumPy1Rule, ScipyMiscRule, PillowRule, Tf1LibrariesRule, PrivateImportsRule)
# The rules of the libraries beside TensorFlow, for `--to tf2` output too.
LIBRARY_RULES = (NumPy1Rule, ScipyMiscRule, PillowRule, Tf1LibrariesRule)
_SKIPPED_DIRS = {"__pycache__", ".ipynb_checkpoints", "site-packages", "node_modules"}


def _run(code: str, target: str, rules, imports=()) -> tuple[str, list[Finding], list[str]]:
    """Runs `rules` over source text; returns it, the findings and the imports still needed."""
    tree = cst.parse_module(code)
    if imports:  # once, before the rules (which then see them), not after every rule
        tree = AddImportsVisitor(CodemodContext(), [ImportItem(module) for module in imports]
                                 ).transform_module(tree)
    context = CodemodContext()
    findings: list[Finding] = []
    text: Optional[str] = None if imports else code  # the tree's text, written when asked
    for rule_class in rules:
        if text is None:
            text = tree.code
        if not rule_class.applies_to(text):
            continue
        rule = rule_class(context, target=target)
        tree = rule.transform_module(tree)
        text = None  # writing the text again costs a fifth of a migrate: only after a change
        findings.extend(rule.findings)
    return tree.code if text is None else text, findings, \
        list(context.scratch.get(NEEDED_IMPORTS, []))


def rewrite_names(code: str, target: str) -> tuple[str, list[Finding]]:
    """Runs the rules that rewrite names before tf_upgrade_v2 (contrib, TF 0.x, namespaces,
    gone names) over source text."""
    migrated, findings, _ = _run(code, target, PRE_RULES)
    return migrated, findings


def apply_rules(code: str, target: str) -> tuple[str, list[Finding]]:
    """Runs all our rules (not tf_upgrade_v2) over source text."""
    pre, findings, imports = _run(code, target, PRE_RULES)
    migrated, ours, _ = _run(pre, target, RULES, imports)
    return migrated, findings + ours


def migrate_source(code: str, filename: str, target: str) -> tuple[str, list[Finding]]:
    """Our contrib/examples rules, tf_upgrade_v2, then the rest of ours.

    Raises SyntaxError for code that does not parse.
    """
    ast.parse(code, filename)
    pre, first, imports = _run(code, target, PRE_RULES)
    upgraded, findings = upgrade(pre, filename)
    migrated, ours, _ = _run(upgraded, target, RULES, imports)
    return migrated, first + findings + ours


def migrate_source_tf2(code: str, filename: str, fallback_target: str = "tf1compat"
                       ) -> tuple[str, list[Finding], bool]:
    """(text, findings, fully converted) of `--to tf2`: the TF2 rewrite, or where it cannot,
    the `fallback_target` output with a finding naming what stayed. Raises SyntaxError."""
    from tf1compat.migrate.tf2.pipeline import not_converted, to_tf2
    from tf1compat.migrate.tf2.translate import Unconvertible

    ast.parse(code, filename)
    try:
        text, findings = to_tf2(code)
        # NumPy 1's names and scipy.misc's helpers are the program's, whatever its TF is
        text, library_findings, _ = _run(text, "modern", LIBRARY_RULES)
        return text, findings + library_findings, True
    except Unconvertible as error:
        text, findings = migrate_source(code, filename, fallback_target)
        return text, [*findings, not_converted(error, fallback_target)], False


def _syntax_error(error: SyntaxError) -> Finding:
    return Finding(error.lineno or 0, Kind.ERROR, "parse",
                   f"syntax error: {error.msg}; the file was left as is")


def migrate_file(path: str, target: str = "tf1compat", to: str = "tf1compat") -> FileResult:
    """Reads and migrates one .py or .ipynb file (does not write); `to="tf2"` tries the TF2
    rewrite (tf1compat.migrate.tf2) first, `target`'s output where it cannot."""
    try:
        with open(path, encoding="utf-8") as handle:
            original = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        result = FileResult(path, "", None)
        result.findings.append(Finding(0, Kind.ERROR, "read", f"cannot read it: {error}"))
        return result
    result = FileResult(path, original, None)
    try:
        if path.endswith(".ipynb"):
            result.migrated = _migrate_notebook(original, path, target, result)
        elif to == "tf2":
            result.migrated, result.findings, _ = migrate_source_tf2(original, path, target)
        else:
            result.migrated, result.findings = migrate_source(original, path, target)
    except SyntaxError as error:
        result.findings.append(_syntax_error(error))
        result.migrated = None
    except ValueError as error:  # a notebook that is not JSON
        result.findings.append(Finding(0, Kind.ERROR, "parse", f"not a notebook: {error}"))
        result.migrated = None
    return result


def _migrate_notebook(text: str, path: str, target: str, result: FileResult) -> str:
    def migrate_program(program: str) -> str:
        migrated, findings = migrate_source(program, path, target)
        result.findings.extend(_in_cells(program, findings))
        return migrated

    return notebook.migrate_notebook(text, migrate_program)


def _in_cells(program: str, findings: list[Finding]) -> list[Finding]:
    """Program lines -> 'cell N' plus the line inside that cell."""
    starts = [number for number, line in enumerate(program.split("\n"), 1)
              if re.match(r"^# tf1compat-migrate-cell: \d+$", line)]

    def place(line: int) -> tuple[int, int]:
        cell = max((i for i, start in enumerate(starts) if start <= line), default=0)
        return cell, (line - starts[cell] if starts and line > starts[cell] else 1)

    def in_message(match: re.Match) -> str:
        cell, line = place(int(match.group(1)))
        return f"line {line} of code cell {cell + 1}"

    placed = []
    for finding in findings:
        cell, line = place(finding.line)
        message = re.sub(r"\bline (\d+)\b", in_message, finding.message)
        placed.append(dataclasses.replace(finding, line=line,
                                          message=f"code cell {cell + 1}: {message}"))
    return placed


def collect_paths(paths: Iterable[str]) -> list[str]:
    """The .py and .ipynb files named or found under the folders named.

    Raises:
      Tf1CompatError: a path does not exist, or a folder holds no such file.
    """
    files: list[str] = []
    for path in paths:
        if os.path.isfile(path):
            files.append(path)
        elif os.path.isdir(path):
            found = []
            for root, dirs, names in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIPPED_DIRS
                                 and not os.path.exists(os.path.join(root, d, "pyvenv.cfg")))
                found += [os.path.join(root, name) for name in sorted(names)
                          if name.endswith((".py", ".ipynb"))]
            if not found:
                raise Tf1CompatError(f"{path!r} holds no Python files (.py) or notebooks "
                                     "(.ipynb)")
            files += found
        else:
            raise Tf1CompatError(f"path {path!r} does not exist")
    return list(dict.fromkeys(files))
