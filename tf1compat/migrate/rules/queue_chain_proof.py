"""What the queue-chain rewrite may rely on in a script's source, proven or refused.

The analysis of a chain (`queue_chain_analysis`) reads each step through these
helpers: the `NAME = call(...)` line of a step, the uses of a name, a call's
arguments bound to TF1's parameters, and the value of an argument, proven when
it is a literal or a module-level name bound once to one. Anything else raises
`Refused`, with the node to report it at and the reason, so nothing is guessed.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

import libcst as cst
import libcst.matchers as m
from libcst.metadata import ParentNodeProvider, ScopeProvider
from libcst.metadata.scope_provider import Assignment, GlobalScope

# TF1 parameters in positional order (decode_csv: only the two whose order TF1 and TF2 share).
_PARAMETERS = {
    "producer": ("string_tensor", "num_epochs", "shuffle", "seed", "capacity", "shared_name",
                 "name", "cancel_op"),
    "reader": ("skip_header_lines", "name"),
    "read": ("queue", "name"),
    "decode": ("records", "record_defaults"),
    "batch": ("tensors", "batch_size", "num_threads", "capacity", "enqueue_many", "shapes",
              "dynamic_pad", "allow_smaller_final_batch", "shared_name", "name"),
    "start": ("sess", "coord", "daemon", "start", "collection"),
}
_INT32 = (-(2 ** 31), 2 ** 31)
UNPROVEN = object()


class Refused(Exception):
    """Why the chain is left as is: (node to report it at, reason) pairs."""

    def __init__(self, node: cst.CSTNode, reason: str):
        super().__init__(reason)
        self.problems = [(node, reason)]


class SourceProof:
    """Reads a module through a rule's metadata; refuses what it cannot prove."""

    def __init__(self, rule, module: cst.Module):
        self.rule = rule
        self.module = module
        self.names = rule.names
        # Module-level names bound once to a literal, by name: their `NAME = literal` lines.
        self.proven_names: dict[str, cst.SimpleStatementLine] = {}
        # The line the pipeline will be built at (where the producer was), once found.
        self.producer_statement: Optional[cst.SimpleStatementLine] = None

    # -- metadata ------------------------------------------------------------------
    def parent(self, node: cst.CSTNode) -> Optional[cst.CSTNode]:
        return self.rule.get_metadata(ParentNodeProvider, node, None)

    def scope(self, node: cst.CSTNode):
        return self.rule.get_metadata(ScopeProvider, node, None)

    def _code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node).strip()

    # -- statements and names --------------------------------------------------------
    def _statement(self, call: cst.Call, what: str):
        """The `TARGET = call` line of a step, and its target; refuses other shapes."""
        assign = self.parent(call)
        statement = self.parent(assign) if assign is not None else None
        if not (isinstance(assign, cst.Assign) and assign.value is call and
                len(assign.targets) == 1 and isinstance(statement, cst.SimpleStatementLine)
                and len(statement.body) == 1):
            raise Refused(call, f"{what}(...) is not assigned on a line of its own "
                          f"(`name = {what}(...)`)")
        target = assign.targets[0].target
        if what != "reader.read" and what not in ("decode_csv", "train.batch") and \
                not isinstance(target, cst.Name):
            raise Refused(call, f"{what}(...) is not assigned to a name")
        return statement, target

    def _uses_of(self, name: cst.Name) -> list:
        scope = self.scope(name)
        if scope is None:
            raise Refused(name, f"the scope of {name.value} is not known")
        return [access.node for assignment in scope.assignments[name.value]
                for access in assignment.references]

    def _only_uses(self, name: cst.Name, what: str, expected) -> list:
        """The uses of a name bound once; refuses other uses, or another binding."""
        scope = self.scope(name)
        assignments = list(scope.assignments[name.value]) if scope is not None else []
        if len(assignments) != 1:
            raise Refused(name, f"{what} ({name.value}) is bound more than once in its scope")
        uses = [access.node for access in assignments[0].references]
        if isinstance(expected, int):
            ok = len(uses) == expected
        else:
            ok = len(uses) == len(expected) and all(any(u is e for e in expected) for u in uses)
        if not ok:
            extra = [u for u in uses if isinstance(expected, int) or
                     not any(u is e for e in expected)] or uses
            line = self.rule.line(extra[0]) if extra else self.rule.line(name)
            raise Refused(extra[0] if extra else name,
                          f"{what} ({name.value}) is used elsewhere (line {line}), and the "
                          "pipeline does not give it")
        return uses

    # -- arguments -------------------------------------------------------------------
    def _bind(self, call: cst.Call, step: str, keywords: tuple = ()) -> dict:
        parameters = _PARAMETERS[step]
        bound: dict[str, cst.BaseExpression] = {}
        position = 0
        for arg in call.args:
            if arg.star:
                raise Refused(call, f"{self._callee(call)} gets unpacked arguments ({arg.star})")
            if arg.keyword is None:
                if position >= len(parameters):
                    raise Refused(call, f"{self._callee(call)} gets more positional arguments "
                                  "than the rewrite reads (give them as keywords)")
                bound[parameters[position]] = arg.value
                position += 1
            elif arg.keyword.value in parameters or arg.keyword.value in keywords:
                bound[arg.keyword.value] = arg.value
            else:
                raise Refused(call, f"{self._callee(call)} gets {arg.keyword.value}=, which the "
                              "rewrite does not map")
        return bound

    def _callee(self, call: cst.Call) -> str:
        name = self.names.v1_name(call.func)
        return f"tf.{name}" if name else self._code(call.func)

    def _required(self, args: dict, name: str, call: cst.Call) -> cst.BaseExpression:
        if name not in args:
            raise Refused(call, f"{self._callee(call)} has no {name}")
        return args[name]

    def _absent(self, args: dict, call: cst.Call, *names: str) -> None:
        for name in names:
            if name in args and literal(args[name]) is not None:
                raise Refused(call, f"{self._callee(call)}({name}=...) is not rewritten")

    def _prove(self, node: cst.BaseExpression, kinds, what: str) -> Any:
        """The value of a literal (or a module-level name bound once to one); refuses others."""
        value = literal(node)
        if value is UNPROVEN and isinstance(node, cst.Name):
            value = self._constant(node)
        if value is UNPROVEN:
            raise Refused(node, f"{what}={self._code(node)} is computed, and the rewrite can only "
                          "map a value it can prove (a literal, or a name bound once to one "
                          "at module level)")
        kinds = kinds if isinstance(kinds, tuple) else (kinds,)
        if isinstance(value, tuple) and list in kinds:
            value = list(value)
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            raise Refused(node, f"{what}={self._code(node)} is not a "
                          f"{' or '.join('None' if k is type(None) else k.__name__ for k in kinds)}")
        return value

    def _constant(self, name: cst.Name) -> Any:
        scope = self.scope(name)
        assignments = list(scope[name.value]) if scope is not None else []
        if len(assignments) != 1 or not isinstance(assignments[0], Assignment) or \
                not isinstance(assignments[0].scope, GlobalScope):
            return UNPROVEN
        target = assignments[0].node
        assign = self.parent(self.parent(target)) if isinstance(target, cst.Name) else None
        statement = self.parent(assign) if assign is not None else None
        if not (isinstance(assign, cst.Assign) and len(assign.targets) == 1 and
                assign.targets[0].target is target and isinstance(statement,
                                                                  cst.SimpleStatementLine)
                and isinstance(self.parent(statement), cst.Module)):
            return UNPROVEN
        value = literal(assign.value)
        if value is not UNPROVEN:
            self.proven_names[name.value] = statement
        return value

    def _value(self, node: cst.BaseExpression) -> str:
        """The code of a proven value for the call, built where the producer was.

        A name bound (once, to a literal) after that line is not bound yet there
        (`record_defaults = [[1], ...]` between the producer and decode_csv): its
        literal is written instead, the same value.
        """
        statement = self.proven_names.get(node.value) if isinstance(node, cst.Name) else None
        body = self.module.body
        if statement is not None and statement in body and self.producer_statement in body and \
                body.index(statement) > body.index(self.producer_statement):
            return self._code(statement.body[0].value)
        return self._code(node)

    def _not_a_tensor(self, files: cst.BaseExpression) -> None:
        """Refuses a file list that TensorFlow computes (a tensor, e.g. match_filenames_once)."""
        nodes = [files]
        for name in m.findall(files, m.Name()):
            scope = self.scope(name)
            for assignment in (scope[name.value] if scope is not None else ()):
                if isinstance(assignment, Assignment) and isinstance(assignment.node, cst.Name):
                    assign = self.parent(self.parent(assignment.node))
                    if isinstance(assign, (cst.Assign, cst.AnnAssign)) and assign.value:
                        nodes.append(assign.value)
        for node in nodes:
            for call in m.findall(node, m.Call()):
                name = self.names.v1_name(call.func)
                if name and not name.startswith(("gfile.", "io.gfile.")):
                    raise Refused(files, f"the file list comes from tf.{name} (a tensor): "
                                  "input_pipeline takes paths")

    def _record_defaults(self, node: cst.BaseExpression) -> None:
        value = self._prove(node, list, "record_defaults")
        for entry in value:
            entry = list(entry) if isinstance(entry, (list, tuple)) else [entry]
            ok = len(entry) == 1 and not isinstance(entry[0], bool) and (
                isinstance(entry[0], (float, str)) or
                (isinstance(entry[0], int) and _INT32[0] <= entry[0] < _INT32[1]))
            if not ok:
                raise Refused(node, "record_defaults are not one literal default per column "
                              "([0], [0.0], [\"\"]); a required column (an empty tensor) or an "
                              "int64 default is not rewritten")


def literal(node: cst.BaseExpression) -> Any:
    """The Python value of a literal expression, or UNPROVEN."""
    if isinstance(node, cst.Name):
        return {"True": True, "False": False, "None": None}.get(node.value, UNPROVEN)
    if isinstance(node, (cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString)):
        try:
            return ast.literal_eval(cst.Module([]).code_for_node(node))
        except (ValueError, SyntaxError):
            return UNPROVEN
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
        value = literal(node.expression)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return -value if isinstance(node.operator, cst.Minus) else value
        return UNPROVEN
    if isinstance(node, (cst.List, cst.Tuple)):
        values = []
        for element in node.elements:
            if not isinstance(element, cst.Element):
                return UNPROVEN
            value = literal(element.value)
            if value is UNPROVEN:
                return UNPROVEN
            values.append(value)
        return values if isinstance(node, cst.List) else tuple(values)
    return UNPROVEN


def contains(outer: cst.CSTNode, inner: cst.CSTNode) -> bool:
    return any(node is inner for node in m.findall(outer, m.Name()))
