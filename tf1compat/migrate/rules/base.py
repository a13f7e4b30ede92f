"""What every migrate rule shares: findings with lines, and TensorFlow's name in the file.

A rule is a LibCST `VisitorBasedCodemodCommand` (one per module, tested as
before/after strings). It reads names through `TfNames`, so `tf.Session`,
`tf.compat.v1.Session` and `tensorflow.compat.v1.Session` (under any alias)
are the same name to it: 'Session'.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst
from libcst.codemod import CodemodContext, VisitorBasedCodemodCommand
from libcst.helpers import get_full_name_for_node
from libcst.metadata import PositionProvider

from tf1compat.migrate.findings import Finding, Kind

TARGETS = ("tf1compat", "modern")
# The Rule classes whose instances were found to use no LibCST matcher decorators.
_WITHOUT_MATCHERS: set[type] = set()


def tensorflow_alias(module: cst.Module) -> Optional[str]:
    """The name `import tensorflow [as X]` binds at the top level, or None."""
    for statement in module.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if isinstance(small, cst.Import):
                for alias in small.names:
                    if get_full_name_for_node(alias.name) == "tensorflow":
                        return alias.asname.name.value if alias.asname else "tensorflow"
    return None


# `name=value`, as a keyword argument is written: no spaces around `=`
TIGHT_EQUAL = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""),
                              whitespace_after=cst.SimpleWhitespace(""))


def keyword_arg(name: str, value: cst.BaseExpression) -> cst.Arg:
    """The argument `name=value`."""
    return cst.Arg(value=value, keyword=cst.Name(name), equal=TIGHT_EQUAL)


class TfNames:
    """Turns dotted names of the file into TF1 API names ('compat.v1.' and the alias dropped)."""

    def __init__(self, alias: Optional[str]):
        self.alias = alias

    def v1_name(self, node: cst.CSTNode) -> Optional[str]:
        """'tf.compat.v1.train.batch' or 'tf.train.batch' -> 'train.batch'; None if not TF."""
        if self.alias is None:
            return None
        name = get_full_name_for_node(node) if isinstance(
            node, (cst.Name, cst.Attribute, cst.Call)) else None
        if not name or not name.startswith(self.alias + "."):
            return None
        rest = name[len(self.alias) + 1:]
        for prefix in ("compat.v1.",):
            if rest.startswith(prefix):
                rest = rest[len(prefix):]
        return rest

    def is_compat_v1(self, node: cst.CSTNode) -> bool:
        """Whether `node` already spells its TF1 name under tf.compat.v1 (`tf.compat.v1.cond`),
        which tf_upgrade_v2 leaves as it is."""
        path = self.v1_name(node)
        return path is not None and get_full_name_for_node(node) == self.code(path)

    def code(self, v1_name: str) -> str:
        """Source text for a TF1 name: 'Session' -> 'tf.compat.v1.Session'."""
        return f"{self.alias}.compat.v1.{v1_name}"


class Rule(VisitorBasedCodemodCommand):
    """Base of the rules: `findings`, `target`, and `names` for the current file."""

    NAME = "rule"
    METADATA_DEPENDENCIES = (PositionProvider,)
    # Text one of which the code must contain for the rule to have anything to do (empty:
    # always run). A pass costs a full traversal plus positions, so the driver skips it.
    TRIGGERS: tuple[str, ...] = ()

    @classmethod
    def applies_to(cls, code: str) -> bool:
        return not cls.TRIGGERS or any(trigger in code for trigger in cls.TRIGGERS)

    # The rules use plain visit_*/leave_* methods, never LibCST's matcher decorators; the
    # codemod base's bookkeeping for those runs at every node and every attribute of every
    # node, about a third of a migrate, so a node goes straight to its methods.
    on_visit = cst.CSTTransformer.on_visit
    on_leave = cst.CSTTransformer.on_leave
    on_visit_attribute = cst.CSTTransformer.on_visit_attribute
    on_leave_attribute = cst.CSTTransformer.on_leave_attribute

    def __init__(self, context: CodemodContext, target: str = "tf1compat"):
        super().__init__(context)
        if type(self) not in _WITHOUT_MATCHERS:  # once a class: gathering them scans dir()
            if self._extra_visit_funcs or self._extra_leave_funcs or self._matchers:
                raise TypeError(f"{type(self).__name__} uses LibCST matcher decorators, which "
                                "Rule's visiting skips; use visit_*/leave_* methods")
            _WITHOUT_MATCHERS.add(type(self))
        if target not in TARGETS:
            raise ValueError(f"target must be one of {TARGETS}; received target={target!r}")
        self.target = target
        self.findings: list[Finding] = []
        self.names = TfNames(None)

    def visit_Module(self, node: cst.Module) -> None:
        self.names = TfNames(tensorflow_alias(node))

    def line(self, node: cst.CSTNode) -> int:
        try:
            return self.get_metadata(PositionProvider, node).start.line
        except KeyError:
            return 0

    def add(self, node_or_line, kind: Kind, message: str) -> None:
        line = node_or_line if isinstance(node_or_line, int) else self.line(node_or_line)
        self.findings.append(Finding(line, kind, self.NAME, message))


def without_statements(original_body, updated_body, remove: set) -> list:
    """The updated statements whose original is not in `remove` (by identity).

    The comments above a removed statement move to the next one kept, so
    nothing a person wrote is lost.
    """
    kept = []
    carried: list = []
    for original, statement in zip(original_body, updated_body):
        if any(original is gone for gone in remove):
            carried.extend(getattr(statement, "leading_lines", ()))
            continue
        if carried and hasattr(statement, "leading_lines"):
            statement = statement.with_changes(
                leading_lines=[*carried, *statement.leading_lines])
            carried = []
        kept.append(statement)
    return kept
